// A minimal LSP client for tests: spawns the bundled server (test/helpers/bundle.ts) over stdio, speaks JSON-RPC,
// records what the server sends (diagnostics, progress, status) and keeps every stdout byte so a test can check that
// only LSP frames were written. A request the server does not answer within `requestTimeoutMs`, or at all because it
// exited, fails with what the server last wrote to stderr and its log: a test never waits for ever. Every server a
// test file started is stopped after its last test (`stopServers`), whatever the file's own hooks did, so no server
// can keep a test file's process alive.

import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { after } from 'node:test';
import { builtBundle } from '../helpers/bundle';
import { childProcesses, processState } from '../helpers/processes';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { serverNodeOptions } from '../../server/src/protocol';

export interface PublishedDiagnostics {
  readonly uri: string;
  readonly version?: number;
  readonly diagnostics: readonly {
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    severity?: number;
    code?: string;
    message: string;
    source?: string;
    codeDescription?: { href: string };
    relatedInformation?: unknown[];
    tags?: number[];
  }[];
}

export interface TestClient {
  readonly connection: MessageConnection;
  readonly process: ChildProcess;
  readonly diagnostics: Map<string, PublishedDiagnostics>;
  /** Every publishDiagnostics in arrival order. */
  readonly published: PublishedDiagnostics[];
  readonly notifications: { method: string; params: unknown }[];
  readonly stdout: Buffer[];
  readonly stderr: string[];
  /** What `workspace/configuration` answers for the `kubeNetlens` section. */
  settings: Record<string, unknown>;
  /** Resolves once `predicate` holds, re-checked after every message from the server. */
  waitFor<T>(what: string, predicate: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  exited: Promise<number | null>;
}

/** How long a request may go unanswered (a slow answer under load is seconds; a hang is this). */
export const requestTimeoutMs = 60_000;

export function startServer(serverPath: string = builtBundle().server): TestClient {
  // Started with the options the editor starts it with (protocol.ts).
  const child = spawn(process.execPath, [...serverNodeOptions, serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  started.add(child);
  const stdout: Buffer[] = [];
  const stderr: string[] = [];
  const tee = new PassThrough();
  child.stdout!.on('data', (b: Buffer) => {
    stdout.push(b);
    tee.write(b);
  });
  child.stdout!.on('end', () => tee.end());
  child.stderr!.on('data', (b: Buffer) => stderr.push(b.toString()));
  const connection = createMessageConnection(new StreamMessageReader(tee), new StreamMessageWriter(child.stdin!));
  const waiters = new Set<() => void>();
  const poke = () => {
    for (const w of [...waiters]) w();
  };
  const client: TestClient = {
    connection,
    process: child,
    diagnostics: new Map(),
    published: [],
    notifications: [],
    stdout,
    stderr,
    settings: {},
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
    waitFor(what, predicate, timeoutMs = 10000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const v = predicate();
          if (v === undefined || v === false) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(v as never);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${what}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
  connection.onNotification('textDocument/publishDiagnostics', (p: PublishedDiagnostics) => {
    client.diagnostics.set(p.uri, p);
    client.published.push(p);
    poke();
  });
  connection.onNotification((method: string, params: unknown) => {
    client.notifications.push({ method, params });
    poke();
  });
  connection.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) => p.items.map(() => client.settings));
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onNotification('$/progress', (p: unknown) => {
    client.notifications.push({ method: '$/progress', params: p });
    poke();
  });
  connection.listen();
  boundRequests(client);
  return client;
}

/** Every server this test file started. */
const started = new Set<ChildProcess>();
const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Resolves true once `child` has exited, false after `ms`. */
function exitWithin(child: ChildProcess, ms: number): Promise<boolean> {
  if (!running(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** What /proc says of a process that would not stop: its state and the processes it started. */
function describeProcess(pid: number | undefined): string {
  if (pid === undefined) return 'no pid';
  return `pid ${pid}, state ${processState(pid)}, children: ${childProcesses(pid).join(', ') || 'none'}`;
}

/**
 * Stops every server the file started that still runs: SIGTERM, then SIGKILL after 5 s (said on stderr, with the
 * process's state, since a server that outlives SIGTERM is a bug worth seeing), and lets go of its pipes.
 */
export async function stopServers(): Promise<void> {
  for (const child of started) {
    if (running(child)) {
      child.kill('SIGTERM');
      if (!(await exitWithin(child, 5000))) {
        process.stderr.write(`a language server did not exit within 5 s of SIGTERM: ${describeProcess(child.pid)}; killing it\n`);
        child.kill('SIGKILL');
        await exitWithin(child, 5000);
      }
    }
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
    child.unref();
  }
  started.clear();
}

after(stopServers);

/** What the server last said, for the message of a request that failed. */
function lastWords(client: TestClient): string {
  const log = client.notifications
    .filter((n) => n.method === 'window/logMessage')
    .slice(-8)
    .map((n) => (n.params as { message?: string }).message ?? '');
  const stderr = client.stderr.join('').slice(-2000);
  return `server log (last lines): ${log.length ? log.join(' | ') : 'none'}; stderr: ${stderr.trim() || 'none'}`;
}

/** Every request gets a timeout, and fails at once when the server exits. */
function boundRequests(client: TestClient): void {
  const connection = client.connection as { sendRequest: (...args: unknown[]) => Promise<unknown> };
  const send = connection.sendRequest.bind(connection);
  let exitedWith: string | undefined;
  const exits = new Set<(why: string) => void>();
  client.process.on('exit', (code, signal) => {
    exitedWith = `the server exited (${signal ?? `code ${code}`})`;
    for (const fail of exits) fail(exitedWith);
  });
  connection.sendRequest = (...args: unknown[]) => {
    const method = typeof args[0] === 'string' ? args[0] : ((args[0] as { method?: string }).method ?? 'request');
    if (exitedWith) return Promise.reject(new Error(`${method}: ${exitedWith}; ${lastWords(client)}`));
    return new Promise((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        exits.delete(fail);
        reject(new Error(`${method}: ${why}; ${lastWords(client)}`));
      };
      const timer = setTimeout(() => fail(`no answer within ${requestTimeoutMs / 1000} s`), requestTimeoutMs);
      exits.add(fail);
      send(...args).then(
        (v) => {
          clearTimeout(timer);
          exits.delete(fail);
          resolve(v);
        },
        (err: unknown) => {
          clearTimeout(timer);
          exits.delete(fail);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  };
}

/** Splits captured stdout into LSP frames; throws on anything that is not `Content-Length` + JSON-RPC. */
export function parseFrames(chunks: readonly Buffer[]): unknown[] {
  const all = Buffer.concat(chunks);
  const frames: unknown[] = [];
  let at = 0;
  while (at < all.length) {
    const headerEnd = all.indexOf('\r\n\r\n', at);
    if (headerEnd < 0) throw new Error(`stray bytes on stdout: ${JSON.stringify(all.subarray(at, at + 80).toString())}`);
    const header = all.subarray(at, headerEnd).toString('ascii');
    const m = /^Content-Length: (\d+)(\r\nContent-Type: [^\r\n]+)?$/i.exec(header);
    if (!m) throw new Error(`not an LSP header: ${JSON.stringify(header.slice(0, 80))}`);
    const body = all.subarray(headerEnd + 4, headerEnd + 4 + Number(m[1]));
    const msg = JSON.parse(body.toString('utf8'));
    if (msg.jsonrpc !== '2.0') throw new Error('a frame without jsonrpc 2.0');
    frames.push(msg);
    at = headerEnd + 4 + Number(m[1]);
  }
  return frames;
}
