// Finding identities (features/findingIdentity.ts) as `check` shows them: in JSON and as SARIF partialFingerprints,
// the same while lines move and objects are added around a mistake, different for another mistake.

import { tempDir } from '../helpers/tempDirs';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
    assert.deepEqual(finding.identity, { rule: 'service-selector-no-match', object: { kind: 'Service', namespace: 'shop', name: 'web' }, path: 'spec.selector.app', value: 'wbe' });
    assert.match(finding.fingerprint, /^[0-9a-f]{32}$/);
  });

  it('keeps fingerprints while lines move and unrelated objects are added, and gives another mistake another one', () => {
    const before = check(write({ 'app.yaml': `${deployment('web')}---\n${service('web', 'wbe')}---\n${service('api', 'web', 'htp')}` }));
    // the same mistakes after comments, a reordering of the documents and new objects before them, in the file and beside it
    const after = check(write({
      'app.yaml': `# the shop\n\n${deployment('cart', ['cart', 'sidecar'])}---\n${service('api', 'web', 'htp')}---\n# moved down\n${deployment('web')}---\n\n${service('web', 'wbe')}`,
      'more.yaml': `${deployment('db')}---\n${service('db', 'dbb')}`,
    }));
    for (const code of ['service-selector-no-match', 'service-target-port-unresolved']) {
      const was = byCode(before, code).map((d) => d.fingerprint);
      assert.ok(was.length, `${code} found before`);
      const now = byCode(after, code);
      for (const fp of was) assert.ok(now.some((d) => d.fingerprint === fp), `${code} keeps its fingerprint`);
      assert.notDeepEqual(byCode(before, code).map((d) => d.range.start.line), now.filter((d) => was.includes(d.fingerprint)).map((d) => d.range.start.line), 'the lines did move');
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
    assert.ok(two.some((t) => t.fp === one[0].fp), 'the finding in web keeps its fingerprint when a container is added before it');
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
