// Names close to a mistyped one, for "did you mean" messages: small edit distance, or the same name elsewhere.

import { editDistanceWithin, maxCandidates, maxComparedLength } from '../analysis/closestName';

/** Candidates within a few edits of `wanted` (more allowed for longer names, at most 8), closest first, at most `limit`. */
export function closeNames(wanted: string, candidates: readonly string[], limit = 5): string[] {
  if (wanted.length > maxComparedLength) return [];
  const budget = Math.max(2, Math.min(8, Math.floor(wanted.length / 3)));
  return candidates
    .filter((c) => c.length <= maxComparedLength)
    .slice(0, maxCandidates)
    .map((c) => ({ c, d: editDistanceWithin(wanted, c, budget) }))
    .filter((x) => x.d <= budget)
    .sort((a, b) => a.d - b.d || (a.c < b.c ? -1 : a.c > b.c ? 1 : 0))
    .slice(0, limit)
    .map((x) => x.c);
}
