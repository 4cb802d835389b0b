// `.kube-netlens.yaml` in the CLI: found above the checked path or named with --config, its rules, files, namespace and
// ignore entries applied (flags win), an invalid file refused with each error at its line; and the published JSON
// Schema (schemas/, package.json yamlValidation) accepts and refuses what the parser does.

import { tempDir } from '../helpers/tempDirs';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { before, describe, it } from 'node:test';
import { readConfigFile } from '../../server/src/workspace/projectConfig';
import { buildCli, repoRoot, runCli } from './builtCli';

const service = (name: string, ns = 'shop') => `apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: ${ns}}
spec:
  selector: {app: nothing}
  ports: [{port: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}-app, namespace: ${ns}}
spec:
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: main, image: nginx}]}
`;

function workspace(files: Record<string, string>): string {
  const dir = tempDir('kube-netlens-config-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

interface Json {
  diagnostics: {
    file: string;
    code: string;
    severity: string;
    message: string;
    range: { start: { line: number } };
    resource: { name: string; namespace: string } | null;
  }[];
  ignored: { code: string; by: string; reason: string }[];
}
const json = (dir: string, ...args: string[]) => {
  const run = runCli(['check', '--format', 'json', '--fail-on', 'never', ...args], { cwd: dir });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Json;
};

describe('check and .kube-netlens.yaml', () => {
  before(() => {
    buildCli();
  });

  it('applies rules, files, the default namespace and ignore entries of the nearest config file above the path', () => {
    const dir = workspace({
      '.kube-netlens.yaml': [
        'rules:',
        '  service-selector-no-match: error',
        'files:',
        '  exclude: ["deploy/generated/**"]',
        'defaultNamespace: shop',
        'ignore:',
        '  - code: service-selector-no-match',
        '    kind: Service',
        '    name: "legacy-*"',
        '    path: "deploy/legacy/**"',
        '    reason: selected by pods a vendor operator creates',
        '',
      ].join('\n'),
      'deploy/legacy/a.yaml': service('legacy-web'),
      'deploy/b.yaml': service('web').replace(/, namespace: shop/g, ''),
      'deploy/legacy/c.yaml': service('web2'),
      'deploy/generated/x.yaml': service('generated'),
    });
    const out = json(join(dir, 'deploy'), '.');
    const selector = out.diagnostics.filter((d) => d.code === 'service-selector-no-match');
    assert.deepEqual(
      selector.map((d) => [d.resource?.name, d.resource?.namespace, d.severity]).sort(),
      [
        ['web', 'shop', 'error'],
        ['web2', 'shop', 'error'],
      ],
      'severity from rules:, namespace from defaultNamespace:, generated/ excluded, legacy-web ignored',
    );
    assert.deepEqual(
      out.ignored.map((i) => [i.code, i.by, i.reason]),
      [['service-selector-no-match', 'ignore entry at ../.kube-netlens.yaml:7', 'selected by pods a vendor operator creates']],
    );
    // a flag comes before the file
    const flagged = json(join(dir, 'deploy'), '--namespace', 'other', '.');
    assert.ok(flagged.diagnostics.some((d) => d.code === 'service-selector-no-match' && d.resource?.name === 'web' && d.resource.namespace === 'other'));
  });

  it('applies to dns and trace too: the cluster domain of the file, unless --cluster-domain says otherwise', () => {
    const dir = workspace({ '.kube-netlens.yaml': 'clusterDomain: corp.example\n', 'app.yaml': service('web') });
    assert.match(runCli(['dns', '.'], { cwd: dir }).stdout, /web\.shop\.svc\.corp\.example/);
    assert.match(runCli(['dns', '--cluster-domain', 'other.local', '.'], { cwd: dir }).stdout, /web\.shop\.svc\.other\.local/);
    assert.match(runCli(['trace', 'shop/web', '.'], { cwd: dir }).stdout, /web\.shop\.svc\.corp\.example/);
    assert.equal(runCli(['dns', '--config', 'missing.yaml', '.'], { cwd: dir }).status, 2);
  });

  it('reads the file --config names, and reports an ignore entry that matches nothing at its line', () => {
    const dir = workspace({ 'ci/kn.yaml': 'ignore:\n  - code: nodeport-conflict\n    reason: two clusters\n', 'app.yaml': service('web') });
    const out = json(dir, '--config', 'ci/kn.yaml', '.');
    const unused = out.diagnostics.filter((d) => d.code === 'ignore-unused');
    assert.equal(unused.length, 1, JSON.stringify(out.diagnostics));
    assert.equal(unused[0].file, 'ci/kn.yaml');
    assert.equal(unused[0].range.start.line, 1);
    assert.equal(unused[0].severity, 'information');
  });

  it('refuses an invalid file with each error at its line, and checks nothing', () => {
    const dir = workspace({
      '.kube-netlens.yaml':
        'rules:\n  service-selector-no-mach: off\n  dns-name-unresolved: loud\nignore:\n  - code: dns-name-unresolved\nfiles:\n  include: "*.yaml"\nbogus: 1\n',
      'app.yaml': service('web'),
    });
    const run = runCli(['check', '.'], { cwd: dir });
    assert.equal(run.status, 2);
    assert.equal(run.stdout, '');
    assert.equal(
      run.stderr,
      [
        'kube-netlens: the config file .kube-netlens.yaml is not valid (nothing was checked):',
        '.kube-netlens.yaml:2:3: rules: "service-selector-no-mach" is not a code of kube-netlens (docs/rules.md lists them)',
        '.kube-netlens.yaml:3:24: rules.dns-name-unresolved must be one of error, warning, information, hint, off',
        '.kube-netlens.yaml:5:5: an ignore entry needs code and reason (say why the findings are intended)',
        '.kube-netlens.yaml:7:12: files.include must be a list of strings',
        '.kube-netlens.yaml:8:1: .kube-netlens.yaml has no key "bogus"; the keys are rules, files, kustomize, helm, clusterDomain, defaultNamespace, nodePortRange, ingressController, ignore',
        '',
      ].join('\n'),
    );
    const broken = workspace({ '.kube-netlens.yaml': 'rules: [\n', 'app.yaml': service('web') });
    assert.match(runCli(['check', '.'], { cwd: broken }).stderr, /\.kube-netlens\.yaml:\d+:\d+: YAML syntax error/);
    assert.match(runCli(['check', '--config', 'none.yaml', '.'], { cwd: broken }).stderr, /cannot read the config file none\.yaml: no such file/);
  });

  it('publishes a JSON Schema that accepts and refuses what the parser does', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    assert.deepEqual(pkg.contributes.yamlValidation, [{ fileMatch: '.kube-netlens.yaml', url: './schemas/kube-netlens.schema.json' }]);
    const validate = new Ajv({ strict: true, allErrors: true }).compile(
      JSON.parse(readFileSync(join(repoRoot, 'schemas', 'kube-netlens.schema.json'), 'utf8')),
    );
    const samples: [string, boolean][] = [
      [
        'rules: {service-port-not-exposed: off}\nfiles: {include: ["**/*.yaml"], exclude: ["vendor/**"]}\nkustomize: {roots: ["overlays/*"], loadRestrictor: rootOnly}\nhelm: {releases: [{chart: charts/web, name: web, namespace: shop, values: [ci/values.yaml], set: ["a=b"]}]}\nclusterDomain: corp.local\ndefaultNamespace: shop\nnodePortRange: 30000-32767\nignore: [{code: service-selector-no-match, kind: Service, namespace: shop, name: "legacy-*", path: "vendor/**", reason: vendor chart}]\n',
        true,
      ],
      ['rules: {service-port-not-exposed: loud}\n', false],
      ['ignore: [{code: service-selector-no-match}]\n', false],
      ['kustomize: {path: /usr/bin/kustomize}\n', false],
      ['helm: {releases: [{chart: c, name: Web}]}\n', false],
      ['nodePortRange: 30000\n', false],
      ['other: 1\n', false],
    ];
    for (const [text, valid] of samples) {
      assert.equal(validate(parseYaml(text)), valid, `schema on ${text}`);
      assert.equal(readConfigFile(text).config !== undefined, valid, `parser on ${text}: ${JSON.stringify(readConfigFile(text).errors)}`);
    }
  });
});
