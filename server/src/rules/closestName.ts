// Near-miss suggestions: which known name a mistyped one was probably meant to be (`stabel` → `stable`, `ngnix` → `nginx`).

import { editDistanceWithin, maxCandidates, maxComparedLength } from '../analysis/closestName';

export interface NameSuggestion {
  readonly name: string;
  readonly distance: number;
  /** Close enough to be a typo, and no other candidate is as close: safe to offer as the preferred fix. */
  readonly clear: boolean;
}

/** The closest candidate that is near enough to be a typo of `written`, if any. */
export function closestName(written: string, candidates: Iterable<string>): NameSuggestion | undefined {
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
 * Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two neighbouring
 * characters each cost 1, so the common `stabel`/`stable` slip counts as one edit. Case differences count.
 */
export function editDistance(a: string, b: string): number {
  return editDistanceWithin(a, b, Math.max(a.length, b.length));
}

/** Edits a near miss may have: a third of the length, at most `maxEdits`. */
function nearMissLimit(longest: number): number {
  return Math.max(1, Math.min(maxEdits, Math.floor(longest / 3)));
}

/** No suggestion is more than this many edits away, whatever the length of the names. */
export const maxEdits = 8;

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
