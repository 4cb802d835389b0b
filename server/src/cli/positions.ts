// Spans (offsets) → zero-based line/character ranges, with one line index per file built on first use.

import type { SourceText } from '../features/analyzeTexts';
import { lineIndexesOf, type Position } from '../model/lineIndex';
import type { Span } from '../model/span';

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

export type RangeOf = (uri: string, span: Span) => Range;

export function rangesIn(sources: readonly SourceText[]): RangeOf {
  const linesOf = lineIndexesOf(sources);
  return (uri, span) => {
    const index = linesOf(uri);
    return { start: index.positionAt(span.start), end: index.positionAt(span.end) };
  };
}
