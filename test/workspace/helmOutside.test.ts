// helm never reads the user's files outside the workspace (docs/robustness.md, third round): helm follows links in a
// chart folder and `.Files.Get` would put what they lead to into the render, so a chart holding a link out of the
// workspace is not rendered (a note on Chart.yaml instead), nor a value set whose values file lies outside it; a link
// inside the workspace renders. Real, pinned helm (scripts/setup-helm.mjs).

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { discoverCharts } from '../../server/src/model/helmCharts';
import { renderChart } from '../../server/src/workspace/helm';
import { runCli } from '../cli/builtCli';
import { secretMarker } from '../helpers/escapeCases';

const helm = join(__dirname, '..', '..', '.tools', 'helm', 'helm');

function filesUnder(folder: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(folder)) {
    const p = join(folder, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) filesUnder(p, out);
    else out.set(pathToFileURL(p).href, readFileSync(p, 'utf8'));
  }
  return out;
}

describe('helm reads nothing outside the workspace', () => {
  let top: string;
  let ws: string;
  before(() => {
    top = realpathSync(mkdtempSync(join(tmpdir(), 'kube-netlens-helm-out-')));
    ws = join(top, 'ws');
    mkdirSync(join(top, 'outside'), { recursive: true });
    writeFileSync(join(top, 'outside', 'secret'), `${secretMarker}\n`);
    writeFileSync(join(top, 'outside', 'values.yaml'), `stolen: ${secretMarker}\n`);
    for (const name of ['leaky', 'fine']) {
      const chart = join(ws, name);
      mkdirSync(join(chart, 'templates'), { recursive: true });
      mkdirSync(join(chart, 'files'), { recursive: true });
      writeFileSync(join(chart, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`);
      writeFileSync(
        join(chart, 'templates', 'cm.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Chart.Name }}\ndata:\n  s: {{ .Files.Get "files/data" | quote }}\n',
      );
    }
    symlinkSync(join(top, 'outside', 'secret'), join(ws, 'leaky', 'files', 'data'));
    writeFileSync(join(ws, 'shared.txt'), 'shared\n');
    symlinkSync(join(ws, 'shared.txt'), join(ws, 'fine', 'files', 'data'));
  });
  after(() => rmSync(top, { recursive: true, force: true }));

  it("the language server's renders: a link out of the workspace or a values file outside it stops the render", async () => {
    const texts = filesUnder(ws);
    const { charts } = discoverCharts([...texts.keys()], (u) => texts.get(u), { namespace: 'default' });
    const run = { helm, timeoutMs: 10_000, pathOf: (u: string) => fileURLToPath(u), roots: [ws] };
    const leaky = charts.find((c) => c.name === 'leaky')!;
    const fine = charts.find((c) => c.name === 'fine')!;
    const [refused] = await renderChart(leaky, charts, run, (u) => texts.get(u));
    assert.equal(refused.rendered, undefined);
    assert.match(refused.problems[0]?.message ?? '', /files\/data is a link leading outside the workspace/);
    const [rendered] = await renderChart(fine, charts, run, (u) => texts.get(u));
    assert.ok(rendered.rendered?.text.includes('shared'), 'a link inside the workspace renders');
    const outsideValues = {
      ...fine,
      valueSets: [{ ...fine.valueSets[0], id: 'x', label: 'values outside', valuesFiles: [pathToFileURL(join(top, 'outside', 'values.yaml')).href] }],
    };
    const [values] = await renderChart(outsideValues, charts, run, (u) => texts.get(u));
    assert.equal(values.rendered, undefined);
    assert.match(values.problems[0]?.message ?? '', /the values file \.\.\/outside\/values\.yaml lies outside the workspace/);
    for (const u of [refused, values]) assert.ok(!JSON.stringify(u).includes(secretMarker));
  });

  it('kube-netlens check and build: the chart with the link is not rendered, the other is', () => {
    const check = runCli(['check', '--helm', helm, '.'], { cwd: ws });
    assert.match(check.stdout, /leaky\/Chart\.yaml:2:1: warning helm-not-rendered: .*files\/data is a link leading outside the workspace/);
    assert.ok(!check.stdout.includes(secretMarker) && !check.stdout.includes(top), check.stdout);
    const build = runCli(['build', '--helm', helm, 'leaky'], { cwd: ws });
    assert.equal(build.status, 2);
    assert.ok(!build.stdout.includes(secretMarker));
    const ok = runCli(['build', '--helm', helm, 'fine'], { cwd: ws });
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /shared/);
  });
});
