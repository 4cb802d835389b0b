// A value worked out from every file of a cluster's file list (which charts lack their renders, the custom resources
// that supply pods), memoized by the list. An edit makes a new list that differs from the last one in a file or two:
// when none of the files that differ counts for the value (neither the old nor the new one), the last value is the
// new list's too, found with a comparison of references instead of a pass that reads every file. With 18,000 files
// a pass is a few milliseconds, and an edit asked for several.

import type { ManifestFile } from './parseManifest';

export interface FileFold<T> {
  (files: readonly ManifestFile[]): T;
}

/**
 * `compute` over a file list, memoized by the list, and carried over from the last list computed when the two lists
 * hold the same URIs in the same order and every file that differs is one `counts` says nothing of (for the old and
 * the new file alike). `counts` must be true of every file that can change the value.
 */
export function fileFold<T>(counts: (file: ManifestFile) => boolean, compute: (files: readonly ManifestFile[]) => T): FileFold<T> {
  const memo = new WeakMap<readonly ManifestFile[], T>();
  // The last list computed (or carried over to) and its value: the one an edit's list is compared with.
  let last: { readonly files: readonly ManifestFile[]; readonly value: T } | undefined;
  return (files) => {
    if (memo.has(files)) return memo.get(files)!;
    const value = last && carriesOver(last.files, files, counts) ? last.value : compute(files);
    memo.set(files, value);
    last = { files, value };
    return value;
  };
}

/**
 * More files than this that differ (a change of settings, the first lists of a cold index) are worked out afresh:
 * asking each of them whether it counts would cost more than the pass.
 */
const maxDiffering = 32;

function carriesOver(before: readonly ManifestFile[], now: readonly ManifestFile[], counts: (file: ManifestFile) => boolean): boolean {
  if (before.length !== now.length) return false;
  let differing = 0;
  for (let i = 0; i < now.length; i++) {
    const a = before[i];
    const b = now[i];
    if (a === b) continue;
    if (++differing > maxDiffering || a.uri !== b.uri || counts(a) || counts(b)) return false;
  }
  return true;
}
