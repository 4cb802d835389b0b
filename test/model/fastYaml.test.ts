// The fast YAML path (server/src/model/fastYaml.ts) against the yaml library's: whenever the fast path accepts a
// text, its documents deep-equal the library's (spans included), the library reports no error, and parseManifest's
// whole result is the same either way. Checked on every YAML file of examples/ and test/fixtures/, on a generated
// benchmark workspace (which the fast path must accept whole), and on random manifest-like texts and mutations.
// And the library path against go-yaml, through the real kubectl (`kubectl kustomize`): on the shapes where the yaml
// library alone is stricter (multi-line quoted scalars continued at or left of their key's column, model/goYaml.ts),
// both read what kubectl reads, and what kubectl rejects is still a yaml-syntax error.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { generateWorkspace } from '../../bench/generate';
import { fastParse, fastParseSteps, resolvePlain } from '../../server/src/model/fastYaml';
import { libraryDocuments, parseManifest, type ManifestFile } from '../../server/src/model/parseManifest';
import { treeOf } from '../../server/src/model/trees';
import type { YNode } from '../../server/src/model/yamlTree';
import { kubectlBuildAll } from '../helpers/kubectlKustomize';
import { controllerGenCrd } from '../helpers/crdTexts';
import { manifestText, mutation } from '../helpers/yamlTexts';
import { repoYamlFiles } from '../helpers/repoYaml';

const seed = 20240607;

/** Whether the fast path accepted `text`; throws if it accepted it and differs from the library in any way. */
function agrees(text: string): boolean {
  const fast = fastParse(text);
  if (!fast) return false;
  const lib = libraryDocuments(text);
  assert.equal(lib.errors, 0, `the library reports errors for an accepted text: ${JSON.stringify(text)}`);
  assert.deepStrictEqual(fast, lib.documents, `trees differ for ${JSON.stringify(text)}`);
  const options = { defaultNamespace: 'default' };
  assert.deepStrictEqual(
    withTrees(parseManifest('file:///t.yaml', text, options)),
    withTrees(parseManifest('file:///t.yaml', text, { ...options, fastPath: false })),
  );
  return true;
}

/**
 * A parsed file with every resource's tree in place of where it comes from: the library path keeps its trees, the
 * fast path reads them again on demand (model/trees.ts), and both must give the same.
 */
function withTrees(file: ManifestFile) {
  return { ...file, resources: file.resources.map((r) => ({ ...r, source: { text: r.source.text, listPath: r.source.listPath }, tree: treeOf(r) })) };
}

const repoTexts = repoYamlFiles().map((f) => readFileSync(f, 'utf8'));
const generated = generateWorkspace({ resources: 1000, seed: 7 }).files.map((f) => f.text);

