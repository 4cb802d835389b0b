// What the benchmark ran on: the figures are only comparable on the same machine under the same load.

import { cpus, loadavg, totalmem } from 'node:os';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGb: number;
  readonly node: string;
  readonly platform: string;
  readonly date: string;
  /** 1-minute load average when the run started; above the core count, other work competed for the CPU. */
  readonly loadAtStart: number;
}

export function describeMachine(): Machine {
  const c = cpus();
  return {
    cpu: c[0]?.model.trim() ?? 'unknown',
    cores: c.length,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    date: new Date().toISOString(),
    loadAtStart: Math.round(loadavg()[0] * 100) / 100,
  };
}
