// Several runs of one executable from a synchronous caller (the command line), a few at a time: a child node process
// starts them, waits for them and prints their exits as JSON, since a synchronous caller cannot wait for two
// processes at once. Each run keeps its own timeout and output cap; the child gets as long as the runs could take one
// after another. Helm renders (workspace/helm.ts) and real Kustomize builds (workspace/kustomizeBinary.ts) use it.

import { spawnSync } from 'node:child_process';

export interface BatchExit {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly spawnError?: string;
  /** The output went over `maxBuffer`: the run was stopped. */
  readonly tooLarge?: boolean;
}

/** A line of progress the child writes to the terminal: `prefix` `done`/`total` `what` (cli/progress.ts). */
export interface BatchProgress {
  readonly prefix: string;
  readonly what: string;
}

export interface BatchRun {
  readonly executable: string;
  readonly timeoutMs: number;
  readonly maxBuffer: number;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The child's script: reads {executable, batch[], …} on stdin, runs `parallel` at a time, prints the exits; with
 * `progress`, rewrites one line on its stderr (the caller's terminal) as runs finish.
 */
const batchScript = `
const { execFile } = require('node:child_process');
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
    execFile(executable, batch[i], { encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer }, (err, stdout, stderr) => {
      if (err && (err.code === 'ENOBUFS' || err.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')) return finish(i, { status: null, stdout: '', stderr: '', timedOut: false, tooLarge: true });
      const timedOut = !!(err && err.killed);
      finish(i, { status: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr, timedOut, spawnError: err && typeof err.code === 'string' && !timedOut ? err.message : undefined });
    });
  };
  for (let k = 0; k < Math.min(parallel, batch.length); k++) start();
});
`;

/**
 * The exits of every run, in the batch's order; undefined when the child's answer did not arrive whole (then the
 * caller runs them one by one).
 */
export function runBatchSync(run: BatchRun, batch: readonly (readonly string[])[], parallel: number, progress?: BatchProgress): BatchExit[] | undefined {
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
    const exits = JSON.parse(r.stdout) as BatchExit[];
    if (!Array.isArray(exits) || exits.length !== batch.length) return undefined;
    return exits.map((e) => ({ ...e, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));
  } catch {
    return undefined;
  }
}