describe('fast YAML path', () => {
  it('equals the library on every YAML file of examples/ and test/fixtures/', (t) => {
    const accepted = repoTexts.filter(agrees).length;
    t.diagnostic(`accepted ${accepted} of ${repoTexts.length} files`);
    // these files exercise flow mappings, aliases and odd comments on purpose; many bail, and that is correct
    assert.ok(accepted >= 30, `accepted ${accepted} of ${repoTexts.length}`);
  });

  it('accepts every file of a generated benchmark workspace, equal to the library', () => {
    assert.ok(generated.length > 100);
    for (const text of generated) assert.ok(agrees(text), 'a generated file was refused');
  });

  it('accepts the same files with CRLF line breaks, equal to the library', () => {
    for (const text of generated.slice(0, 200)) assert.ok(agrees(text.replace(/\n/g, '\r\n')), 'a generated file with CRLF was refused');
  });

  it('resolves plain scalars as the YAML 1.2 core schema does', () => {
    const cases: [string, unknown][] = [
      ['~', null],
      ['', null],
      ['Null', null],
      ['nULL', 'nULL'],
      ['TRUE', true],
      ['yes', 'yes'],
      ['0x1F', 31],
      ['0o7', 7],
      ['0o8', '0o8'],
      ['1e3', 1000],
      ['.5', 0.5],
      ['+1', 1],
      ['-0', -0],
      ['1_000', '1_000'],
      ['3.', 3],
      ['-.Inf', -Infinity],
      ['.NaN', NaN],
      ['0X1F', '0X1F'],
      ['1.2.3', '1.2.3'],
    ];
    for (const [s, want] of cases) assert.deepStrictEqual(resolvePlain(s), want, s);
  });

  it('random manifest-like texts: whenever it accepts, it equals the library', (t) => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(manifestText, (text) => {
        runs++;
        if (agrees(text)) accepted++;
      }),
      { seed, numRuns: 3000 },
    );
    t.diagnostic(`accepted ${accepted} of ${runs} random texts`);
    // the property must exercise acceptance, not only bail-outs
    assert.ok(accepted / runs > 0.2, `accepted ${accepted} of ${runs}`);
  });

  it('reads the escapes of double-quoted scalars as the library does (rendered CRD descriptions), and bails on others', () => {
    const accepted = [
      'description: "one\\ntwo\\n\\ttab \\"quoted\\" back\\\\slash \\/ \\u00e9\\u2028 \\r\\b\\f\\0"\n',
      'items:\n- "a\\"b"\n- "\\\\"\n- x: ["a\\nb", "c"]\n',
      'k: "ends with escape\\\\" # comment\n',
      'k: "\\ lead\\ "\n',
      'k: "\\U0001F600 \\U0010FFFF \\U00000041"\n',
    ];
    for (const text of accepted) assert.ok(agrees(text), `refused ${JSON.stringify(text)}`);
    assert.equal(
      (fastParse(accepted[0])![0].root as unknown as { entries: Map<string, { value: { value: unknown } }> }).entries.get('description')!.value.value,
      'one\ntwo\n\ttab "quoted" back\\slash / \u00e9\u2028 \r\b\f\0',
    );
    // YAML's own escapes, a broken \u, an escaped line break: the library decides
    for (const text of ['k: "\\x41"\n', 'k: "\\e"\n', 'k: "\\u12"\n', 'k: "\\U00110000"\n', 'k: "\\U0001F60"\n', 'k: "a\\\nb"\n', 'k: "\\q"\n'])
      assert.equal(fastParse(text), undefined, text);
  });

  it('random strings written as JSON does in double quotes: whenever it accepts, it equals the library', (t) => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '/', '\n', '\t', '\r', '\b', '\f', '\u0000', '\u0001', '\u001f', 'é', '日', '#', ':', "'", '{', '-'),
          maxLength: 40,
        }),
        (value) => {
          runs++;
          if (agrees(`metadata:\n  name: x\n  annotations:\n    a: ${JSON.stringify(value)}\n`)) accepted++;
        },
      ),
      { seed, numRuns: 1500 },
    );
    t.diagnostic(`accepted ${accepted} of ${runs} strings`);
    assert.ok(accepted / runs > 0.5, `accepted ${accepted} of ${runs}`);
  });

  it('random mutations of real and generated files: whenever it accepts, it equals the library', (t) => {
    let accepted = 0;
    let runs = 0;
    // texts the fast path accepts before the mutation, so that it often still accepts after it
    const sources = [...repoTexts, ...generated.slice(0, 40)].filter((t) => t.length < 4000 && fastParse(t));
    fc.assert(
      fc.property(fc.constantFrom(...sources), fc.array(mutation, { minLength: 1, maxLength: 3 }), (text, edits) => {
        runs++;
        if (agrees(edits.reduce((t, edit) => edit(t), text))) accepted++;
      }),
      { seed, numRuns: 1500 },
    );
    t.diagnostic(`accepted ${accepted} of ${runs} mutated files`);
    assert.ok(accepted / runs > 0.15, `accepted ${accepted} of ${runs}`);
  });
});

/** The value at `path` (keys and item indexes) of the first document the fast path reads from `text`. */
function fastValue(text: string, ...path: (string | number)[]): unknown {
  const docs = fastParse(text);
  assert.ok(docs, `refused ${JSON.stringify(text)}`);
  let n: YNode | undefined = docs[0].root;
  for (const step of path)
    n = n?.type === 'seq' && typeof step === 'number' ? n.items[step] : n?.type === 'map' ? n.entries.get(String(step))?.value : undefined;
  return plain(n);
}

