// Hovers answer within 300 ms while a huge open document is checked (issue 17): the bundled server over stdio gets a
// generated ~1 MB document of thousands of objects, and a hover on a normal file is sent again and again while the
// document is parsed, analysed and checked, and edited. Every hover's round trip is recorded. The margin policy: the
// suite runs on a shared 2-core machine, where a runnable process can wait for a core for hundreds of milliseconds;
// that wait is the machine's, not the server's, and Linux counts it per thread (/proc/<pid>/schedstat, time spent
// runnable on a run queue). Each round trip less the time the server's event-loop thread and this process's waited
// for a core during it must stay within 300 ms: what is left is the server's own work (its slices, its garbage
// collection) and the pipe. Raw round trips are printed too. The document's diagnostics must then be exactly the ones
// written into it. The server's peak RSS is printed and bounded.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestClient } from '../lsp/lspClient';

const normal =
  'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n  ports: [{port: 80, targetPort: http}]\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: a, image: a, ports: [{name: http, containerPort: 8080}]}]}\n';
const goalMs = 300;

/** Every `typoEvery`-th Service selects a label no template has (its pods' label with `-x` added): one diagnostic each. */
const typoEvery = 150;
const app = (i: number) => `app-${String(i).padStart(5, '0')}`;

/** `pairs` Services with their Deployments, as a stream of documents or as the items of one `kind: List`. */
function bigDocument(pairs: number, shape: 'stream' | 'list'): { text: string; typoLines: number[] } {
  const lines: string[] = shape === 'list' ? ['apiVersion: v1', 'kind: List', 'items:'] : [];
  const typoLines: number[] = [];
  const indent = shape === 'list' ? '  ' : '';
  for (let i = 0; i < pairs; i++) {
    const docs = [
      [
        'apiVersion: v1',
        'kind: Service',
        `metadata: {name: svc-${i}, namespace: big}`,
        'spec:',
        `  selector: {app: ${app(i)}${i % typoEvery ? '' : '-x'}}`,
        '  ports: [{port: 80, targetPort: http}]',
      ],
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        `metadata: {name: dep-${i}, namespace: big}`,
        'spec:',
        `  selector: {matchLabels: {app: ${app(i)}}}`,
        '  template:',
        `    metadata: {labels: {app: ${app(i)}}}`,
        '    spec: {containers: [{name: c, image: c, ports: [{name: http, containerPort: 8080}]}]}',
      ],
    ];
    for (const [d, doc] of docs.entries()) {
      if (shape === 'stream' && lines.length) lines.push('---');
      doc.forEach((l, k) => {
        if (d === 0 && k === 4 && i % typoEvery === 0) typoLines.push(lines.length);
        lines.push(shape === 'list' ? (k === 0 ? `- ${l}` : `${indent}${l}`) : l);
      });
    }
  }
  return { text: lines.join('\n') + '\n', typoLines };
}

