// Near-miss names for "did you mean" suggestions: a typo (small edit distance) or one name being a prefix of the other.

export function closestName(wanted: string, candidates: Iterable<string>): string | undefined {
  if (wanted.length > maxComparedLength) return undefined;
  const w = wanted.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  let measured = 0;
  for (const c of candidates) {
    if (measured >= maxCandidates) break;
    if (c.length > maxComparedLength) continue;
    measured++;
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

/**
 * The names of a list, lazily: a suggestion search stops after `maxCandidates`, so a namespace of 50,000 Services
 * costs it no more than one of 1,000 (no name list is built per question).
 */
export function* namesOf(list: Iterable<{ readonly name: string }>): Iterable<string> {
  for (const o of list) yield o.name;
}

/** Damerau–Levenshtein distance (adjacent swaps count once, as in `stabel`/`stable`). */
export function editDistance(a: string, b: string): number {
  return editDistanceWithin(a, b, Math.max(a.length, b.length));
}

/**
 * Names longer than this are never compared: no Kubernetes name is longer (a DNS subdomain name is at most 253
 * characters), and comparing two names of tens of thousands of characters would block for seconds.
 */
export const maxComparedLength = 253;
/** A suggestion search measures at most this many candidates (after the cheap length filter). */
export const maxCandidates = 1000;

/**
 * The distance of `editDistance` when it is at most `max`, and `max + 1` otherwise. Only a band of `2·max + 1`
 * diagonals of the table is computed (a cell farther from the diagonal costs more than `max` edits), and the search
 * gives up once two rows in a row exceed `max`: O(max · length) time, whatever the candidates.
 */
let rowBuffers: Int32Array[] = [0, 1, 2].map(() => new Int32Array(maxComparedLength + 2));

export function editDistanceWithin(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  if (!n || !m) return Math.max(n, m);
  const big = max + 1;
  // Three rows of the table: two back (for swaps), the previous one, and the one being filled. Cells outside the
  // band read as `big`; only the band and its two neighbours are ever written. The rows are reused from one call to
  // the next (a suggestion search measures up to `maxCandidates` names, after every edit): nothing is allocated.
  if (rowBuffers[0].length < m + 2) rowBuffers = rowBuffers.map(() => new Int32Array(Math.max(m + 2, rowBuffers[0].length * 2)));
  let [before, prev, cur] = rowBuffers;
  before.fill(big, 0, m + 2);
  prev.fill(big, 0, m + 2);
  cur.fill(big, 0, m + 2);
  for (let j = 0; j <= Math.min(m, max); j++) prev[j] = j;
  let prevMin = 0;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(m, i + max);
    cur[lo - 1] = lo === 1 ? Math.min(i, big) : big;
    let rowMin = cur[lo - 1];
    const ai = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) d = Math.min(d, before[j - 2] + 1);
      if (d > big) d = big;
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    cur[hi + 1] = big;
    // Every cell of a row comes from the two rows above it plus at least one edit (or an equal cell diagonally above),
    // so once two rows in a row exceed `max`, every later one does too.
    if (rowMin > max && prevMin > max) return big;
    prevMin = rowMin;
    const spare = before;
    before = prev;
    prev = cur;
    cur = spare;
  }
  return Math.min(prev[m], big);
}
