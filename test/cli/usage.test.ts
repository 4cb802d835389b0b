// The command line itself: help, version, and every way to call it wrongly ends with exit 2 and one line on stderr.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildCli, repoRoot, runCli, type CliRun } from './builtCli';

function assertUsageError(run: CliRun, mentions: string): void {
  assert.equal(run.status, 2, `exit code (stderr: ${run.stderr})`);
  assert.equal(run.stdout, '');
  const lines = run.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line on stderr, got:\n${run.stderr}`);
  assert.match(lines[0], /^kube-netlens: /);
  assert.ok(lines[0].includes(mentions), `"${lines[0]}" should mention ${mentions}`);
}

describe('kube-netlens usage', () => {
  before(() => {
    buildCli();
  });

  it('prints the package version', () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const run = runCli(['--version']);
    assert.equal(run.status, 0);
    assert.equal(run.stdout, `${version}\n`);
  });

  it('prints an overview with every command, and a page per command', () => {
    const overview = runCli(['--help']);
    assert.equal(overview.status, 0);
    for (const command of ['check', 'dns', 'trace']) assert.match(overview.stdout, new RegExp(`kube-netlens ${command}`));
    const check = runCli(['check', '--help']);
    assert.equal(check.status, 0);
    assert.match(check.stdout, /--fail-on error\|warning\|never/);
    assert.match(runCli(['help', 'trace']).stdout, /NAMESPACE\/SERVICE/);
    assert.match(runCli(['dns', '-h']).stdout, /--all/);
  });

  it('rejects a missing command, an unknown command and an unknown option', () => {
    assertUsageError(runCli([]), 'no command');
    assertUsageError(runCli(['lint']), "'lint'");
    assertUsageError(runCli(['check', '--strict']), "'--strict'");
    assertUsageError(runCli(['dns', '--fail-on', 'error']), "'--fail-on'");
    assertUsageError(runCli(['--colour']), "'--colour'");
  });

  it('rejects options without their value or with a value they do not take', () => {
    assertUsageError(runCli(['check', '--format']), '--format needs a value');
    assertUsageError(runCli(['check', '--format', '--all']), '--format needs a value');
    assertUsageError(runCli(['check', '--format', 'xml']), 'text, json, sarif');
    assertUsageError(runCli(['dns', '--format=sarif']), 'text, json');
    assertUsageError(runCli(['check', '--fail-on', 'info']), 'error, warning, never');
    assertUsageError(runCli(['dns', '--all=yes']), '--all takes no value');
    assertUsageError(runCli(['check', '--namespace', 'Shop']), "'Shop'");
    assertUsageError(runCli(['check', '--cluster-domain', 'my_cluster']), "'my_cluster'");
  });

  it('requires NAMESPACE/SERVICE for trace', () => {
    assertUsageError(runCli(['trace']), 'NAMESPACE/SERVICE');
    assertUsageError(runCli(['trace', 'api']), "'api' is not NAMESPACE/SERVICE");
  });

  it('reports a path that does not exist as an I/O error', () => {
    assertUsageError(runCli(['check', 'no/such/folder']), 'cannot read no/such/folder: no such file or folder');
    assertUsageError(runCli(['dns', 'examples', 'missing.yaml']), 'cannot read missing.yaml');
  });
});
