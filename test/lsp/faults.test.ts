// The server under edits and file churn: no diagnostics for an old document version, and closing, deleting and
// renaming files converges to what a fresh index of the final files reports.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startServer, type TestClient } from './lspClient';

const root = join(__dirname, '..', '..');

async function initialized(client: TestClient, dir: string): Promise<void> {
  await client.connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(dir).href,
    workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }],
    capabilities: { workspace: { configuration: true, workspaceFolders: true }, textDocument: { publishDiagnostics: { versionSupport: true } } },
  });
  await client.connection.sendNotification('initialized', {});
  await client.waitFor(
    'the first index',
    () => client.notifications.some((n) => n.method === 'kubeNetlens/status' && (n.params as { indexing: boolean }).indexing === false),
    60000,
  );
}

/** uri → sorted "line:col code" of the latest diagnostics, leaving out files whose latest publish is empty. */
function summary(client: TestClient, dir: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const base = pathToFileURL(dir).href;
  for (const [uri, p] of client.diagnostics) {
    if (!p.diagnostics.length) continue;
    out.set(uri.slice(base.length), p.diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.code}`).sort());
  }
  return out;
}

async function quiet(client: TestClient, ms = 400): Promise<void> {
  // Waits until the server has sent nothing for `ms` (the analysis has settled).
  let last = client.published.length + client.notifications.length;
  for (;;) {
    await new Promise((r) => setTimeout(r, ms));
    const now = client.published.length + client.notifications.length;
    if (now === last) return;
    last = now;
  }
}

describe('server under edits and file churn', () => {
  let dir: string;
  let a: TestClient;
  const uri = (rel: string) => pathToFileURL(join(dir, rel)).href;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'netlens-faults-'));
    cpSync(join(root, 'examples'), dir, { recursive: true });
    a = startServer();
  });

  after(() => {
    if (a.process.exitCode === null) a.process.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('never publishes diagnostics for an older version than one it already published', async () => {
    await initialized(a, dir);
    const file = uri('frontend.yaml');
    const disk = readFileSync(join(dir, 'frontend.yaml'), 'utf8');
    assert.ok(disk.includes('release: stabel'));
    await a.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: file, languageId: 'yaml', version: 1, text: disk } });
    const from = a.published.length;
    // 15 edits in a burst, alternating the typo and its fix; the last one fixes it.
    for (let v = 2; v <= 16; v++) {
      const text = v % 2 === 0 ? disk.replace('release: stabel', 'release: stable') : disk;
      await a.connection.sendNotification('textDocument/didChange', { textDocument: { uri: file, version: v }, contentChanges: [{ text }] });
    }
    await a.waitFor('diagnostics for version 16', () => a.diagnostics.get(file)?.version === 16, 30000);
    await quiet(a);
    const versions = a.published
      .slice(from)
      .filter((p) => p.uri === file)
      .map((p) => p.version ?? 0);
    for (let i = 1; i < versions.length; i++) assert.ok(versions[i] >= versions[i - 1], `version went back: ${versions.join(', ')}`);
    assert.equal(a.diagnostics.get(file)!.version, 16);
    assert.ok(!a.diagnostics.get(file)!.diagnostics.some((d) => d.code === 'service-selector-no-match'));
  });

  it('closing, deleting and renaming files ends where a fresh index of the final files starts', async () => {
    // Close the edited file: the text on disk (with the typo) counts again.
    await a.connection.sendNotification('textDocument/didClose', { textDocument: { uri: uri('frontend.yaml') } });
    // Rename database.yaml → db/database.yaml and delete debug.yaml, telling the server as a file watcher would.
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'db'));
    renameSync(join(dir, 'database.yaml'), join(dir, 'db', 'database.yaml'));
    unlinkSync(join(dir, 'debug.yaml'));
    await a.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [
        { uri: uri('database.yaml'), type: 3 },
        { uri: uri('db/database.yaml'), type: 1 },
        { uri: uri('debug.yaml'), type: 3 },
      ],
    });
    await a.waitFor('the renamed file analysed', () => a.diagnostics.get(uri('db/database.yaml'))?.diagnostics.length, 30000);
    await quiet(a);

    const b = startServer();
    try {
      await initialized(b, dir);
      await quiet(b);
      const incremental = summary(a, dir);
      const fresh = summary(b, dir);
      assert.deepEqual([...incremental].sort(), [...fresh].sort());
      assert.ok(
        fresh.get('/frontend.yaml')?.some((c) => c.endsWith('service-selector-no-match')),
        'the typo on disk is reported again after closing',
      );
      assert.ok(!incremental.has('/debug.yaml') && !incremental.has('/database.yaml'), 'deleted and renamed-away files keep no diagnostics');
      assert.equal(a.process.exitCode, null, 'the first server is still running');
    } finally {
      b.process.kill();
    }
  });
});
