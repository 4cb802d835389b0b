// Percentiles and best-of-N timing for the benchmark's figures.

import { performance } from 'node:perf_hooks';

/** Nearest-rank percentile (p in 0–100) of the values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

export interface Timing {
  readonly wallMs: number;
  /** CPU time of this process (user + system, all threads). */
  readonly cpuMs: number;
}

/** The fastest of `runs` runs of `work`, wall and CPU time each (the least disturbed by other processes). */
export function bestOf(runs: number, work: () => void): Timing {
  let wallMs = Infinity;
  let cpuMs = Infinity;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    work();
    wallMs = Math.min(wallMs, performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpuMs = Math.min(cpuMs, (c.user + c.system) / 1000);
  }
  return { wallMs, cpuMs };
}
