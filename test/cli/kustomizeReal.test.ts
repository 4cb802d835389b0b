// `check` on an operator laid out as kubebuilder scaffolds it (config/default: namespace, prefix, a JSON patch and
// replacements over config/manager and config/rbac), whose build only the real Kustomize evaluates: every check runs
// on that build, its findings land on the source lines (through Kustomize's origin annotations), and the folder
// named, `.` and no path at all give the same findings.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import { findKubectl } from '../helpers/kubectlKustomize';
import { buildCli, repoRoot, runCli } from './builtCli';

const operator = join(repoRoot, 'test', 'fixtures', 'cli', 'operator');

interface Finding {
  readonly file: string;
  readonly range: { readonly start: { readonly line: number; readonly character: number } };
  readonly severity: string;
  readonly code: string;
}

/** `check --format json` from `cwd`; each finding as "absolute file:line:column severity code". */
function check(cwd: string, paths: readonly string[]): string[] {
  const kubectl = findKubectl();
  // Never passes silently: without kubectl the build cannot be made, so it fails and says why.
  assert.ok(kubectl.path, `this test needs real Kustomize: ${kubectl.why}`);
  const run = runCli(['check', '--format', 'json', '--kustomize', kubectl.path, ...paths], { cwd });
  assert.notEqual(run.status, 2, run.stderr);
  const out = JSON.parse(run.stdout) as { diagnostics: Finding[] };
  return out.diagnostics.map((d) => `${resolve(cwd, d.file)}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.code}`).sort();
}

describe('check on a build only the real Kustomize makes (replacements)', () => {
  before(() => {
    buildCli();
  });

  const manager = join(operator, 'config', 'manager', 'manager.yaml');
  const mismatch = `${manager}:18:22 error workload-selector-mismatch`;

  it('reports the manager Deployment whose selector misses its template, on its line in config/manager', () => {
    const findings = check(operator, ['config/default']);
    assert.ok(findings.includes(mismatch), findings.join('\n'));
    assert.ok(!findings.some((f) => / (kustomize-not-rendered|kustomize-render-failed)$/.test(f)), `the build is made and checked: ${findings.join('\n')}`);
    // the replacement ran: the Service's name the overlay prefixed was copied, so the build is the real one
    assert.ok(
      findings.some((f) => f.endsWith('service-selector-no-match') && f.startsWith(join(operator, 'config', 'default', 'metrics_service.yaml'))),
      findings.join('\n'),
    );
  });

  it('gives the same findings for the folder, for `.` inside it and for no path inside it', () => {
    const named = check(operator, ['config/default']);
    const inside = join(operator, 'config', 'default');
    assert.deepEqual(check(inside, ['.']), named);
    assert.deepEqual(check(inside, []), named);
  });

  it('reports it through the whole repository too', () => {
    assert.ok(check(operator, ['.']).includes(mismatch));
  });

  it('--kustomize-timeout bounds each real build (as kubeNetlens.kustomize.timeoutSeconds does in the editor); a bad value is a usage error', () => {
    const kubectl = findKubectl();
    assert.ok(kubectl.path, `this test needs real Kustomize: ${kubectl.why}`);
    const slow = runCli(['check', '--kustomize', kubectl.path, '--kustomize-timeout', '0.001', 'config/default'], { cwd: operator });
    assert.match(slow.stdout, /warning kustomize-render-failed: .*did not finish .*within 1 ms and was stopped/);
    // checked as its own folder, the root's label is `.`: the message names the kustomization instead
    const here = runCli(['check', '--kustomize', kubectl.path, '--kustomize-timeout', '0.001', '.'], { cwd: join(operator, 'config', 'default') });
    assert.match(here.stdout, /kubectl kustomize did not finish building kustomization\.yaml within 1 ms and was stopped/);
    for (const bad of ['0', 'soon', '7200']) {
      const run = runCli(['check', '--kustomize-timeout', bad, 'config/default'], { cwd: operator });
      assert.equal(run.status, 2);
      assert.match(run.stderr, new RegExp(`--kustomize-timeout '${bad}' is not a number of seconds above 0 and at most 3600`));
    }
  });
});

