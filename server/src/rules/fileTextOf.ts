// The text of a workspace file, which fixes need to compute offsets and indentation.

import type { Cluster } from '../model/cluster';
import type { ManifestFile } from '../model/parseManifest';

/** A binary search: the cluster's files are in URI order (an edit costs no pass over every file). */
export function fileTextOf(cluster: Cluster, uri: string): string | undefined {
  return fileNamed(cluster.files, uri)?.text;
}

function fileNamed(files: readonly ManifestFile[], uri: string): ManifestFile | undefined {
  let lo = 0;
  let hi = files.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const u = files[mid].uri;
    if (u === uri) return files[mid];
    if (u < uri) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}
