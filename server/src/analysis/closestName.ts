// Near-miss names for "did you mean" suggestions: a typo (small edit distance) or one name being a prefix of the other.

export function closestName(wanted: string, candidates: Iterable<string>): string | undefined {
  const w = wanted.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const l = c.toLowerCase();
    if (l === w) continue;
    const d = editDistance(w, l);
    const limit = Math.max(1, Math.min(3, Math.floor(Math.max(w.length, l.length) / 3)));
    const prefix = l.startsWith(w) || w.startsWith(l);
    const score = d <= limit ? d : prefix ? limit + 1 + Math.abs(l.length - w.length) : Infinity;
    if (score < bestScore || (score === bestScore && best !== undefined && c < best)) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

/** Damerau–Levenshtein distance (adjacent swaps count once, as in `stabel`/`stable`). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
