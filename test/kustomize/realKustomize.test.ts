// kubeNetlens.kustomize.roots (which kustomizations are roots) and the real Kustomize (`kubectl kustomize`) for the
// roots the native renderer does not evaluate: built through a temporary wrapper with origin annotations, mapped back
// to the lines the objects came from, never touching the user's files, never for remote resources or Helm charts,
// stopped after the timeout, its error shown on the kustomization.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { kustomizeUnits } from '../../server/src/kustomize/applyUnits';
import { parseFiles } from '../../server/src/model/parseManifest';
import { sourceOf } from '../../server/src/model/rendered';
import { diskReader } from '../../server/src/workspace/diskReader';
import { buildWithKustomizeSync, kustomizeForSettings, type KustomizeTool } from '../../server/src/workspace/kustomizeBinary';
import { rootMatcher } from '../../server/src/workspace/kustomizeRoots';
import { readSettings } from '../../server/src/workspace/settings';
import { fileUri } from '../../server/src/workspace/uri';
import { runCli } from '../cli/builtCli';
import { findKubectl } from '../helpers/kubectlKustomize';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kz-real-'));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

function allFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) allFiles(p, out);
    else out.push(p);
  }
  return out.sort();
}

const base = {
  'base/kustomization.yaml': 'resources:\n  - web.yaml\n',
  'base/web.yaml': [
    'apiVersion: v1',
    'kind: Service',
    'metadata:',
    '  name: web',
    'spec:',
    '  selector:',
    '    app: web',
    '  ports:',
    '    - port: 80',
    '---',
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: web',
    'spec:',
    '  selector:',
    '    matchLabels:',
    '      app: web',
    '  template:',
    '    metadata:',
    '      labels:',
    '        app: web',
    '    spec:',
    '      containers:',
    '        - name: web',
    '          image: nginx',
    '',
  ].join('\n'),
};

/** An overlay whose replacement copies the Service's name into a pod label (a label selector in it is not evaluated natively). */
const replacementsOverlay = [
  'namespace: prod',
  'namePrefix: prod-',
  'resources:',
  '  - ../../base',
  'replacements:',
  '  - source: { kind: Service, name: web, fieldPath: metadata.name }',
  '    targets:',
  '      - select: { kind: Deployment }',
  '        reject: [{ labelSelector: example.org/none=none }]',
  '        fieldPaths: [spec.template.metadata.labels.svc]',
  '        options: { create: true }',
  '',
].join('\n');

function sources(dir: string) {
  return allFiles(dir).map((p) => ({ uri: fileUri(p), text: readFileSync(p, 'utf8') }));
}

function units(dir: string, options: Parameters<typeof kustomizeUnits>[4]) {
  return kustomizeUnits(parseFiles(sources(dir), { defaultNamespace: 'default' }), 'default', undefined, diskReader, options).units;
}

