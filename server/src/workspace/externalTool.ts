// The one runner of external tools (helm, the real Kustomize): a run with a timeout, an output cap and the
// environment the caller gives, made synchronously (the command line), without blocking (the language server), or
// several at a time for a synchronous caller. A synchronous caller cannot wait for two processes at once, so for a
// batch a child node process starts the runs, waits for them and prints their exits as JSON; each run keeps its own
// timeout and output cap, and the child gets as long as the runs could take one after another. How an exit is read
// (status, timeout, a process that could not start, output over the cap) is written once, in `exitFrom`, and the
// child runs that same function.

import { execFile, spawnSync } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import type { ToolExit } from '../model/rendered';

export type { ToolExit };

export interface ToolRun {
  readonly executable: string;
  readonly timeoutMs: number;
  /** The cap on stdout and on stderr, in bytes. */
  readonly maxBuffer: number;
  readonly env: NodeJS.ProcessEnv;
}

/** A line of progress the child writes to the terminal: `prefix` `done`/`total` `what` (cli/progress.ts). */
export interface BatchProgress {
  readonly prefix: string;
  readonly what: string;
}

/**
 * An exit from what Node's child_process reports: `err` as execFile or spawnSync give it (spawnSync's `error`, with
 * its `status` and `signal`). Self-contained (it is also the child's code, by its source text): it names nothing
 * outside itself.
 */
function exitFrom(
  err: { code?: unknown; killed?: boolean; message?: string } | null | undefined,
  stdout: string | null | undefined,
  stderr: string | null | undefined,
  sync?: { status: number | null; signal: string | null },
) {
  // Node names "output over maxBuffer" ENOBUFS in spawnSync and ERR_CHILD_PROCESS_STDIO_MAXBUFFER in execFile
  if (err && (err.code === 'ENOBUFS' || err.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER'))
    return { status: null, stdout: '', stderr: '', timedOut: false, tooLarge: true };
  const timedOut = sync ? err?.code === 'ETIMEDOUT' || (sync.signal === 'SIGKILL' && sync.status === null) : !!err?.killed;
  const status = sync ? sync.status : err ? (typeof err.code === 'number' ? err.code : null) : 0;
  // execFile reports a non-zero exit as an error with a numeric code; a string code means it never ran
  const spawnError = err && !timedOut && (sync || typeof err.code === 'string') ? err.message : undefined;
  return { status, stdout: stdout ?? '', stderr: stderr ?? '', timedOut, spawnError };
}

/** Runs once, synchronously (the command line). */
export function runToolSync(run: ToolRun, args: readonly string[]): ToolExit {
  const r = spawnSync(run.executable, args, {
    encoding: 'utf8',
    timeout: run.timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: run.maxBuffer,
    env: run.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return exitFrom(r.error as NodeJS.ErrnoException | undefined, r.stdout, r.stderr, { status: r.status, signal: r.signal });
}

/**
 * How much lower than the language server's own the priority of a tool it runs is, in nice steps (a nice value: 0
 * normal, 19 the lowest). helm and the real Kustomize are CPU-bound and run while the user types: on a machine with
 * as many renders at once as cores they would otherwise take the CPU a hover or a diagnostic needs
 * (bench/helmCharts.ts --lsp).
 */
export const backgroundNice = 10;

/** Runs once without blocking (the language server), at a lower priority than the server's own. */
export function runTool(run: ToolRun, args: readonly string[]): Promise<ToolExit> {
  return new Promise((done) => {
    const child = execFile(
      run.executable,
      args,
      { encoding: 'utf8', timeout: run.timeoutMs, killSignal: 'SIGKILL', maxBuffer: run.maxBuffer, env: run.env },
      (err, stdout, stderr) => {
        done(exitFrom(err as (NodeJS.ErrnoException & { killed?: boolean }) | null, stdout, stderr));
      },
    );
    lowerPriority(child.pid);
  });
}

/** Lowers a started tool's priority; where the system refuses (or it already ended), it runs at the normal one. */
function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, Math.min(19, getPriority() + backgroundNice));
  } catch {
    // the tool runs at the server's priority: slower hovers while it runs, never a failed render
  }
}

/**
 * The child's script: reads {executable, batch[], …} on stdin, runs `parallel` at a time, prints the exits; with
 * `progress`, rewrites one line on its stderr (the caller's terminal) as runs finish.
 */
const batchScript = `
const { execFile } = require('node:child_process');
const exitFrom = ${exitFrom.toString()};
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const { executable, timeoutMs, maxBuffer, parallel, batch, progress } = JSON.parse(input);
  const out = new Array(batch.length);
  let next = 0;
  let done = 0;
  const report = () => { if (progress) process.stderr.write('\\r\\x1b[K' + progress.prefix + done + '/' + batch.length + ' ' + progress.what); };
  report();
  const finish = (i, exit) => {
    out[i] = exit;
    ++done;
    report();
    if (done === batch.length) process.stdout.write(JSON.stringify(out));
    else start();
  };
  const start = () => {
    if (next >= batch.length) return;
    const i = next++;
    execFile(executable, batch[i], { encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer }, (err, stdout, stderr) => finish(i, exitFrom(err, stdout, stderr)));
  };
  for (let k = 0; k < Math.min(parallel, batch.length); k++) start();
});
`;

/** The exits of every run through the child, in the batch's order; undefined when its answer did not arrive whole. */
function runInChild(run: ToolRun, batch: readonly (readonly string[])[], parallel: number, progress?: BatchProgress): ToolExit[] | undefined {
  const r = spawnSync(process.execPath, ['-e', batchScript], {
    input: JSON.stringify({ executable: run.executable, timeoutMs: run.timeoutMs, maxBuffer: run.maxBuffer, parallel, batch, progress }),
    encoding: 'utf8',
    timeout: run.timeoutMs * batch.length + 10_000,
    killSignal: 'SIGKILL',
    // every run's output at its cap would not fit; then the answer is cut and the runs are made one by one
    maxBuffer: Math.max(run.maxBuffer * 2, 256 * 1024 * 1024),
    env: run.env,
    stdio: ['pipe', 'pipe', progress ? 'inherit' : 'pipe'],
  });
  if (r.status !== 0 || !r.stdout) return undefined;
  try {
    const exits = JSON.parse(r.stdout) as ToolExit[];
    if (!Array.isArray(exits) || exits.length !== batch.length) return undefined;
    return exits.map((e) => ({ ...e, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));
  } catch {
    return undefined;
  }
}

/**
 * Runs a batch synchronously, `parallel` at a time: the same exits, in the batch's order, as runToolSync gives one by
 * one. One by one is also the fallback (a batch of one, no parallelism, a child whose answer did not arrive whole).
 */
export function runToolBatchSync(run: ToolRun, batch: readonly (readonly string[])[], parallel: number, progress?: BatchProgress): ToolExit[] {
  const exits = batch.length > 1 && parallel > 1 ? runInChild(run, batch, parallel, progress) : undefined;
  return exits ?? batch.map((args) => runToolSync(run, args));
}
