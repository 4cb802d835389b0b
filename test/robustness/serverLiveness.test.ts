// The bundled server (one process for the suite) is fed every hostile input, as files on disk in the workspace folder
// and as open documents edited repeatedly; after each it still answers a hover on another file promptly, from the same
// process, and writes nothing but LSP frames to stdout. Diagnostic ranges stay inside their documents.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { parseFrames, startServer, type TestClient } from '../lsp/lspClient';
import { deepShapes, hostileInputs } from './hostileInputs';

const web = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n  ports: [{port: 80}]\n';

describe('server liveness under hostile files', () => {
  let dir: string;
  let client: TestClient;
  let pid: number | undefined;
  const uri = (rel: string) => pathToFileURL(join(dir, rel)).href;

  const hoverPromptly = async (what: string) => {
    const started = Date.now();
    const h = await client.connection.sendRequest<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri: uri('web.yaml') },
      position: { line: 3, character: 8 },
    });
    assert.ok(h && h.contents.value.includes('web'), `hover after ${what}`);
    assert.ok(Date.now() - started < 5000, `hover after ${what} took ${Date.now() - started} ms`);
    assert.equal(client.process.pid, pid);
    assert.equal(client.process.exitCode, null, `server exited after ${what}`);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'netlens-hostile-'));
    writeFileSync(join(dir, 'web.yaml'), web);
    mkdirSync(join(dir, 'hostile'));
    for (const h of hostileInputs())
      writeFileSync(join(dir, 'hostile', h.file), h.text, h.file === 'image.yaml' || h.file === 'utf16.yaml' ? 'latin1' : 'utf8');
    // bytes no text editor would write: invalid UTF-8, and a file over the size limit (5 MB on one line)
    writeFileSync(join(dir, 'hostile', 'invalid-utf8.yaml'), Buffer.from([0x6b, 0x69, 0x6e, 0x64, 0x3a, 0x20, 0xc3, 0x28, 0xff, 0xfe, 0x0a]));
    writeFileSync(join(dir, 'hostile', 'five-mb-line.yaml'), 'x: ' + 'a'.repeat(5 * 1024 * 1024));
    for (const name of ['name with spaces.yaml', 'ünï cødé ‮.yaml', '#hash%25 &amp;.yaml', '-dash.yaml'])
      writeFileSync(join(dir, 'hostile', name), web.replace('web', 'odd'));
    client = startServer();
    pid = client.process.pid;
    await client.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }],
      capabilities: { window: { workDoneProgress: true }, workspace: { configuration: true, workspaceFolders: true } },
    });
    await client.connection.sendNotification('initialized', {});
    await client
      .waitFor(
        'indexing done',
        () => client.notifications.some((n) => n.method === 'kubeNetlens/status' && (n.params as { indexing?: boolean }).indexing === false),
        60000,
      )
      .catch(() => undefined);
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri('web.yaml'), languageId: 'yaml', version: 1, text: web } });
  });

  after(() => {
    if (client.process.exitCode === null) client.process.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('indexes a folder holding every hostile file and still hovers', async () => {
    await hoverPromptly('indexing the hostile folder');
  });

  it('survives each hostile input opened and edited as a document', async () => {
    const inputs = hostileInputs().filter((h) => h.text.length < 600_000);
    for (const h of inputs) {
      const u = uri(`open/${h.file}`);
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text: h.text } });
      await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri: u, version: 2 }, contentChanges: [{ text: h.text + '\n' }] });
      await hoverPromptly(h.name);
      await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: u } });
    }
  });

  it('survives deep nesting typed in one character at a time (re-parsed on every edit)', async () => {
    const u = uri('open/typing.yaml');
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text: '' } });
    const deep = deepShapes(400)[0].text;
    for (let v = 2, n = 0; n <= deep.length; v++, n += 40) {
      await client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: u, version: v },
        contentChanges: [{ text: deep.slice(0, n) }],
      });
    }
    await hoverPromptly('typing deep nesting');
    const d = await client.waitFor('too-deep diagnostic', () => client.diagnostics.get(u)?.diagnostics.find((x) => /levels deep/.test(x.message)));
    assert.equal(d.range.start.line, 0);
  });

  it('publishes only ranges inside their documents, and only LSP frames on stdout', async () => {
    await hoverPromptly('everything');
    for (const [u, p] of client.diagnostics) {
      for (const d of p.diagnostics)
        assert.ok(d.range.start.line >= 0 && d.range.start.character >= 0 && d.range.end.line >= d.range.start.line, `range in ${u}`);
    }
    assert.doesNotThrow(() => parseFrames(client.stdout));
  });
});
