// The extension-host suite (no Mocha): VS Code calls `run()` inside the extension host with the examples open.
// It checks what the code-server tests check from the outside, through the VS Code API.

import assert from 'node:assert/strict';
import * as vscode from 'vscode';

const patience = 60_000;

interface Check {
  readonly title: string;
  readonly body: () => Promise<void>;
}

const checks: Check[] = [
  {
    title: 'the extension activates on a YAML workspace',
    body: async () => {
      const extension = vscode.extensions.getExtension('kube-netlens.kube-netlens');
      assert.ok(extension, 'kube-netlens.kube-netlens is not installed in this host');
      await extension.activate();
      const commands = await vscode.commands.getCommands(true);
      assert.ok(commands.includes('kubeNetlens.traceService'), 'the Trace Service command is registered');
    },
  },
  {
    title: 'seeded mistakes are diagnosed, in closed files too',
    body: async () => {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file('frontend.yaml')));
      await until('service-selector-no-match on frontend.yaml', () => hasCode('frontend.yaml', 'service-selector-no-match'));
      await until('dns-name-unresolved on config.yaml (never opened)', () => hasCode('config.yaml', 'dns-name-unresolved'));
    },
  },
  {
    title: 'the hover on a Service name lists its DNS names',
    body: async () => {
      const doc = await vscode.workspace.openTextDocument(file('api.yaml'));
      const offset = doc.getText().indexOf('kind: Service');
      const name = doc.getText().indexOf('name: api', offset) + 'name: '.length;
      const text = await until('a hover naming api.shop.svc.cluster.local', async () => {
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, doc.positionAt(name + 1));
        const all = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
        return all.includes('api.shop.svc.cluster.local') ? all : undefined;
      });
      assert.match(text, /Deployment/);
    },
  },
];

/** Called by VS Code's test runner inside the extension host; rejects when a check fails. */
export async function run(): Promise<void> {
  const failures: string[] = [];
  for (const check of checks) {
    try {
      await check.body();
      console.log(`ok - ${check.title}`);
    } catch (e) {
      failures.push(check.title);
      console.error(`not ok - ${check.title}\n  ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  console.log(`${checks.length - failures.length} passed, ${failures.length} failed`);
  if (failures.length) throw new Error(`${failures.length} extension-host checks failed`);
}

function file(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the suite needs the examples folder open');
  return vscode.Uri.joinPath(folder.uri, name);
}

function hasCode(name: string, code: string): boolean {
  return vscode.languages.getDiagnostics(file(name)).some((d) => (typeof d.code === 'object' ? d.code.value : d.code) === code);
}

/** Polls `probe` until it returns something truthy; fails with `what` after the patience runs out. */
async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + patience;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
