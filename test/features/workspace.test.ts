// The workspace: incremental snapshots equal a from-scratch analysis after any edit sequence, an edit reparses
// only the edited file, settings are read defensively, globs and the size limit decide which files are indexed.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { WorkDoneProgressReporter } from 'vscode-languageserver/node';
import fc from 'fast-check';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { discoverFiles } from '../../server/src/workspace/discoverFiles';
import { indexFolders } from '../../server/src/lsp/indexFolders';
import { globMatcher } from '../../server/src/workspace/glob';
import { defaultFileOptions, readSettings } from '../../server/src/workspace/settings';
import { createWorkspace } from '../../server/src/workspace/workspace';

const service = (sel: string) =>
  `apiVersion: v1\nkind: Service\nmetadata: {name: api}\nspec:\n  selector: {app: ${sel}}\n  ports: [{port: 80, targetPort: web}]\n`;
const deployment = (label: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  selector: {matchLabels: {app: ${label}}}\n  template:\n    metadata: {labels: {app: ${label}}}\n    spec:\n      containers: [{name: a, image: a, ports: [{name: web, containerPort: 8080}]}]\n`;
const statefulSet = (svc: string) =>
  `apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: ${svc}\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec: {containers: [{name: d, image: d}]}\n`;

const uris = ['file:///w/a.yaml', 'file:///w/b.yaml', 'file:///w/c.yaml'];
const contents = [service('api'), service('web'), deployment('api'), deployment('web'), statefulSet('api'), statefulSet('apii'), 'not: [valid', ''];

const summary = (findings: ReturnType<typeof diagnosticsFor>) => findings.map((f) => `${f.uri}:${f.span.start}:${f.code}:${f.severity}`).sort();

describe('workspace', () => {
  it('incremental snapshots equal a from-scratch analysis after random edits', () => {
    const op = fc.record({
      kind: fc.constantFrom('disk', 'open', 'change', 'close', 'delete'),
      uri: fc.constantFrom(...uris),
      text: fc.constantFrom(...contents),
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 25 }), (ops) => {
        const ws = createWorkspace();
        const disk = new Map<string, string>();
        const overlays = new Map<string, string>();
        let version = 0;
        for (const o of ops) {
          if (o.kind === 'disk') {
            disk.set(o.uri, o.text);
            ws.setDiskText(o.uri, o.text);
          } else if (o.kind === 'delete') {
            disk.delete(o.uri);
            ws.deleteDiskText(o.uri);
          } else if (o.kind === 'open' || (o.kind === 'change' && overlays.has(o.uri))) {
            overlays.set(o.uri, o.text);
            if (o.kind === 'open') ws.open(o.uri, o.text, ++version);
            else ws.change(o.uri, o.text, ++version);
          } else if (o.kind === 'close') {
            overlays.delete(o.uri);
            ws.close(o.uri);
          }
          // Interleave snapshots so memoized parses are reused across edits.
          if (version % 3 === 0) ws.snapshot();
        }
        const effective = new Map([...disk, ...overlays]);
        const scratch = analyzeTexts([...effective].map(([uri, text]) => ({ uri, text })));
        assert.deepEqual(summary(diagnosticsFor(ws.snapshot().analysis)), summary(diagnosticsFor(scratch)));
      }),
      { numRuns: 150 },
    );
  });

  it('an edit reparses only the edited file, and a snapshot is reused until something changes', () => {
    const ws = createWorkspace();
    ws.setDiskText(uris[0], service('api'));
    ws.setDiskText(uris[1], deployment('api'));
    const first = ws.snapshot();
    assert.equal(ws.snapshot(), first);
    ws.open(uris[0], service('web'), 1);
    const second = ws.snapshot();
    assert.notEqual(second, first);
    const fileOf = (s: typeof first, uri: string) => s.analysis.cluster.files.find((f) => f.uri === uri);
    assert.equal(fileOf(second, uris[1]), fileOf(first, uris[1]));
    assert.notEqual(fileOf(second, uris[0]), fileOf(first, uris[0]));
    assert.equal(second.documentVersion(uris[0]), 1);
    ws.close(uris[0]);
    assert.equal(ws.snapshot().text(uris[0]), service('api'));
  });

  it('counts resources and skipped template files', () => {
    const ws = createWorkspace();
    ws.replaceDisk(
      new Map([
        [uris[0], service('api')],
        [uris[1], 'metadata:\n  name: {{ .Release.Name }}\n'],
      ]),
      ['file:///w/huge.yaml'],
    );
    assert.deepEqual(ws.snapshot().stats, { files: 2, resources: 1, skippedTemplates: 1, skippedTests: 0, skippedBuildInputs: 0, skippedOther: 1 });
  });

  it("counts test suites' files apart, and an edit that makes a file a test changes its neighbours' roles", () => {
    const ws = createWorkspace();
    const test = 'apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\nspec: {steps: []}\n';
    ws.replaceDisk(
      new Map([
        ['file:///w/e2e/t/service.yaml', service('api')],
        ['file:///w/e2e/t/steps.yaml', 'steps: []\n'],
        ['file:///w/pkg/testdata/svc.yaml', service('api')],
        ['file:///w/deploy.yaml', deployment('api')],
      ]),
      [],
    );
    assert.deepEqual(ws.snapshot().stats, { files: 4, resources: 2, skippedTemplates: 0, skippedTests: 1, skippedBuildInputs: 0, skippedOther: 0 });
    ws.open('file:///w/e2e/t/steps.yaml', test, 1);
    assert.deepEqual(ws.snapshot().stats, { files: 4, resources: 1, skippedTemplates: 0, skippedTests: 3, skippedBuildInputs: 0, skippedOther: 0 });
    ws.change('file:///w/e2e/t/steps.yaml', 'steps: []\n', 2);
    assert.deepEqual(ws.snapshot().stats, { files: 4, resources: 2, skippedTemplates: 0, skippedTests: 1, skippedBuildInputs: 0, skippedOther: 0 });
  });

  it('a new default namespace reparses every file', () => {
    const ws = createWorkspace();
    ws.setDiskText(uris[0], service('api'));
    assert.equal(ws.snapshot().analysis.cluster.services[0].namespace, 'default');
    ws.setSettings(readSettings({ defaultNamespace: 'shop' }));
    assert.equal(ws.snapshot().analysis.cluster.services[0].namespace, 'shop');
  });
});

describe('settings', () => {
  it('reads every setting and falls back to defaults for malformed values', () => {
    const s = readSettings({
      clusterDomain: 'corp.internal.',
      nodePortRange: '20000-22767',
      proxyMode: 'ipvs',
      cni: 'cilium',
      coreDns: { podsMode: 'verified', endpointPodNames: true },
      rules: { a: 'error', b: 'off', c: 'loud' },
      files: { include: ['k8s/**/*.yaml'], exclude: 'nope', maxSizeKB: 64 },
    });
    assert.equal(s.analysis.clusterDomain, 'corp.internal');
    assert.deepEqual(s.analysis.nodePortRange, [20000, 22767]);
    assert.equal(s.analysis.proxyMode, 'ipvs');
    assert.equal(s.analysis.cni, 'cilium');
    assert.deepEqual(s.analysis.coreDns, { podsMode: 'verified', endpointPodNames: true });
    assert.deepEqual(s.analysis.rules, { a: 'error', b: 'off' });
    assert.deepEqual(s.files, { include: ['k8s/**/*.yaml'], exclude: defaultFileOptions.exclude, maxSizeKB: 64 });
    const d = readSettings(undefined);
    assert.deepEqual(readSettings({ nodePortRange: '40000-30000', proxyMode: 7 }), d);
  });
});

describe('file discovery', () => {
  it('matches globs the way VS Code settings do', () => {
    const yaml = globMatcher(['**/*.{yaml,yml}']);
    assert.ok(yaml('a.yaml') && yaml('x/y/b.yml') && !yaml('a.json'));
    const nm = globMatcher(['**/node_modules/**']);
    assert.ok(nm('node_modules/') && nm('a/node_modules/b/c.yaml') && !nm('my_node_modules/x'));
    assert.ok(globMatcher(['deploy/*.yaml'])('deploy/a.yaml') && !globMatcher(['deploy/*.yaml'])('deploy/x/a.yaml'));
  });

  it('honours include, exclude and the size limit (checked on the open file, before reading it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'netlens-discover-'));
    try {
      mkdirSync(join(dir, 'k8s', 'node_modules'), { recursive: true });
      mkdirSync(join(dir, '.git'));
      writeFileSync(join(dir, 'k8s', 'a.yaml'), service('api'));
      writeFileSync(join(dir, 'k8s', 'b.yml'), service('api'));
      writeFileSync(join(dir, 'k8s', 'notes.txt'), 'x');
      writeFileSync(join(dir, 'k8s', 'node_modules', 'c.yaml'), service('api'));
      writeFileSync(join(dir, '.git', 'd.yaml'), service('api'));
      writeFileSync(join(dir, 'big.yaml'), 'a: b\n'.repeat(600));
      const options = { ...defaultFileOptions, maxSizeKB: 2 };
      const found = await discoverFiles(dir, options);
      assert.deepEqual(
        found.files.map((f) => f.slice(dir.length + 1)),
        ['big.yaml', 'k8s/a.yaml', 'k8s/b.yml'],
      );
      const progress = { begin() {}, report() {}, done() {} } as unknown as WorkDoneProgressReporter;
      const indexed = await indexFolders([dir], options, progress, () => false);
      assert.deepEqual(
        [...indexed!.texts.keys()].map((u) => u.slice(u.lastIndexOf('/k8s/') + 1)),
        ['k8s/a.yaml', 'k8s/b.yml'],
      );
      assert.deepEqual(
        indexed!.tooLarge.map((u) => u.slice(u.lastIndexOf('/') + 1)),
        ['big.yaml'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
