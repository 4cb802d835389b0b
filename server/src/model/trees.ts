// The YAML tree of a resource's document. Trees of files the fast parser reads are not kept with the resources
// (they are most of a workspace's memory, and garbage collection of long-lived trees is most of the cost of
// indexing); they are read again from the file's text on demand, a few microseconds per file. The last few files
// read stay cached (model/treeCache.ts, where the parser also leaves the trees of the text it just read), so a rule
// or a hover reading several objects of one file parses it once.

import { fastParse } from './fastYaml';
import { libraryDocuments } from './parseManifest';
import type { Resource } from './resources';
import { cachedTrees, rememberTrees } from './treeCache';
import { at, isMap, items, type YMap, type YNode } from './yamlTree';

export function treeOf(r: Resource): YMap {
  const source = r.source;
  if (source.kept) return source.kept;
  let root = documentsOf(source.text)[r.docIndex];
  for (const i of source.listPath ?? []) root = items(at(root, 'items'))[i];
  // The same text always reads to the same tree, and it was a mapping when the resource was read from it.
  if (!isMap(root)) throw new Error(`the YAML tree of ${r.kind} ${r.namespace}/${r.name} could not be read again`);
  return root;
}

function documentsOf(text: string): readonly (YNode | undefined)[] {
  const hit = cachedTrees(text);
  if (hit) return hit;
  // Only texts the fast parser accepted drop their trees; the library is the fallback should that ever differ.
  const docs = fastParse(text)?.map((d) => d.root) ?? libraryDocuments(text).documents.map((d) => d.root);
  rememberTrees(text, docs);
  return docs;
}
