// A text edit that adds `key: value` to an existing YAML mapping, in block style or flow style as the mapping is written.

import type { YMap } from '../model/yamlTree';
import type { TextEdit } from './finding';

/**
 * Inserts `entry` (e.g. `clusterIP: None`) before the mapping's first key, at that key's indentation.
 * Returns undefined for an empty block mapping, where there is no indentation to copy.
 */
export function insertMapEntry(uri: string, text: string, map: YMap, entry: string): TextEdit | undefined {
  const keys = [...map.entries.values()]
    .map((e) => e.keySpan)
    .filter((k) => k.start >= map.span.start && k.end <= map.span.end)
    .sort((a, b) => a.start - b.start);
  const first = keys[0];
  if (text[map.span.start] === '{') {
    const at = first ? first.start : map.span.start + 1;
    return { uri, span: { start: at, end: at }, newText: first ? `${entry}, ` : entry };
  }
  if (!first) return undefined;
  const column = first.start - lineStartOf(text, first.start);
  return { uri, span: { start: first.start, end: first.start }, newText: `${entry}${lineEndOf(text)}${' '.repeat(column)}` };
}

/** The file's line ending, so inserted lines match the ones around them. */
export function lineEndOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

export function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}
