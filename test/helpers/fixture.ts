// Fixtures are data: one YAML file may hold several workspace files (`# file: name.yaml` headers), and caret comments
// under a line expect a finding on that line.
//
// Annotation grammar (one comment line each, under the line the finding is on):
//
//   #   ^^^^[+<lines>:<column>] <severity> <code>[: <message part>]
//
// - the first caret stands at the finding's start column, and the carets cover its whole span on that line: their count
//   is the span's length; an empty span gets one caret; a span over several lines is covered to the end of its first
//   line, and `+<lines>:<column>` right after the carets says where it ends: that many lines further down, before that
//   (1-based) column, as an editor shows the end of a selection (`^^^^^+2:9`);
// - <severity> is error, warning, information or hint; <code> is the rule code;
// - an optional message part after a colon must occur in the finding's message (write a stable part, not all of it):
//   `#   ^^^^^^^^^ warning service-selector-no-match: matches no pod template`.
// Annotation lines are part of the file's text (YAML comments), so they never move a finding.

import { readFileSync } from 'node:fs';
import type { SourceText } from '../../server/src/features/analyzeTexts';
import { lineIndex } from '../../server/src/model/lineIndex';

export interface Expectation {
  readonly uri: string;
  readonly line: number;
  readonly character: number;
  /** How many carets: the span's length on its first line. */
  readonly length: number;
  /** For a span over several lines: how many lines further down it ends, and its end column there (0-based). */
  readonly end?: { readonly lines: number; readonly character: number };
  readonly severity: string;
  readonly code: string;
  /** Text the finding's message must contain. */
  readonly message?: string;
}

export interface Fixture {
  readonly sources: SourceText[];
  readonly expectations: Expectation[];
}

const annotation = /^(\s*)#(\s*)(\^+)(?:\+(\d+):(\d+))?\s+(error|warning|information|hint)\s+([a-z][a-z0-9-]*)(?:\s*:\s*(\S.*?))?\s*$/;

export function loadFixture(path: string, baseUri = 'file:///fixture/'): Fixture {
  return parseFixture(readFileSync(path, 'utf8'), baseUri, path.split('/').pop()!);
}

export function parseFixture(content: string, baseUri = 'file:///fixture/', defaultName = 'main.yaml'): Fixture {
  const parts: { name: string; lines: string[] }[] = [];
  let cur = { name: defaultName, lines: [] as string[] };
  for (const line of content.split('\n')) {
    const m = /^# file: (\S+)\s*$/.exec(line);
    if (m) {
      if (cur.lines.some((l) => l.trim())) parts.push(cur);
      cur = { name: m[1], lines: [] };
      continue;
    }
    cur.lines.push(line);
  }
  if (cur.lines.some((l) => l.trim()) || !parts.length) parts.push(cur);
  const sources: SourceText[] = [];
  const expectations: Expectation[] = [];
  for (const part of parts) {
    const uri = baseUri + part.name;
    let target = -1;
    part.lines.forEach((line, i) => {
      const m = annotation.exec(line);
      if (!m) {
        target = i;
        return;
      }
      const end = m[4] !== undefined ? { end: { lines: Number(m[4]), character: Number(m[5]) - 1 } } : {};
      expectations.push({
        uri,
        line: target,
        character: m[1].length + 1 + m[2].length,
        length: m[3].length,
        ...end,
        severity: m[6],
        code: m[7],
        ...(m[8] ? { message: m[8] } : {}),
      });
    });
    sources.push({ uri, text: part.lines.join('\n') });
  }
  return { sources, expectations };
}

/** A `$0` marks a cursor: returns the text without it and the offset where it stood. */
export function cursorIn(text: string): { text: string; offset: number } {
  const offset = text.indexOf('$0');
  if (offset < 0) throw new Error('fixture has no $0 cursor');
  return { text: text.slice(0, offset) + text.slice(offset + 2), offset };
}

export function positionOf(text: string, offset: number): { line: number; character: number } {
  return lineIndex(text).positionAt(offset);
}
