// `.kube-netlens.yaml` in the language server, over stdio: its values come before the client's settings, editing the
// open file changes the diagnostics at once (no save, no restart), an invalid file is an error on the file itself with
// none of its values applied, its ignore entries fade what they ignore, and a change on disk applies too.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestClient } from './lspClient';

const app = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: nothing}
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

describe('language server: .kube-netlens.yaml', () => {
  let dir: string;
  let client: TestClient;
  const uri = (rel: string) => pathToFileURL(join(dir, rel)).href;
  let version = 1;
  const selectorFinding = () => client.diagnostics.get(uri('app.yaml'))?.diagnostics.find((d) => d.code === 'service-selector-no-match');
  const waitSeverity = (what: string, severity: number | undefined) =>
    client
      .waitFor(what, () => (selectorFinding()?.severity === severity ? true : undefined), 30000)
      .catch((err: Error) => {
        throw new Error(`${err.message}; the finding: ${JSON.stringify(selectorFinding())}`);
      });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'netlens-lsp-config-'));
    writeFileSync(join(dir, 'app.yaml'), app);
    writeFileSync(join(dir, '.kube-netlens.yaml'), 'rules:\n  service-selector-no-match: error\n');
    client = startServer();
    // the workspace's settings say hint; the config file comes first
    client.settings = { rules: { 'service-selector-no-match': 'hint' } };
    await client.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }],
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
        textDocument: { publishDiagnostics: { versionSupport: true, tagSupport: { valueSet: [1, 2] } } },
      },
    });
    await client.connection.sendNotification('initialized', {});
  });

  after(() => {
    if (client.process.exitCode === null) client.process.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const edit = async (text: string) => {
    version++;
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: uri('.kube-netlens.yaml'), version },
      contentChanges: [{ text }],
    });
  };

  it('applies the config file over the client’s settings', async () => {
    await waitSeverity('error from the config file', 1);
  });

  it('follows edits of the open file live, and reports an invalid one on the file with none of its values applied', async () => {
    const text = 'rules:\n  service-selector-no-match: error\n';
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri('.kube-netlens.yaml'), languageId: 'yaml', version, text } });
    await edit('rules:\n  service-selector-no-match: information\n');
    await waitSeverity('information after the edit', 3);
    await edit('rules:\n  service-selector-no-match: loud\n');
    const problem = await client.waitFor(
      'config-invalid',
      () => client.diagnostics.get(uri('.kube-netlens.yaml'))?.diagnostics.find((d) => d.code === 'config-invalid'),
      30000,
    );
    assert.equal(problem.severity, 1);
    assert.equal(problem.range.start.line, 1);
    assert.match(
      problem.message,
      /rules\.service-selector-no-match must be one of error, warning, information, hint, off\. While \.kube-netlens\.yaml is invalid, none of its values apply\./,
    );
    await waitSeverity('the workspace setting (hint) while the file is invalid', 4);
    await edit('ignore:\n  - code: service-selector-no-match\n    name: "w*"\n    reason: made by an operator\n');
    await client.waitFor(
      'faded',
      () =>
        selectorFinding()?.message.startsWith('Ignored (ignore entry at .kube-netlens.yaml:2: made by an operator)') && selectorFinding()?.tags?.includes(1)
          ? true
          : undefined,
      30000,
    );
    await client.waitFor(
      'no diagnostics on the valid file',
      () => ((client.diagnostics.get(uri('.kube-netlens.yaml'))?.diagnostics ?? []).length === 0 ? true : undefined),
      30000,
    );
    await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: uri('.kube-netlens.yaml') } });
  });

  it('applies a change on disk of the closed file', async () => {
    await waitSeverity('the disk text (error) after closing', 1);
    writeFileSync(join(dir, '.kube-netlens.yaml'), 'rules:\n  service-selector-no-match: "off"\n');
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('.kube-netlens.yaml'), type: 2 }] });
    await waitSeverity('off', undefined);
  });
});

describe('language server: .kube-netlens.yaml in Simplified Chinese', () => {
  let dir: string;
  let client: TestClient;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'netlens-lsp-config-zh-'));
    writeFileSync(join(dir, 'app.yaml'), app);
    writeFileSync(join(dir, '.kube-netlens.yaml'), 'rules:\n  service-selector-no-match: loud\n');
    client = startServer();
    await client.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }],
      initializationOptions: { locale: 'zh-cn' },
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true },
        textDocument: { publishDiagnostics: { versionSupport: true } },
      },
    });
    await client.connection.sendNotification('initialized', {});
  });

  after(() => {
    if (client.process.exitCode === null) client.process.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it("words an invalid file's errors in the client's language", async () => {
    const configUri = pathToFileURL(join(dir, '.kube-netlens.yaml')).href;
    const problem = await client.waitFor(
      'config-invalid',
      () => client.diagnostics.get(configUri)?.diagnostics.find((d) => d.code === 'config-invalid'),
      30000,
    );
    assert.equal(
      problem.message,
      'rules.service-selector-no-match 必须是 error, warning, information, hint, off 之一。.kube-netlens.yaml 无效时，其中的值均不生效。',
    );
  });
});
