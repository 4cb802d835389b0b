// The third round of hostile inputs over LSP (docs/robustness.md, "Third round"): the bundled server over stdio fed
// watcher events for paths that need URI encoding (in the editor's spellings), and bursts of edits. After each case
// the same process still answers a hover on a normal file.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestClient } from '../lsp/lspClient';

/** A Service and its Deployment; `selector` other than `app` leaves the Service without pods (one known warning). */
const app = (name: string, selector = name) =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  selector: {app: ${selector}}\n  ports: [{port: 80, targetPort: http}]\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}}\nspec:\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec: {containers: [{name: a, image: a, ports: [{name: http, containerPort: 8080}]}]}\n`;

/** How VS Code spells a file URI (`URI.toString()`): every character but `A–Z a–z 0–9 - . _ ~ /` percent-encoded. */
function editorUri(path: string): string {
  return (
    'file://' +
    [...new TextEncoder().encode(path)]
      .map((b) => {
        const c = String.fromCharCode(b);
        return /[A-Za-z0-9\-._~/]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
      })
      .join('')
  );
}

// `[`, `]`, a space, `#`, `%` and a non-ASCII letter, in folder and file names
const encodedPaths = [
  'plain/svc.yaml',
  'enc/[env]/svc.yaml',
  'enc/with space/svc.yaml',
  'enc/hash#1/svc.yaml',
  'enc/100%/svc.yaml',
  'enc/%41 literal/svc.yaml',
  'enc/ünï/[a] #b %c.yaml',
];

