// Near-miss suggestions: which known name a mistyped one was probably meant to be (`stabel` → `stable`, `ngnix` → `nginx`).

export interface NameSuggestion {
  readonly name: string;
  readonly distance: number;
  /** Close enough to be a typo, and no other candidate is as close: safe to offer as the preferred fix. */
  readonly clear: boolean;
}

/** The closest candidate that is near enough to be a typo of `written`, if any. */
export function closestName(written: string, candidates: Iterable<string>): NameSuggestion | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  let ties = 0;
  for (const c of new Set(candidates)) {
    if (c === written) continue;
    const d = editDistance(written, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
      ties = 0;
    } else if (d === bestDistance) ties++;
  }
  if (best === undefined || !isNearMiss(written, best)) return undefined;
  return { name: best, distance: bestDistance, clear: ties === 0 };
}

/** Whether two different names are close enough that one is likely a typo of the other. */
export function isNearMiss(a: string, b: string): boolean {
  if (a === b) return false;
  if (a.toLowerCase() === b.toLowerCase()) return true;
  const longest = Math.max(a.length, b.length);
  return editDistance(a, b) <= Math.max(1, Math.floor(longest / 3));
}

/**
 * Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two neighbouring
 * characters each cost 1, so the common `stabel`/`stable` slip counts as one edit. Case differences count.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur.push(d);
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length];
}
