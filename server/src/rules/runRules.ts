// Runs every enabled rule over one analysis, applies the configured severities, and orders the findings.

import type { Analysis } from '../analysis/analysis';
import type { Finding } from './finding';
import { rules } from './index';
import type { Rule } from './rule';

export function runRules(analysis: Analysis, only: readonly Rule[] = rules): Finding[] {
  const out: Finding[] = [];
  for (const rule of only) {
    const configured = analysis.config.rules[rule.code];
    if (configured === 'off') continue;
    const severity = configured ?? rule.defaultSeverity;
    for (const draft of rule.check(analysis)) out.push({ ...draft, code: rule.code, severity });
  }
  return orderFindings(out);
}

/** By file, then position, then code; findings that tie keep the order they were reported in. */
export function orderFindings(findings: Finding[]): Finding[] {
  return findings.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : a.span.start - b.span.start || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)));
}
