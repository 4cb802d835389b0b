// Label selectors: Service equality maps and the matchLabels/matchExpressions form of workloads and NetworkPolicies.

import type { Span } from './span';

export type SelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

export interface SelectorRequirement {
  readonly key: string;
  readonly operator: SelectorOperator;
  readonly values: readonly string[];
  readonly span: Span;
}

/** A label selector. All terms are ANDed; an empty selector (no terms) matches everything. */
export interface LabelSelector {
  readonly matchLabels: ReadonlyMap<string, string>;
  readonly matchExpressions: readonly SelectorRequirement[];
  /** Span of each matchLabels key/value pair, by key. */
  readonly labelSpans: ReadonlyMap<string, { readonly key: Span; readonly value: Span }>;
  readonly span: Span;
}

export function selectorIsEmpty(s: LabelSelector): boolean {
  return s.matchLabels.size === 0 && s.matchExpressions.length === 0;
}

/**
 * Equality selectors (a Service's `spec.selector`, a `matchLabels`) against a label map: whether the labels carry
 * every pair (an empty selector selects everything). For the pods of a workload, with the labels their controller
 * adds, use `selectsPods`/`podsMatching` (model/podLabels.ts).
 */
export function equalityMatches(selector: ReadonlyMap<string, string>, labels: ReadonlyMap<string, string>): boolean {
  for (const [k, v] of selector) if (labels.get(k) !== v) return false;
  return true;
}

/** The pairs of an equality selector that the labels lack or give another value, in selector order; none when it matches. */
export function unmatchedPairs(selector: ReadonlyMap<string, string>, labels: ReadonlyMap<string, string>): [key: string, value: string][] {
  const out: [string, string][] = [];
  for (const [k, v] of selector) if (labels.get(k) !== v) out.push([k, v]);
  return out;
}

export function selectorMatches(s: LabelSelector, labels: ReadonlyMap<string, string>): boolean {
  if (!equalityMatches(s.matchLabels, labels)) return false;
  for (const r of s.matchExpressions) if (!requirementMatches(r, labels)) return false;
  return true;
}

/** Whether one `matchExpressions` requirement holds for these labels: the one reading of the four operators. */
export function requirementMatches(r: SelectorRequirement, labels: ReadonlyMap<string, string>): boolean {
  const has = labels.has(r.key);
  switch (r.operator) {
    case 'In':
      return has && r.values.includes(labels.get(r.key)!);
    case 'NotIn':
      return !(has && r.values.includes(labels.get(r.key)!));
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
  }
}

/** `app=web, tier in (a,b)`: the selector as kubectl would print it. */
export function formatSelector(s: LabelSelector): string {
  const parts = [...s.matchLabels].map(([k, v]) => `${k}=${v}`);
  for (const r of s.matchExpressions) {
    if (r.operator === 'Exists') parts.push(r.key);
    else if (r.operator === 'DoesNotExist') parts.push(`!${r.key}`);
    else parts.push(`${r.key} ${r.operator === 'In' ? 'in' : 'notin'} (${r.values.join(',')})`);
  }
  return parts.join(', ');
}
