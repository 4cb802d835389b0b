// Names close to a mistyped one, for "did you mean" messages: small edit distance, or the same name elsewhere.

/** Candidates within a few edits of `wanted` (more allowed for longer names), closest first, at most `limit`. */
export function closeNames(wanted: string, candidates: readonly string[], limit = 5): string[] {
  const budget = Math.max(2, Math.floor(wanted.length / 3));
  return candidates
    .map((c) => ({ c, d: editDistance(wanted, c) }))
    .filter((x) => x.d <= budget)
    .sort((a, b) => a.d - b.d || (a.c < b.c ? -1 : a.c > b.c ? 1 : 0))
    .slice(0, limit)
    .map((x) => x.c);
}

/** Levenshtein distance, with one row of memory. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}
