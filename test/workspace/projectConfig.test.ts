// workspace/projectConfig.ts: the config file goes over the client's settings (which VS Code made of workspace over
// user settings), the same way in every key it may set; in an untrusted workspace its load restrictor is not read,
// and no key of it names a program.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readConfigFile, settingsWithConfig } from '../../server/src/workspace/projectConfig';
import { readSettings } from '../../server/src/workspace/settings';

const file = readConfigFile(
  [
    'rules: {service-port-not-exposed: "off"}',
    'files: {exclude: ["vendor/**"]}',
    'kustomize: {roots: ["overlays/*"], loadRestrictor: none}',
    'helm: {releases: [{chart: charts/web, name: web}]}',
    'clusterDomain: corp.local',
    'defaultNamespace: shop',
    'nodePortRange: 31000-31999',
  ].join('\n'),
).config!;

describe('.kube-netlens.yaml over the settings', () => {
  it('comes before the client’s settings, key by key, and leaves the others', () => {
    const raw = {
      rules: { 'service-port-not-exposed': 'error', 'dns-name-unresolved': 'hint' },
      defaultNamespace: 'dev',
      proxyMode: 'ipvs',
      files: { maxSizeKB: 10 },
      helm: { path: '/usr/local/bin/helm' },
    };
    const s = readSettings(settingsWithConfig(raw, file, true), true);
    assert.deepEqual(s.analysis.rules, { 'service-port-not-exposed': 'off', 'dns-name-unresolved': 'hint' });
    assert.equal(s.analysis.defaultNamespace, 'shop');
    assert.equal(s.analysis.clusterDomain, 'corp.local');
    assert.deepEqual(s.analysis.nodePortRange, [31000, 31999]);
    assert.equal(s.analysis.proxyMode, 'ipvs', 'a setting the file does not name stays');
    assert.deepEqual(s.files.exclude, ['vendor/**']);
    assert.equal(s.files.maxSizeKB, 10);
    assert.deepEqual(s.kustomize.roots, ['overlays/*']);
    assert.equal(s.kustomize.loadRestrictor, 'none');
    assert.equal(s.helm.path, '/usr/local/bin/helm', 'the program comes from the settings, never from the file');
    assert.deepEqual(
      s.helm.releases.map((r) => r.name),
      ['web'],
    );
  });

  it('in an untrusted workspace: no load restrictor and no files from the file, and no helm at all', () => {
    const s = readSettings(settingsWithConfig({ files: { exclude: ['mine/**'] } }, file, false), false);
    assert.equal(s.kustomize.loadRestrictor, 'rootOnly');
    assert.deepEqual(s.files.exclude, ['mine/**'], 'the files to read stay the user’s own');
    assert.deepEqual(s.kustomize.roots, ['overlays/*'], 'what only chooses what is analysed still applies');
    assert.equal(s.helm.allowed, false);
    assert.deepEqual(s.helm.releases, []);
  });

  it('has no key for a program: a path for helm or kustomize is an error at its line', () => {
    assert.deepEqual(
      readConfigFile('kustomize:\n  path: /tmp/evil\n').errors.map((e) => [e.line, e.message]),
      [[1, 'kustomize has no key "path"; the keys are roots, loadRestrictor']],
    );
    assert.deepEqual(
      readConfigFile('helm:\n  path: /tmp/evil\n').errors.map((e) => e.line),
      [1],
    );
  });
});
