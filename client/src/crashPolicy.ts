// When to restart a crashed language server: a few times, then give up rather than loop.
// Pure (no vscode import), so it is unit-tested on its own.

export interface CrashPolicy {
  /** Records a crash at `now` (ms) and says whether to restart the server or stop trying. */
  crashed(now: number): { readonly action: 'restart' | 'give-up'; readonly recent: number };
  /** Forgets past crashes, after the user asks for a restart. */
  reset(): void;
}

export function createCrashPolicy(maxCrashes: number, windowMs: number): CrashPolicy {
  const crashes: number[] = [];
  return {
    crashed(now) {
      crashes.push(now);
      while (crashes.length && now - crashes[0] > windowMs) crashes.shift();
      return { action: crashes.length < maxCrashes ? 'restart' : 'give-up', recent: crashes.length };
    },
    reset() {
      crashes.length = 0;
    },
  };
}
