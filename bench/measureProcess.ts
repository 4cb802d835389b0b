// Wall time of a whole command (start-up, reading, parsing, analysis, output), as a user at a shell sees it.

import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export interface ProcessRun {
  readonly ms: number;
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

export function timeProcess(args: readonly string[], timeoutMs: number): Promise<ProcessRun> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill();
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - t0, exitCode: code, stdout: Buffer.concat(out).toString('utf8'), stderr, timedOut });
    });
  });
}

/** A run this long is not repeated: its noise is small next to its length, and repeats would cost minutes. */
const longRunMs = 60_000;

/** The fastest of up to `runs` runs; the first failure or time-out is returned as it is. */
export async function bestProcessRun(args: readonly string[], runs: number, timeoutMs: number): Promise<ProcessRun> {
  let best: ProcessRun | undefined;
  for (let i = 0; i < runs; i++) {
    const r = await timeProcess(args, timeoutMs);
    if (r.timedOut || r.exitCode !== 0) return r;
    if (!best || r.ms < best.ms) best = r;
    if (r.ms > longRunMs) break;
  }
  return best!;
}
