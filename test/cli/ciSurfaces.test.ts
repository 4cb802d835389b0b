// The CI surfaces: `check --format github` workflow commands, the composite GitHub Action (action.yml, its steps run
// as the runner would: each `run` with its `${{ inputs.* }}` expressions filled in, GITHUB_ACTION_PATH and
// GITHUB_OUTPUT set), and the pre-commit hook (.pre-commit-hooks.yaml, run as pre-commit runs a `script` hook: its
// entry and args from the hook repository's root, in the repository being committed to).

import { tempDir } from '../helpers/tempDirs';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { before, describe, it } from 'node:test';
import { sarifViolations } from '../helpers/sarifSchema';
import { buildCli, repoRoot, runCli } from './builtCli';

const broken = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: wbe}
  ports: [{port: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: main, image: nginx}]}
`;
const fixed = broken.replace('app: wbe', 'app: web');

function workspace(files: Record<string, string>): string {
  const dir = tempDir('kube-netlens-ci-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** A copy of this repository as a runner or pre-commit clones it: the files the action and hook use, with the built CLI. */
function hookRepository(): string {
  const dir = tempDir('kube-netlens-action-');
  for (const f of ['action.yml', '.pre-commit-hooks.yaml']) copyFileSync(join(repoRoot, f), join(dir, f));
  cpSync(join(repoRoot, 'scripts', 'ci'), join(dir, 'scripts', 'ci'), { recursive: true });
  mkdirSync(join(dir, 'dist'));
  copyFileSync(buildCli(), join(dir, 'dist', 'cli.js'));
  return dir;
}

interface Step {
  name: string;
  id?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}

/** Runs the action's steps in `cwd` with `inputs` (over the defaults); `uses` steps are recorded, not run. */
function runAction(actionDir: string, cwd: string, given: Record<string, string>) {
  const action = parseYaml(readFileSync(join(actionDir, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default: string }>;
    runs: { using: string; steps: Step[] };
  };
  assert.equal(action.runs.using, 'composite');
  const inputs: Record<string, string> = { ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default])), ...given };
  const outputs: Record<string, Record<string, string>> = {};
  const expr = (s: string) =>
    s.replace(/\$\{\{\s*(inputs|steps)\.([\w-]+)(?:\.outputs\.([\w-]+))?\s*\}\}/g, (_, scope: string, name: string, out?: string) =>
      scope === 'inputs' ? inputs[name] : (outputs[name]?.[out!] ?? ''),
    );
  const condition = (c: string | undefined) => {
    if (!c) return true;
    // the conditions this action uses: `a == 'x' && b == 'y'` and `steps.x.outputs.y != '0'`, over inputs and outputs
    return c.split('&&').every((part) => {
      const m = /^\s*(inputs\.[\w-]+|steps\.[\w-]+\.outputs\.[\w-]+)\s*(==|!=)\s*'([^']*)'\s*$/.exec(part);
      assert.ok(m, `a condition this test can evaluate: ${part}`);
      const value = expr(`\${{ ${m[1]} }}`);
      return m[2] === '==' ? value === m[3] : value !== m[3];
    });
  };
  const log: { step: string; status: number | null; stdout: string; uses?: Step }[] = [];
  for (const step of action.runs.steps) {
    if (!condition(step.if)) continue;
    if (step.uses) {
      log.push({
        step: step.name,
        status: 0,
        stdout: '',
        uses: { ...step, with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expr(v)])) },
      });
      continue;
    }
    assert.equal(step.shell, 'bash');
    const outputFile = join(tempDir('gh-output-'), 'output');
    writeFileSync(outputFile, '');
    const env = {
      ...process.env,
      GITHUB_ACTION_PATH: actionDir,
      GITHUB_OUTPUT: outputFile,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expr(v)])),
    };
    const r = spawnSync('bash', ['-e', '-c', expr(step.run!)], { cwd, env, encoding: 'utf8' });
    if (step.id)
      outputs[step.id] = Object.fromEntries(
        readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => l.split('=', 2) as [string, string]),
      );
    log.push({ step: step.name, status: r.status, stdout: r.stdout + r.stderr });
    if (r.status !== 0) break;
  }
  return log;
}

describe('CI surfaces', () => {
  before(() => {
    buildCli();
  });

  it('--format github prints one workflow command per finding, escaped, and the summary', () => {
    const dir = workspace({ 'deploy/a,b:c.yaml': broken });
    const run = runCli(['check', '--format', 'github', '.'], { cwd: dir });
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.match(
      lines[0],
      /^::warning file=deploy\/a%2Cb%3Ac\.yaml,line=5,col=19,endLine=5,endColumn=22,title=kube-netlens service-selector-no-match::The selector app: wbe matches no pod template/,
    );
    assert.ok(!lines[0].slice(2).includes('\n'));
    assert.equal(lines[lines.length - 1], '0 errors, 1 warning in 1 file');
    assert.equal(runCli(['check', '--format', 'github', '--fail-on', 'warning', '.'], { cwd: dir }).status, 1);
  });

  it('the GitHub Action checks, writes valid SARIF for the upload step, and fails the job after it on findings', () => {
    const action = hookRepository();
    const repo = workspace({ 'k8s/app.yaml': broken });
    const log = runAction(action, repo, { 'fail-on': 'warning' });
    assert.deepEqual(
      log.map((l) => [l.step, l.status]),
      [
        ['Install kube-netlens', 0],
        ['Check', 0],
        ['Upload SARIF', 0],
        ['Fail on findings', 1],
      ],
    );
    assert.deepEqual(log[2].uses, {
      ...log[2].uses,
      uses: 'github/codeql-action/upload-sarif@v3',
      with: { sarif_file: 'kube-netlens.sarif', category: 'kube-netlens' },
    });
    const sarif = JSON.parse(readFileSync(join(repo, 'kube-netlens.sarif'), 'utf8'));
    assert.deepEqual(sarifViolations(sarif), []);
    assert.deepEqual(
      sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId),
      ['service-selector-no-match'],
    );
    writeFileSync(join(repo, 'k8s', 'app.yaml'), fixed);
    assert.deepEqual(
      runAction(action, repo, { 'fail-on': 'warning' }).map((l) => [l.step, l.status]),
      [
        ['Install kube-netlens', 0],
        ['Check', 0],
        ['Upload SARIF', 0],
      ],
    );
  });

  it('the GitHub Action prints annotations with format github, and holds back what the baseline knows', () => {
    const action = hookRepository();
    const repo = workspace({ 'k8s/app.yaml': broken });
    const log = runAction(action, repo, { format: 'github', 'fail-on': 'warning' });
    assert.deepEqual(
      log.map((l) => l.step),
      ['Install kube-netlens', 'Check', 'Fail on findings'],
    );
    assert.match(log[1].stdout, /^::warning file=k8s\/app\.yaml,line=5,/m);
    execFileSync(process.execPath, [buildCli(), 'check', '--write-baseline', '.kube-netlens-baseline.json', '.'], { cwd: repo });
    const held = runAction(action, repo, { format: 'github', 'fail-on': 'warning', baseline: '.kube-netlens-baseline.json' });
    assert.deepEqual(
      held.map((l) => [l.step, l.status]),
      [
        ['Install kube-netlens', 0],
        ['Check', 0],
      ],
    );
    assert.match(held[1].stdout, /1 known finding held back by the baseline/);
    const bad = runAction(action, repo, { format: 'xml' });
    assert.equal(bad[1].status, 2);
    assert.match(bad[1].stdout, /::error title=kube-netlens::the format input must be sarif or github/);
  });

  it('the pre-commit hook checks the whole repository when YAML changes, and fails the commit on errors', () => {
    const hooks = hookRepository();
    const [hook] = parseYaml(readFileSync(join(hooks, '.pre-commit-hooks.yaml'), 'utf8')) as {
      id: string;
      entry: string;
      args: string[];
      language: string;
      files: string;
      pass_filenames: boolean;
    }[];
    assert.equal(hook.id, 'kube-netlens');
    assert.equal(hook.language, 'script');
    assert.equal(hook.pass_filenames, false);
    assert.ok(new RegExp(hook.files).test('deploy/app.yaml') && new RegExp(hook.files).test('a.yml') && !new RegExp(hook.files).test('main.go'));
    // pre-commit runs a script hook as `<hook repo>/<entry> <args>` in the repository being committed to
    const [script, ...entryArgs] = hook.entry.split(' ');
    const commit = (files: Record<string, string>) => spawnSync(join(hooks, script), [...entryArgs, ...hook.args], { cwd: workspace(files), encoding: 'utf8' });
    const failing = commit({ 'app.yaml': broken.replace('matchLabels: {app: web}', 'matchLabels: {app: webb}') });
    assert.equal(failing.status, 1, failing.stderr);
    assert.match(failing.stdout, /app\.yaml:\d+:\d+: error workload-selector-mismatch:/);
    const passing = commit({ 'app.yaml': fixed });
    assert.equal(passing.status, 0, passing.stdout + passing.stderr);
  });
});
