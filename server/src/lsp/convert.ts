// Offsets ↔ LSP positions, and findings → LSP diagnostics (code, link to the rule's docs, related places, tags).

import { DiagnosticSeverity, DiagnosticTag, type Diagnostic, type Range } from 'vscode-languageserver/node';
import type { diagnosticsFor } from '../features/diagnostics';
import type { LineIndex, Span } from '../workspace/workspace';

export type Finding = ReturnType<typeof diagnosticsFor>[number];

import { rulesDocLinks } from './rulesDocLinks';

/** The rules doc shipped with the extension, read once: a code without a section gets no link rather than a dead one. */
const docLinks = rulesDocLinks(__dirname);

export function toRange(index: LineIndex, span: Span): Range {
  return { start: index.positionAt(span.start), end: index.positionAt(span.end) };
}

export function toSpan(index: LineIndex, range: Range): Span {
  return { start: index.offsetAt(range.start), end: index.offsetAt(range.end) };
}

const severities: Record<Finding['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toDiagnostic(f: Finding, rangeOf: (uri: string, span: Span) => Range | undefined): Diagnostic {
  const d: Diagnostic = {
    range: rangeOf(f.uri, f.span) ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: severities[f.severity],
    code: f.code,
    source: 'kube-netlens',
    message: f.message,
  };
  const href = docLinks.get(f.code);
  if (href) d.codeDescription = { href };
  const related = (f.related ?? []).flatMap((r) => {
    const range = rangeOf(r.uri, r.span);
    return range ? [{ location: { uri: r.uri, range }, message: r.message }] : [];
  });
  if (related.length) d.relatedInformation = related;
  const tags = (f.tags ?? []).map((t) => (t === 'unnecessary' ? DiagnosticTag.Unnecessary : DiagnosticTag.Deprecated));
  if (tags.length) d.tags = tags;
  return d;
}
