// The Kustomize renderer's trees through the manifests' fast parser (server/src/kustomize/tree.ts `fastTrees`) against
// the yaml library's (`parseYaml(…, { fastPath: false })`): whenever the fast path accepts a text, the trees are the
// same, node for node, with the same sources, raw numbers, blank values and document spans. Checked on every YAML
// file of examples/ and test/fixtures/, a generated benchmark workspace, random manifest-like texts and their
// mutations, and the shapes where Kustomize reads YAML differently from the manifests' parser.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { generateWorkspace } from '../../bench/generate';
import { fastTrees, parseYaml } from '../../server/src/kustomize/tree';
import { manifestText, mutation } from '../helpers/yamlTexts';
import { repoYamlFiles } from '../helpers/repoYaml';

const uri = 'file:///w/t.yaml';

/** Whether the fast path accepted `text`; throws if it did and its trees differ from the library's. */
function agrees(text: string): boolean {
  const fast = fastTrees(text, uri);
  if (!fast) return false;
  const slow = parseYaml(text, uri, { fastPath: false });
  assert.equal(slow.error, undefined, `the library reports an error for an accepted text: ${JSON.stringify(text)}`);
  assert.deepStrictEqual(fast, slow, `trees differ for ${JSON.stringify(text)}`);
  return true;
}

const repoTexts = repoYamlFiles().map((f) => readFileSync(f, 'utf8'));

describe('Kustomize trees through the fast parser', () => {
  it('equal the library on every YAML file of examples/ and test/fixtures/', (t) => {
    const accepted = repoTexts.filter(agrees).length;
    t.diagnostic(`accepted ${accepted} of ${repoTexts.length} files`);
    assert.ok(accepted >= 300, `accepted ${accepted} of ${repoTexts.length}`);
  });

  it('accept every file of a generated benchmark workspace, equal to the library', () => {
    const generated = generateWorkspace({ resources: 1000, seed: 11 }).files.map((f) => f.text);
    for (const text of generated) assert.ok(agrees(text), 'a generated file was refused');
  });

  it('random manifest-like texts and their mutations: whenever accepted, equal to the library', (t) => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(manifestText, fc.array(mutation, { maxLength: 3 }), (text, changes) => {
        runs++;
        if (agrees(text)) accepted++;
        agrees(changes.reduce((s, f) => f(s), text));
      }),
      { seed: 20261204, numRuns: 2000 },
    );
    t.diagnostic(`accepted ${accepted} of ${runs} random texts`);
    assert.ok(accepted / runs > 0.2, `accepted ${accepted} of ${runs}`);
  });

  it('read what Kustomize reads differently from the manifests: octal, raw numbers, blank values, a last block scalar', () => {
    const cases = [
      'mode: 0444\nport: 8080\nratio: 1.50\nhex: 0x1F\ninf: .inf\nnine: 0999\nquoted: "0444"\n',
      'a:\nb: ~\nc: null\nd: ""\n',
      'items:\n- \n- x\n-\n',
      'script: |\n  echo hi\n',
      'a: "x\\n"',
      '---\nkind: A\n# between\n---\nkind: B\n# after\n',
      // empty documents: at the start, between two, at the end
      '---\n---\nkind: A\n',
      'kind: A\n---\n',
      'kind: A\n---\n\n',
      'kind: A\n---\n---\nkind: B\n',
      // a block scalar ending the text without a final line break: go-yaml reads it without its last line break
      'script: |\n  echo hi\n  echo there',
      'script: |-\n  echo hi',
      'a:\n  - |\n    x',
      's: >\n  folded\n  text',
      'value: |\n  0x1F',
      's: |\n  x\n  ',
    ];
    for (const text of cases) {
      assert.ok(agrees(text), `refused: ${JSON.stringify(text)}`);
      // with CRLF line breaks: accepted or not, never different
      agrees(text.replace(/\n/g, '\r\n'));
    }
    // empty documents holding only comments (helm writes `# Source:` lines so)
    for (const text of ['---\n# only\n---\nkind: B\n', 'kind: A\n---\n# only\n', 'kind: A\n---\n  # indented\n\n', '---\n# a\n\n---\nkind: B\n'])
      assert.ok(agrees(text), `refused: ${JSON.stringify(text)}`);
    assert.equal((fastTrees('mode: 0444\n', uri)!.docs[0].node as { e: { v: { v: unknown } }[] }).e[0].v.v, 292);
  });

  it('leave to the library what its trees cannot tell: no document, a key that resolves to null', () => {
    for (const text of ['', '# only a comment\n', '~: x\n', 'a:\n  null: 1\n', '- null: 1\n'])
      assert.equal(fastTrees(text, uri), undefined, JSON.stringify(text));
  });
});