describe('fast YAML path: multi-line scalars and the shapes of generated CRDs', () => {
  it('folds multi-line plain and quoted scalars as YAML does, equal to the library', () => {
    const cases: [string, (string | number)[], unknown][] = [
      // a line break between two lines is a space, each empty line a \n, the lines' own spaces dropped
      ['a:\n  d: one two  \n    three\n\n     four  \n  e: x\n', ['a', 'd'], 'one two three\nfour'],
      ['a:\n  d: one\n    three\n  \n\n    four\n', ['a', 'd'], 'one three\n\nfour'],
      ['- one\n  two\n- x\n', [0], 'one two'],
      ['- one\n two\n', [0], 'one two'],
      ['k:\n- one\n two\n', ['k', 0], 'one two'],
      ['- k: one\n   two\n  j: x\n', [0, 'k'], 'one two'],
      ['k: 1\n  2\n', ['k'], '1 2'],
      ['d: perform a `kubectl apply\n  --dry-run` or -x\n  -1\n', ['d'], 'perform a `kubectl apply --dry-run` or -x -1'],
      ['k: a\n  [b] {c} "d" *e &f !g |h >i %j @k `l` ^m \\n\n', ['k'], 'a [b] {c} "d" *e &f !g |h >i %j @k `l` ^m \\n'],
      ['k: one\n  two\n    # a comment after it\nj: x\n', ['k'], 'one two'],
      ["k: 'one  \n   two\n\n   it''s '\nj: x\n", ['k'], "one two\nit's "],
      ["k: 'one\n  # not a comment\n  - nor an item: x'\n", ['k'], 'one # not a comment - nor an item: x'],
      ['k: "one  \\\n   two\\t  \n\n   \\ three\\ "\nj: x\n', ['k'], 'one  two\t\n three '],
      ['k: "a\\"b\n  c\\u00e9" # c\n', ['k'], 'a"b cé'],
      // the value on the line below its key or dash
      ['pattern: \n  ^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?$\nx: 1\n', ['pattern'], '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'],
      ['k:\n  one\n  two\n', ['k'], 'one two'],
      ['-\n  "one\n  two"\n', [0], 'one two'],
      ['k:\n  {}\n', ['k'], {}],
      // quoted keys, flags, patterns, ports, block scalars with an indentation indicator or as items
      ['"helm.sh/resource-policy": keep\n\'@type\': x\n', ['helm.sh/resource-policy'], 'keep'],
      ['- "a b": 1\n  c: 2\n', [0, 'a b'], 1],
      ['args:\n- --port=8080\n- --v\n', ['args'], ['--port=8080', '--v']],
      ['pattern: ^(\\+|-)?[0-9]+$\n', ['pattern'], '^(\\+|-)?[0-9]+$'],
      ['healthProbeBindAddress: :8081\n', ['healthProbeBindAddress'], ':8081'],
      ['$patch: delete\n', ['$patch'], 'delete'],
      ['ns[foo]-rule[0]:\n  any: true\n', ['ns[foo]-rule[0]', 'any'], true],
      ['d: |2-\n\n\n    Valid\n   options\nx: 1\n', ['d'], '\n\n  Valid\n options'],
      ['d: |\n\n  text\n', ['d'], '\ntext\n'],
      ['- |\n  one\n   two\n- x\n', [0], 'one\n two\n'],
      // lines of spaces only inside a literal block: empty, or the spaces right of its indentation
      ['c: |\n  one\n \n     \n  two\nx: 1\n', ['c'], 'one\n\n   \ntwo\n'],
      ['c: |\n  one\n  \nx: 1\n', ['c'], 'one\n'],
      // folded blocks: a line break between two lines is a space, one before each further empty line a \n
      ['d: >-\n  one\n  two\n\n  three\n  \n\n  four\nx: 1\n', ['d'], 'one two\nthree\n\nfour'],
      ['- >\n\n  a\n  b\n\n', [0], '\na b\n'],
      // a literal block on the text's last line, without a line break
      ['k:\n- |\n  text', ['k', 0], 'text\n'],
      ['k: a\u00a0b\n', ['k'], 'a\u00a0b'],
    ];
    for (const [text, path, want] of cases) {
      assert.ok(agrees(text), `refused ${JSON.stringify(text)}`);
      assert.deepStrictEqual(fastValue(text, ...path), want, JSON.stringify(text));
    }
  });

  it('reads documents of comments alone after `---` (as helm writes a template of CRDs), equal to the library', () => {
    const texts = [
      '---\n# Source: chart/crds/a.yaml\n---\napiVersion: v1\nkind: A\n',
      '---\n# a\n# b\n---\nk: 1\n',
      '---\n# a\n\n\n---\nk: 1\n',
      '---\n\n# a\n---\nk: 1\n',
      '---\n  # indented\n---\nk: 1\n',
      'k: 1\n---\n# a\n---\nj: 2\n',
      '---\n# a\n',
      '---\n# a',
      '---\n# a\n\n\n',
      '---\n# a\r\n---\r\nk: 1\r\n',
    ];
    for (const text of texts) assert.ok(agrees(text), `refused ${JSON.stringify(text)}`);
    assert.equal(fastParse(texts[0])!.length, 2);
  });

  it('leaves the multi-line scalars it is not sure about to the library', () => {
    const bailed = [
      // quoted scalars continued at or left of their collection's column (go-yaml and the library differ there)
      'data:\n  a: "one\n  two"\n',
      "data:\n  a: 'one\n two'\n",
      'data:\n  a: "one\ntwo"\n',
      'items:\n- "one\n- two"\n',
      // a continuation line starting with an indicator, holding `: ` or ` #`, or after a comment line
      'k: one\n  - two\n',
      'k: one\n  -- two\n',
      'k: one\n  -\n',
      'k: one\n  ? two\n',
      'k: one\n  :two\n',
      'k: one\n  two: three\n',
      'k: one\n  two:\n',
      'k: one\n  two # c\nj: x\n',
      'k: one\n  # c\n  two\n',
      'k: one # c\n  two\n',
      // a multi-line key, an escaped line break followed by an empty line, an unclosed quote, a folded block with a
      // more indented line
      'one\n  two: x\n',
      '- one\n  two: x\n',
      'k: "one\\\n\n  two"\n',
      'k: "one\n  two\n',
      'k: >-\n  one\n    more indented\n  two\n',
      'k: >\n  one\n     \n  two\n',
      // a literal block whose last lines are of spaces only (more indented than it), or whose first is
      'c: |\n  one\n   \nx: 1\n',
      'c: |\n   \n  one\n',
      // a value below its key after a comment line, a block scalar's indicator as an item
      'k:\n  # c\n  one\n',
      '- |2\n   one\n',
    ];
    for (const text of bailed) assert.equal(fastParse(text), undefined, JSON.stringify(text));
  });

  it('accepts controller-gen-like CRDs whole, equal to the library', () => {
    for (const seed of [1, 2, 3]) {
      const text = controllerGenCrd(seed, 300);
      assert.ok(text.length > 100_000, `${text.length} characters`);
      // the shapes that made such files bail before: continued plain and single-quoted descriptions, patterns
      assert.match(text, /\n {10,}description: [A-Z][^\n]*\n {12,}[^ -]/);
      assert.match(text, /description: '[^\n']*\n/);
      assert.match(text, /pattern: \^\(/);
      assert.ok(agrees(text), `the fast path refused the CRD of seed ${seed}`);
      // read in steps (as large files are), with pauses inside multi-line scalars' collections: the same documents
      const steps = fastParseSteps(text);
      let pauses = 0;
      let step = steps.next();
      for (; !step.done; step = steps.next()) pauses++;
      assert.ok(pauses > 0, 'a CRD this large is read in more than one step');
      assert.deepStrictEqual(step.value, fastParse(text));
    }
  });
});

