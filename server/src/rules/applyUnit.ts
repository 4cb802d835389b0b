// Whether two objects' files are applied as one.

/**
 * The same file (a Kustomize build or a Helm release is one rendered file), or two files of one folder
 * (`kubectl apply -f <folder>`). Files of sibling folders are often independent examples or environments that are
 * never applied together.
 */
export function sameApplyUnit(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.includes('#') || b.includes('#')) return false;
  return folderOf(a) === folderOf(b);
}

/** The folder of a file's URI; '' for a file given without one (`check .` names the files of its root relatively). */
function folderOf(uri: string): string {
  const slash = uri.lastIndexOf('/');
  return slash < 0 ? '' : uri.slice(0, slash);
}
