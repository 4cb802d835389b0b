// The YAML trees of texts read recently, shared by the parser and model/trees.ts.
//
// The parser leaves the trees of the text it just read in one slot of their own, so that what reads that file's
// objects again right after (the API-server validation of each object while a workspace is indexed) finds them
// instead of parsing the text a second time. One slot, not a list: the trees of a file the parser read become
// garbage as soon as the next file is read, while they are still young. Trees kept across many files are promoted
// to V8's old generation and make garbage collection the main cost of indexing (a cache of the last 16 parses did:
// it made reading a workspace half as slow again).
//
// What model/trees.ts reads again on demand (a rule or a hover reading several objects of one file) is kept in a
// short list of the last few files.

import type { YNode } from './yamlTree';

type Trees = readonly (YNode | undefined)[];

const cacheSize = 16;
const recent = new Map<string, Trees>();
let justParsed: { readonly text: string; readonly docs: Trees } | undefined;

export function cachedTrees(text: string): Trees | undefined {
  if (justParsed && justParsed.text === text) return justParsed.docs;
  const hit = recent.get(text);
  if (hit) {
    recent.delete(text);
    recent.set(text, hit);
  }
  return hit;
}

/** The parser's trees of the text it just read (replacing the previous file's). */
export function leaveParsedTrees(text: string, docs: Trees): void {
  justParsed = { text, docs };
}

/** Trees read again on demand, kept for the next few reads. */
export function rememberTrees(text: string, docs: Trees): void {
  recent.delete(text);
  recent.set(text, docs);
  if (recent.size > cacheSize) recent.delete(recent.keys().next().value as string);
}
