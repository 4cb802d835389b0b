// Suppressions in `check`: the kube-netlens.io/ignore annotation on an object's metadata and on a workload's pod
// template, its required reason, notes on malformed and unused suppressions, --no-ignores, and SARIF suppressions.

import { tempDir } from '../helpers/tempDirs';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { sarifViolations } from '../helpers/sarifSchema';
import { buildCli, runCli } from './builtCli';

const deployment = (templateAnnotations = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: wbe}
${templateAnnotations}    spec:
      containers: [{name: main, image: nginx}]
`;

const service = (annotations = '') => `apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
${annotations}spec:
  selector: {app: operator-made}
  ports: [{port: 80}]
`;

function workspace(text: string): string {
  const dir = tempDir('kube-netlens-ignores-');
  writeFileSync(join(dir, 'app.yaml'), text);
  return dir;
}

interface Json {
  diagnostics: { code: string; severity: string; message: string; range: { start: { line: number } } }[];
  ignored: { code: string; reason: string; by: string; fingerprint: string }[];
}

const json = (dir: string, ...args: string[]) => {
  const run = runCli(['check', '--format', 'json', '--fail-on', 'never', ...args, '.'], { cwd: dir });
  assert.equal(run.status, 0, run.stderr);
  return { out: JSON.parse(run.stdout) as Json, stderr: run.stderr };
};
const codes = (out: Json) => out.diagnostics.map((d) => d.code).sort();

describe('check and kube-netlens.io/ignore', () => {
  before(() => {
    buildCli();
  });

  it('ignores the named codes on the annotated object, says how many and where, and --no-ignores reports them', () => {
    const annotated = `  annotations:\n    kube-netlens.io/ignore: "service-selector-no-match: the operator creates these pods"\n`;
    const dir = workspace(`${deployment()}---\n${service(annotated)}`);
    const { out, stderr } = json(dir);
    assert.deepEqual(codes(out), ['workload-selector-mismatch'], 'the Deployment’s own mistake is still reported');
    assert.deepEqual(
      out.ignored.map((i) => [i.code, i.reason, i.by]),
      [['service-selector-no-match', 'the operator creates these pods', 'annotation on Service shop/web']],
    );
    assert.match(stderr, /ignored 1 finding \(--no-ignores reports them\): 1 by the annotation on Service shop\/web/);
    const text = runCli(['check', '--fail-on', 'never', '.'], { cwd: dir });
    assert.match(text.stdout, /\nignored 1 finding \(--no-ignores reports them\): 1 by the annotation on Service shop\/web\n$/);
    const strict = json(dir, '--no-ignores');
    assert.deepEqual(codes(strict.out), ['service-selector-no-match', 'workload-selector-mismatch']);
    assert.deepEqual(strict.out.ignored, []);
  });

  it('honours the annotation on a workload’s pod template, several codes and several lines', () => {
    const template = `      annotations:\n        kube-netlens.io/ignore: |\n          workload-selector-mismatch, service-selector-no-match: a migration in progress\n`;
    const dir = workspace(`${deployment(template)}---\n${service()}`);
    const { out } = json(dir);
    // the Service's finding is not on the Deployment: service-selector-no-match is unused there, and said so
    assert.deepEqual(codes(out), ['ignore-unused', 'service-selector-no-match']);
    assert.match(
      out.diagnostics.find((d) => d.code === 'ignore-unused')!.message,
      /ignores service-selector-no-match on this Deployment, but no such finding is here any more .*remove that code/,
    );
    assert.deepEqual(
      out.ignored.map((i) => [i.code, i.by]),
      [['workload-selector-mismatch', 'annotation on the pod template of Deployment shop/web']],
    );
  });

  it('reports a suppression without a reason, or naming no code, and ignores nothing by it', () => {
    const dir = workspace(
      `${deployment()}---\n${service(`  annotations:\n    kube-netlens.io/ignore: "service-selector-no-match"\n`)}---\n${service(`  annotations:\n    kube-netlens.io/ignore: "service-selector-nomatch: typo"\n`).replace('name: web', 'name: api')}`,
    );
    const { out } = json(dir);
    const invalid = out.diagnostics.filter((d) => d.code === 'ignore-invalid');
    assert.equal(invalid.length, 2, JSON.stringify(out.diagnostics));
    assert.ok(invalid.every((d) => d.severity === 'warning'));
    assert.match(invalid[0].message, /gives no reason after "service-selector-no-match:"|needs the codes and a reason/);
    assert.match(invalid[1].message, /names "service-selector-nomatch", which is no code of kube-netlens/);
    assert.equal(out.diagnostics.filter((d) => d.code === 'service-selector-no-match').length, 2);
  });

  it('reports a suppression that no finding matches any more, as information on the annotation', () => {
    const text = `${deployment().replace('app: wbe', 'app: web')}---\n${service(`  annotations:\n    kube-netlens.io/ignore: "service-selector-no-match: pods come later"\n`).replace('operator-made', 'web')}`;
    const { out } = json(workspace(text));
    assert.deepEqual(codes(out), ['ignore-unused']);
    const [unused] = out.diagnostics;
    assert.equal(unused.severity, 'information');
    assert.equal(
      unused.range.start.line,
      text.split('\n').findIndex((l) => l.includes('kube-netlens.io/ignore')),
    );
    assert.match(unused.message, /ignores service-selector-no-match on this Service, but no such finding is here any more.*pods come later/);
    assert.deepEqual(codes(json(workspace(text), '--no-ignores').out), [], '--no-ignores reads no suppression');
  });

  it('writes ignored findings into SARIF as accepted in-source suppressions with the reason', () => {
    const dir = workspace(
      `${deployment()}---\n${service(`  annotations:\n    kube-netlens.io/ignore: "service-selector-no-match: the operator creates these pods"\n`)}`,
    );
    const run = runCli(['check', '--format', 'sarif', '.'], { cwd: dir });
    const sarif = JSON.parse(run.stdout);
    assert.deepEqual(sarifViolations(sarif), []);
    const suppressed = sarif.runs[0].results.filter((r: { suppressions?: unknown[] }) => r.suppressions);
    assert.equal(suppressed.length, 1);
    assert.equal(suppressed[0].ruleId, 'service-selector-no-match');
    assert.deepEqual(suppressed[0].suppressions, [
      { kind: 'inSource', status: 'accepted', justification: 'the operator creates these pods (annotation on Service shop/web)' },
    ]);
    assert.equal(run.status, 1, 'the Deployment’s error still fails the run');
  });
});
