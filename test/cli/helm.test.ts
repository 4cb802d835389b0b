// Helm charts through `kube-netlens check` and `build`, rendered by the real, pinned helm that
// scripts/setup-helm.mjs unpacks into .tools/helm (the test command runs it first).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildCli, repoRoot, runCli } from './builtCli';
import { kubectlPath } from '../helpers/kubectlKustomize';
import { tempDir } from '../helpers/tempDirs';

const helm = join(repoRoot, '.tools', 'helm', 'helm');
const charts = join('test', 'fixtures', 'helm');
/** A PATH with node but without helm. */
const noHelmPath = dirname(process.execPath);

interface JsonDiagnostic {
  file: string;
  range: { start: { line: number; character: number } };
  severity: string;
  code: string;
  message: string;
  related: { file: string; message: string }[];
}

function check(
  args: readonly string[],
  env: Record<string, string> = {},
  cwd?: string,
): { status: number | null; diagnostics: JsonDiagnostic[]; stderr: string } {
  const run = runCli(['check', '--format', 'json', ...args], { env: { PATH: noHelmPath, ...env }, cwd });
  assert.ok(run.status === 0 || run.status === 1, `exit ${run.status}: ${run.stderr}`);
  return { status: run.status, diagnostics: (JSON.parse(run.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics, stderr: run.stderr };
}

/** 1-based `line:column` of a diagnostic, as an editor shows it. */
const at = (d: JsonDiagnostic) => `${d.range.start.line + 1}:${d.range.start.character + 1}`;

describe('Helm charts rendered with the real helm', () => {
  before(() => {
    assert.ok(existsSync(helm), `${helm} is missing: run \`node scripts/setup-helm.mjs\``);
    const version = spawnSync(helm, ['version', '--short'], { encoding: 'utf8' });
    assert.equal(version.status, 0, version.stderr);
    console.log(`helm under test: ${version.stdout.trim()}`);
    buildCli();
  });

  it('finds a planted selector typo at its template line, with the value set and the rendered value', () => {
    const { diagnostics, status } = check(['--helm', helm, join(charts, 'typo')]);
    assert.equal(status, 0);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.file, at(d)]),
      [['service-selector-no-match', join(charts, 'typo', 'templates', 'service.yaml'), '9:10']],
    );
    const [d] = diagnostics;
    assert.match(d.message, /"shop-wbe" looks like a typo of "shop-web"/);
    assert.match(d.message, /\nin release shop, values\.yaml: rendered `shop-wbe`$/);
    // the related place is the label in the Deployment's template, not the rendered text
    assert.deepEqual(
      d.related.map((r) => r.file),
      [join(charts, 'typo', 'templates', 'deployment.yaml')],
    );
  });

  it('reports TLS origination without a CA and IPv4-only ipBlocks in a dual-stack namespace at their template lines', () => {
    const { diagnostics } = check(['--helm', helm, join(charts, 'tlsdual')]);
    const t = (f: string) => join(charts, 'tlsdual', 'templates', f);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity, d.file, at(d)]),
      [
        ['istio-tls-ca-missing', 'information', t('destination-rule.yaml'), '9:13'],
        ['networkpolicy-ipblock-ipv4-only', 'information', t('networkpolicy.yaml'), '13:19'],
      ],
    );
    const [tls, ipv4] = diagnostics;
    assert.match(
      tls.message,
      /to host "payments\.example\.com" without caCertificates or credentialName[^]*\nin release tlsdual, values\.yaml: rendered `SIMPLE`$/,
    );
    assert.match(ipv4.message, /is an IPv4 range \(192\.0\.2\.0\/24\)[^]*\nin release tlsdual, values\.yaml: rendered `192\.0\.2\.0\/24`$/);
    // the Service that asks for IPv6 is named on its template line
    assert.deepEqual(
      ipv4.related.map((r) => r.file),
      [t('service.yaml')],
    );
  });

  it('reports the Istio and Prometheus operator rules at their template lines, with the rendered value', () => {
    const { diagnostics } = check(['--helm', helm, join(charts, 'mesh')]);
    const t = (f: string) => join(charts, 'mesh', 'templates', f);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.file, at(d)]),
      [
        ['istio-destination-port', t('istio.yaml'), '14:23'],
        ['servicemonitor-port-missing', t('monitoring.yaml'), '10:13'],
        ['podmonitor-selects-nothing', t('monitoring.yaml'), '20:16'],
      ],
    );
    const [route, scrape, pods] = diagnostics;
    assert.match(
      route.message,
      /to port 9081 of host "reviews", but Service "reviews" has no such port[^]*\nin release reviews, values\.yaml: rendered `9081`$/,
    );
    assert.match(scrape.message, /Did you mean "metrics"\?\nin release reviews, values\.yaml: rendered `metrcs`$/);
    assert.match(pods.message, /Deployment "reviews" has every other label, but version: v1\.\nin release reviews, values\.yaml: rendered `v2`$/);
    // the related places are the chart's templates, not the rendered text
    assert.deepEqual(
      diagnostics.map((d) => d.related.map((r) => r.file)),
      [[t('service.yaml')], [t('service.yaml')], [t('deployment.yaml')]],
    );
  });

  it('finds helm on PATH when --helm is not given', () => {
    const { diagnostics } = check([join(charts, 'typo')], { PATH: `${dirname(helm)}:${noHelmPath}` });
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['service-selector-no-match'],
    );
  });

  it('says nothing about a correct chart, and counts its value set as rendered', () => {
    assert.deepEqual(check(['--helm', helm, join(charts, 'quiet')]).diagnostics, []);
    const text = runCli(['check', '--helm', helm, join(charts, 'quiet')], { env: { PATH: noHelmPath } });
    assert.equal(text.status, 0, text.stderr);
    assert.equal(text.stdout, '0 errors, 0 warnings in 4 files (1 chart value set rendered with helm)\n');
  });

  it('renders values.yaml and each ci/*-values.yaml on its own: different findings, and one finding naming every value set that has it', () => {
    const { diagnostics } = check(['--helm', helm, join(charts, 'valuesets')]);
    const services = join(charts, 'valuesets', 'templates', 'services.yaml');
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.file, at(d)]),
      [
        ['service-selector-no-match', services, '7:10'],
        ['service-target-port-unresolved', services, '21:19'],
      ],
    );
    const [typo, port] = diagnostics;
    // only the prod values misspell the selector
    assert.match(typo.message, /\nin release api, values ci\/prod-values\.yaml: rendered `apii`$/);
    // every value set renders the unknown targetPort: reported once
    assert.match(port.message, /\nin release api, value sets values\.yaml, ci\/prod-values\.yaml and ci\/staging-values\.yaml: rendered `metrics`$/);
  });

  it('identifies a finding on a render by its value set and the rendered value, one identity per value set that has it', () => {
    interface Identified {
      identity: { build?: string; value: string; path: string };
      fingerprint: string;
      otherIdentities?: { identity: { build?: string }; fingerprint: string }[];
    }
    const run = runCli(['check', '--format', 'json', '--helm', helm, join(charts, 'valuesets')], { env: { PATH: noHelmPath } });
    const [typo, port] = (JSON.parse(run.stdout) as { diagnostics: Identified[] }).diagnostics;
    // the value at fault is what the template rendered, not the template's text
    assert.deepEqual(typo.identity, {
      rule: 'service-selector-no-match',
      object: { kind: 'Service', namespace: 'default', name: 'api' },
      path: 'spec.selector.app',
      value: 'apii',
      build: 'release api, values ci/prod-values.yaml',
    });
    assert.equal(typo.otherIdentities, undefined);
    const builds = [port.identity.build, ...(port.otherIdentities ?? []).map((o) => o.identity.build)];
    assert.deepEqual(builds, ['release api, values ci/prod-values.yaml', 'release api, values ci/staging-values.yaml', 'release api, values.yaml']);
    assert.equal(new Set([port.fingerprint, ...(port.otherIdentities ?? []).map((o) => o.fingerprint)]).size, 3, 'distinct per value set');
  });

  it('keeps the fingerprints of a render’s findings while template lines move and unrelated objects are added', () => {
    const fingerprints = (dir: string) => {
      const run = runCli(['check', '--format', 'json', '--helm', helm, dir], { env: { PATH: noHelmPath } });
      const ds = (
        JSON.parse(run.stdout) as {
          diagnostics: { code: string; range: { start: { line: number } }; fingerprint: string; otherIdentities?: { fingerprint: string }[] }[];
        }
      ).diagnostics;
      return ds.map((d) => ({ code: d.code, line: d.range.start.line, all: [d.fingerprint, ...(d.otherIdentities ?? []).map((o) => o.fingerprint)] }));
    };
    const dir = tempDir('kube-netlens-helm-identity-');
    cpSync(join(repoRoot, charts, 'valuesets'), join(dir, 'api'), { recursive: true });
    const before = fingerprints(join(dir, 'api'));
    const services = join(dir, 'api', 'templates', 'services.yaml');
    writeFileSync(services, `{{/* moved down */}}\n\n# a comment\n${readFileSync(services, 'utf8')}`);
    writeFileSync(
      join(dir, 'api', 'templates', 'extra.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-settings\ndata: {a: b}\n',
    );
    const after = fingerprints(join(dir, 'api'));
    assert.deepEqual(
      after.map((d) => [d.code, d.all]),
      before.map((d) => [d.code, d.all]),
    );
    assert.notDeepEqual(
      after.map((d) => d.line),
      before.map((d) => d.line),
      'the lines did move',
    );
  });

  it('gives the same findings inside the chart folder, with `.` or no path, as for the folder named from outside', () => {
    for (const chart of ['valuesets', 'umbrella']) {
      const inside = join(repoRoot, charts, chart);
      const seen = (diagnostics: JsonDiagnostic[], cwd: string) => diagnostics.map((d) => [d.code, join(cwd, d.file), at(d), d.message]);
      const named = seen(check(['--helm', helm, join(charts, chart)]).diagnostics, repoRoot);
      assert.ok(
        named.length > 0 && named.every(([, file]) => file.includes(join(chart, 'templates')) || file.includes(join(chart, 'charts'))),
        `${chart}: on template lines: ${JSON.stringify(named)}`,
      );
      assert.deepEqual(seen(check(['--helm', helm, '.'], {}, inside).diagnostics, inside), named, `${chart}: check .`);
      assert.deepEqual(seen(check(['--helm', helm], {}, inside).diagnostics, inside), named, `${chart}: check with no path`);
    }
  });

  it('renders a subchart with its parent and maps its findings to the subchart template', () => {
    const { diagnostics } = check(['--helm', helm, join(charts, 'umbrella')]);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.file, at(d)]),
      [['service-target-port-unresolved', join(charts, 'umbrella', 'charts', 'cache', 'templates', 'cache.yaml'), '32:19']],
    );
    assert.match(diagnostics[0].message, /Service "portal-cache"/);
  });

  it('judges each value set’s render as a whole: a subchart, or a custom resource of another value set, leaves the parent’s selectors judged', () => {
    const work = tempDir('kube-netlens-helm-');
    const chart = join(work, 'umbrella');
    cpSync(join(repoRoot, charts, 'umbrella'), chart, { recursive: true });
    // a Service whose selector is near no workload of the release: reported from the evidence of the release's own
    // workloads (the parent's and the subchart's), not made unknown by the subchart
    writeFileSync(
      join(chart, 'templates', 'frontend.yaml'),
      `${readFileSync(join(chart, 'templates', 'frontend.yaml'), 'utf8')}---\napiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}-payments\nspec:\n  selector:\n    app: payments\n  ports:\n    - port: 80\n`,
    );
    // a Prometheus (whose operator makes pods) only in the monitoring value set: unknown there, and only there
    mkdirSync(join(chart, 'ci'));
    writeFileSync(join(chart, 'ci', 'monitoring-values.yaml'), 'monitoring: true\n');
    writeFileSync(
      join(chart, 'templates', 'prom.yaml'),
      '{{- if .Values.monitoring }}\napiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata:\n  name: {{ .Release.Name }}-prom\nspec:\n  replicas: 1\n{{- end }}\n',
    );
    const { diagnostics } = check(['--helm', helm, chart]);
    const found = diagnostics.filter((d) => d.code === 'service-selector-no-match');
    assert.deepEqual(
      found.map((d) => [d.file, at(d)]),
      [[join(chart, 'templates', 'frontend.yaml'), '27:10']],
    );
    assert.match(found[0].message, /These manifests deploy 2 workloads into namespace "default" \(Deployment "portal-frontend", StatefulSet "portal-cache"\)/);
    assert.match(found[0].message, /in release portal, values\.yaml/);
    assert.doesNotMatch(found[0].message, /monitoring-values/);
  });

  it('quotes helm’s errors without the paths of this machine (the chart’s own files relative to it)', () => {
    const work = tempDir('kube-netlens-helm-');
    const chart = join(work, 'umbrella');
    cpSync(join(repoRoot, charts, 'umbrella'), chart, { recursive: true });
    mkdirSync(join(chart, 'ci'));
    writeFileSync(join(chart, 'ci', 'broken-values.yaml'), 'cache: [1\n');
    const failed = check(['--helm', helm, chart]).diagnostics.filter((d) => d.code === 'helm-failed');
    assert.equal(failed.length, 1);
    assert.match(failed[0].message, /failed to parse ci\/broken-values\.yaml/);
    assert.ok(!failed[0].message.includes(work), failed[0].message);
  });

  it('renders a chart whose dependency is a packaged .tgz under charts/', () => {
    const work = tempDir('kube-netlens-helm-');
    cpSync(join(repoRoot, charts, 'umbrella'), join(work, 'umbrella'), { recursive: true });
    cpSync(join(work, 'umbrella', 'charts', 'cache'), join(work, 'cache'), { recursive: true });
    const pack = spawnSync(helm, ['package', join(work, 'cache'), '--destination', join(work, 'umbrella', 'charts')], { encoding: 'utf8' });
    assert.equal(pack.status, 0, pack.stderr);
    spawnSync('rm', ['-r', join(work, 'umbrella', 'charts', 'cache')]);
    assert.deepEqual(readdirSync(join(work, 'umbrella', 'charts')), ['cache-0.1.0.tgz']);
    const { diagnostics } = check(['--helm', helm, join(work, 'umbrella')]);
    // the packaged templates are not workspace files: the finding goes to the chart that depends on them
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.file]),
      [['service-target-port-unresolved', join(work, 'umbrella', 'Chart.yaml')]],
    );
    assert.match(diagnostics[0].message, /in release portal, values\.yaml/);
  });

  it('plain manifests see the objects of renders: a reference is satisfied, and a related place in a render is a template line', () => {
    const work = tempDir('kube-netlens-helm-');
    cpSync(join(repoRoot, charts, 'quiet'), join(work, 'chart'), { recursive: true });
    mkdirSync(join(work, 'plain'));
    writeFileSync(
      join(work, 'plain', 'ingress.yaml'),
      'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: store\nspec:\n  rules:\n    - http:\n        paths:\n          - path: /\n            pathType: Prefix\n            backend:\n              service:\n                name: store-web\n                port:\n                  number: 80\n',
    );
    writeFileSync(
      join(work, 'plain', 'service.yaml'),
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: store-admin\nspec:\n  selector:\n    app: store-wbe\n  ports:\n    - port: 81\n      targetPort: http\n',
    );
    const { diagnostics } = check(['--helm', helm, work]);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.file]),
      [['service-selector-no-match', join(work, 'plain', 'service.yaml')]],
    );
    assert.deepEqual(
      diagnostics[0].related.map((r) => [r.file, r.message]),
      [[join(work, 'chart', 'templates', 'deployment.yaml'), 'Deployment "store-web" has app: store-web']],
    );
    // Without helm the chart that defines store-web is not rendered, so the backend is unknown, not missing
    // (semantics §9.2): findings that a chart not rendered could answer stay quiet.
    assert.ok(!check([work]).diagnostics.some((d) => d.code === 'ingress-backend-missing' || d.code === 'service-selector-no-match'));
  });

  it('a Service the chart looks up in the cluster is unknown, not missing (helm template answers lookup with nothing)', () => {
    // the chart also looks up its session Secret; the Ingress backend comes from `lookup "v1" "Service" …`
    assert.deepEqual(check(['--helm', helm, join(charts, 'lookup')]).diagnostics, []);
    const work = tempDir('kube-netlens-helm-');
    // the lookup asks the release's namespace: an Ingress in another namespace (which runs a workload, so it is not
    // routing only) that names the Service is still reported
    mkdirSync(join(work, 'edge'));
    cpSync(join(repoRoot, charts, 'lookup'), join(work, 'edge', 'portal'), { recursive: true });
    writeFileSync(
      join(work, 'edge', 'ingress.yaml'),
      'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: edge\n  namespace: edge\nspec:\n  defaultBackend:\n    service:\n      name: platform-api\n      port:\n        number: 80\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: edge-proxy\n  namespace: edge\nspec:\n  selector: {matchLabels: {app: edge-proxy}}\n  template:\n    metadata: {labels: {app: edge-proxy}}\n    spec: {containers: [{name: proxy, image: proxy}]}\n',
    );
    assert.deepEqual(
      check(['--helm', helm, join(work, 'edge')]).diagnostics.map((d) => [d.code, d.file]),
      [['ingress-backend-missing', join(work, 'edge', 'ingress.yaml')]],
    );
    // looking up a ConfigMap, or a Service of another name, says nothing of platform-api: the finding stays
    for (const [i, lookup] of [
      'lookup "v1" "ConfigMap" .Release.Namespace .Values.apiService',
      'lookup "v1" "Service" .Release.Namespace "platform-auth"',
    ].entries()) {
      const chart = join(work, `portal${i}`);
      cpSync(join(repoRoot, charts, 'lookup'), chart, { recursive: true });
      const ingress = join(chart, 'templates', 'ingress.yaml');
      writeFileSync(ingress, readFileSync(ingress, 'utf8').replace('lookup "v1" "Service" .Release.Namespace .Values.apiService', lookup));
      const { diagnostics } = check(['--helm', helm, chart]);
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.file, at(d)]),
        [['ingress-backend-missing', ingress, '15:23']],
        lookup,
      );
      assert.match(diagnostics[0].message, /Service "platform-api", which does not exist in namespace "default"/);
    }
  });

  it('pods of a Deployment written only when .Capabilities has an API are unknown; a guard around objects that make no pods changes nothing', () => {
    assert.deepEqual(check(['--helm', helm, join(charts, 'capabilities')]).diagnostics, []);
    const work = tempDir('kube-netlens-helm-');
    cpSync(join(repoRoot, charts, 'capabilities'), join(work, 'metrics'), { recursive: true });
    // plain manifests beside the chart are in its scope: a Service there selecting the exporter is judged alike
    writeFileSync(
      join(work, 'alerts.yaml'),
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: alerts\nspec:\n  selector:\n    app: metrics-exporter\n  ports:\n    - port: 9100\n',
    );
    // without the guarded exporter only the guarded PodDisruptionBudget is left: the selectors' near misses are findings
    rmSync(join(work, 'metrics', 'templates', 'exporter.yaml'));
    const { diagnostics } = check(['--helm', helm, work]);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.file, at(d)]),
      [
        ['service-selector-no-match', join(work, 'alerts.yaml'), '7:10'],
        ['service-selector-no-match', join(work, 'metrics', 'templates', 'service.yaml'), '9:10'],
      ],
    );
    assert.match(diagnostics[1].message, /The selector app: metrics-exporter matches no pod template/);
    cpSync(join(repoRoot, charts, 'capabilities', 'templates', 'exporter.yaml'), join(work, 'metrics', 'templates', 'exporter.yaml'));
    assert.deepEqual(check(['--helm', helm, work]).diagnostics, []);
  });

  it('a chart that renders keeps the real Kustomize for the roots it builds: their mistakes are still found', () => {
    const work = tempDir('kube-netlens-helm-');
    cpSync(join(repoRoot, charts, 'capabilities'), join(work, 'charts', 'metrics'), { recursive: true });
    // an overlay with a transformer configuration, which only the real Kustomize builds
    mkdirSync(join(work, 'deploy', 'base'), { recursive: true });
    mkdirSync(join(work, 'deploy', 'dev'), { recursive: true });
    writeFileSync(join(work, 'deploy', 'base', 'kustomization.yaml'), 'resources: [app.yaml]\n');
    writeFileSync(
      join(work, 'deploy', 'base', 'app.yaml'),
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: wbe\n  ports: [{port: 80}]\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: web}]}\n',
    );
    writeFileSync(join(work, 'deploy', 'dev', 'kustomization.yaml'), 'namespace: dev\nresources: [../base]\ntransformers: [labels.yaml]\n');
    writeFileSync(
      join(work, 'deploy', 'dev', 'labels.yaml'),
      'apiVersion: builtin\nkind: LabelTransformer\nmetadata: {name: labels}\nlabels: {env: dev}\nfieldSpecs: [{path: metadata/labels, create: true}]\n',
    );
    const found = check(['--helm', helm, '--kustomize', kubectlPath(), work]).diagnostics.filter((d) => d.code === 'service-selector-no-match');
    assert.deepEqual(
      found.map((d) => [d.file, at(d)]),
      [[join(work, 'deploy', 'base', 'app.yaml'), '7:10']],
    );
  });

  it('does not render a chart whose dependency is missing: one information finding on Chart.yaml', () => {
    const { diagnostics, status } = check(['--helm', helm, join(charts, 'missingdep')]);
    assert.equal(status, 0);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity, d.file, at(d)]),
      [['helm-dependency-missing', 'information', join(charts, 'missingdep', 'Chart.yaml'), '5:5']],
    );
    assert.match(diagnostics[0].message, /postgresql 12\.1\.0 is not in charts\//);
  });

  it('does not render a library chart on its own (helm refuses: "library charts are not installable"): no finding, nothing counted as not rendered', () => {
    const run = runCli(['check', '--helm', helm, join(charts, 'library')], { env: { PATH: noHelmPath } });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.doesNotMatch(run.stdout, /helm-failed|not installable/);
    assert.match(run.stdout, /^0 errors, 0 warnings in 2 files$/m);
  });

  it("shows helm's error on the template line it names", () => {
    const { diagnostics, status } = check(['--helm', helm, join(charts, 'failing')]);
    assert.equal(status, 1);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity, d.file, at(d)]),
      [['helm-failed', 'error', join(charts, 'failing', 'templates', 'deployment.yaml'), '18:25']],
    );
    assert.match(diagnostics[0].message, /queue\.url is required/);
  });

  it("shows helm's error that names no template on Chart.yaml, with its first lines", () => {
    const work = tempDir('kube-netlens-helm-');
    cpSync(join(repoRoot, charts, 'quiet'), join(work, 'store'), { recursive: true });
    writeFileSync(join(work, 'store', 'values.yaml'), 'replicas: [2\nimage: registry.example/shop:1.4\n');
    const { diagnostics } = check(['--helm', helm, join(work, 'store')]);
    const failed = diagnostics.filter((d) => d.code === 'helm-failed');
    assert.deepEqual(
      failed.map((d) => [d.severity, d.file, at(d)]),
      [['error', join(work, 'store', 'Chart.yaml'), '2:1']],
    );
    assert.match(failed[0].message, /^helm template failed for chart store, values\.yaml:\nError: cannot load values\.yaml: error converting YAML to JSON/);
  });

  it('without helm: templates skipped and counted, one information finding per Chart.yaml, nothing else on chart files', () => {
    const all = ['failing', 'missingdep', 'quiet', 'typo', 'umbrella', 'valuesets'];
    const { diagnostics } = check(all.map((c) => join(charts, c)));
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity, d.file]),
      all.map((c) => ['helm-not-rendered', 'information', join(charts, c, 'Chart.yaml')]),
    );
    assert.match(diagnostics[0].message, /rendering needs helm.*kubeNetlens\.helm\.path/);
    const text = runCli(['check', join(charts, 'typo')], { env: { PATH: noHelmPath } });
    assert.match(text.stdout, /1 note in 4 files \(1 chart not rendered, 2 template files skipped\)\n$/);
  });

  it('a --helm path that is not an executable is a usage error', () => {
    for (const command of ['check', 'build']) {
      const run = runCli([command, '--helm', join(repoRoot, 'no-such-helm'), join(charts, 'typo')], { env: { PATH: noHelmPath } });
      assert.equal(run.status, 2);
      assert.match(run.stderr, /--helm .*no-such-helm is not an executable file/);
    }
  });

  it('--helm-values and --helm-namespace choose the render', () => {
    const prod = join(charts, 'valuesets', 'ci', 'prod-values.yaml');
    const { diagnostics } = check(['--helm', helm, '--helm-values', prod, '--helm-namespace', 'api', join(charts, 'valuesets')]);
    const typo = diagnostics.find((d) => d.code === 'service-selector-no-match')!;
    assert.match(typo.message, /namespace "api"/);
    assert.match(typo.message, /\nin release api, values ci\/prod-values\.yaml: rendered `apii`$/);
    assert.equal(diagnostics.length, 2);
  });

  it('dns and trace see the Services charts render; the trace points at template lines', () => {
    const dns = runCli(['dns', '--helm', helm, '--format', 'json', join(charts, 'typo')], { env: { PATH: noHelmPath } });
    assert.equal(dns.status, 0, dns.stderr);
    assert.ok(
      (JSON.parse(dns.stdout) as { records: { name: string }[] }).records.some((r) => r.name === 'shop-web.default.svc.cluster.local'),
      dns.stdout.slice(0, 400),
    );
    const trace = runCli(['trace', 'default/shop-web', '--helm', helm, '--format', 'json', join(charts, 'typo')], { env: { PATH: noHelmPath } });
    assert.equal(trace.status, 0, trace.stderr);
    const graph = JSON.parse(trace.stdout) as { service: { source?: { uri: string; line: number } } };
    assert.deepEqual([graph.service.source?.uri, graph.service.source?.line], [join(charts, 'typo', 'templates', 'service.yaml'), 3]);
    const without = runCli(['trace', 'default/shop-web', join(charts, 'typo')], { env: { PATH: noHelmPath } });
    assert.equal(without.status, 2);
  });

  it('build prints the rendered objects as YAML documents or one JSON array', () => {
    const yaml = runCli(['build', join(charts, 'typo'), '--helm', helm], { env: { PATH: noHelmPath } });
    assert.equal(yaml.status, 0, yaml.stderr);
    assert.deepEqual(
      yaml.stdout.split('\n').filter((l) => l.startsWith('kind:')),
      ['kind: Service', 'kind: Deployment'],
    );
    assert.equal(yaml.stdout.split('\n').filter((l) => l === '---').length, 2);
    const json = runCli(
      ['build', join(charts, 'valuesets'), '--helm', helm, '--format', 'json', '--helm-values', join(charts, 'valuesets', 'ci', 'prod-values.yaml')],
      { env: { PATH: noHelmPath } },
    );
    assert.equal(json.status, 0, json.stderr);
    const objects = JSON.parse(json.stdout) as { kind: string; metadata: { name: string }; spec: { replicas?: number; selector?: unknown } }[];
    assert.deepEqual(
      objects.map((o) => `${o.kind}/${o.metadata.name}`),
      ['Service/api', 'Service/api-metrics', 'Deployment/api'],
    );
    assert.equal(objects[2].spec.replicas, 4);
    assert.deepEqual(objects[0].spec.selector, { app: 'apii' });
  });

  it('build explains a folder that is not a chart, and a chart it cannot render', () => {
    const notChart = runCli(['build', join(charts)], { env: { PATH: noHelmPath } });
    assert.equal(notChart.status, 2);
    assert.match(notChart.stderr, /is not a chart folder: it has no Chart\.yaml/);
    const noHelm = runCli(['build', join(charts, 'typo')], { env: { PATH: noHelmPath } });
    assert.equal(noHelm.status, 2);
    assert.match(noHelm.stderr, /Chart\.yaml:2:1: Chart shop is not rendered.*needs helm/);
  });

  describe('releases from .kube-netlens.yaml', () => {
    /** A folder with the valuesets chart (without its ci/ value sets) under charts/api and a config naming two releases of it and one of no chart. */
    function configured(): string {
      const dir = tempDir('kube-netlens-helm-releases-');
      cpSync(join(repoRoot, charts, 'valuesets'), join(dir, 'charts', 'api'), { recursive: true });
      rmSync(join(dir, 'charts', 'api', 'ci'), { recursive: true });
      writeFileSync(join(dir, 'eu-values.yaml'), 'selectorApp: apx\n');
      writeFileSync(
        join(dir, '.kube-netlens.yaml'),
        [
          'helm:',
          '  releases:',
          '    - {chart: charts/api, name: shop-eu, namespace: eu, values: [eu-values.yaml]}',
          '    - {chart: ./charts/api/, name: shop-us, namespace: us, set: ["replicas=3"]}',
          '    - {chart: charts/missing, name: ghost}',
          '',
        ].join('\n'),
      );
      return dir;
    }
    const cli = (args: string[], cwd: string) => runCli(args, { env: { PATH: noHelmPath }, cwd });

    it('check renders each release the config names, beside values.yaml, and says which name no chart', () => {
      const dir = configured();
      const run = cli(['check', '--format', 'json', '--helm', helm, '.'], dir);
      assert.equal(run.status, 0, run.stderr);
      const diagnostics = (JSON.parse(run.stdout) as { diagnostics: (JsonDiagnostic & { identity: { build?: string } })[] }).diagnostics;
      const typo = diagnostics.find((d) => d.code === 'service-selector-no-match');
      assert.ok(typo, JSON.stringify(diagnostics.map((d) => d.code)));
      assert.equal(typo.file, 'charts/api/templates/services.yaml');
      assert.match(typo.message, /namespace "eu".*\nin release shop-eu, values eu-values\.yaml: rendered `apx`$/s);
      assert.equal(typo.identity.build, 'release shop-eu, values eu-values.yaml');
      const port = diagnostics.find((d) => d.code === 'service-target-port-unresolved');
      assert.match(
        port?.message ?? '',
        /\nin release api, values\.yaml; release shop-eu, values eu-values\.yaml; release shop-us, values --set replicas=3: rendered `metrics`$/,
      );
      assert.match(
        run.stderr,
        /the config file's helm release ghost names the chart charts\/missing, which is not a chart under the paths checked: not rendered/,
      );
      // the same from the folder above, naming the chart's folder: the config is found above the path and its paths are its own
      const text = cli(['check', '--helm', helm, join(dir, 'charts', 'api')], join(dir, 'charts'));
      assert.match(text.stdout, /in release shop-eu, values .*eu-values\.yaml: rendered `apx`/);
      assert.match(text.stdout, /\(3 chart value sets rendered with helm\)\n$/);
    });

    it('dns and trace see the Services of the releases, in their namespaces', () => {
      const dir = configured();
      const dns = cli(['dns', '--format', 'json', '--helm', helm, '.'], dir);
      assert.equal(dns.status, 0, dns.stderr);
      const names = (JSON.parse(dns.stdout) as { records: { name: string }[] }).records.map((r) => r.name);
      for (const n of ['api.default.svc.cluster.local', 'api.eu.svc.cluster.local', 'api.us.svc.cluster.local'])
        assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
      const trace = cli(['trace', '--helm', helm, 'eu/api', '.'], dir);
      assert.equal(trace.status, 0, trace.stderr);
      assert.match(trace.stdout, /^Service eu\/api: no request can reach a pod\n/);
      assert.match(trace.stdout, /The selector app=apx matches no pod template in namespace eu\./);
    });

    it('build renders the config’s first release of the chart, --release another, and --helm-values wins over both', () => {
      const dir = configured();
      const first = cli(['build', '--helm', helm, 'charts/api'], dir);
      assert.equal(first.status, 0, first.stderr);
      assert.match(first.stdout, /app: apx/);
      assert.equal(first.stderr, "kube-netlens: rendered the config file's release shop-eu (the others: shop-us; --release NAME renders one of them)\n");
      const us = cli(['build', '--format', 'json', '--helm', helm, '--release', 'shop-us', 'charts/api'], dir);
      assert.equal(us.status, 0, us.stderr);
      const objects = JSON.parse(us.stdout) as { kind: string; spec: { replicas?: number; selector?: { app?: string } } }[];
      assert.equal(objects.find((o) => o.kind === 'Deployment')?.spec.replicas, 3);
      assert.equal(us.stderr, '');
      const unknown = cli(['build', '--helm', helm, '--release', 'shop-ap', 'charts/api'], dir);
      assert.equal(unknown.status, 2);
      assert.match(unknown.stderr, /--release shop-ap: the config file's releases of this chart are shop-eu, shop-us/);
      const flags = cli(['build', '--helm', helm, '--helm-values', 'eu-values.yaml', 'charts/api'], dir);
      assert.equal(flags.status, 0, flags.stderr);
      assert.match(
        flags.stderr,
        /--helm-values renders each chart with those files alone: the 3 releases of the config file's helm\.releases are not rendered/,
      );
    });
  });
});