describe('check on a root with a remote resource, with the real Kustomize at hand', () => {
  before(() => {
    buildCli();
  });

  it('is one information note that names the remote file once: neither the native renderer nor Kustomize fetches it', () => {
    const kubectl = findKubectl();
    assert.ok(kubectl.path, `this test needs real Kustomize: ${kubectl.why}`);
    const dir = mkdtempSync(join(tmpdir(), 'kube-netlens-remote-'));
    try {
      writeFileSync(join(dir, 'kustomization.yaml'), 'resources:\n  - web.yaml\n  - https://example.invalid/app.yaml\n');
      writeFileSync(
        join(dir, 'web.yaml'),
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n    - port: 80\n',
      );
      const run = runCli(['check', '--format', 'json', '--kustomize', kubectl.path, '.'], { cwd: dir });
      const out = JSON.parse(run.stdout) as { diagnostics: { code: string; severity: string; message: string }[] };
      const notes = out.diagnostics.filter((d) => d.code === 'kustomize-not-rendered');
      assert.deepEqual(
        notes.map((d) => `${d.severity} ${d.message}`),
        [
          "information Not analysed as a Kustomize build: the remote file 'https://example.invalid/app.yaml' is never fetched, neither here nor by running Kustomize.",
        ],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('check on two roots that include one base with a remote resource', () => {
  before(() => {
    buildCli();
  });

  it('says each sentence of the note on the base once, though both builds meet it (one of them adds why its files are not checked)', () => {
    const kubectl = findKubectl();
    assert.ok(kubectl.path, `this test needs real Kustomize: ${kubectl.why}`);
    const dir = mkdtempSync(join(tmpdir(), 'kube-netlens-shared-remote-'));
    try {
      const file = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      file('lib/remote/kustomization.yaml', 'resources:\n  - https://example.invalid/crds.yaml\n');
      file('a-plain/kustomization.yaml', 'resources:\n  - ../lib/remote\n');
      file(
        'b-patched/kustomization.yaml',
        'resources:\n  - ../lib/remote\n  - settings.yaml\npatches:\n  - path: patch.yaml\n    target:\n      kind: ConfigMap\n',
      );
      file('b-patched/settings.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n');
      file('b-patched/patch.yaml', '[{"op": "add", "path": "/data", "value": {"mode": "fast"}}]\n');
      const run = runCli(['check', '--format', 'json', '--kustomize', kubectl.path, '.'], { cwd: dir });
      const out = JSON.parse(run.stdout) as { diagnostics: { file: string; code: string; message: string }[] };
      const notes = out.diagnostics.filter((d) => d.code === 'kustomize-not-rendered');
      assert.deepEqual(
        notes.map((d) => `${d.file}: ${d.message}`),
        [
          "lib/remote/kustomization.yaml: Not analysed as a Kustomize build: the remote file 'https://example.invalid/crds.yaml' is never fetched, neither here nor by running Kustomize. The files it reads are not checked on their own: what they become in the build is unknown.",
        ],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('check on a root that configures a plugin (a KRM function), with the real Kustomize at hand', () => {
  before(() => {
    buildCli();
  });

  it('is one information note naming the plugin, never an error: the plugin is never run, so the build is not handed to Kustomize', () => {
    const root = join(repoRoot, 'test', 'fixtures', 'kustomize', 'problems', 'krm-function');
    const kubectl = findKubectl();
    assert.ok(kubectl.path, `this test needs real Kustomize: ${kubectl.why}`);
    const run = runCli(['check', '--format', 'json', '--kustomize', kubectl.path, '.'], { cwd: root });
    assert.notEqual(run.status, 2, run.stderr);
    const out = JSON.parse(run.stdout) as { diagnostics: (Finding & { readonly message: string })[] };
    assert.deepEqual(
      out.diagnostics.map((d) => `${d.file}:${d.range.start.line + 1} ${d.severity} ${d.code}`),
      ['kustomization.yaml:3 information kustomize-not-rendered'],
      out.diagnostics.map((d) => d.message).join('\n'),
    );
    assert.match(
      out.diagnostics[0].message,
      /^Not analysed as a Kustomize build: transformer configurations and plugins are not run; it is not built with Kustomize either: 'set-team\.yaml' configures the plugin example\.com\/v1 TeamLabeller, which Kustomize runs only with --enable-alpha-plugins/,
    );
  });
});
