// The YAML trees of the last few texts read, shared by the parser and model/trees.ts: the parser leaves the trees of
// the text it just read here, so what reads a file's objects again right after (the API-server validation of each
// object while a workspace is indexed) finds them instead of parsing the text a second time.

import type { YNode } from './yamlTree';

const cacheSize = 16;
const recent = new Map<string, readonly (YNode | undefined)[]>();

export function cachedTrees(text: string): readonly (YNode | undefined)[] | undefined {
  const hit = recent.get(text);
  if (hit) {
    recent.delete(text);
    recent.set(text, hit);
  }
  return hit;
}

export function rememberTrees(text: string, docs: readonly (YNode | undefined)[]): void {
  recent.delete(text);
  recent.set(text, docs);
  if (recent.size > cacheSize) recent.delete(recent.keys().next().value as string);
}