describe('hostile inputs, third round: server over stdio', () => {
  let dir: string;
  let client: TestClient;
  let pid: number;

  const hoverStillAnswers = async (what: string) => {
    const h = await client.connection.sendRequest<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri: editorUri(join(dir, 'normal.yaml')) },
      position: { line: 3, character: 8 },
    });
    assert.ok(h && h.contents.value.includes('normal'), `hover after ${what}`);
    assert.equal(client.process.pid, pid, `the same server process after ${what}`);
    assert.equal(client.process.exitCode, null, `the server exited after ${what}`);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'netlens hostile3 [ws] #%-'));
    writeFileSync(join(dir, 'normal.yaml'), app('normal'));
    // the same paths under a folder that exists before indexing, each file found by indexing first
    for (const [i, rel] of encodedPaths.entries()) {
      mkdirSync(dirname(join(dir, 'indexed', rel)), { recursive: true });
      writeFileSync(join(dir, 'indexed', rel), app(`idx${i}`));
    }
    client = startServer();
    pid = client.process.pid!;
    const folder = editorUri(dir);
    await client.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: folder,
      workspaceFolders: [{ uri: folder, name: 'ws' }],
      capabilities: {
        window: { workDoneProgress: true },
        workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
      },
    });
    const at = client.notifications.length;
    await client.connection.sendNotification('initialized', {});
    await client.waitFor(
      'indexing done',
      () => client.notifications.slice(at).some((n) => n.method === 'kubeNetlens/status' && (n.params as { indexing?: boolean }).indexing === false),
      60000,
    );
  });

  after(() => {
    if (client.process.exitCode === null) client.process.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [i, rel] of [...encodedPaths.map((r) => `indexed/${r}`), ...encodedPaths].entries()) {
    it(`a watcher change of ${rel}, in the editor's spelling, produces the new finding there`, async () => {
      const path = join(dir, rel);
      const name = `enc${i}`;
      mkdirSync(dirname(path), { recursive: true });
      const uri = editorUri(path);
      const event = async (type: 1 | 2, text: string) => {
        writeFileSync(path, text);
        await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type }] });
      };
      const broken = (what: string) =>
        client.waitFor(
          what,
          () => {
            const d = client.diagnostics.get(uri);
            return d?.diagnostics.some((x) => x.code === 'service-selector-no-match' && x.message.includes(`${name}-broken`)) && d;
          },
          20000,
        );
      await event(1, app(name, `${name}-broken`));
      await broken(`the finding of the new file ${rel}`);
      await event(2, app(name));
      await client.waitFor(`${rel} clean after a change`, () => client.diagnostics.get(uri)?.diagnostics.length === 0, 20000);
      await event(2, app(name, `${name}-broken`));
      const p = await broken(`the new finding of a change of ${rel}`);
      assert.equal(p.uri, uri);
      // published under one spelling only: the editor's
      const others = [...client.diagnostics.keys()].filter((k) => k !== uri && decodeURIComponent(k) === decodeURIComponent(uri));
      assert.deepEqual(others, []);
      await hoverStillAnswers(rel);
    });
  }

  it("a workspace folder added in the editor's spelling, next to one no path can have, is indexed", async () => {
    const extra = mkdtempSync(join(tmpdir(), 'netlens extra [f] #%-'));
    try {
      const file = join(extra, '[x]', 'a b.yaml');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, app('extra', 'extra-broken'));
      const at = client.notifications.length;
      // an encoded slash: no file path has one; it used to make the whole event fail
      await client.connection.sendNotification('workspace/didChangeWorkspaceFolders', {
        event: {
          added: [
            { uri: 'file:///tmp/a%2Fb', name: 'odd' },
            { uri: editorUri(extra), name: 'extra' },
          ],
          removed: [],
        },
      });
      await client.waitFor(
        'indexing of the added folder',
        () => client.notifications.slice(at).some((n) => n.method === 'kubeNetlens/status' && (n.params as { indexing?: boolean }).indexing === false),
        60000,
      );
      await client.waitFor(
        'the finding in the added folder',
        () => client.diagnostics.get(editorUri(file))?.diagnostics.some((d) => d.code === 'service-selector-no-match'),
        20000,
      );
      await hoverStillAnswers('adding workspace folders');
    } finally {
      await client.connection.sendNotification('workspace/didChangeWorkspaceFolders', {
        event: { added: [], removed: [{ uri: editorUri(extra), name: 'extra' }] },
      });
      rmSync(extra, { recursive: true, force: true });
    }
  });

  it('200 edits of one document in quick succession: at most 4 publishes for it, the last for the final text, versions never backwards', async () => {
    const uri = editorUri(join(dir, 'burst.yaml'));
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: app('burst') } });
    await client.waitFor('the opened document published', () => client.diagnostics.get(uri)?.version === 1, 20000);
    const from = client.published.length;
    const started = Date.now();
    for (let v = 2; v <= 201; v++) {
      const selector = v === 201 ? 'burst-final-broken' : `burst-${v}-broken`;
      void client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: v },
        contentChanges: [{ text: app('burst', selector) }],
      });
    }
    const sentMs = Date.now() - started;
    await client.waitFor('the final version published', () => client.diagnostics.get(uri)?.version === 201, 30000);
    // anything still on its way would come within the burst window; a hover is answered after it
    await new Promise((r) => setTimeout(r, 300));
    await hoverStillAnswers('a burst of edits');
    const mine = client.published.slice(from).filter((p) => p.uri === uri);
    console.log(`200 edits sent in ${sentMs} ms: ${mine.length} publishes for the document (versions ${mine.map((p) => p.version).join(', ')})`);
    // The bound (lsp/publish.ts): a pass starts only once no change came for 40 ms and the next message was handled
    // first, so a burst written at once is published once (measured: 1). Up to 4 allows for the pass its first
    // edit may start before the rest arrive, the pass after the burst, and one for each 500 ms the burst lasts at a
    // starved server (a burst that never goes quiet is still published twice a second).
    assert.ok(mine.length >= 1 && mine.length <= 4, `${mine.length} publishes`);
    const last = mine[mine.length - 1];
    assert.equal(last.version, 201);
    assert.ok(
      last.diagnostics.some((d) => d.code === 'service-selector-no-match' && d.message.includes('burst-final-broken')),
      'the last publish is about the final text',
    );
    assert.ok(
      last.diagnostics.every((d) => !/burst-\d+-broken/.test(d.message)),
      'nothing of an older text in the last publish',
    );
    for (let i = 1; i < mine.length; i++) assert.ok((mine[i].version ?? 0) >= (mine[i - 1].version ?? 0), `versions ${mine.map((p) => p.version).join(', ')}`);
    // every publish is about the text of its own version
    for (const p of mine) {
      const wanted = p.version === 201 ? 'burst-final-broken' : p.version === 1 ? undefined : `burst-${p.version}-broken`;
      if (wanted)
        assert.ok(
          p.diagnostics.some((d) => d.message.includes(wanted)),
          `version ${p.version} published with the findings of its text`,
        );
    }
    await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  });
});