describe('kubeNetlens.kustomize.roots', () => {
  const dir = workspace({
    ...base,
    'overlays/dev/kustomization.yaml': 'namespace: dev\nresources:\n  - ../../base\n',
    'overlays/prod/kustomization.yaml': 'namespace: prod\nnamePrefix: prod-\nresources:\n  - ../../base\n',
    'components/extra/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n',
  });
  const label = (u: { label: string }) => u.label;

  it('without the setting, every kustomization no other includes is a root', () => {
    assert.deepEqual(units(dir, {}).map(label).sort(), ['overlays/dev', 'overlays/prod']);
  });

  it('with it, only the kustomizations it names are roots, included ones too, components never', () => {
    assert.deepEqual(units(dir, { isRoot: rootMatcher(['overlays/prod'], [dir]) }).map(label), ['overlays/prod']);
    assert.deepEqual(units(dir, { isRoot: rootMatcher(['base', '**/extra'], [dir]) }).map(label), ['base']);
    assert.deepEqual(
      units(dir, { isRoot: rootMatcher(['overlays/*/kustomization.yaml'], [dir]) })
        .map(label)
        .sort(),
      ['overlays/dev', 'overlays/prod'],
    );
    assert.deepEqual(units(dir, { isRoot: rootMatcher(['nothing/here'], [dir]) }), []);
  });

  it('the overlay it leaves out is not analysed: its namespace makes no findings or DNS names', () => {
    const a = analyzeTexts(sources(dir), {}, { readOther: diskReader, kustomize: { isRoot: rootMatcher(['overlays/prod'], [dir]) } });
    const services = a.cluster.files
      .flatMap((f) => f.resources)
      .filter((r) => r.kind === 'Service')
      .map((r) => `${r.namespace}/${r.name}`);
    assert.deepEqual(services, ['prod/prod-web']);
  });

  it('is read in any workspace, with invalid patterns refused and said; the executable only in a trusted one', () => {
    const untrusted = readSettings({ kustomize: { roots: ['overlays/*', ''], path: '/usr/bin/kubectl' } }, false);
    assert.deepEqual(untrusted.kustomize.roots, ['overlays/*']);
    assert.equal(untrusted.kustomize.path, undefined);
    assert.equal(untrusted.kustomize.allowed, false);
    assert.equal(kustomizeForSettings(untrusted.kustomize, process.env), undefined, 'no Kustomize runs in an untrusted workspace');
    const trusted = readSettings({ kustomize: { roots: ['x'.repeat(1001)], timeoutSeconds: 3 } }, true);
    assert.deepEqual(trusted.kustomize.roots, []);
    assert.equal(trusted.kustomize.timeoutMs, 3000);
    assert.match(trusted.warnings?.join('\n') ?? '', /kubeNetlens\.kustomize\.roots: the pattern .* is ignored/);
  });

  it('the command line takes --kustomize-root', () => {
    const r = runCli(['dns', '--kustomize-root', 'overlays/dev', '--format', 'json', dir]);
    assert.equal(r.status, 0, r.stderr);
    const names = JSON.stringify(JSON.parse(r.stdout));
    assert.match(names, /web\.dev\.svc/);
    assert.doesNotMatch(names, /prod-web/);
    const bad = runCli(['check', '--kustomize-root', 'x'.repeat(1001), dir]);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--kustomize-root .* is not a usable pattern/);
  });

  it('a --kustomize path that is not an executable is a usage error, as --helm is', () => {
    const notExecutable = join(dir, 'base', 'web.yaml');
    for (const command of ['check', 'dns', 'trace']) {
      for (const path of [join(dir, 'no-such-kustomize'), notExecutable, join(dir, 'base')]) {
        const args = command === 'trace' ? ['trace', 'prod/prod-web', '--kustomize', path, dir] : [command, '--kustomize', path, dir];
        const run = runCli(args);
        assert.equal(run.status, 2, `${command} --kustomize ${path}: ${run.stderr}`);
        assert.equal(run.stdout, '');
        assert.match(run.stderr, /--kustomize .* is not an executable file/);
      }
    }
  });
});

