// Every "did you mean" search of the product, in one place: which known name a mistyped one was probably meant to be.
//
// The policy (docs/robustness.md, "Near-miss names"):
// - Bounded work, whatever the input: a name longer than `maxComparedLength` (253, the longest Kubernetes name) is
//   never compared, a search measures at most `maxCandidates` (1,000) candidates, and every distance is computed by
//   `editDistanceWithin`, in a band of `2·max + 1` diagonals: O(max · length) per candidate, never the full table.
// - A near miss is at most `nearMissLimit(longest)` edits away: a third of the longer name's length, at least 1 and
//   at most `maxEdits` (8), or the same name in another case. Adjacent swaps count as one edit (`stabel`/`stable`).
// - Three shapes of answer, one search each: `nearestName` (the closest near miss, and whether it is the only one as
//   close: a preferred fix is offered only then), `nearNames` (several, closest first, for lists of suggestions), and
//   `closestName` (DNS labels and namespaces: at most 3 edits, or one name a prefix of the other).
// Nothing else in server/src computes an edit distance or ranks suggestions.

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
    const limit = Math.min(3, nearMissLimit(Math.max(w.length, l.length)));
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

/** Edits a near miss may have: a third of the length, at least 1, at most `maxEdits`. */
export function nearMissLimit(longest: number): number {
  return Math.max(1, Math.min(maxEdits, Math.floor(longest / 3)));
}

/** No suggestion is more than this many edits away, whatever the length of the names. */
export const maxEdits = 8;

export interface NameSuggestion {
  readonly name: string;
  readonly distance: number;
  /** Close enough to be a typo, and no other candidate is as close: safe to offer as the preferred fix. */
  readonly clear: boolean;
}

/** The closest candidate that is near enough to be a typo of `written`, if any. */
export function nearestName(written: string, candidates: Iterable<string>): NameSuggestion | undefined {
  if (written.length > maxComparedLength) return undefined;
  // Bounded work: names no Kubernetes object can have are not compared, and at most `maxCandidates` are.
  const unique = new Set<string>();
  for (const c of candidates) {
    if (unique.size >= maxCandidates) break;
    if (c.length <= maxComparedLength && c !== written) unique.add(c);
  }
  // Only a near miss is ever suggested, and a near miss is within `cap` edits of `written` unless it differs from it
  // in case alone: distances beyond `cap` need not be known exactly, as long as every candidate is compared.
  let longest = written.length;
  for (const c of unique) if (c.length > longest) longest = c.length;
  const cap = nearMissLimit(longest);
  const bounded = closestWithin(written, unique, cap);
  if (bounded.best !== undefined && bounded.distance <= cap) return suggestion(written, bounded);
  const lower = written.toLowerCase();
  for (const c of unique) if (c.toLowerCase() === lower) return suggestion(written, closestWithin(written, unique, Infinity));
  return undefined;
}

/**
 * Whether one written value is a slip of the other: one or two edits (a swap of neighbours counts once), at most a
 * third of the longer, or a difference of case. Stricter than `isNearMiss`, which also serves "did you mean"
 * suggestions: this one is evidence on its own that a reference was meant for the other name (semantics §9.0),
 * so `api-v2` is no typo of `api`, nor `edge-v2` of `edge-v1`, nor `argocd-server` of `argocd-repo-server`.
 */
export function isTypo(a: string, b: string): boolean {
  if (a === b || a.length > maxComparedLength || b.length > maxComparedLength) return false;
  if (a.toLowerCase() === b.toLowerCase()) return true;
  // Names that differ only in their numbers are versions or members of one series (`edge-v1`, `edge-v2`), not slips.
  if (a.replace(/\d+/g, '0') === b.replace(/\d+/g, '0')) return false;
  const limit = Math.min(2, Math.floor(Math.max(a.length, b.length) / 3));
  return limit >= 1 && editDistanceWithin(a, b, limit) <= limit;
}

/** Whether two different names are close enough that one is likely a typo of the other. */
export function isNearMiss(a: string, b: string): boolean {
  if (a === b || a.length > maxComparedLength || b.length > maxComparedLength) return false;
  if (a.toLowerCase() === b.toLowerCase()) return true;
  const limit = nearMissLimit(Math.max(a.length, b.length));
  return editDistanceWithin(a, b, limit) <= limit;
}

/**
 * Near misses of `wanted` among `candidates`, closest first (ties by name), at most `limit`: each within
 * `nearMissLimit` edits, or at least 2 for short names (a list may show a little more than a single fix would).
 */
export function nearNames(wanted: string, candidates: Iterable<string>, limit = 5): string[] {
  if (wanted.length > maxComparedLength) return [];
  const budget = Math.max(2, nearMissLimit(wanted.length));
  const found: { c: string; d: number }[] = [];
  let measured = 0;
  for (const c of candidates) {
    if (measured >= maxCandidates) break;
    if (c.length > maxComparedLength) continue;
    measured++;
    const d = editDistanceWithin(wanted, c, budget);
    if (d <= budget) found.push({ c, d });
  }
  return found
    .sort((a, b) => a.d - b.d || (a.c < b.c ? -1 : a.c > b.c ? 1 : 0))
    .slice(0, limit)
    .map((x) => x.c);
}

interface Closest {
  readonly best?: string;
  readonly distance: number;
  /** Later candidates exactly as close as the first closest one. */
  readonly ties: number;
}

/**
 * The first closest candidate with distances capped at `max + 1`: exact whenever the closest is within `max`. A
 * candidate farther than the closest so far can neither replace it nor tie with it, so each one is measured only as
 * far as that.
 */
function closestWithin(written: string, candidates: Iterable<string>, max: number): Closest {
  let best: string | undefined;
  let bestDistance = Infinity;
  let ties = 0;
  for (const c of candidates) {
    const bound = Math.min(max, bestDistance);
    const d = editDistanceWithin(written, c, bound === Infinity ? Math.max(written.length, c.length) : bound);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
      ties = 0;
    } else if (d === bestDistance) ties++;
  }
  return { best, distance: bestDistance, ties };
}

function suggestion(written: string, closest: Closest): NameSuggestion | undefined {
  const best = closest.best;
  if (best === undefined) return undefined;
  const near = best.toLowerCase() === written.toLowerCase() || closest.distance <= nearMissLimit(Math.max(written.length, best.length));
  return near ? { name: best, distance: closest.distance, clear: closest.ties === 0 } : undefined;
}