describe('check with charts and Kustomize roots in one folder', () => {
  before(() => buildCli());

  it('builds each Kustomize root with the real Kustomize once, not once without the renders and again with them', () => {
    const kubectl = kubectlPath();
    const dir = tempDir('netlens-helm-kustomize-once-');
    cpSync(join(repoRoot, charts, 'typo'), join(dir, 'chart'), { recursive: true });
    // a generator over a binary file: only the real Kustomize builds this root (its bytes are not evaluated natively)
    mkdirSync(join(dir, 'app'));
    writeFileSync(join(dir, 'app', 'data.bin'), Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xfe, 0x00, 0x01]));
    writeFileSync(join(dir, 'app', 'kustomization.yaml'), 'configMapGenerator:\n- name: data\n  files:\n  - data.bin\n');
    // the real kubectl behind a script that counts its Kustomize builds
    const log = join(dir, 'builds.log');
    const counting = join(dir, 'bin', 'kubectl');
    mkdirSync(dirname(counting));
    writeFileSync(counting, `#!/bin/sh\n[ "$1" = kustomize ] && echo "$2" >> '${log}'\nexec '${kubectl}' "$@"\n`, { mode: 0o755 });
    const { diagnostics } = check(['--helm', helm, '--kustomize', counting, dir]);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['service-selector-no-match'],
    );
    assert.equal(readFileSync(log, 'utf8').trim().split('\n').length, 1, readFileSync(log, 'utf8'));
  });
});
