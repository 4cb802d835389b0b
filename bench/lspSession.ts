// A minimal language client for the benchmark: spawns dist/server.js over stdio, answers the requests the server
// makes of an editor, and timestamps every notification it sends so measurements can wait on them.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { serverNodeOptions } from '../server/src/protocol';

export interface Received {
  readonly method: string;
  readonly params: unknown;
  /** performance.now() when the message was handled by this process. */
  readonly at: number;
}

export interface PublishParams {
  readonly uri: string;
  readonly diagnostics: readonly unknown[];
}

export interface StatusParams {
  readonly indexing: boolean;
  readonly resources: number;
  readonly files: number;
  readonly problems: number;
}

export interface LspSession {
  readonly pid: number;
  readonly connection: MessageConnection;
  /** Every notification received so far, in arrival order. */
  readonly received: readonly Received[];
  /** Resolves with the first notification at index ≥ `from` that satisfies `test`. */
  waitFor(test: (m: Received) => boolean, from: number, timeoutMs: number): Promise<Received>;
  /** Resolves once no notification has arrived for `quietMs`. */
  quiet(quietMs: number): Promise<void>;
  initialize(folder: string): Promise<void>;
  /** Peak resident set size so far (VmHWM), in MB. */
  peakRssMb(): number;
  /** CPU time the server process has used so far (user + system, all threads), in ms. */
  cpuMs(): number;
  close(): Promise<void>;
}

/**
 * The display language every session of this process asks for (`initializationOptions.locale`, what the client sends
 * from `vscode.env.language`); undefined: none, so English. `npm run bench -- --lang zh-cn` sets it.
 */
let sessionLocale: string | undefined;
export function setSessionLocale(locale: string | undefined): void {
  sessionLocale = locale;
}

export interface StartOptions {
  /** Writes a V8 CPU profile of the server into this folder when it exits. */
  readonly cpuProfileDir?: string;
  /** What `workspace/configuration` answers for `kubeNetlens` (default `{}`: the server's defaults). */
  readonly settings?: Record<string, unknown>;
  /** The client's workspace trust (`initializationOptions.workspaceTrusted`): without it helm never runs. */
  readonly trusted?: boolean;
}

export function startSession(serverJs: string, options: StartOptions = {}): LspSession {
  // Started as the editor starts it (protocol.ts `serverNodeOptions`).
  const args = [...serverNodeOptions, ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []), serverJs, '--stdio'];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  connection.onNotification((method: string, params: unknown) => {
    received.push({ method, params, at: performance.now() });
    for (const w of [...waiters]) w();
  });
  // What an editor answers: default settings (the server falls back to its defaults on `{}`), no-op registrations.
  connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => options.settings ?? {}));
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.listen();

  const waitFor = (test: (m: Received) => boolean, from: number, timeoutMs: number) =>
    new Promise<Received>((resolve, reject) => {
      const check = () => {
        for (let i = from; i < received.length; i++) {
          if (!test(received[i])) continue;
          done();
          resolve(received[i]);
          return;
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`server sent no expected notification within ${timeoutMs} ms; stderr: ${stderr}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  const quiet = (quietMs: number) =>
    new Promise<void>((resolve) => {
      const tick = () => {
        const last = received.length ? received[received.length - 1].at : 0;
        const left = last + quietMs - performance.now();
        if (left <= 0) resolve();
        else setTimeout(tick, left + 1);
      };
      setTimeout(tick, quietMs);
    });

  return {
    pid: child.pid!,
    connection,
    received,
    waitFor,
    quiet,
    async initialize(folder) {
      const uri = pathToFileURL(folder).href;
      await connection.sendRequest('initialize', {
        processId: process.pid,
        rootUri: uri,
        workspaceFolders: [{ uri, name: 'bench' }],
        ...((sessionLocale !== undefined || options.trusted) && {
          initializationOptions: { ...(sessionLocale !== undefined && { locale: sessionLocale }), ...(options.trusted && { workspaceTrusted: true }) },
        }),
        capabilities: { workspace: { configuration: true, workspaceFolders: true }, textDocument: { hover: { contentFormat: ['markdown'] } } },
      });
      await connection.sendNotification('initialized', {});
    },
    peakRssMb() {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : NaN;
    },
    cpuMs() {
      // Fields 14 and 15 of /proc/<pid>/stat, after the parenthesised command name, in USER_HZ (100 per second).
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    async close() {
      try {
        await Promise.race([connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 5000))]);
        await connection.sendNotification('exit');
      } catch {
        // a server that already went away needs no shutdown
      }
      const timer = setTimeout(() => child.kill(), 10000);
      await exited;
      clearTimeout(timer);
      connection.dispose();
    },
  };
}
