// What an edit in a Kustomize base costs: the base's build is shared by the overlays that include it (built once, not
// once per overlay) and kept while what it read is unchanged; a file or finding the edit does not reach stays the very
// same object, so the rules do not run again over it and the server does not convert or send it again.
// Each kept result must equal a fresh render or analysis.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { diskReader } from '../../server/src/workspace/diskReader';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor, diagnosticsFromScratch } from '../../server/src/features/diagnostics';
import { readerOf } from '../../server/src/kustomize/applyUnits';
import { renderKustomization, type BuildCache, type FileReader, type ParseCache } from '../../server/src/kustomize/render';
import { createWorkspace } from '../../server/src/workspace/workspace';
import { writeRandomCase } from '../helpers/randomOverlays';

const temp = mkdtempSync(join(tmpdir(), 'kube-netlens-build-cache-'));
after(() => rmSync(temp, { recursive: true, force: true }));

/** A render's observable result: the text with its source map, the problems, the files read. */
function outcome(fsys: FileReader, dir: string, caches?: { parsed: ParseCache; builds: BuildCache }) {
  const u = renderKustomization(fsys, dir, { label: 'x', ...caches });
  return { rendered: u.rendered, problems: u.problems, inputs: u.inputs };
}

const deployment = (app: string, label: string) =>
  [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `  name: ${app}`,
    'spec:',
    '  selector:',
    '    matchLabels:',
    `      app: ${label}`,
    '  template:',
    '    metadata:',
    '      labels:',
    `        app: ${label}`,
    '    spec:',
    '      containers:',
    '        - name: app',
    '          image: registry.example/app:1',
    '          env:',
    '            - name: PEER',
    `              value: http://${app}.default.svc.cluster.local`,
    '',
  ].join('\n');
const service = (app: string) =>
  ['apiVersion: v1', 'kind: Service', 'metadata:', `  name: ${app}`, 'spec:', '  selector:', `    app: ${app}`, '  ports:', '    - port: 80', ''].join('\n');

/** Two apps, each a base and three overlays (namespace, prefix, labels), as workspace files. */
function twoApps(): Map<string, string> {
  const files = new Map<string, string>();
  for (const app of ['shop', 'blog']) {
    files.set(`file:///w/${app}/base/kustomization.yaml`, 'resources:\n  - deployment.yaml\n  - service.yaml\nlabels:\n  - pairs: { part-of: ' + app + ' }\n');
    files.set(`file:///w/${app}/base/deployment.yaml`, deployment(app, app));
    files.set(`file:///w/${app}/base/service.yaml`, service(app));
    for (const o of ['dev', 'staging', 'prod'])
      files.set(
        `file:///w/${app}/overlays/${o}/kustomization.yaml`,
        `namespace: ${app}-${o}\nnamePrefix: ${o}-\nresources:\n  - ../../base\nlabels:\n  - pairs: { env: ${o} }\n`,
      );
  }
  return files;
}

describe('an included kustomization is built once for the overlays that include it', () => {
  it('renders every random layout as it renders alone, with the builds shared across its roots', () => {
    const fsys = diskReader;
    let shared = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const dirs = writeRandomCase(join(temp, `case${seed}`), seed).map((d) => pathToFileURL(d).href);
      const caches = { parsed: new Map(), builds: new Map() } as { parsed: ParseCache; builds: BuildCache };
      // twice over: the second round uses only kept builds
      for (const dir of [...dirs, ...dirs]) assert.deepEqual(outcome(fsys, dir, caches), outcome(fsys, dir), `case ${seed}: ${dir}`);
      shared += caches.builds.size;
    }
    assert.ok(shared >= 120, `bases were kept and reused (${shared} kept builds)`);
  });

  it('a kept build follows edits of what it read: a base file, its kustomization, a file added to its folder', () => {
    const files = twoApps();
    const caches = { parsed: new Map(), builds: new Map() } as { parsed: ParseCache; builds: BuildCache };
    const overlays = ['dev', 'staging', 'prod'].map((o) => `file:///w/shop/overlays/${o}`);
    const check = (what: string) => {
      const fsys = readerOf([...files].map(([uri, text]) => ({ uri, text })));
      for (const dir of overlays) assert.deepEqual(outcome(fsys, dir, caches), outcome(fsys, dir), `${what}: ${dir}`);
    };
    check('first');
    files.set('file:///w/shop/base/deployment.yaml', deployment('shop', 'shop-canary'));
    check('a base file edited');
    files.set('file:///w/shop/base/kustomization.yaml', 'namePrefix: b-\nresources:\n  - deployment.yaml\n  - service.yaml\n  - extra.yaml\n');
    check('the kustomization lists a file that is not there (the build fails)');
    files.set('file:///w/shop/base/extra.yaml', service('extra'));
    check('the file is added');
    files.set('file:///w/shop/base/Kustomization', 'resources: []\n');
    check('a second kustomization file in the folder (the build fails)');
    files.delete('file:///w/shop/base/Kustomization');
    files.set('file:///w/shop/base/kustomization.yaml', 'resources:\n  - ../../shop/overlays/dev\n');
    check('the base includes an overlay that includes it (a cycle)');
  });
});

