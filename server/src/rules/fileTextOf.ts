// The text of a workspace file, which fixes need to compute offsets and indentation.

import { fileNamed, type Cluster } from '../model/cluster';

/** A binary search: the cluster's files are in URI order (an edit costs no pass over every file). */
export function fileTextOf(cluster: Cluster, uri: string): string | undefined {
  return fileNamed(cluster.files, uri)?.text;
}
