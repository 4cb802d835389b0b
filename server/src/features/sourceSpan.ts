// A span as the protocol's SourceSpan: offsets plus the line/character of its start.

import type { LineIndex } from '../model/lineIndex';
import type { Span } from '../model/span';
import type { SourceSpan } from '../protocol';

export function sourceSpan(uri: string, span: Span, lines: LineIndex): SourceSpan {
  const p = lines.positionAt(span.start);
  return { uri, start: span.start, end: span.end, line: p.line, character: p.character };
}
