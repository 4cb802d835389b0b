// Runs every enabled rule over one analysis, applies the configured severities, and orders the findings.

import type { Analysis } from '../analysis/analysis';
import { maxRelated, type Finding, type FindingDraft } from './finding';
import { rules } from './index';
import type { Rule } from './rule';

export function runRules(analysis: Analysis, only: readonly Rule[] = rules): Finding[] {
  const out: Finding[] = [];
  for (const rule of only) {
    const configured = analysis.config.rules[rule.code];
    if (configured === 'off') continue;
    const severity = configured ?? rule.defaultSeverity;
    for (const draft of rule.check(analysis)) out.push({ ...boundRelated(draft), code: rule.code, severity });
  }
  return orderFindings(out);
}

/** A finding with at most `maxRelated` related places (the rest add nothing a reader can use). */
export function boundRelated<T extends FindingDraft>(draft: T): T {
  return draft.related && draft.related.length > maxRelated ? { ...draft, related: draft.related.slice(0, maxRelated) } : draft;
}

/**
 * By file, then position, then code, then message; findings that tie on all of these keep the order they were
 * reported in. (The message settles the order whatever order the incremental evaluation gathered them in.)
 */
export function orderFindings(findings: Finding[]): Finding[] {
  return findings.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : a.span.start - b.span.start || compare(a.code, b.code) || compare(a.message, b.message)));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
