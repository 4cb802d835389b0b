// A span as the protocol's SourceSpan: offsets plus the line/character of its start. The one place a SourceSpan is
// made (the trace graph's places, their mapping back from renders, the service list).

import type { LineIndex } from '../model/lineIndex';
import type { Span } from '../model/span';
import type { SourceSpan } from '../protocol';

/** `lines`: the file's line index; without it (a file no longer in the snapshot) the place is its first line. */
export function sourceSpan(uri: string, span: Span, lines: LineIndex | undefined): SourceSpan {
  const p = lines?.positionAt(span.start) ?? { line: 0, character: 0 };
  return { uri, start: span.start, end: span.end, line: p.line, character: p.character };
}
