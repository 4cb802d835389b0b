// The text of a workspace file, which fixes need to compute offsets and indentation.

import type { Cluster } from '../model/cluster';

export function fileTextOf(cluster: Cluster, uri: string): string | undefined {
  return cluster.files.find((f) => f.uri === uri)?.text;
}
