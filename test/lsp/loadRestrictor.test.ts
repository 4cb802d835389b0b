// The load restrictor in the language server (docs/robustness.md, third round): every kustomization that reads a file
// outside its folder is reported on its kustomization with kustomize's words and workspace-relative paths, in a
// trusted and an untrusted workspace; nothing the server publishes holds the file's contents or an absolute path.
// kubeNetlens.kustomize.loadRestrictor `none` is honoured only in a trusted workspace.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { canonicalUri } from '../../server/src/workspace/uri';
import { secretMarker, writeEscapeLayout, type EscapeLayout } from '../helpers/escapeCases';
import { startServer, type TestClient } from './lspClient';

const refusal = /Kustomize build fails: security; file '[^']*' is not in or below 'cases\/[^']*'/;

describe('language server: Kustomize load restrictor', () => {
  let layout: EscapeLayout;
  const clients: TestClient[] = [];
  before(() => {
    layout = writeEscapeLayout();
  });
  after(() => {
    for (const c of clients) if (c.process.exitCode === null) c.process.kill();
    rmSync(layout.top, { recursive: true, force: true });
  });

  const uri = (dir: string) => canonicalUri(pathToFileURL(join(dir, 'kustomization.yaml')).href);
  const start = async (trusted: boolean, settings: Record<string, unknown> = {}): Promise<TestClient> => {
    const client = startServer();
    client.settings = settings;
    clients.push(client);
    const folder = pathToFileURL(layout.workspace).href;
    await client.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: folder,
      workspaceFolders: [{ uri: folder, name: 'ws' }],
      capabilities: { workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } } },
      initializationOptions: { workspaceTrusted: trusted },
    });
    await client.connection.sendNotification('initialized', {});
    return client;
  };
  /** The messages published on each case's kustomization, once every one has been published. */
  const caseMessages = (client: TestClient) =>
    client.waitFor(
      'diagnostics of every case',
      () => {
        const out = layout.cases.map((c) => client.diagnostics.get(uri(c.dir)));
        return out.every((p) => p !== undefined) && out.map((p) => p!.diagnostics.map((d) => d.message));
      },
      30_000,
    );
  const nothingLeaks = (client: TestClient) => {
    for (const p of client.published)
      for (const d of p.diagnostics) {
        assert.ok(!d.message.includes(secretMarker), `contents in ${d.message}`);
        assert.ok(!d.message.includes(layout.top), `an absolute path in ${d.message}`);
      }
  };

  for (const trusted of [false, true]) {
    it(`${trusted ? 'trusted' : 'untrusted'}: each escape is a render failure on its kustomization, nothing leaks`, async () => {
      const client = await start(trusted);
      const messages = await caseMessages(client);
      messages.forEach((m, i) => {
        const c = layout.cases[i];
        assert.ok(
          m.some((x) => refusal.test(x) && x.includes(`not in or below 'cases/${c.name}'`)),
          `${c.name}: ${m.join(' | ')}`,
        );
      });
      // what may be read builds: no failure on those kustomizations (published with the others, if at all)
      for (const dir of layout.allowed) assert.deepEqual(client.diagnostics.get(uri(dir))?.diagnostics.map((d) => d.message) ?? [], [], dir);
      nothingLeaks(client);
    });
  }

  it("loadRestrictor none from a trusted workspace's user settings: the cases build; from an untrusted one: still refused", async () => {
    const untrusted = await start(false, { kustomize: { loadRestrictor: 'none' } });
    const refused = await caseMessages(untrusted);
    refused.forEach((m, i) =>
      assert.ok(
        m.some((x) => refusal.test(x)),
        layout.cases[i].name,
      ),
    );
    nothingLeaks(untrusted);
    const trusted = await start(true, { kustomize: { loadRestrictor: 'none' } });
    // built: after a pass (a status once indexed), no case's kustomization carries a refusal (a file without
    // findings gets no diagnostics at all)
    await trusted.waitFor(
      'a pass with every case built',
      () => {
        const passed = trusted.notifications.some((n) => (n.params as { indexing?: boolean } | undefined)?.indexing === false);
        return passed && layout.cases.every((c) => !(trusted.diagnostics.get(uri(c.dir))?.diagnostics ?? []).some((d) => refusal.test(d.message)));
      },
      30_000,
    );
  });
});
