// What a command produces: text for stdout, one-line notes for stderr, and the exit code.

import { terminalSafe } from './terminalText';

export interface CommandResult {
  /** 0: nothing at or above --fail-on; 1: findings at or above it; 2: usage or I/O error. */
  readonly exitCode: 0 | 1 | 2;
  readonly stdout: string;
  readonly stderr: readonly string[];
}

/** What the commands may know about where they run, passed in rather than read from globals. */
export interface Terminal {
  readonly stdoutIsTTY: boolean;
  /** Writes a progress line to stderr: given only when stderr is a terminal (cli/progress.ts). */
  readonly progress?: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export function failure(message: string, notes: readonly string[] = []): CommandResult {
  return { exitCode: 2, stdout: '', stderr: [...notes.map(note), note(message)] };
}

/** A stderr note; whatever a path or a name holds, it carries no control characters (line breaks are kept). */
export function note(message: string): string {
  return `kube-netlens: ${terminalSafe(message, true)}`;
}
