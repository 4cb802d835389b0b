// The one place tests call diagnosticsFor: compares a fixture's findings with its caret annotations.

import assert from 'node:assert/strict';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import type { AnalysisConfig } from '../../server/src/model/config';
import { lineIndex } from '../../server/src/model/lineIndex';
import type { Finding } from '../../server/src/rules/finding';
import type { Fixture } from './fixture';

export function findingsOf(fixture: Fixture, config?: Partial<AnalysisConfig>): readonly Finding[] {
  return diagnosticsFor(analyzeTexts(fixture.sources, config));
}

/** Asserts that the findings are exactly the annotated ones (position, severity and code). */
export function checkDiagnostics(fixture: Fixture, config?: Partial<AnalysisConfig>): readonly Finding[] {
  const findings = findingsOf(fixture, config);
  // Both parse paths (the fast parser and the yaml library) must give the same findings.
  const slow = diagnosticsFor(analyzeTexts(fixture.sources, config, { fastPath: false }));
  assert.deepEqual(JSON.parse(JSON.stringify(slow)), JSON.parse(JSON.stringify(findings)), 'the yaml-library parse path gives other findings');
  const texts = new Map(fixture.sources.map((s) => [s.uri, s.text]));
  const describe = (uri: string, line: number, ch: number, severity: string, code: string) => `${uri.split('/').pop()}:${line + 1}:${ch + 1} ${severity} ${code}`;
  const actual = findings.map((f) => {
    const p = lineIndex(texts.get(f.uri) ?? '').positionAt(f.span.start);
    return describe(f.uri, p.line, p.character, f.severity, f.code);
  });
  const expected = fixture.expectations.map((e) => describe(e.uri, e.line, e.character, e.severity, e.code));
  const messages = findings.map((f) => `  ${f.code}: ${f.message}`).join('\n');
  assert.deepEqual([...actual].sort(), [...expected].sort(), `findings differ from the annotations\n${messages}`);
  for (const f of findings) {
    assert.ok(f.span.start <= f.span.end, `${f.code}: span is inverted`);
    assert.ok(f.message.length > 20 && !f.message.includes('undefined'), `${f.code}: unclear message: ${f.message}`);
  }
  return findings;
}
