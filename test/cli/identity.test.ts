// Finding identities (features/findingIdentity.ts) as `check` shows them: in JSON and as SARIF partialFingerprints,
// the same while lines move and objects are added around a mistake, different for another mistake.

import { tempDir } from '../helpers/tempDirs';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { before, describe, it } from 'node:test';
import { findingIdentities, fingerprintOf } from '../../server/src/features/findingIdentity';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { sarifViolations } from '../helpers/sarifSchema';
import { buildCli, runCli } from './builtCli';

const deployment = (name: string, containers = ['web']) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: shop
spec:
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
${containers.map((c) => `        - name: ${c}\n          image: nginx\n          ports:\n            - name: http\n              containerPort: 8080\n`).join('')}`;

const service = (name: string, selector: string, targetPort = 'http') => `apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: shop
spec:
  selector:
    app: ${selector}
  ports:
    - port: 80
      targetPort: ${targetPort}
`;

interface Diagnostic {
  file: string;
  code: string;
  range: { start: { line: number } };
  identity: { rule: string; object: { kind: string; namespace: string; name: string } | null; path: string; value: string };
  fingerprint: string;
}

function write(files: Record<string, string>): string {
  const dir = tempDir('kube-netlens-identity-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function check(dir: string): Diagnostic[] {
  const run = runCli(['check', '--format', 'json', '--fail-on', 'never', '.'], { cwd: dir });
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
}

const byCode = (ds: readonly Diagnostic[], code: string) => ds.filter((d) => d.code === code);

describe('finding identity', () => {
  before(() => {
    buildCli();
  });

  it('names the rule, the object, the field path and the value at fault', () => {
    const [finding] = byCode(check(write({ 'app.yaml': `${deployment('web')}---\n${service('web', 'wbe')}` })), 'service-selector-no-match');
    assert.deepEqual(finding.identity, {
      rule: 'service-selector-no-match',
      object: { kind: 'Service', namespace: 'shop', name: 'web' },
      path: 'spec.selector.app',
      value: 'wbe',
    });
    assert.match(finding.fingerprint, /^[0-9a-f]{32}$/);
  });

  it('keeps fingerprints while lines move and unrelated objects are added, and gives another mistake another one', () => {
    const before = check(write({ 'app.yaml': `${deployment('web')}---\n${service('web', 'wbe')}---\n${service('api', 'web', 'htp')}` }));
    // the same mistakes after comments, a reordering of the documents and new objects before them, in the file and beside it
    const after = check(
      write({
        'app.yaml': `# the shop\n\n${deployment('cart', ['cart', 'sidecar'])}---\n${service('api', 'web', 'htp')}---\n# moved down\n${deployment('web')}---\n\n${service('web', 'wbe')}`,
        'more.yaml': `${deployment('db')}---\n${service('db', 'dbb')}`,
      }),
    );
    for (const code of ['service-selector-no-match', 'service-target-port-unresolved']) {
      const was = byCode(before, code).map((d) => d.fingerprint);
      assert.ok(was.length, `${code} found before`);
      const now = byCode(after, code);
      for (const fp of was)
        assert.ok(
          now.some((d) => d.fingerprint === fp),
          `${code} keeps its fingerprint`,
        );
      assert.notDeepEqual(
        byCode(before, code).map((d) => d.range.start.line),
        now.filter((d) => was.includes(d.fingerprint)).map((d) => d.range.start.line),
        'the lines did move',
      );
    }
    const db = after.find((d) => d.code === 'service-selector-no-match' && d.identity.object?.name === 'db');
    assert.ok(db && !before.some((d) => d.fingerprint === db.fingerprint), 'another object’s mistake has another fingerprint');
  });

  it('names sequence items by their name: adding a container before another keeps the path of the other', () => {
    // the API server rejects port 70000 (semantics §6): a finding on web's port
    const text = (containers: string[]) => deployment('web', containers).replace(/(- name: web\n(?:.*\n){3}.*containerPort: )8080/, '$170000');
    const ids = (containers: string[]) => {
      const analysis = analyzeTexts([{ uri: 'a.yaml', text: text(containers) }]);
      const findings = diagnosticsFor(analysis);
      return findingIdentities(findings, analysis, () => text(containers)).map((id) => ({ id, fp: fingerprintOf(id) }));
    };
    const one = ids(['web']);
    const two = ids(['init', 'web']);
    assert.ok(one.length, 'a finding on the container port');
    assert.ok(one[0].id.path.startsWith('spec.template.spec.containers[name=web].ports[name=http]'), one[0].id.path);
    assert.ok(
      two.some((t) => t.fp === one[0].fp),
      'the finding in web keeps its fingerprint when a container is added before it',
    );
  });

  it('writes valid SARIF with every rule declared and nothing but the log on stdout when there are no findings', () => {
    const dir = write({ 'app.yaml': `${deployment('web')}---\n${service('web', 'web')}` });
    const run = runCli(['check', '--format', 'sarif', '--help-uri', 'https://docs.example.com/kube-netlens/rules', '.'], { cwd: dir });
    assert.equal(run.status, 0, run.stderr);
    const sarif = JSON.parse(run.stdout);
    assert.deepEqual(sarifViolations(sarif), []);
    assert.deepEqual(sarif.runs[0].results, []);
    const driverRules = sarif.runs[0].tool.driver.rules as { id: string; helpUri: string }[];
    assert.ok(driverRules.some((r) => r.id === 'service-selector-no-match'));
    for (const r of driverRules) assert.equal(r.helpUri, `https://docs.example.com/kube-netlens/rules#${r.id}`);
  });

  it('puts each result’s fingerprint into SARIF partialFingerprints, the same as in JSON', () => {
    const dir = write({ 'app.yaml': `${deployment('web')}---\n${service('web', 'wbe')}` });
    const run = runCli(['check', '--format', 'sarif', '.'], { cwd: dir });
    const sarif = JSON.parse(run.stdout);
    assert.deepEqual(sarifViolations(sarif), []);
    const json = check(dir);
    assert.deepEqual(
      sarif.runs[0].results.map((r: { partialFingerprints: Record<string, string> }) => r.partialFingerprints['kubeNetlensIdentity/v1']),
      json.map((d) => d.fingerprint),
    );
  });

  it('refuses a --help-uri that is not an absolute URL', () => {
    const run = runCli(['check', '--format', 'sarif', '--help-uri', 'docs/rules.md', '.']);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /--help-uri 'docs\/rules.md' is not an absolute http\(s\) URL/);
  });
});

