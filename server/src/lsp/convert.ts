// Offsets ↔ LSP positions, and what the features answer → LSP types: findings → diagnostics (code, link to the rule's
// docs, related places, tags), quick fixes → code actions, lenses → code lenses, completions → completion items,
// hovers and places → hovers and locations. The only module that turns a feature's offsets into LSP ranges.

import {
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  DiagnosticTag,
  type CodeAction,
  type CodeLens,
  type CompletionItem,
  type Diagnostic,
  type Hover,
  type Location,
  type Range,
} from 'vscode-languageserver/node';
import type { QuickFix } from '../features/codeActions';
import type { IgnoreFix } from '../features/ignoreFix';
import { ignoreFindingCommand, type IgnoreFindingArgs } from '../protocol';
import type { Lens } from '../features/codeLenses';
import type { Completion } from '../features/completion';
import type { diagnosticsFor } from '../features/diagnostics';
import type { LineIndex, Span } from '../workspace/workspace';
import { rulesDocLinks } from './rulesDocLinks';

export type Finding = ReturnType<typeof diagnosticsFor>[number];

/** A span in a file → its LSP range; undefined when the file's text is not known. */
export type RangeOf = (uri: string, span: Span) => Range | undefined;

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

export function toDiagnostic(f: Finding, rangeOf: RangeOf): Diagnostic {
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

/**
 * A quick fix → a code action carrying its edits and the diagnostic it resolves. `editorUri` names a file as the
 * editor opened it; an edit in a file whose text is not known falls back to `requested` (the range asked about).
 */
export function toCodeAction(q: QuickFix, rangeOf: RangeOf, editorUri: (uri: string) => string, requested: Range): CodeAction {
  const changes: Record<string, { range: Range; newText: string }[]> = {};
  for (const e of q.fix.edits) (changes[editorUri(e.uri)] ??= []).push({ range: rangeOf(e.uri, e.span) ?? requested, newText: e.newText });
  return {
    title: q.fix.title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [toDiagnostic(q.finding, rangeOf)],
    isPreferred: q.fix.isPreferred,
    edit: { changes },
  };
}

/**
 * "Ignore <code> here…" → a code action running the client command that asks for the reason and then makes the edit
 * (client/src/ignoreFinding.ts): the arguments say where the annotation's value goes and what is around it.
 */
export function toIgnoreAction(f: IgnoreFix, rangeOf: RangeOf, editorUri: (uri: string) => string): CodeAction {
  const args: IgnoreFindingArgs = {
    uri: editorUri(f.uri),
    range: rangeOf(f.uri, f.span)!,
    before: f.before,
    after: f.after,
    code: f.code,
    ...(f.existing !== undefined && { existing: f.existing }),
    ...(f.onPodTemplate && { onPodTemplate: true }),
  };
  return {
    title: f.title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [toDiagnostic(f.finding, rangeOf)],
    command: { title: f.title, command: ignoreFindingCommand, arguments: [args] },
  };
}

/** The client command a Trace lens runs (client/src registers it). */
const traceCommand = 'kubeNetlens.traceService';

export function toCodeLens(l: Lens, index: LineIndex): CodeLens {
  return {
    range: toRange(index, l.span),
    command: l.trace ? { title: l.title, command: traceCommand, arguments: [l.trace] } : { title: l.title, command: '' },
  };
}

const completionKinds: Record<Completion['kind'], CompletionItemKind> = {
  service: CompletionItemKind.Module,
  port: CompletionItemKind.Value,
  label: CompletionItemKind.Property,
};

export function toCompletionItem(c: Completion, index: LineIndex): CompletionItem {
  return {
    label: c.label,
    detail: c.detail,
    sortText: c.sortText,
    kind: completionKinds[c.kind],
    textEdit: { range: toRange(index, c.span), newText: c.label },
  };
}

export function toHover(h: { readonly markdown: string; readonly span: Span }, index: LineIndex): Hover {
  return { contents: { kind: 'markdown', value: h.markdown }, range: toRange(index, h.span) };
}

/** A place → an LSP location; none when its file's text is not known. */
export function toLocations(places: readonly { readonly uri: string; readonly span: Span }[], rangeOf: RangeOf): Location[] {
  return places.flatMap((p) => {
    const range = rangeOf(p.uri, p.span);
    return range ? [{ uri: p.uri, range }] : [];
  });
}
