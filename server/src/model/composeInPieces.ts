// One large YAML document composed in pieces, for the sliced parse (parseManifest.ts `parseManifestAsync`): the
// library composes a document in one call, which for a megabyte-sized `kind: List` (a document whose `items` hold
// thousands of objects) blocks for a few hundred milliseconds. A mapping document whose largest block sequence holds
// many mappings is composed as that sequence's items one by one plus the document with only its last item (whose
// ranges are then those of the whole: a sequence ends where its last item does), and the items are put back in
// order. Whenever a piece reports an error or a warning, or an item carries anything but its `-` (an anchor or a tag
// on the item itself, which only the whole document would resolve), the caller composes the document whole. The
// result equals composing it whole (test/model/composeInPieces.test.ts).

import { Composer, isMap, isSeq, type CST, type Document, type YAMLSeq } from 'yaml';

export const composerOptions = { uniqueKeys: false, prettyErrors: false, strict: false, keepSourceTokens: false, logLevel: 'error' } as const;

/** Sequences with fewer items than this are composed with their document. */
const minItems = 64;

/** A single document token composed on its own. */
function composeOne(token: CST.Document): Document.Parsed {
  const composer = new Composer(composerOptions);
  return [...composer.next(token), ...composer.end()][0];
}

/** The document composed in pieces, with a step between every 16 items; undefined when it must be composed whole. */
export function* composeInPieces(token: CST.Document): Generator<void, Document.Parsed | undefined> {
  const map = token.value;
  if (map?.type !== 'block-map') return undefined;
  let seq: CST.BlockSequence | undefined;
  for (const entry of map.items) {
    const v = entry.value;
    if (v?.type === 'block-seq' && v.items.length >= Math.max(minItems, (seq?.items.length ?? 0) + 1)) seq = v;
  }
  if (!seq) return undefined;
  const items = seq.items;
  for (const item of items) {
    if (item.value?.type !== 'block-map') return undefined;
    let indicators = 0;
    for (const t of item.start) {
      if (t.type === 'seq-item-ind') indicators++;
      else if (t.type !== 'space' && t.type !== 'newline' && t.type !== 'comment') return undefined;
    }
    if (indicators !== 1) return undefined;
  }
  const last: CST.BlockSequence = { ...seq, items: [items[items.length - 1]] };
  const skeleton = composeOne({ ...token, value: { ...map, items: map.items.map((e) => (e.value === seq ? { ...e, value: last } : e)) } });
  if (skeleton.errors.length || skeleton.warnings.length || !isMap(skeleton.contents)) return undefined;
  let target: YAMLSeq | undefined;
  for (const pair of skeleton.contents.items) if (isSeq(pair.value) && pair.value.range?.[0] === seq.offset) target = pair.value;
  if (!target) return undefined;
  const nodes: unknown[] = [];
  for (let i = 0; i < items.length - 1; i++) {
    const value = items[i].value!;
    const piece = composeOne({ type: 'document', offset: value.offset, start: [], value });
    if (piece.errors.length || piece.warnings.length) return undefined;
    nodes.push(piece.contents);
    if (i % 16 === 15) yield;
  }
  target.items = [...nodes, ...target.items];
  return skeleton;
}