describe('the real Kustomize for what is not evaluated natively', () => {
  const k = findKubectl();
  const tool = (): KustomizeTool => {
    // Never passes silently: without kubectl nothing here can run, so it fails and says why.
    assert.ok(k.path, `these tests need real Kustomize: ${k.why}. ./scripts/test.sh unpacks the pinned kubectl (node scripts/setup-kubectl.mjs).`);
    const t = kustomizeForSettings({ roots: [], folders: [], path: k.path, timeoutMs: 20_000, allowed: true, loadRestrictor: 'rootOnly' }, {});
    assert.ok(t?.kubectl, `the server takes ${k.path} as its Kustomize, run as kubectl kustomize`);
    return t;
  };

  it('builds the root through a temporary wrapper, maps findings to the base line, and leaves the user files alone', () => {
    const dir = workspace({
      ...base,
      'overlays/prod/kustomization.yaml': replacementsOverlay,
      'base/typo.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: typo\nspec:\n  selector:\n    app: wbe\n  ports:\n    - port: 80\n',
    });
    writeFileSync(join(dir, 'base/kustomization.yaml'), 'resources:\n  - web.yaml\n  - typo.yaml\n');
    const before = allFiles(dir).map((p) => [p, readFileSync(p, 'utf8'), statSync(p).mtimeMs]);
    const t = tool();
    const a = analyzeTexts(sources(dir), {}, { readOther: diskReader, kustomize: { external: (native) => buildWithKustomizeSync(t, native, diskReader) } });
    assert.deepEqual(
      allFiles(dir).map((p) => [p, readFileSync(p, 'utf8'), statSync(p).mtimeMs]),
      before,
      'no file of the workspace is written, none is added',
    );
    const rendered = a.cluster.files.find((f) => f.rendered)!;
    assert.ok(rendered, 'the overlay is analysed as its build');
    assert.doesNotMatch(rendered.text, /config\.kubernetes\.io\/origin/, 'the origin annotations are removed');
    assert.match(rendered.text, /svc: prod-web/, 'the replacement was applied by Kustomize');
    const deployment = rendered.resources.find((r) => r.kind === 'Deployment')!;
    assert.equal(`${deployment.namespace}/${deployment.name}`, 'prod/prod-web');
    const image = rendered.text.indexOf('image: nginx') + 'image: '.length;
    const m = sourceOf(rendered.rendered!.text, { start: image, end: image + 5 })!;
    assert.equal(m.uri, fileUri(join(dir, 'base/web.yaml')));
    assert.equal(
      before
        .find(([p]) => p === join(dir, 'base/web.yaml'))![1]
        .toString()
        .slice(m.span.start, m.span.end),
      'nginx',
    );
    const findings = diagnosticsFor(a);
    const typo = findings.find((f) => f.code === 'service-selector-no-match')!;
    assert.ok(typo, `a finding in the build; got ${findings.map((f) => f.code).join(', ')}`);
    assert.ok(!findings.some((f) => f.code === 'kustomize-not-rendered'), 'no "not analysed" note once Kustomize built it');
  });

  it('runs the "Kustomize did not rewrite it" checks on what the real Kustomize built, on the base line', () => {
    // the overlay renames and moves Service web (prod/prod-web); a string in the base still names web.default.svc
    const client = [
      '---',
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: client',
      'spec:',
      '  selector:',
      '    matchLabels:',
      '      app: client',
      '  template:',
      '    metadata:',
      '      labels:',
      '        app: client',
      '    spec:',
      '      containers:',
      '        - name: client',
      '          image: curl',
      '          env:',
      '            - name: WEB_URL',
      '              value: http://web.default.svc.cluster.local:80',
      '            - name: WEB_HOST',
      '              value: http://web:80',
      '',
    ].join('\n');
    const dir = workspace({ ...base, 'base/web.yaml': base['base/web.yaml'] + client, 'overlays/prod/kustomization.yaml': replacementsOverlay });
    const t = tool();
    const a = analyzeTexts(sources(dir), {}, { readOther: diskReader, kustomize: { external: (native) => buildWithKustomizeSync(t, native, diskReader) } });
    assert.ok(
      a.cluster.files.some((f) => f.rendered && /svc: prod-web/.test(f.text)),
      'the real Kustomize built the overlay',
    );
    const found = diagnosticsFor(a).filter((f) => f.code === 'kustomize-name-not-rewritten');
    const webYaml = fileUri(join(dir, 'base/web.yaml'));
    const text = readFileSync(join(dir, 'base/web.yaml'), 'utf8');
    assert.deepEqual(
      found.map((f) => [f.uri, text.slice(f.span.start, f.span.end)]).sort(),
      [
        [webYaml, 'http://web.default.svc.cluster.local:80'],
        [webYaml, 'http://web:80'],
      ],
      `both strings, on the base's lines; got ${found.map((f) => f.message).join(' | ')}`,
    );
    assert.match(found.find((f) => text.slice(f.span.start, f.span.end).includes('.svc'))!.message, /renamed it to prod-web and moved it to namespace prod/);
  });

  it('refuses roots that reach a remote resource or a Helm chart: the note stays and says why', () => {
    const dir = workspace({
      ...base,
      'overlays/remote/kustomization.yaml': 'resources:\n  - ../../base\n  - ../mid\nreplacements: []\n',
      'overlays/mid/kustomization.yaml': 'resources:\n  - https://example.invalid/app.yaml\n',
      'overlays/helm/kustomization.yaml': 'helmCharts:\n  - name: app\n    repo: https://example.invalid/charts\n',
    });
    const t = tool();
    const us = units(dir, { external: (native) => buildWithKustomizeSync(t, native, diskReader) });
    const note = (l: string) =>
      us
        .find((u) => u.label === l)!
        .problems.map((p) => `${p.code}: ${p.message}`)
        .join('\n');
    assert.match(
      note('overlays/remote'),
      /^kustomize-not-rendered: Not analysed as a Kustomize build: the remote file 'https:\/\/example\.invalid\/app\.yaml' is never fetched, neither here nor by running Kustomize\.$/,
    );
    assert.match(note('overlays/helm'), /kustomize-not-rendered: .*--enable-helm, which is never passed/);
  });

  it('confirms a native failure with the real Kustomize: kept (with its line) when Kustomize fails too, replaced by its build when it builds', () => {
    const dir = workspace({
      ...base,
      // a JSON patch under a parent the object lacks: Kustomize fails too
      'overlays/broken/kustomization.yaml':
        'resources:\n  - ../../base\npatches:\n  - target: { kind: Deployment }\n    patch: |-\n      - { op: add, path: /spec/strategy/rollingUpdate/maxSurge, value: 1 }\n',
    });
    const t = tool();
    const [broken] = units(dir, { external: (native) => buildWithKustomizeSync(t, native, diskReader) });
    assert.equal(broken.rendered, undefined);
    assert.deepEqual(
      broken.problems.map((p) => [p.code, p.severity]),
      [['kustomize-render-failed', 'error']],
    );
    assert.match(broken.problems[0].message, /^Kustomize build fails: JSON patch on Deployment/, 'the native message, which names the patch, is kept');
    // a Kustomize that builds what the native renderer refused: its build is analysed, and no failure is reported
    const fake = join(dir, 'fake-kustomize');
    const web = base['base/web.yaml'].replace('        app: web\n    spec:', '        app: wbe\n    spec:');
    writeFileSync(fake, `#!/bin/sh\ncat <<'EOF'\n${web}EOF\n`, { mode: 0o755 });
    const built = units(dir, { external: (native) => buildWithKustomizeSync({ ...t, path: fake, kubectl: false }, native, diskReader) });
    assert.ok(built[0].rendered, 'the real build replaces the native failure');
    assert.deepEqual(built[0].problems, []);
    const a = analyzeTexts(
      sources(dir),
      {},
      { readOther: diskReader, kustomize: { external: (native) => buildWithKustomizeSync({ ...t, path: fake, kubectl: false }, native, diskReader) } },
    );
    const codes = diagnosticsFor(a).map((f) => f.code);
    assert.ok(!codes.includes('kustomize-render-failed'), `no failure once Kustomize built it: ${codes.join(', ')}`);
    assert.ok(codes.includes('workload-selector-mismatch'), `the build is checked: ${codes.join(', ')}`);
  });

  it("shows Kustomize's error on the kustomization line that needed it, and stops a build at the timeout", () => {
    const dir = workspace({ ...base, 'overlays/prod/kustomization.yaml': replacementsOverlay.replace('        options: { create: true }\n', '') });
    const t = tool();
    const [failed] = units(dir, { external: (native) => buildWithKustomizeSync(t, native, diskReader) });
    assert.equal(failed.rendered, undefined);
    const [p] = failed.problems;
    assert.deepEqual([p.code, p.severity, p.uri], ['kustomize-render-failed', 'error', fileUri(join(dir, 'overlays/prod/kustomization.yaml'))]);
    assert.match(p.message, /unable to find field "spec\.template\.metadata\.labels\.svc" in replacement target/);
    assert.doesNotMatch(p.message, /run\.go|command failed/, "kubectl's log prefix is not shown");
    assert.equal(readFileSync(join(dir, 'overlays/prod/kustomization.yaml'), 'utf8').slice(p.span.start, p.span.end), 'replacements');
    const [slow] = units(dir, { external: (native) => buildWithKustomizeSync({ ...t, timeoutMs: 1 }, native, diskReader) });
    assert.deepEqual([slow.problems[0].code, slow.problems[0].severity], ['kustomize-render-failed', 'warning']);
    assert.match(slow.problems[0].message, /did not finish .* within 1 ms and was stopped/);
  });
});
