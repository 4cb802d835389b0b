// Whether two objects' files are applied as one.

/**
 * The same file (a Kustomize build or a Helm release is one rendered file), or two files of one folder
 * (`kubectl apply -f <folder>`). Files of sibling folders are often independent examples or environments that are
 * never applied together.
 */
export function sameApplyUnit(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.includes('#') || b.includes('#')) return false;
  return a.slice(0, a.lastIndexOf('/')) === b.slice(0, b.lastIndexOf('/'));
}
