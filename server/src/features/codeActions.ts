// codeActionsAt: the fixes the findings offer, for the findings that overlap the editor's range.

import type { Finding, Fix } from '../rules/finding';
import type { Span } from '../model/span';

export interface QuickFix {
  readonly fix: Fix;
  /** The finding the fix resolves; the editor attaches the action to its diagnostic. */
  readonly finding: Finding;
}

export function codeActionsAt(findings: readonly Finding[], uri: string, range: Span): QuickFix[] {
  const out: QuickFix[] = [];
  for (const finding of findings) {
    if (finding.uri !== uri || !finding.fixes?.length) continue;
    if (finding.span.end < range.start || finding.span.start > range.end) continue;
    for (const fix of finding.fixes) out.push({ fix, finding });
  }
  // The single obvious fix first, so "auto fix" and the light bulb agree.
  return out.sort((a, b) => Number(!!b.fix.isPreferred) - Number(!!a.fix.isPreferred));
}