/**
 * Texts of one object each whose quoted scalars continue on later lines at every indentation go-yaml meets in
 * manifests, and the two texts around them that go-yaml rejects. Written for this test (no third-party text).
 */
const quotedShapes: readonly { readonly name: string; readonly text: string }[] = [
  { name: 'double-at-key', text: 'data:\n  a: "one\n  two"\n  b: x\n' },
  { name: 'single-at-key', text: "data:\n  a: 'one\n  two'\n  b: x\n" },
  { name: 'deeper', text: 'data:\n  a: "one\n      two"\n' },
  { name: 'left-of-key', text: 'data:\n  a: "one\n two"\n' },
  { name: 'column-zero', text: 'data:\n  a: "one\ntwo"\n' },
  { name: 'blank-line', text: 'data:\n  a: "one\n\n  two"\n' },
  { name: 'colon-inside', text: 'data:\n  a: "one\n  two: three"\n' },
  { name: 'escapes', text: 'data:\n  a: "one \\"quoted\\"\n  two\\\n  three"\n' },
  {
    name: 'annotation',
    text: "metadata:\n  name: shape\n  annotations:\n    description: \"A long text\n    that continues at the key's column\"\n    other: 'it''s\n    here'\n",
  },
  {
    name: 'crd-description',
    text: 'spec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        description: "older controller-gen\n          wrapped here, and\n        here"\n        type: object\n',
  },
  { name: 'sequence-item', text: 'items:\n- name: "one\n  two"\n- "three\nfour"\n' },
  { name: 'top-level', text: 'top: "one\ntwo"\nnext: x\n' },
  { name: 'rejected-document-marker', text: 'data:\n  a: "one\n---\n  two"\n' },
  { name: 'rejected-unclosed', text: 'data:\n  a: "one\n  b: two\n' },
];

