// Kustomize's load restrictor (docs/robustness.md, third round): a kustomization that reads a file outside its folder
// (an absolute path, a `../` escape, a link leading out) through a generator's `files` or `envs`, a patch or a
// resource file fails to build, natively, in `kube-netlens build` and `check`, as `kubectl kustomize` fails; no
// output holds the file's contents or an absolute path. LoadRestrictionsNone, when the user asks for it, builds what
// `kubectl kustomize --load-restrictor LoadRestrictionsNone` builds. A base folder outside the overlay's is allowed.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runCli } from '../cli/builtCli';
import { diskReader } from '../../server/src/workspace/diskReader';
import { renderKustomization } from '../../server/src/kustomize/render';
import { firstDifference, kubectlBuildAll, nativeBuild } from '../helpers/kubectlKustomize';
import { secretMarker, writeEscapeLayout, type EscapeLayout } from '../helpers/escapeCases';

const refusal = /security; file '[^']*' is not in or below '[^']*'/;

describe('kustomize load restrictor', () => {
  let layout: EscapeLayout;
  before(() => {
    layout = writeEscapeLayout();
  });
  after(() => rmSync(layout.top, { recursive: true, force: true }));

  it("the native renderer refuses every escape with kustomize's words, workspace-relative paths and no contents", () => {
    for (const c of layout.cases) {
      const unit = renderKustomization(diskReader, pathToFileURL(c.dir).href, { workspace: pathToFileURL(layout.workspace).href });
      assert.equal(unit.rendered, undefined, `${c.name} must not build`);
      assert.equal(unit.problems.length, 1, c.name);
      const p = unit.problems[0];
      assert.equal(p.code, 'kustomize-render-failed', c.name);
      assert.match(p.message, refusal, c.name);
      assert.ok(!p.message.includes(layout.top), `${c.name}: no absolute path in ${p.message}`);
      assert.ok(p.message.includes(`not in or below 'cases/${c.name}'`), `${c.name}: ${p.message}`);
      // the problem is on the kustomization's line that names the file
      assert.equal(p.uri, pathToFileURL(`${c.dir}/kustomization.yaml`).href, c.name);
      assert.ok(!unit.inputs.some((u) => u.includes('/outside/')), `${c.name}: a refused file is no input of the build`);
    }
  });

  it('kubectl kustomize refuses each of them too; with LoadRestrictionsNone both build the same objects', async () => {
    const dirs = layout.cases.map((c) => c.dir);
    const real = await kubectlBuildAll(dirs, 3);
    real.forEach((r, i) => {
      assert.equal(r.ok, false, `kubectl kustomize builds ${layout.cases[i].name}`);
      assert.match(r.error ?? '', refusal, layout.cases[i].name);
    });
    const unrestricted = await kubectlBuildAll(dirs, 3, ['--load-restrictor', 'LoadRestrictionsNone']);
    unrestricted.forEach((r, i) => {
      const c = layout.cases[i];
      const mine = nativeBuild(c.dir, { loadRestrictor: 'none' });
      assert.equal(r.ok, true, `${c.name}: kubectl with LoadRestrictionsNone: ${r.error}`);
      assert.equal(mine.ok, true, `${c.name}: native with none: ${mine.error}`);
      assert.equal(firstDifference(mine.objects, r.objects), undefined, c.name);
      assert.ok(JSON.stringify(mine.objects).includes(secretMarker), `${c.name}: the file was read`);
    });
  });

  it('what a kustomization may read builds natively and with kubectl: a file below it, a base folder beside it', async () => {
    const real = await kubectlBuildAll(layout.allowed, 2);
    layout.allowed.forEach((dir, i) => {
      const mine = nativeBuild(dir);
      assert.equal(mine.ok, true, `${dir}: ${mine.error}`);
      assert.equal(real[i].ok, true, `${dir}: ${real[i].error}`);
      assert.equal(firstDifference(mine.objects, real[i].objects), undefined, dir);
    });
  });

  it("kube-netlens build refuses each escape (exit 2, kustomize's words, relative paths) unless --load-restrictor LoadRestrictionsNone", () => {
    for (const c of layout.cases) {
      const rel = relative(layout.workspace, c.dir);
      const r = runCli(['build', rel], { cwd: layout.workspace });
      assert.equal(r.status, 2, `${c.name}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, refusal, c.name);
      assert.ok(!r.stderr.includes(layout.top) && !r.stdout.includes(secretMarker) && !r.stderr.includes(secretMarker), `${c.name}: ${r.stderr}`);
      const none = runCli(['build', '--load-restrictor', 'LoadRestrictionsNone', '--format', 'json', rel], { cwd: layout.workspace });
      assert.equal(none.status, 0, `${c.name}: ${none.stderr}`);
      assert.ok(none.stdout.includes(secretMarker), c.name);
    }
    for (const dir of layout.allowed) assert.equal(runCli(['build', dir]).status, 0, dir);
  });

  it('kube-netlens check reports each escape on its kustomization (text and SARIF, no absolute path, no contents)', () => {
    const text = runCli(['check', '.'], { cwd: layout.workspace });
    assert.equal(text.status, 1, text.stderr);
    for (const c of layout.cases) {
      const line = text.stdout.split('\n').find((l) => l.startsWith(`cases/${c.name}/kustomization.yaml:`));
      assert.ok(line, `${c.name} has a finding: ${text.stdout}`);
      assert.match(line, new RegExp(`kustomize-render-failed: Kustomize build fails: security; file '[^']*' is not in or below 'cases/${c.name}'`), c.name);
      // the outside file as a path relative to the current folder
      assert.ok(line.includes(`'../outside/`) || line.includes(`'cases/${c.name}/linked/`), line);
    }
    const sarif = runCli(['check', '--format', 'sarif', '.'], { cwd: layout.workspace });
    const results = (JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; message: { text: string } }[] }[] }).runs[0].results;
    assert.equal(results.filter((r) => refusal.test(r.message.text)).length, layout.cases.length);
    for (const out of [text.stdout, text.stderr, sarif.stdout.replace(/"uri": "[^"]*"/g, '')]) {
      assert.ok(!out.includes(secretMarker), 'no contents');
      assert.ok(!out.includes(layout.top), 'no absolute path outside locations');
    }
    const none = runCli(['check', '--load-restrictor', 'LoadRestrictionsNone', '.'], { cwd: layout.workspace });
    assert.ok(!refusal.test(none.stdout), none.stdout);
  });

  it('dns and trace take --load-restrictor too, and a wrong value is a usage error', () => {
    const dns = runCli(['dns', '--load-restrictor', 'LoadRestrictionsRootOnly', 'ok'], { cwd: layout.workspace });
    assert.equal(dns.status, 0, dns.stderr);
    // the options are taken: trace gets as far as looking the Service up
    const trace = runCli(['trace', '--load-restrictor', 'LoadRestrictionsNone', 'default/none', 'ok'], { cwd: layout.workspace });
    assert.match(trace.stderr, /no Service default\/none/);
    const bad = runCli(['check', '--load-restrictor', 'none', '.'], { cwd: layout.workspace });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--load-restrictor must be one of LoadRestrictionsRootOnly, LoadRestrictionsNone/);
  });
});
