// The workspace side of Helm: rendering without blocking (what the language server uses) over file URIs, the
// timeout that stops a render, and the rule that helm never runs in an untrusted workspace. Real, pinned helm.

import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { discoverCharts } from '../../server/src/model/helmCharts';
import { sourceOf } from '../../server/src/model/rendered';
import type { RenderedUnit } from '../../server/src/model/rendered';
import { helmForSettings, releasesIn, renderChart, renderChartsSync } from '../../server/src/workspace/helm';
import { createWorkspace } from '../../server/src/workspace/workspace';
import { readSettings } from '../../server/src/workspace/settings';
import { tempDir } from '../helpers/tempDirs';

const repoRoot = join(__dirname, '..', '..');
const helm = join(repoRoot, '.tools', 'helm', 'helm');

/** Every file under a folder, as file URIs with their texts. */
function filesUnder(folder: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(pathToFileURL(p).href, readFileSync(p, 'utf8'));
    }
  };
  walk(folder);
  return out;
}

describe('rendering charts for the language server', () => {
  it('renders every value set without blocking, over file URIs, with a source map to the templates', async () => {
    const texts = filesUnder(join(repoRoot, 'test', 'fixtures', 'helm', 'valuesets'));
    const { charts } = discoverCharts([...texts.keys()], (u) => texts.get(u), { namespace: 'api' });
    const units = await renderChart(charts[0], charts, { helm, timeoutMs: 10_000, pathOf: (u) => fileURLToPath(u) }, (u) => texts.get(u));
    assert.deepEqual(
      units.map((u) => [u.kind, u.label, u.problems.length, !!u.rendered]),
      [
        ['helm', 'chart api, values.yaml', 0, true],
        ['helm', 'chart api, values ci/prod-values.yaml', 0, true],
        ['helm', 'chart api, values ci/staging-values.yaml', 0, true],
      ],
    );
    const prod = units[1];
    assert.equal(prod.id, `helm:${charts[0].root}#ci/prod-values.yaml`);
    assert.equal(prod.definedBy, charts[0].chartYaml);
    assert.ok(prod.inputs.includes(`${charts[0].root}/ci/prod-values.yaml`) && prod.inputs.includes(`${charts[0].root}/templates/services.yaml`));
    const text = prod.rendered!.text;
    const at = text.indexOf('apii');
    const m = sourceOf(prod.rendered!, { start: at, end: at + 4 })!;
    assert.equal(m.uri, `${charts[0].root}/templates/services.yaml`);
    assert.equal(texts.get(m.uri)!.slice(m.span.start, m.span.end), '{{ .Values.selectorApp }}');
    assert.equal(m.via, 'values ci/prod-values.yaml');
  });

  it('stops a render that takes longer than the timeout', async () => {
    const dir = tempDir('kube-netlens-slow-');
    mkdirSync(join(dir, 'templates'));
    writeFileSync(join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: slow\nversion: 0.1.0\n');
    // about a hundred million loop turns: several seconds of helm's time
    writeFileSync(
      join(dir, 'templates', 'cm.yaml'),
      '{{- range until 10000 }}{{- range until 10000 }}{{- end }}{{- end }}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: slow\n',
    );
    const texts = filesUnder(dir);
    const { charts } = discoverCharts([...texts.keys()], (u) => texts.get(u), { namespace: 'default' });
    const started = Date.now();
    const [unit] = await renderChart(charts[0], charts, { helm, timeoutMs: 300, pathOf: (u) => fileURLToPath(u) }, (u) => texts.get(u));
    assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
    assert.equal(unit.rendered, undefined);
    assert.deepEqual(
      unit.problems.map((p) => [p.code, p.uri]),
      [['helm-failed', charts[0].chartYaml]],
    );
    assert.match(unit.problems[0].message, /did not finish within 300 ms for chart slow, values\.yaml and was stopped/);
  });

  it('the CLI renders several charts at a time, each with its own timeout and error, in the order of the charts', () => {
    const dir = tempDir('kube-netlens-batch-');
    mkdirSync(join(dir, 'slow', 'templates'), { recursive: true });
    writeFileSync(join(dir, 'slow', 'Chart.yaml'), 'apiVersion: v2\nname: slow\nversion: 0.1.0\n');
    writeFileSync(
      join(dir, 'slow', 'templates', 'cm.yaml'),
      '{{- range until 10000 }}{{- range until 10000 }}{{- end }}{{- end }}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: slow\n',
    );
    for (const name of ['valuesets', 'failing']) cpSync(join(repoRoot, 'test', 'fixtures', 'helm', name), join(dir, name), { recursive: true });
    const texts = filesUnder(dir);
    const { charts } = discoverCharts([...texts.keys()], (u) => texts.get(u), { namespace: 'default' });
    const run = { helm, timeoutMs: 2000, pathOf: (u: string) => fileURLToPath(u) };
    const brief = (units: RenderedUnit[]) =>
      units.map((u): [string, string, number] => [u.label, u.problems.map((p) => p.code).join(), u.rendered?.text.length ?? 0]);
    const started = Date.now();
    const parallel = renderChartsSync(charts, charts, run, (u) => texts.get(u), 2);
    assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
    assert.deepEqual(
      brief(parallel).map(([label, codes, length]) => [label, codes, length > 0]),
      [
        ['chart worker, values.yaml', 'helm-failed', false],
        ['chart slow, values.yaml', 'helm-failed', false],
        ['chart api, values.yaml', '', true],
        ['chart api, values ci/prod-values.yaml', '', true],
        ['chart api, values ci/staging-values.yaml', '', true],
      ],
    );
    assert.match(parallel[1].problems[0].message, /did not finish within 2 s/);
    assert.match(parallel[0].problems[0].message, /queue\.url is required/);
    // the same units as one render after another
    assert.deepEqual(brief(renderChartsSync(charts, charts, run, (u) => texts.get(u), 1)), brief(parallel));
  });

  it('renders enter the workspace as files of their own, in the release namespace, and go with their chart', async () => {
    const texts = filesUnder(join(repoRoot, 'test', 'fixtures', 'helm', 'valuesets'));
    const ws = createWorkspace(readSettings({}, true));
    for (const [u, t] of texts) if (/\.ya?ml$/.test(u)) ws.setDiskText(u, t);
    const snap = ws.snapshot();
    assert.equal(snap.analysis.cluster.services.length, 0, 'templates are not read as manifests');
    const chart = snap.charts.charts[0];
    const units = await renderChart(chart, snap.charts.charts, { helm, timeoutMs: 10_000, pathOf: (u) => fileURLToPath(u) }, (u) => snap.text(u));
    ws.setChartRenders(
      chart.root,
      units.map((unit, i) => ({ chart, valueSet: { ...chart.valueSets[i], namespace: 'api' }, unit })),
    );
    const rendered = ws.snapshot();
    assert.equal(rendered.renders.size, 3);
    assert.deepEqual([...new Set(rendered.analysis.cluster.services.map((s) => `${s.namespace}/${s.name}`))].sort(), ['api/api', 'api/api-metrics']);
    assert.equal(rendered.stats.files, snap.stats.files, 'renders are not counted as workspace files');
    // the three renders differ (replicas, a selector): the project model keeps them apart
    assert.equal(rendered.analysis.scopes().length >= 3, true);
    ws.deleteDiskText(chart.chartYaml);
    assert.equal(ws.snapshot().renders.size, 0);
    assert.equal(ws.snapshot().analysis.cluster.services.length, 0);
  });

  it('reads the paths of kubeNetlens.helm.releases from the first workspace folder', () => {
    const [r] = releasesIn([{ chart: 'charts/shop', name: 'eu', values: ['./deploy/eu.yaml', '/etc/x.yaml'], set: [] }], ['/w/repo', '/w/other']);
    assert.deepEqual([r.chart, r.values], ['file:///w/repo/charts/shop', ['file:///w/repo/deploy/eu.yaml', 'file:///etc/x.yaml']]);
    const texts = new Map([['file:///w/repo/charts/shop/Chart.yaml', 'apiVersion: v2\nname: shop\n']]);
    const chart = discoverCharts([...texts.keys()], (u) => texts.get(u), { namespace: 'default', releases: [r] }).charts[0];
    assert.deepEqual(
      chart.valueSets.map((v) => [v.label, v.release, v.valuesFiles]),
      [
        ['values.yaml', 'shop', []],
        ['release eu, values ../../deploy/eu.yaml, file:///etc/x.yaml', 'eu', ['file:///w/repo/deploy/eu.yaml', 'file:///etc/x.yaml']],
      ],
    );
  });

  it('never runs helm in an untrusted workspace, whatever the settings name', () => {
    const settings = { helm: { path: helm } };
    assert.equal(helmForSettings(readSettings(settings, false).helm, { PATH: join(repoRoot, '.tools', 'helm') }), undefined);
    assert.equal(helmForSettings(readSettings(settings, true).helm, {}), helm);
    assert.equal(helmForSettings(readSettings({}, true).helm, { PATH: join(repoRoot, '.tools', 'helm') }), helm);
    assert.equal(helmForSettings(readSettings({}, true).helm, { PATH: '/nowhere' }), undefined);
  });
});