function objectText(shape: string): string {
  const body = shape.startsWith('metadata:') ? shape : `metadata:\n  name: shape\n${shape}`;
  return `apiVersion: v1\nkind: ConfigMap\n${body}`;
}

function plain(n: YNode | undefined): unknown {
  if (!n) return null;
  if (n.type === 'scalar') return n.value;
  if (n.type === 'seq') return n.items.map(plain);
  return Object.fromEntries([...n.entries.values()].map((e) => [e.key, plain(e.value)]));
}

describe('the library path against go-yaml (kubectl kustomize)', () => {
  it('reads multi-line quoted scalars as kubectl does, and reports what kubectl rejects', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-netlens-goyaml-'));
    try {
      const dirs = quotedShapes.map((shape) => {
        const d = join(dir, shape.name);
        mkdirSync(d);
        writeFileSync(join(d, 'kustomization.yaml'), 'resources:\n- object.yaml\n');
        writeFileSync(join(d, 'object.yaml'), objectText(shape.text));
        return d;
      });
      const built = await kubectlBuildAll(dirs);
      for (const [i, shape] of quotedShapes.entries()) {
        const text = objectText(shape.text);
        const outcome = built[i];
        const library = libraryDocuments(text);
        assert.equal(outcome.ok, !shape.name.startsWith('rejected'), `${shape.name}: kubectl ${outcome.ok ? 'accepts' : `rejects (${outcome.error})`} it`);
        for (const fastPath of [true, false]) {
          const file = parseManifest(`file:///${shape.name}.yaml`, text, { defaultNamespace: 'default', fastPath });
          const syntax = file.problems.filter((p) => p.code === 'yaml-syntax');
          if (outcome.ok) {
            assert.deepEqual(syntax, [], `${shape.name}: kubectl reads it, so no yaml-syntax error`);
            assert.deepEqual(
              file.resources.map((r) => `${r.kind}/${r.name}`),
              ['ConfigMap/shape'],
              shape.name,
            );
          } else {
            assert.ok(syntax.length > 0, `${shape.name}: kubectl rejects it, so a yaml-syntax error`);
            assert.deepEqual(file.resources, [], shape.name);
          }
        }
        if (outcome.ok) {
          assert.equal(library.errors, 0, shape.name);
          assert.deepEqual(plain(library.documents[0].root), outcome.objects![0], `${shape.name}: the same values as kubectl's`);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
