// Fixtures are data: one YAML file may hold several workspace files (`# file: name.yaml` headers), and comments
// such as `# ^^^^ warning service-selector-no-match` under a line expect a finding starting at the first caret.

import { readFileSync } from 'node:fs';
import type { SourceText } from '../../server/src/features/analyzeTexts';
import { lineIndex } from '../../server/src/model/lineIndex';

export interface Expectation {
  readonly uri: string;
  readonly line: number;
  readonly character: number;
  readonly severity: string;
  readonly code: string;
}

export interface Fixture {
  readonly sources: SourceText[];
  readonly expectations: Expectation[];
}

const annotation = /^(\s*)#(\s*)(\^+)\s+(error|warning|information|hint)\s+([a-z][a-z0-9-]*)\s*$/;

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
      expectations.push({ uri, line: target, character: m[1].length + 1 + m[2].length, severity: m[4], code: m[5] });
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
