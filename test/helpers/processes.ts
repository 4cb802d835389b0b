// What Linux's /proc says of a process, for the messages of tests that stop processes or find them still running.
// Elsewhere every answer is empty.

import { readFileSync } from 'node:fs';

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** A process's state (`S (sleeping)`…), or `unknown`. */
export function processState(pid: number): string {
  return /^State:\s*(.*)$/m.exec(read(`/proc/${pid}/status`))?.[1] ?? 'unknown';
}

/** The processes a process started and that still run, each as `pid command args`. */
export function childProcesses(pid: number): string[] {
  const pids = read(`/proc/${pid}/task/${pid}/children`).trim().split(/\s+/).filter(Boolean);
  return pids.map((p) => `${p} ${read(`/proc/${p}/cmdline`).split('\0').slice(0, 3).join(' ').slice(0, 120) || '(gone)'}`);
}
