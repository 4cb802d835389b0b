// The ingress controller setting (kubeNetlens.ingressController, `ingressController:` in .kube-netlens.yaml): the pods
// ingress-backend-policy-blocked checks the backends against when the workspace describes no controller; a controller
// the workspace describes is used instead, and with neither the rule stays quiet (unknown).

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../server/src/cli/runCli';
import { readIngressController } from '../../server/src/model/config';
import { parseConfigFile } from '../../server/src/model/configFile';
import { settingsWithConfig } from '../../server/src/workspace/projectConfig';
import { readSettings } from '../../server/src/workspace/settings';
import { checkDiagnostics, findingsOf } from '../helpers/checkDiagnostics';
import { loadFixture } from '../helpers/fixture';
import { tempDir } from '../helpers/tempDirs';

const file = join(__dirname, '..', 'fixtures', 'analysis', 'ingress-controller', 'setting.yaml');
const setting = { namespace: 'ingress-nginx', podLabels: { 'app.kubernetes.io/name': 'ingress-nginx' } };
const code = 'ingress-backend-policy-blocked';

describe('the ingress controller setting', () => {
  it('is the controller when the workspace describes none: the blocked backend fires, the admitting one and the unknown one stay quiet', () => {
    checkDiagnostics(loadFixture(file), { ingressController: setting });
  });

  it('without it, no controller is known and the rule stays quiet', () => {
    assert.deepEqual(
      findingsOf(loadFixture(file)).filter((f) => f.code === code),
      [],
    );
  });

  it('other labels: the admitting policy no longer admits the controller', () => {
    const found = findingsOf(loadFixture(file), { ingressController: { namespace: 'ingress-nginx', podLabels: { app: 'other' } } }).filter(
      (f) => f.code === code,
    );
    assert.deepEqual(
      found.map((f) => /behind Service "(\w+)"/.exec(f.message)?.[1]),
      ['web', 'api'],
    );
  });

  it('gives way to a controller the workspace describes', () => {
    const fixture = loadFixture(file);
    const controller =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: traefik, namespace: edge}\nspec:\n  selector: {matchLabels: {app: traefik}}\n  template:\n    metadata: {labels: {app: traefik}}\n    spec: {containers: [{name: traefik, image: traefik:v3.1}]}\n';
    const found = findingsOf(
      { ...fixture, sources: [...fixture.sources, { uri: 'file:///controller.yaml', text: controller }] },
      { ingressController: setting },
    ).filter((f) => f.code === code);
    // Traefik in namespace edge: web-in admits only ingress-nginx's pods; admin-in admits team=edge, which edge
    // (no Namespace manifest) may or may not carry.
    assert.deepEqual(
      found.map((f) => /behind Service "(\w+)"/.exec(f.message)?.[1]),
      ['web', 'api'],
    );
    assert.ok(found.every((f) => f.message.includes('the ingress controller Deployment "edge/traefik"')));
  });

  it('is read from settings strictly: a malformed value is said and ignored', () => {
    assert.deepEqual(readSettings({ ingressController: setting }).analysis.ingressController, setting);
    const bad = readSettings({ ingressController: { namespace: 'Ingress_Nginx', podLabels: { app: 'x' } } });
    assert.equal(bad.analysis.ingressController, undefined);
    assert.deepEqual(bad.warnings, ['kubeNetlens.ingressController.namespace must be a namespace name; the setting is ignored.']);
    assert.equal(readSettings({ ingressController: null }).warnings, undefined);
    assert.deepEqual(readIngressController({ namespace: 'x', podLabels: {} }), {
      error: 'ingressController.podLabels must be a mapping of at least one label to its value',
    });
    assert.deepEqual(readIngressController({ namespace: 'x', podLabels: { 'bad key!': 'v' } }), {
      error: 'ingressController.podLabels: "bad key!" is not a label key',
    });
    assert.deepEqual(readIngressController({ namespace: 'x', podLabels: { tier: 1 } }), {
      error: 'ingressController.podLabels.tier must be a label value (a string of at most 63 characters)',
    });
    assert.deepEqual(readIngressController({ namespace: 'x', podLabels: { a: 'b' }, labels: {} }), {
      error: 'ingressController: unknown key "labels" (the keys are namespace and podLabels)',
    });
  });

  it("says a malformed value in the editor's language", () => {
    const bad = readSettings({ ingressController: { namespace: 'Ingress_Nginx', podLabels: { app: 'x' } }, files: { include: ['{a,b'] } }, false, 'zh-cn');
    assert.deepEqual(bad.warnings, [
      'kubeNetlens.ingressController.namespace 必须是名字空间名称；此设置被忽略。',
      'kubeNetlens.files.include：模式 "{a,b" 被忽略（位置 4 处的 "{" 没有闭合）。',
    ]);
  });

  it('is a key of .kube-netlens.yaml, with errors at their line, merged over the settings', () => {
    const ok = parseConfigFile('ingressController:\n  namespace: ingress-nginx\n  podLabels: {app.kubernetes.io/name: ingress-nginx}\n', {
      glob: () => undefined,
    });
    assert.deepEqual(ok, { config: { ingressController: setting }, errors: [] });
    const bad = parseConfigFile('defaultNamespace: shop\ningressController:\n  namespace: ingress-nginx\n  podLabels: {tier: 1}\n', { glob: () => undefined });
    assert.deepEqual(bad.errors, [
      { line: 2, column: 2, message: 'ingressController.podLabels.tier must be a label value (a string of at most 63 characters)' },
    ]);
    assert.deepEqual(settingsWithConfig({ ingressController: { namespace: 'x', podLabels: { a: 'b' } } }, ok.config, true), { ingressController: setting });
  });

  it('the CLI reads it from the config file', () => {
    const dir = tempDir('kube-netlens-ingress-controller-');
    writeFileSync(join(dir, 'shop.yaml'), loadFixture(file).sources[0].text);
    const check = () => runCli(['check', dir, '--format', 'json', '--fail-on', 'never'], { stdoutIsTTY: false, env: {} });
    const codes = (r: ReturnType<typeof check>) =>
      (JSON.parse(r.stdout) as { diagnostics: { code: string }[] }).diagnostics.map((f) => f.code).filter((c) => c === code);
    assert.deepEqual(codes(check()), []);
    writeFileSync(join(dir, '.kube-netlens.yaml'), 'ingressController:\n  namespace: ingress-nginx\n  podLabels: {app.kubernetes.io/name: ingress-nginx}\n');
    assert.deepEqual(codes(check()), [code]);
  });
});
