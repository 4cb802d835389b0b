// All findings of a snapshot: YAML/manifest problems of each file plus every enabled rule.

import type { Analysis } from '../analysis/analysis';
import type { Finding } from '../rules/finding';
import { runRules } from '../rules/runRules';

/** Findings beyond this many in one file are folded into a single "N more" note. */
export const maxFindingsPerFile = 200;

const memo = new WeakMap<Analysis, readonly Finding[]>();

/** Memoized per analysis snapshot: the editor, the trace view and the CLI share one evaluation. */
export function diagnosticsFor(analysis: Analysis): readonly Finding[] {
  let found = memo.get(analysis);
  if (!found) memo.set(analysis, (found = evaluate(analysis)));
  return found;
}

function evaluate(analysis: Analysis): Finding[] {
  const out: Finding[] = [];
  for (const f of analysis.cluster.files) {
    for (const p of f.problems) out.push({ uri: f.uri, span: p.span, message: p.message, code: p.code, severity: p.severity });
  }
  out.push(...runRules(analysis));
  return capPerFile(out);
}

function capPerFile(findings: Finding[]): Finding[] {
  const byUri = new Map<string, Finding[]>();
  for (const f of findings) {
    const l = byUri.get(f.uri);
    if (l) l.push(f);
    else byUri.set(f.uri, [f]);
  }
  const out: Finding[] = [];
  for (const [uri, list] of byUri) {
    if (list.length <= maxFindingsPerFile) {
      out.push(...list);
      continue;
    }
    out.push(...list.slice(0, maxFindingsPerFile));
    out.push({ uri, span: { start: 0, end: 0 }, code: 'too-many-findings', severity: 'information', message: `${list.length - maxFindingsPerFile} more findings in this file are not shown.` });
  }
  return out;
}