describe('hover latency while a huge open document is checked: server over stdio', () => {
  let dir: string;
  let client: TestClient;
  const normalUri = () => pathToFileURL(join(dir, 'normal.yaml')).href;
  /** Milliseconds the thread spent runnable but waiting for a core, so far. */
  const waitedMs = (pid: number | 'self') => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
  /** A hover's round trip, and the same less the time both processes waited for a core meanwhile. */
  const hover = async () => {
    const server = client.process.pid!;
    const waited = waitedMs(server) + waitedMs('self');
    const started = performance.now();
    const h = await client.connection.sendRequest<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri: normalUri() },
      position: { line: 3, character: 8 },
    });
    const ms = performance.now() - started;
    const own = ms - (waitedMs(server) + waitedMs('self') - waited);
    assert.ok(h && h.contents.value.includes('web'), 'the hover answers about the normal file');
    return { ms, own };
  };
  /** Hovers one after another (a pause of 15 ms between them) until `until` holds; their round trips. */
  const hoversUntil = async (until: () => boolean, timeoutMs = 120_000) => {
    const out: { ms: number; own: number }[] = [];
    const deadline = Date.now() + timeoutMs;
    while (!until()) {
      assert.ok(Date.now() < deadline, 'the check finished in time');
      out.push(await hover());
      await new Promise((r) => setTimeout(r, 15));
    }
    return out;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'netlens-latency-'));
    writeFileSync(join(dir, 'normal.yaml'), normal);
    client = startServer();
    await client.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }],
      capabilities: { window: { workDoneProgress: true }, workspace: { configuration: true, workspaceFolders: true } },
    });
    const at = client.notifications.length;
    await client.connection.sendNotification('initialized', {});
    await client.waitFor(
      'indexing done',
      () => client.notifications.slice(at).some((n) => n.method === 'kubeNetlens/status' && (n.params as { indexing?: boolean }).indexing === false),
      60000,
    );
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: normalUri(), languageId: 'yaml', version: 1, text: normal } });
    await hover();
  });

  after(() => {
    const status = readFileSync(`/proc/${client.process.pid}/status`, 'utf8');
    const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    console.log(`server peak RSS ${(peakKb / 1024).toFixed(0)} MB`);
    if (client.process.exitCode === null) client.process.kill();
    rmSync(dir, { recursive: true, force: true });
    assert.ok(peakKb < 2 * 1024 * 1024, `peak RSS ${peakKb} kB`);
  });

  for (const shape of ['stream', 'list'] as const) {
    it(`a ~1 MB document of 4,400 objects (${shape === 'stream' ? 'a stream of documents' : 'one kind: List document'}): every hover within ${goalMs} ms while it is checked and edited`, async () => {
      const { text, typoLines } = bigDocument(2200, shape);
      assert.ok(text.length > 900 * 1024 && text.length < 1024 * 1024, `${text.length} characters`);
      const big = pathToFileURL(join(dir, `big-${shape}.yaml`)).href;
      const published = (v: number) => () => client.diagnostics.get(big)?.version === v;
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: big, languageId: 'yaml', version: 1, text } });
      const during = await hoversUntil(published(1));
      // edits while it is checked: each one supersedes the check of the one before
      for (let v = 2; v <= 4; v++) {
        await client.connection.sendNotification('textDocument/didChange', {
          textDocument: { uri: big, version: v },
          contentChanges: [{ text: `${text}# edit ${v}\n` }],
        });
        during.push(await hover());
        await new Promise((r) => setTimeout(r, 40 * v));
      }
      during.push(...(await hoversUntil(published(4))));
      const sorted = during.map((d) => d.ms).sort((a, b) => a - b);
      const worst = during.reduce((w, d) => (d.own > w.own ? d : w));
      console.log(
        `${shape}: ${during.length} hovers while checked; round trip median ${sorted[sorted.length >> 1].toFixed(0)} ms, p95 ${sorted[Math.floor(sorted.length * 0.95)].toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms; less the waits for a core: max ${worst.own.toFixed(0)} ms (that hover's round trip ${worst.ms.toFixed(0)} ms)`,
      );
      assert.ok(during.length >= 10, `${during.length} hovers`);
      assert.ok(
        worst.own <= goalMs,
        `a hover took ${worst.own.toFixed(0)} ms of the server's own time (${worst.ms.toFixed(0)} ms in all) while the document was checked`,
      );
      // the check ran to the end: exactly the selectors written wrong, at their lines
      const diagnostics = client.diagnostics.get(big)!.diagnostics;
      assert.deepEqual(diagnostics.map((d) => `${d.code}@${d.range.start.line}`).sort(), typoLines.map((l) => `service-selector-no-match@${l}`).sort());
      await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: big } });
      await client.waitFor('the closed document forgotten', () => client.diagnostics.get(big)?.diagnostics.length === 0, 60000);
    });
  }
});
