// The one place tests call diagnosticsFor: compares a fixture's findings with its caret annotations.

import assert from 'node:assert/strict';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import type { AnalysisConfig } from '../../server/src/model/config';
import { lineIndex, lineIndexesOf, type LineIndex } from '../../server/src/model/lineIndex';
import type { Finding } from '../../server/src/rules/finding';
import type { Expectation, Fixture } from './fixture';

export function findingsOf(fixture: Fixture, config?: Partial<AnalysisConfig>): readonly Finding[] {
  return diagnosticsFor(analyzeTexts(fixture.sources, config));
}

/** The caret count an annotation needs for a span: its length on its first line (at least one). */
export function caretCount(text: string, span: { readonly start: number; readonly end: number }, index: LineIndex = lineIndex(text)): number {
  const start = index.positionAt(span.start);
  const end = index.positionAt(span.end);
  if (end.line === start.line) return Math.max(1, end.character - start.character);
  const lineEnd = index.offsetAt({ line: start.line + 1, character: 0 });
  const firstLine = text.slice(span.start, lineEnd).replace(/\r?\n$|\r$/, '');
  return Math.max(1, firstLine.length);
}

/**
 * Asserts that the findings are exactly the annotated ones: start, span length on the first line (and the end of a span
 * over several lines), severity and code,
 * and that each annotation's message part occurs in its finding's message (grammar: test/helpers/fixture.ts).
 */
export function checkDiagnostics(fixture: Fixture, config?: Partial<AnalysisConfig>): readonly Finding[] {
  const findings = findingsOf(fixture, config);
  // Both parse paths (the fast parser and the yaml library) must give the same findings.
  const slow = diagnosticsFor(analyzeTexts(fixture.sources, config, { fastPath: false }));
  assert.deepEqual(JSON.parse(JSON.stringify(slow)), JSON.parse(JSON.stringify(findings)), 'the yaml-library parse path gives other findings');
  const texts = new Map(fixture.sources.map((s) => [s.uri, s.text]));
  const linesOf = lineIndexesOf(fixture.sources);
  const describe = (uri: string, line: number, ch: number, length: number, end: Expectation['end'], severity: string, code: string) =>
    `${uri.split('/').pop()}:${line + 1}:${ch + 1} ${'^'.repeat(length)}${end ? `+${end.lines}:${end.character + 1}` : ''} ${severity} ${code}`;
  const actual = findings.map((f) => {
    const lines = linesOf(f.uri);
    const p = lines.positionAt(f.span.start);
    const e = lines.positionAt(f.span.end);
    const end = e.line > p.line ? { lines: e.line - p.line, character: e.character } : undefined;
    return describe(f.uri, p.line, p.character, caretCount(texts.get(f.uri) ?? '', f.span, lines), end, f.severity, f.code);
  });
  const expected = fixture.expectations.map((e) => describe(e.uri, e.line, e.character, e.length, e.end, e.severity, e.code));
  const messages = findings.map((f, i) => `  ${actual[i]}: ${f.message}`).join('\n');
  assert.deepEqual([...actual].sort(), [...expected].sort(), `findings differ from the annotations\n${messages}`);
  // Each annotation with a message part claims one finding at its place whose message contains the part.
  const unclaimed = findings.map((f, i) => ({ key: actual[i], message: f.message }));
  for (const [i, e] of fixture.expectations.entries()) {
    if (e.message === undefined) continue;
    const at = unclaimed.findIndex((u) => u.key === expected[i] && u.message.includes(e.message!));
    assert.ok(at >= 0, `${expected[i]}: no finding there has "${e.message}" in its message\n${messages}`);
    unclaimed.splice(at, 1);
  }
  for (const f of findings) {
    assert.ok(f.span.start <= f.span.end, `${f.code}: span is inverted`);
    assert.ok(f.message.length > 20 && !f.message.includes('undefined'), `${f.code}: unclear message: ${f.message}`);
  }
  return findings;
}
