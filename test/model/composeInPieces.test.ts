// A large document composed in pieces (model/composeInPieces.ts) equals the same document composed whole: the
// library's nodes (every range, value and item), and the manifest file the sliced parse makes of it equals the one
// of the one-piece parse. Generated Lists of mappings in several styles, with comments, blank lines, keys after the
// items, anchors and aliases between items, nested Lists, an error inside one item, and other documents around it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Composer, Lexer, Parser, isMap, isPair, isScalar, isSeq, type CST } from 'yaml';
import { composeInPieces, composerOptions } from '../../server/src/model/composeInPieces';
import { parseManifest, parseManifestAsync } from '../../server/src/model/parseManifest';

const item = fc
  .record({
    kind: fc.constantFrom('Service', 'Deployment', 'ConfigMap'),
    name: fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/),
    style: fc.constantFrom('block', 'flow', 'mixed'),
    comment: fc.constantFrom('', '', '  # a note\n', '\n'),
    anchor: fc.constantFrom('', '', '', 'anchor', 'alias'),
  })
  .map((i) => {
    const labels = i.anchor === 'anchor' ? `&l-${i.name} {app: ${i.name}}` : i.anchor === 'alias' ? '*l-x' : `{app: ${i.name}}`;
    const body =
      i.style === 'flow'
        ? [
            `  apiVersion: v1`,
            `  kind: ${i.kind}`,
            `  metadata: {name: ${i.name}, labels: ${labels}}`,
            `  spec: {selector: {app: ${i.name}}, ports: [{port: 80}]}`,
          ]
        : [
            `  apiVersion: v1`,
            `  kind: ${i.kind}`,
            '  metadata:',
            `    name: ${i.name}`,
            `    labels: ${labels}`,
            '  spec:',
            '    ports:',
            '    - port: 80',
            `      name: "p-${i.name}"`,
          ];
    if (i.style === 'mixed') body.push('  data: |', '    line one', '    line two');
    return `${i.comment}- ${body.join('\n').slice(2)}\n`;
  });

const list = fc
  .record({
    items: fc.array(item, { minLength: 70, maxLength: 400 }),
    after: fc.constantFrom('', 'metadata: {resourceVersion: "1"}\n'),
    before: fc.constantFrom('', 'apiVersion: v1\nkind: Service\nmetadata: {name: before}\n---\n'),
    follow: fc.constantFrom('', '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: after}\n', '# trailing\n'),
    broken: fc.constantFrom(false, false, false, true),
    indent: fc.constantFrom('', '  '),
  })
  .map((l) => {
    let items = l.items.map((t) => t.replace(/^(.)/gm, `${l.indent}$1`)).join('');
    if (l.broken) items = items.replace(/kind: ConfigMap/, 'kind: [ConfigMap');
    // the first item defines the anchor the aliases use
    const first = `${l.indent}- apiVersion: v1\n${l.indent}  kind: ConfigMap\n${l.indent}  metadata: {name: x, labels: &l-x {app: x}}\n`;
    return `${l.before}apiVersion: v1\nkind: List\nitems:\n${first}${items}${l.after}${l.follow}`;
  });

/** The library's nodes as plain data: kind, range, scalar value, entries and items. */
function shape(node: unknown): unknown {
  if (isScalar(node)) return { s: node.value, r: node.range, t: node.type };
  if (isMap(node)) return { m: node.items.map((p) => (isPair(p) ? [shape(p.key), shape(p.value)] : null)), r: node.range, f: node.flow };
  if (isSeq(node)) return { q: node.items.map(shape), r: node.range, f: node.flow };
  if (node && typeof node === 'object' && 'source' in node) return { a: (node as { source: string }).source, r: (node as { range?: unknown }).range };
  return node ?? null;
}

/** A manifest file as plain data (maps as entry lists). */
const plain = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (x instanceof Map ? [...x] : x instanceof Set ? [...x] : x));

function tokensOf(text: string): CST.Token[] {
  const parser = new Parser();
  const tokens: CST.Token[] = [];
  for (const lexeme of new Lexer().lex(text)) for (const t of parser.next(lexeme)) tokens.push(t);
  for (const t of parser.end()) tokens.push(t);
  return tokens;
}

describe('a large document composed in pieces', () => {
  it('equals the document composed whole, node by node, and parses to the same manifest file', async () => {
    let pieced = 0;
    await fc.assert(
      fc.asyncProperty(list, async (text) => {
        for (const token of tokensOf(text)) {
          if (token.type !== 'document') continue;
          const composer = new Composer(composerOptions);
          const whole = [...composer.next(token), ...composer.end()][0];
          const steps = composeInPieces(token);
          let r = steps.next();
          while (!r.done) r = steps.next();
          if (!r.value) continue;
          pieced++;
          assert.deepEqual(shape(r.value.contents), shape(whole.contents));
          assert.deepEqual(r.value.range, whole.range);
          assert.equal(whole.errors.length, 0);
        }
        const sliced = await parseManifestAsync('file:///w/list.yaml', text, { defaultNamespace: 'default' }, () => undefined);
        assert.equal(plain(sliced), plain(parseManifest('file:///w/list.yaml', text, { defaultNamespace: 'default' })));
      }),
      { seed: 20261201, numRuns: 40 },
    );
    // most generated Lists are composed in pieces (the broken ones and a few others whole)
    assert.ok(pieced >= 20, `${pieced} composed in pieces`);
  });

  it('leaves a document whose items carry an anchor or a tag, or that has an error, to be composed whole', () => {
    const items = Array.from({ length: 80 }, (_, i) => `- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c${i}}\n`).join('');
    for (const [what, text] of [
      ['an anchor on an item', `items:\n- &a {x: 1}\n${items}`],
      ['a tag on an item', `items:\n- !!map {x: 1}\n${items}`],
      ['an unclosed bracket', `items:\n${items}- {x: [1}\n`],
      ['a scalar item', `items:\n${items}- just text\n`],
    ]) {
      const token = tokensOf(text).find((t) => t.type === 'document')!;
      const steps = composeInPieces(token as CST.Document);
      let r = steps.next();
      while (!r.done) r = steps.next();
      assert.equal(r.value, undefined, what);
    }
  });
});
