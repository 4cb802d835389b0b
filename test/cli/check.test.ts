// `kube-netlens check`: the folder walk, the three output formats, the summary line and the exit codes.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { inputCodes } from '../../server/src/rules/inputCodes';
import { rules } from '../../server/src/rules/index';
import { sarifViolations } from '../helpers/sarifSchema';
import { buildCli, repoRoot, runCli, workspaceFrom } from './builtCli';

const fixtures = join(repoRoot, 'test', 'fixtures', 'cli');
const workspace = (name: string) => workspaceFrom(readFileSync(join(fixtures, name), 'utf8'));

interface JsonRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
interface JsonDiagnostic {
  file: string;
  range: JsonRange;
  severity: string;
  code: string;
  message: string;
  resource: { kind: string; namespace: string; name: string } | null;
  related: { file: string; range: JsonRange; message: string }[];
  identity: unknown;
  fingerprint: string;
}

function checkJson(args: readonly string[], cwd?: string): { status: number | null; diagnostics: JsonDiagnostic[] } {
  const run = runCli(['check', '--format', 'json', ...args], { cwd });
  assert.ok(run.status === 0 || run.status === 1, `exit ${run.status}: ${run.stderr}`);
  return { status: run.status, diagnostics: (JSON.parse(run.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics };
}

describe('kube-netlens check', () => {
  before(() => {
    buildCli();
  });

  it('walks folders for .yaml and .yml, skipping node_modules, .git and other extensions, and counts template files', () => {
    const dir = workspace('walk.yaml');
    const json = checkJson(['.'], dir);
    assert.deepEqual(json.diagnostics, [], 'node_modules/ and .git/ hold duplicates of the Service; reading them would report duplicate-resource');
    assert.equal(json.status, 0);
    const text = runCli(['check'], { cwd: dir });
    assert.equal(text.status, 0);
    assert.equal(text.stdout, '0 errors, 0 warnings in 3 files (1 template file skipped)\n');
  });

  it('reads a file given by name as is, whatever its extension', () => {
    const dir = workspace('walk.yaml');
    const run = runCli(['check', 'app.yaml', 'notes.txt'], { cwd: dir });
    // notes.txt holds a Service without ports, which the API server rejects: proof that it was read.
    assert.match(run.stdout, /^notes\.txt:\d+:\d+: error /m);
    assert.match(run.stdout, / in 2 files\n$/);
    assert.equal(run.status, 1);
  });

  it('names files as found from the given path', () => {
    const dir = workspace('duplicate.yaml');
    const { diagnostics } = checkJson([dir]);
    const files = new Set(diagnostics.map((d) => d.file));
    assert.ok(files.has(join(dir, 'one.yaml')) && files.has(join(dir, 'two.yaml')), [...files].join(', '));
    const relative = checkJson(['./'], dir);
    assert.deepEqual([...new Set(relative.diagnostics.map((d) => d.file))].sort(), ['one.yaml', 'two.yaml']);
  });

  it('prints JSON diagnostics with 0-based ranges, the resource and related locations', () => {
    const dir = workspace('duplicate.yaml');
    const { status, diagnostics } = checkJson(['one.yaml', 'two.yaml'], dir);
    assert.equal(status, 1);
    const duplicates = diagnostics.filter((d) => d.code === 'duplicate-resource');
    assert.equal(duplicates.length, 2);
    const first = duplicates.find((d) => d.file === 'one.yaml' && d.range.start.line === 3)!;
    assert.equal(first.severity, 'error');
    // `  name: api` is line 4 (0-based 3) of one.yaml; the finding points at the name.
    assert.deepEqual(first.range, { start: { line: 3, character: 8 }, end: { line: 3, character: 11 } });
    assert.deepEqual(first.resource, { kind: 'Service', namespace: 'default', name: 'api' });
    assert.equal(first.related.length, 1);
    assert.equal(first.related[0].file, 'one.yaml');
    assert.deepEqual(first.related[0].range.start, { line: 12, character: 8 });
    assert.ok(first.related[0].message.length > 0);
    const unnamed = diagnostics.find((d) => d.code === 'manifest')!;
    assert.equal(unnamed.severity, 'warning');
    assert.equal(unnamed.file, 'two.yaml');
    assert.equal(unnamed.resource, null);
    // two definitions of one object: one identity, told apart in the fingerprint by their order
    assert.deepEqual(duplicates[0].identity, duplicates[1].identity);
    assert.notEqual(duplicates[0].fingerprint, duplicates[1].fingerprint);
    for (const d of diagnostics) {
      assert.deepEqual(Object.keys(d).sort(), ['code', 'file', 'fingerprint', 'identity', 'message', 'range', 'related', 'resource', 'severity']);
      assert.ok(d.range.start.line <= d.range.end.line);
    }
  });

  it('places the default namespace where --namespace says', () => {
    const dir = workspace('duplicate.yaml');
    const { diagnostics } = checkJson(['--namespace', 'shop', '.'], dir);
    const dup = diagnostics.find((d) => d.code === 'duplicate-resource')!;
    assert.deepEqual(dup.resource, { kind: 'Service', namespace: 'shop', name: 'api' });
  });

  it('exits 1 only for findings at or above --fail-on', () => {
    const errors = workspace('duplicate.yaml');
    const warnings = workspace('warning-only.yaml');
    const clean = workspace('walk.yaml');
    const status = (dir: string, ...args: string[]) => runCli(['check', ...args], { cwd: dir }).status;
    assert.equal(status(errors), 1);
    assert.equal(status(errors, '--fail-on', 'never'), 0);
    assert.equal(status(warnings), 0);
    assert.equal(status(warnings, '--fail-on=warning'), 1);
    assert.equal(status(warnings, '--fail-on', 'error'), 0);
    assert.equal(status(clean, '--fail-on', 'warning'), 0);
  });

  it('prints compiler-style text grouped by file, related locations indented, and a summary', () => {
    const dir = workspace('duplicate.yaml');
    const run = runCli(['check', 'one.yaml', 'two.yaml'], { cwd: dir, env: { NO_COLOR: '' } });
    assert.equal(run.status, 1);
    assert.ok(!run.stdout.includes('\u001b['), 'no colour when stdout is not a terminal');
    const lines = run.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^one\.yaml:4:9: error duplicate-resource: .+/);
    assert.match(lines[1], /^ {4}one\.yaml:13:9: note: .+/);
    const summary = lines[lines.length - 1];
    assert.match(summary, /^2 errors, \d+ warnings? in 2 files$/);
    const fileOfLine = lines.filter((l) => /^\S+:\d+:\d+: /.test(l)).map((l) => l.split(':')[0]);
    assert.deepEqual(fileOfLine, [...fileOfLine].sort(), 'findings are grouped by file');
    const blank = lines.indexOf('');
    assert.ok(blank > 0 && lines[blank + 1].startsWith('two.yaml:'), 'a blank line separates files');
  });

  it('writes SARIF 2.1.0 that its schema accepts, with a rule per code (rules, then the other codes), absolute help links and 1-based regions', () => {
    const dir = workspace('duplicate.yaml');
    const run = runCli(['check', '--format', 'sarif', 'one.yaml', 'two.yaml'], { cwd: dir });
    assert.equal(run.status, 1);
    const sarif = JSON.parse(run.stdout);
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    assert.match(sarif.$schema, /sarif-2\.1\.0/);
    assert.equal(sarif.version, '2.1.0');
    assert.deepEqual(sarifViolations(sarif), []);
    assert.equal(sarif.runs.length, 1);
    assert.equal(sarif.runs[0].automationDetails.id, 'kube-netlens/check/');
    const driver = sarif.runs[0].tool.driver;
    assert.equal(driver.name, 'kube-netlens');
    assert.equal(driver.version, version);
    assert.deepEqual(
      driver.rules.map((r: { id: string }) => r.id),
      [...rules.map((r) => r.code), ...inputCodes.map((c) => c.code)],
    );
    for (const [i, r] of driver.rules.entries()) {
      if (i < rules.length) assert.equal(r.shortDescription.text, rules[i].title);
      assert.equal(r.helpUri, `https://github.com/kube-netlens/kube-netlens/blob/main/docs/rules.md#${r.id}`);
      assert.ok(['error', 'warning', 'note'].includes(r.defaultConfiguration.level));
    }
    const results = sarif.runs[0].results;
    const dup = results.find(
      (r: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) =>
        r.ruleId === 'duplicate-resource' && r.locations[0].physicalLocation.artifactLocation.uri === 'one.yaml',
    );
    assert.ok(dup, 'duplicate-resource on one.yaml');
    assert.equal(dup.level, 'error');
    assert.equal(driver.rules[dup.ruleIndex].id, 'duplicate-resource');
    assert.ok(dup.message.text.length > 0);
    assert.deepEqual(dup.locations[0].physicalLocation.region, { startLine: 4, startColumn: 9, endLine: 4, endColumn: 12 });
    assert.equal(dup.relatedLocations[0].physicalLocation.artifactLocation.uri, 'one.yaml');
    assert.equal(dup.relatedLocations[0].physicalLocation.region.startLine, 13);
    assert.ok(dup.relatedLocations[0].message.text.length > 0);
    const warning = results.find((r: { ruleId: string }) => r.ruleId === 'manifest');
    assert.equal(warning.level, 'warning');
  });

  it('skips files over 1 MB with a note on stderr and counts them', () => {
    const dir = workspace('warning-only.yaml');
    writeFileSync(join(dir, 'huge.yaml'), `# ${'x'.repeat(1024 * 1024)}\n`);
    const run = runCli(['check', '.'], { cwd: dir });
    assert.equal(run.status, 0);
    assert.match(run.stderr, /^kube-netlens: skipped huge\.yaml: 1\.0 MB is larger than the 1 MB limit\n$/);
    assert.match(run.stdout, /in 1 file \(1 file over 1 MB skipped\)\n$/);
  });

  it('reads no client-side configuration (a kubeconfig, skaffold, kind, kubeadm) as objects', () => {
    const dir = workspace('client-config.yaml');
    const { status, diagnostics } = checkJson(['.'], dir);
    assert.deepEqual(
      diagnostics.map((d) => `${d.file}:${d.range.start.line + 1} ${d.code}`),
      ['deploy/service.yaml:4 api-validation'],
    );
    assert.equal(status, 1);
  });

  it('reads no test suite (chainsaw, kuttl, Go testdata) as objects, counts its files and still checks the manifests beside it', () => {
    const dir = workspaceFrom(readFileSync(join(repoRoot, 'test', 'fixtures', 'rules', 'api-validation', 'fires-beside-test-suites.yaml'), 'utf8'));
    const { status, diagnostics } = checkJson(['.'], dir);
    assert.deepEqual(
      diagnostics.map((d) => `${d.file}:${d.range.start.line + 1} ${d.code}`),
      ['deploy/ordered/01-service.yaml:4 api-validation', 'deploy/service.yaml:4 api-validation'],
    );
    assert.equal(status, 1);
    const text = runCli(['check', '.'], { cwd: dir });
    assert.match(
      text.stdout,
      /\n2 errors, 0 warnings in 20 files \(17 test suite files skipped: chainsaw, kuttl or Go testdata, which a test harness applies, or Go modules copied into vendor\/\)\n$/,
    );
  });

  it('`check .` in a kustomization folder reads its files as `check <folder>` does: a missing resource is the error, the files beside it are in the folder', () => {
    const dir = workspaceFrom(
      '# file: kustomization.yaml\nresources:\n  - ./manifests/a.yaml\n  - ./manifests/missing.yaml\n# file: manifests/a.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
    );
    const inside = checkJson(['.'], dir).diagnostics.map((d) => `${d.file}:${d.range.start.line + 1} ${d.code}: ${d.message}`);
    assert.equal(inside.length, 1, inside.join('\n'));
    assert.match(inside[0], /^kustomization\.yaml:3 kustomize-render-failed: Kustomize build fails.*missing\.yaml/);
    assert.doesNotMatch(inside[0], /security/);
    // a file outside the folder is still refused from `.` (Kustomize's load restrictor)
    const escape = workspaceFrom(
      '# file: app/kustomization.yaml\nconfigMapGenerator:\n  - name: x\n    files: [../outside.txt]\n# file: outside.txt\nsecret\n',
    );
    const refused = checkJson(['.'], join(escape, 'app')).diagnostics.map((d) => d.message);
    assert.equal(refused.length, 1);
    assert.match(refused[0], /security; file '\.\.\/outside\.txt' is not in or below '\.'/);
  });

  it('never follows a symbolic link loop', () => {
    const dir = workspace('walk.yaml');
    mkdirSync(join(dir, 'loop'));
    symlinkSync(dir, join(dir, 'loop', 'back-to-root'));
    symlinkSync(join(dir, 'loop'), join(dir, 'loop', 'self'));
    const run = runCli(['check', '--format', 'json', '.'], { cwd: dir });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout).diagnostics, []);
  });
});
