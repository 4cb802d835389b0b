// Progress of a long `check` on a terminal: one line on stderr, rewritten in place (`built 12/40 Kustomize roots`),
// cleared before the results are written. Only when stderr is a terminal (cli/main.ts decides): piped or redirected,
// stderr carries nothing but the notes.

import { terminalSafe } from './terminalText';

export interface Progress {
  /** `done` of `total` `what` (`Kustomize roots built natively`); a complete count is shown too, until the next. */
  count(what: string, done: number, total: number): void;
  /** The line is cleared. */
  clear(): void;
  /**
   * For a child process that writes the same kind of line to the inherited stderr (workspace/externalTool.ts): the
   * words after the count, and the line is taken over from here.
   */
  readonly lineForChild: (what: string) => { readonly prefix: string; readonly what: string };
}

/** At most this often a line is rewritten: a terminal redrawn thousands of times slows the run down. */
const minIntervalMs = 100;

export function terminalProgress(write: (text: string) => void, now: () => number = Date.now): Progress {
  let shown = false;
  let last = -Infinity;
  const prefix = 'kube-netlens: ';
  return {
    count(what, done, total) {
      const t = now();
      if (done < total && t - last < minIntervalMs) return;
      last = t;
      write(`\r\x1b[K${prefix}${terminalSafe(`${done}/${total} ${what}`, false)}`);
      shown = true;
    },
    clear() {
      if (shown) write('\r\x1b[K');
      shown = false;
    },
    lineForChild(what) {
      shown = true;
      return { prefix, what: terminalSafe(what, false) };
    },
  };
}
