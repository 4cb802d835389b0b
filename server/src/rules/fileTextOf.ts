// The text of a workspace file, which fixes need to compute offsets and indentation.

import type { Cluster } from '../model/cluster';
import type { ManifestFile } from '../model/parseManifest';

const byFiles = new WeakMap<readonly ManifestFile[], ReadonlyMap<string, string>>();

export function fileTextOf(cluster: Cluster, uri: string): string | undefined {
  let texts = byFiles.get(cluster.files);
  if (!texts) byFiles.set(cluster.files, (texts = new Map(cluster.files.map((f) => [f.uri, f.text]))));
  return texts.get(uri);
}