describe('finding identity on renders', () => {
  before(() => {
    buildCli();
  });

  const base = (extra = '') => `${extra}apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: wbe}
  ports: [{port: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: main, image: nginx}]}
`;
  const overlay = (name: string, extra = '') => `resources: [../../base]\nnamePrefix: ${name}-\nnamespace: ${name}\n${extra}`;

  function kustomizeTree(files: Record<string, string>): string {
    const dir = tempDir('kube-netlens-identity-builds-');
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, dirname(name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  }

  interface RenderedDiagnostic extends Diagnostic {
    identity: Diagnostic['identity'] & { build?: string };
    otherIdentities?: { identity: Diagnostic['identity'] & { build?: string }; fingerprint: string }[];
  }
  const all = (d: RenderedDiagnostic) =>
    [d, ...(d.otherIdentities ?? [])].map((x) => ({ build: x.identity.build, object: x.identity.object, fingerprint: x.fingerprint }));
  const files = (overlays: string[], baseText = base()): Record<string, string> => ({
    'base/kustomization.yaml': 'resources: [app.yaml]\n',
    'base/app.yaml': baseText,
    ...Object.fromEntries(overlays.map((o) => [`overlays/${o}/kustomization.yaml`, overlay(o)])),
  });

  it('gives a mistake in a base one identity per build, with the build and the rendered object, distinct per build', () => {
    const found = byCode(check(kustomizeTree(files(['a', 'b']))), 'service-selector-no-match') as RenderedDiagnostic[];
    assert.equal(found.length, 1, 'one finding on the base line, naming both builds');
    const ids = all(found[0]);
    assert.deepEqual(
      ids.map((i) => [i.build, i.object]),
      [
        ['overlays/a', { kind: 'Service', namespace: 'a', name: 'a-web' }],
        ['overlays/b', { kind: 'Service', namespace: 'b', name: 'b-web' }],
      ],
    );
    assert.notEqual(ids[0].fingerprint, ids[1].fingerprint, 'distinct per build');
    assert.deepEqual(found[0].identity, {
      rule: 'service-selector-no-match',
      object: { kind: 'Service', namespace: 'a', name: 'a-web' },
      path: 'spec.selector.app',
      value: 'wbe',
      build: 'overlays/a',
    });
  });

  it('keeps the fingerprints of every build while the base’s lines move and unrelated objects are added', () => {
    const before = all(byCode(check(kustomizeTree(files(['a', 'b']))), 'service-selector-no-match')[0] as RenderedDiagnostic);
    const unrelated = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: b}\n---\n# moved down\n\n`;
    const moved = check(kustomizeTree(files(['a', 'b'], base(unrelated))));
    const after = byCode(moved, 'service-selector-no-match') as RenderedDiagnostic[];
    assert.equal(after.length, 1);
    assert.notEqual(after[0].range.start.line, 4, 'the line did move');
    assert.deepEqual(all(after[0]), before);
  });

  it('gives a finding in one build only that build’s identity, apart from the shared one', () => {
    const tree = files(['a', 'b']);
    // b's patch breaks the Deployment's labels there: b's Service (fixed by the patch) selects nothing, a's is the base's
    tree['overlays/b/kustomization.yaml'] = overlay('b', 'patches:\n  - path: svc.yaml\n');
    tree['overlays/b/svc.yaml'] = 'apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: webb}\n';
    const found = byCode(check(kustomizeTree(tree)), 'service-selector-no-match') as RenderedDiagnostic[];
    assert.deepEqual(
      found.map((d) => [d.file, all(d).map((i) => i.build)]),
      [
        ['base/app.yaml', ['overlays/a']],
        ['overlays/b/svc.yaml', ['overlays/b']],
      ],
    );
    assert.equal(found[1].identity.value, 'webb');
  });

  it('holds back a known base mistake when an overlay is added, and records the new build on rewrite', () => {
    const dir = kustomizeTree(files(['a', 'b']));
    assert.equal(runCli(['check', '--write-baseline', 'baseline.json', '.'], { cwd: dir }).status, 0);
    assert.equal((JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8')) as { findings: unknown[] }).findings.length, 2, 'one entry per build');
    mkdirSync(join(dir, 'overlays', 'c'));
    writeFileSync(join(dir, 'overlays', 'c', 'kustomization.yaml'), overlay('c'));
    const run = runCli(['check', '--fail-on', 'warning', '--baseline', 'baseline.json', '.'], { cwd: dir });
    assert.equal(run.status, 0, run.stdout);
    assert.match(run.stderr, /1 known finding held back by the baseline baseline\.json; 0 new findings reported/);
    assert.doesNotMatch(run.stderr, /no finding matches/);
    assert.equal(runCli(['check', '--baseline', 'baseline.json', '--write-baseline', 'baseline.json', '.'], { cwd: dir }).status, 0);
    const entries = (JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8')) as { findings: { identity: { build: string } }[] }).findings;
    assert.deepEqual(entries.map((e) => e.identity.build).sort(), ['overlays/a', 'overlays/b', 'overlays/c']);
  });
});