describe("a kept build's objects are printed once for the overlays that leave them as they are", () => {
  it('prints what each overlay changed deep inside an included object, and the rest as the kept build printed it', () => {
    const schema = (depth: number): string[] =>
      depth ? ['type: object', 'properties:', ...['a', 'b'].flatMap((k) => [`  ${k}:`, ...schema(depth - 1).map((l) => '    ' + l)])] : ['type: string'];
    const files = new Map<string, string>([
      ['file:///w/crds/kustomization.yaml', 'resources:\n  - widget.yaml\n'],
      [
        'file:///w/crds/widget.yaml',
        ['apiVersion: example.com/v1', 'kind: Widget', 'metadata:', '  name: w', 'spec:', ...schema(4).map((l) => '  ' + l), ''].join('\n'),
      ],
      ['file:///w/plain/kustomization.yaml', 'resources:\n  - ../crds\nlabels:\n  - pairs: { env: plain }\n'],
      [
        'file:///w/patched/kustomization.yaml',
        'resources:\n  - ../crds\npatches:\n  - target: { kind: Widget }\n    patch: |-\n      - op: replace\n        path: /spec/properties/a/properties/b/type\n        value: array\n',
      ],
      ['file:///w/indented/kustomization.yaml', 'resources:\n  - ../crds\nnamespace: n\nlabels:\n  - pairs: { env: indented }\n    includeTemplates: true\n'],
    ]);
    const fsys = readerOf([...files].map(([uri, text]) => ({ uri, text })));
    const caches = { parsed: new Map(), builds: new Map() } as { parsed: ParseCache; builds: BuildCache };
    const roots = ['plain', 'patched', 'indented'].map((d) => `file:///w/${d}`);
    for (const dir of [...roots, ...roots.reverse()]) assert.deepEqual(outcome(fsys, dir, caches), outcome(fsys, dir), dir);
    const patched = outcome(fsys, 'file:///w/patched', caches).rendered!.text;
    assert.match(patched, /\n {8}b:\n {10}type: array\n/);
    assert.equal((patched.match(/type: object/g) ?? []).length, 14, 'the rest as the base wrote it');
    assert.equal((outcome(fsys, 'file:///w/plain', caches).rendered!.text.match(/type: object/g) ?? []).length, 15);
  });
});

describe('an edit in a base leaves what it does not reach unchanged', () => {
  it('files of other roots and their findings stay the same objects, and the findings equal a fresh analysis', () => {
    const files = twoApps();
    const ws = createWorkspace();
    ws.replaceDisk(files, []);
    const first = ws.snapshot();
    const before = diagnosticsFor(first.analysis);
    assert.ok(
      before.some((f) => f.code === 'kustomize-name-not-rewritten' && f.uri.includes('/blog/')),
      'the fixture has a finding in blog',
    );
    const uri = 'file:///w/shop/base/deployment.yaml';
    ws.open(uri, deployment('shop', 'shop-canary'), 1);
    const second = ws.snapshot();
    const after = diagnosticsFor(second.analysis, second.earlier);
    const byUri = new Map(first.analysis.cluster.files.map((f) => [f.uri, f]));
    const changed = second.analysis.cluster.files.filter((f) => byUri.get(f.uri) !== f).map((f) => f.uri.slice('file:///w/'.length));
    assert.deepEqual(
      changed.sort(),
      [
        'shop/base/deployment.yaml',
        'shop/overlays/dev/kustomization.yaml#rendered',
        'shop/overlays/prod/kustomization.yaml#rendered',
        'shop/overlays/staging/kustomization.yaml#rendered',
      ].sort(),
    );
    const blogBefore = before.filter((f) => f.uri.includes('/blog/'));
    const blogAfter = after.filter((f) => f.uri.includes('/blog/'));
    assert.ok(blogBefore.length > 0);
    assert.equal(blogAfter.length, blogBefore.length);
    assert.ok(
      blogAfter.every((f, i) => f === blogBefore[i]),
      "blog's findings are the same objects",
    );
    assert.ok(
      after.some((f) => f.code === 'service-selector-no-match' && f.uri === 'file:///w/shop/base/service.yaml'),
      'the edit is seen',
    );
    const edited = new Map(files).set(uri, deployment('shop', 'shop-canary'));
    assert.deepEqual(after, diagnosticsFromScratch(analyzeTexts([...edited].map(([u, text]) => ({ uri: u, text })))));
  });

  it('an edit that changes nothing a build prints parses none of it again; one that moves its sources moves only the map', () => {
    const files = twoApps();
    const ws = createWorkspace();
    ws.replaceDisk(files, []);
    const first = ws.snapshot();
    const renders = (s: typeof first) => new Map(s.analysis.cluster.files.filter((f) => f.rendered && f.uri.includes('/shop/')).map((f) => [f.uri, f]));
    const before = renders(first);
    assert.equal(before.size, 3);
    const uri = 'file:///w/shop/base/deployment.yaml';
    const check = (s: typeof first, text: string, what: string) => {
      const edited = new Map(files).set(uri, text);
      assert.deepEqual(diagnosticsFor(s.analysis, s.earlier), diagnosticsFromScratch(analyzeTexts([...edited].map(([u, t]) => ({ uri: u, text: t })))), what);
    };
    // a comment after the objects: the same text, the same map, so the same files
    const trailing = deployment('shop', 'shop') + '# reviewed\n';
    ws.open(uri, trailing, 1);
    const second = ws.snapshot();
    for (const [u, f] of renders(second)) assert.equal(f, before.get(u), `${u} is the same file`);
    check(second, trailing, 'a trailing comment');
    // a comment before them: the same text, every source line one further down; the objects are not read again
    const leading = '# reviewed\n' + deployment('shop', 'shop');
    ws.open(uri, leading, 2);
    const third = ws.snapshot();
    for (const [u, f] of renders(third)) {
      const old = before.get(u)!;
      assert.notEqual(f, old, `${u}: a new source map`);
      assert.equal(f.text, old.text);
      assert.equal(f.resources, old.resources, `${u}: its objects are the ones read before`);
      assert.notDeepEqual([...f.rendered!.text.mappings], [...old.rendered!.text.mappings]);
    }
    check(third, leading, 'a leading comment');
  });
});
