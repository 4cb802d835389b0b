// `kube-netlens build DIR`: the rendered objects of a kustomization, as YAML documents or one JSON array, and exit 2
// with one clear message when DIR holds no kustomization or the build fails.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { buildCli, repoRoot, runCli } from './builtCli';

const fixtures = join(repoRoot, 'test', 'fixtures', 'kustomize');

describe('kube-netlens build', () => {
  before(() => {
    buildCli();
  });

  it('prints the objects as YAML documents separated by ---, in kustomize build order', () => {
    const run = runCli(['build', join(fixtures, 'shop', 'overlays', 'prod')]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, '');
    const docs = parseAllDocuments(run.stdout).map((d) => d.toJS() as { kind: string; metadata: { name: string } });
    assert.deepEqual(
      docs.map((d) => d.kind),
      ['Namespace', 'ConfigMap', 'Secret', 'Service', 'Service', 'Deployment', 'StatefulSet', 'Ingress'],
    );
    assert.equal(run.stdout.split('\n').filter((l) => l === '---').length, docs.length - 1);
  });

  it('prints one JSON array with --format json', () => {
    const run = runCli(['build', '--format', 'json', join(fixtures, 'labels', 'selectors')]);
    assert.equal(run.status, 0, run.stderr);
    const objects = JSON.parse(run.stdout) as { kind: string; spec?: { selector?: unknown } }[];
    assert.ok(Array.isArray(objects));
    assert.deepEqual(objects.find((o) => o.kind === 'Service')?.spec?.selector, { app: 'api', team: 'payments' });
  });

  it('reads integers in JSON output as Kustomize does: 0444 is octal (292), and a last block scalar without a final newline has none', () => {
    const run = runCli(['build', '--format', 'json', join(fixtures, 'fidelity', 'scalars')]);
    assert.equal(run.status, 0, run.stderr);
    const objects = JSON.parse(run.stdout) as {
      kind: string;
      spec?: { volumes: { configMap: { defaultMode: number; items: { mode: number }[] } }[]; containers: { args: string[] }[] };
    }[];
    const pod = objects.find((o) => o.kind === 'Pod');
    assert.equal(pod?.spec?.volumes[0].configMap.defaultMode, 0o755);
    assert.equal(pod?.spec?.volumes[0].configMap.items[0].mode, 0o444);
    assert.deepEqual(pod?.spec?.containers[0].args, ['echo no final newline']);
  });

  it('exits 2 when the folder holds no kustomization', () => {
    const run = runCli(['build', join(fixtures, 'shop', 'base', '..', '..')]);
    assert.equal(run.status, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /holds no kustomization/);
  });

  it('exits 2 naming the file and line when the build fails or uses what is not evaluated', () => {
    const missing = runCli(['build', join(fixtures, 'problems', 'missing-file')]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /kustomization\.yaml:3: Kustomize build fails: 'missing\.yaml' is neither a file nor a folder/);
    const helm = runCli(['build', join(fixtures, 'problems', 'helm')]);
    assert.equal(helm.status, 2);
    assert.match(helm.stderr, /kustomization\.yaml:1: Not analysed as a Kustomize build: Helm charts are not inflated/);
  });

  it('is in the help', () => {
    assert.match(runCli(['--help']).stdout, /kube-netlens build DIR/);
    assert.match(runCli(['build', '--help']).stdout, /--format yaml\|json/);
    const two = runCli(['build', 'a', 'b']);
    assert.equal(two.status, 2);
    assert.match(two.stderr, /build needs one folder/);
  });
});
