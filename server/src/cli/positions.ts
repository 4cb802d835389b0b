// Spans (offsets) → zero-based line/character ranges, with one line index per file built on first use.

import type { SourceText } from '../features/analyzeTexts';
import { lineIndex, type LineIndex, type Position } from '../model/lineIndex';
import type { Span } from '../model/span';

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

export type RangeOf = (uri: string, span: Span) => Range;

export function rangesIn(sources: readonly SourceText[]): RangeOf {
  const texts = new Map(sources.map((s) => [s.uri, s.text]));
  const indexes = new Map<string, LineIndex>();
  return (uri, span) => {
    let index = indexes.get(uri);
    if (!index) indexes.set(uri, (index = lineIndex(texts.get(uri) ?? '')));
    return { start: index.positionAt(span.start), end: index.positionAt(span.end) };
  };
}
