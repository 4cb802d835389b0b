// `check --write-baseline FILE` and `check --baseline FILE`: record today's findings by identity, then report and fail
// on new ones only, say how many known ones were held back, list entries no finding matches, and drop them on rewrite.

import { tempDir } from '../helpers/tempDirs';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildCli, runCli } from './builtCli';

const app = (name: string, selector: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: shop}
spec:
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: main, image: nginx}]
---
apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: shop}
spec:
  selector: {app: ${selector}}
  ports: [{port: 80}]
`;

function workspace(files: Record<string, string>): string {
  const dir = tempDir('kube-netlens-baseline-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

interface Json {
  diagnostics: { code: string; identity: { object: { name: string } } }[];
  baseline?: { file: string; known: number; stale: { identity: { object: { name: string } } }[] };
}

describe('check with a baseline', () => {
  before(() => {
    buildCli();
  });

  it('records the findings by identity, with no lines or messages, sorted, and exits 0', () => {
    const dir = workspace({ 'a.yaml': app('web', 'wbe'), 'b.yaml': app('api', 'apii') });
    const run = runCli(['check', '--fail-on', 'warning', '--write-baseline', 'baseline.json', '.'], { cwd: dir });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /^kube-netlens: wrote 2 findings to the baseline baseline\.json\n$/);
    const written = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8'));
    assert.equal(written.version, 1);
    assert.deepEqual(written.findings.map((f: { identity: { object: { name: string } } }) => f.identity.object.name).sort(), ['api', 'web']);
    const fps = written.findings.map((f: { fingerprint: string }) => f.fingerprint);
    assert.deepEqual(fps, [...fps].sort());
    const text = readFileSync(join(dir, 'baseline.json'), 'utf8');
    assert.ok(!/"(line|message|range)"/.test(text), text);
  });

  it('holds the known findings back and fails on new ones only, whatever moved', () => {
    const dir = workspace({ 'a.yaml': app('web', 'wbe'), 'b.yaml': app('api', 'apii') });
    assert.equal(runCli(['check', '--write-baseline', 'baseline.json', '.'], { cwd: dir }).status, 0);
    const same = runCli(['check', '--fail-on', 'warning', '--baseline', 'baseline.json', '.'], { cwd: dir });
    assert.equal(same.status, 0, same.stdout);
    assert.match(same.stderr, /2 known findings held back by the baseline baseline\.json; 0 new findings reported/);
    assert.match(same.stdout, /^0 errors, 0 warnings in 2 files\n$/);
    // the known mistakes move (a comment, another order of documents, another file); a new one appears
    writeFileSync(join(dir, 'a.yaml'), `# moved\n\n${app('api', 'apii')}`);
    writeFileSync(join(dir, 'b.yaml'), `${app('db', 'dbb')}---\n${app('web', 'wbe')}`);
    const json = runCli(['check', '--format', 'json', '--fail-on', 'warning', '--baseline', 'baseline.json', '.'], { cwd: dir });
    assert.equal(json.status, 1, json.stderr);
    const out = JSON.parse(json.stdout) as Json;
    assert.deepEqual(
      out.diagnostics.map((d) => `${d.code} ${d.identity.object.name}`),
      ['service-selector-no-match db'],
    );
    assert.equal(out.baseline?.known, 2);
    assert.deepEqual(out.baseline?.stale, []);
    const sarif = runCli(['check', '--format', 'sarif', '--baseline', 'baseline.json', '.'], { cwd: dir });
    assert.equal(JSON.parse(sarif.stdout).runs[0].results.length, 1, 'SARIF holds the new finding only');
  });

  it('lists entries no finding matches any more, and --write-baseline drops them', () => {
    const dir = workspace({ 'a.yaml': app('web', 'wbe'), 'b.yaml': app('api', 'apii') });
    assert.equal(runCli(['check', '--write-baseline', 'baseline.json', '.'], { cwd: dir }).status, 0);
    writeFileSync(join(dir, 'b.yaml'), app('api', 'api'));
    const run = runCli(['check', '--format', 'json', '--baseline', 'baseline.json', '.'], { cwd: dir });
    assert.equal(run.status, 0);
    assert.match(
      run.stderr,
      /1 baseline entry no finding matches any more \(fixed, or changed\); --write-baseline baseline\.json drops it:\nkube-netlens: {3}service-selector-no-match on Service shop\/api at spec\.selector\.app \("apii"\)\n/,
    );
    assert.deepEqual(
      (JSON.parse(run.stdout) as Json).baseline?.stale.map((e) => e.identity.object.name),
      ['api'],
    );
    const rewrite = runCli(['check', '--baseline', 'baseline.json', '--write-baseline', 'baseline.json', '.'], { cwd: dir });
    assert.equal(rewrite.status, 0);
    assert.match(rewrite.stderr, /dropped from the baseline:/);
    assert.match(rewrite.stderr, /wrote 1 finding to the baseline baseline\.json \(dropped 1 entry no finding matches any more\)/);
    const written = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8'));
    assert.deepEqual(
      written.findings.map((f: { identity: { object: { name: string } } }) => f.identity.object.name),
      ['web'],
    );
  });

  it('refuses a baseline it cannot use, with the reason (exit 2)', () => {
    const dir = workspace({
      'a.yaml': app('web', 'wbe'),
      'bad.json': '{"version": 1, "findings": [',
      'old.json': '{"version": 7, "findings": []}',
      'list.json': '[]',
    });
    const cases: [string, RegExp][] = [
      ['missing.json', /cannot read the baseline missing\.json: no such file \(write one with --write-baseline FILE\)/],
      ['bad.json', /the baseline bad\.json is not JSON/],
      ['old.json', /the baseline old\.json has version 7; this kube-netlens reads version 1/],
      ['list.json', /the baseline list\.json is not a kube-netlens baseline/],
    ];
    for (const [file, message] of cases) {
      const run = runCli(['check', '--baseline', file, 'a.yaml'], { cwd: dir });
      assert.equal(run.status, 2, file);
      assert.match(run.stderr, message);
      assert.equal(run.stdout, '');
    }
  });
});
