// Near-miss names for "did you mean" suggestions: a typo (small edit distance) or one name being a prefix of the other.

export function closestName(wanted: string, candidates: Iterable<string>): string | undefined {
  const w = wanted.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const l = c.toLowerCase();
    if (l === w) continue;
    const limit = Math.max(1, Math.min(3, Math.floor(Math.max(w.length, l.length) / 3)));
    const prefix = l.startsWith(w) || w.startsWith(l);
    // Beyond the limit only the prefix case scores, and it does not need the distance.
    const d = editDistanceWithin(w, l, limit);
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
  return editDistanceWithin(a, b, Math.max(a.length, b.length));
}

/**
 * The distance of `editDistance` when it is at most `max`, and `max + 1` otherwise: names of very different lengths,
 * or whose prefixes already differ by more than `max`, are given up on early, which keeps a search over every
 * Service name of a namespace cheap.
 */
export function editDistanceWithin(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (!a.length || !b.length) return Math.max(a.length, b.length);
  const width = b.length + 1;
  // Three rows of the table: two back (for swaps), the previous one, and the one being filled.
  let before = new Int32Array(width);
  let prev = new Int32Array(width);
  let cur = new Int32Array(width);
  for (let j = 0; j < width; j++) prev[j] = j;
  let prevMin = 0;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j < width; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) d = Math.min(d, before[j - 2] + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    // Every cell of a row comes from the two rows above it plus at least one edit (or an equal cell diagonally above),
    // so once two rows in a row exceed `max`, every later one does too.
    if (rowMin > max && prevMin > max) return max + 1;
    prevMin = rowMin;
    const spare = before;
    before = prev;
    prev = cur;
    cur = spare;
  }
  return Math.min(prev[b.length], max + 1);
}
