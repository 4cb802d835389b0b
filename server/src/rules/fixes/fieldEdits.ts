// Text edits on one YAML field for quick fixes: remove a `key: value` line, replace a value, add a sibling key with the same indentation.

import type { Span } from '../../model/span';
import type { YEntry } from '../../model/yamlTree';
import type { TextEdit } from '../finding';

/** Removes a block-style `key: value` line (with any trailing comment); undefined when the entry shares its line with others (flow style). */
export function removeEntry(uri: string, source: string, e: YEntry): TextEdit | undefined {
  const lineStart = source.lastIndexOf('\n', e.keySpan.start - 1) + 1;
  if (source.slice(lineStart, e.keySpan.start).trim() !== '') return undefined;
  let lineEnd = source.indexOf('\n', e.value.span.end);
  if (lineEnd < 0) lineEnd = source.length;
  const rest = source.slice(e.value.span.end, lineEnd).trim();
  if (rest !== '' && !rest.startsWith('#')) return undefined;
  return { uri, span: { start: lineStart, end: Math.min(source.length, lineEnd + 1) }, newText: '' };
}

export function replaceSpan(uri: string, span: Span, newText: string): TextEdit {
  return { uri, span, newText };
}

/** Adds `key: value` right after an existing entry of the same mapping, matching its style and indentation. */
export function insertAfter(uri: string, source: string, e: YEntry, key: string, value: string): TextEdit {
  const lineStart = source.lastIndexOf('\n', e.keySpan.start - 1) + 1;
  const before = source.slice(lineStart, e.keySpan.start);
  if (before.trim() !== '' && !/^\s*-\s+$/.test(before)) {
    // Flow style (`{hostNetwork: true}`): add after the value, before the next comma or brace.
    return { uri, span: { start: e.value.span.end, end: e.value.span.end }, newText: `, ${key}: ${value}` };
  }
  let lineEnd = source.indexOf('\n', e.value.span.end);
  if (lineEnd < 0) lineEnd = source.length;
  const indent = ' '.repeat(e.keySpan.start - lineStart);
  return { uri, span: { start: lineEnd, end: lineEnd }, newText: `\n${indent}${key}: ${value}` };
}
