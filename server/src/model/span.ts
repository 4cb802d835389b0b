// Source positions: every span is a pair of UTF-16 offsets into one file's text.

export interface Span {
  readonly start: number;
  readonly end: number;
}

/** A place in the workspace: a file and a span in it. */
export interface Location {
  readonly uri: string;
  readonly span: Span;
}

export const emptySpan: Span = { start: 0, end: 0 };

export function spanContains(span: Span, offset: number): boolean {
  return offset >= span.start && offset <= span.end;
}

/** The innermost item whose span holds `offset` (a `kind: List` item before the list, a field before its object). */
export function innermostAt<T extends { readonly span: Span }>(items: readonly T[], offset: number): T | undefined {
  let best: T | undefined;
  for (const r of items) {
    if (!spanContains(r.span, offset)) continue;
    if (!best || r.span.end - r.span.start < best.span.end - best.span.start) best = r;
  }
  return best;
}
