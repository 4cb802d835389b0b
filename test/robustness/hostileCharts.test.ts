// Hostile Helm charts (docs/robustness.md, "Third round"), rendered with the pinned helm (`node scripts/setup-helm.mjs`):
// a values file of 50 MB is refused by its size without being read or given to helm, thousands of ci/*-values.yaml
// sets are capped with a note naming those not rendered, and a render of 100 MB is stopped by the render size cap.
// Every input is generated in a temporary folder (the big values files are sparse).

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { discoverCharts, maxValueSetsPerChart } from '../../server/src/model/helmCharts';
import { maxRenderBytes, renderChart, renderChartsSync } from '../../server/src/workspace/helm';

const repoRoot = join(__dirname, '..', '..');
const helm = join(repoRoot, '.tools', 'helm', 'helm');
const boundMs = 120_000;
const service = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Values.name }}\nspec:\n  selector: {app: web}\n  ports: [{port: 80}]\n';

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A chart in a new folder: `files` relative paths → texts; returns the chart, its URIs and texts. */
function chartWith(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'netlens-hostile-chart-'));
  made.push(dir);
  const root = join(dir, 'web');
  for (const [rel, text] of Object.entries({ 'Chart.yaml': 'apiVersion: v2\nname: web\nversion: 1.0.0\n', ...files })) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  const texts = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (statSync(p).size <= 1024 * 1024) texts.set(pathToFileURL(p).href, readFileSync(p, 'utf8'));
      else texts.set(pathToFileURL(p).href, '');
    }
  };
  walk(root);
  const { charts } = discoverCharts([...texts.keys()], (u) => texts.get(u), { namespace: 'default' });
  return { root, charts, texts, run: { helm, timeoutMs: 60_000, pathOf: (u: string) => fileURLToPath(u) } };
}

async function timed<T>(what: string, f: () => Promise<T> | T): Promise<T> {
  const started = Date.now();
  const out = await f();
  const ms = Date.now() - started;
  console.log(`${what}: ${ms} ms`);
  assert.ok(ms < boundMs, `${what} took ${ms} ms`);
  return out;
}

describe('hostile Helm charts', () => {
  it('a values.yaml of 50 MB: no value set rendered, each says which file is over the size limit', async () => {
    const c = chartWith({ 'templates/svc.yaml': service, 'values.yaml': '', 'ci/prod-values.yaml': 'name: prod\n' });
    truncateSync(join(c.root, 'values.yaml'), 50 * 1024 * 1024);
    const units = await timed('a 50 MB values.yaml', () => renderChart(c.charts[0], c.charts, c.run, (u) => c.texts.get(u)));
    assert.equal(units.length, 2);
    for (const u of units) {
      assert.equal(u.rendered, undefined);
      assert.match(u.problems[0]?.message ?? '', /is not rendered: the values file values\.yaml is 50 MB, over the 1\.0 MB size limit/);
    }
  });

  it('a ci/*-values.yaml of 50 MB: that value set alone is refused, the others render', async () => {
    const c = chartWith({ 'templates/svc.yaml': service, 'values.yaml': 'name: web\n', 'ci/big-values.yaml': '', 'ci/prod-values.yaml': 'name: prod\n' });
    truncateSync(join(c.root, 'ci', 'big-values.yaml'), 50 * 1024 * 1024);
    const units = renderChartsSync(c.charts, c.charts, c.run, (u) => c.texts.get(u), 2);
    const big = units.find((u) => u.label.includes('ci/big-values.yaml'))!;
    assert.match(big.problems[0]?.message ?? '', /values file ci\/big-values\.yaml is 50 MB/);
    // helm itself refuses a chart holding a file over 5 MB: the other sets fail with helm's own words, not a hang
    const others = units.filter((u) => u !== big);
    assert.equal(others.length, 2);
    for (const u of others)
      assert.match(u.problems[0]?.message ?? '', /helm template failed for chart web.*\n.*big-values\.yaml" is larger than the maximum file size/);
  });

  it(`3,000 ci/*-values.yaml sets: ${maxValueSetsPerChart} rendered, a note names those that are not`, async () => {
    const files: Record<string, string> = { 'templates/svc.yaml': service, 'values.yaml': 'name: web\n' };
    for (let i = 0; i < 3000; i++) files[`ci/s${String(i).padStart(4, '0')}-values.yaml`] = `name: s${i}\n`;
    const c = chartWith(files);
    assert.equal(c.charts[0].valueSets.length, maxValueSetsPerChart);
    assert.equal(c.charts[0].omittedValueSets?.length, 3001 - maxValueSetsPerChart);
    const units = await timed('3,000 value sets', () => renderChart(c.charts[0], c.charts, c.run, (u) => c.texts.get(u)));
    assert.equal(units.length, maxValueSetsPerChart);
    assert.ok(
      units.every((u) => u.rendered?.text.includes('kind: Service')),
      JSON.stringify(units.map((u) => u.problems)),
    );
    const notes = units.flatMap((u) => u.problems).filter((p) => p.code === 'helm-not-rendered');
    assert.equal(notes.length, 1);
    assert.match(notes[0].message, /has 3,001 value sets; only the first 20 are rendered\. Not rendered: values ci\/s0019-values\.yaml, .* and 2,971 more\./);
  });

  it(`a render of 100 MB: stopped at ${maxRenderBytes / (1024 * 1024)} MB, with a warning instead of findings`, async () => {
    // helm itself takes minutes to render 100 MB; a stand-in that writes 100 MB at once shows the cap
    const c = chartWith({ 'templates/svc.yaml': service, 'values.yaml': 'name: web\n' });
    const fake = join(c.root, '..', 'fake-helm');
    writeFileSync(fake, "#!/bin/sh\nhead -c 104857600 /dev/zero | tr '\\0' a\n", { mode: 0o755 });
    const run = { ...c.run, helm: fake };
    const units = await timed('a 100 MB render (server)', () => renderChart(c.charts[0], c.charts, run, (u) => c.texts.get(u)));
    assert.equal(units[0].rendered, undefined);
    assert.match(units[0].problems[0]?.message ?? '', /helm template wrote more than 16 MB for chart web, values\.yaml and was stopped/);
    const sync = await timed('a 100 MB render (CLI, two at a time)', () =>
      renderChartsSync([c.charts[0], c.charts[0]], c.charts, run, (u) => c.texts.get(u), 2),
    );
    for (const u of sync) assert.match(u.problems[0]?.message ?? '', /wrote more than 16 MB/);
    const one = await timed('a 100 MB render (CLI, one at a time)', () => renderChartsSync(c.charts, c.charts, run, (u) => c.texts.get(u), 1));
    assert.match(one[0].problems[0]?.message ?? '', /wrote more than 16 MB/);
  });
});
