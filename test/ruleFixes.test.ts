// Quick fixes of the workload, API and endpoint rules: applying a fix to a fixture removes its finding and breaks no YAML.

import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { SourceText } from '../server/src/features/analyzeTexts';
import type { Finding, TextEdit } from '../server/src/rules/finding';
import { findingsOf } from './helpers/checkDiagnostics';
import { loadFixture, type Fixture } from './helpers/fixture';

const codes = [
  'api-validation',
  'ineffective-field',
  'pod-subdomain-unresolved',
  'service-target-port-unresolved',
  'hostnetwork-dns-policy',
  'endpoints-orphan',
  'networkpolicy-service-port',
];
const root = join(__dirname, 'fixtures', 'rules');

function applyEdits(sources: readonly SourceText[], edits: readonly TextEdit[]): SourceText[] {
  return sources.map((s) => {
    const mine = edits.filter((e) => e.uri === s.uri).sort((a, b) => b.span.start - a.span.start);
    let text = s.text;
    for (const e of mine) text = text.slice(0, e.span.start) + e.newText + text.slice(e.span.end);
    return { uri: s.uri, text };
  });
}

/** Identifies a finding across edits by what it is about, since offsets move. */
function identity(f: Finding): string {
  return `${f.code} ${f.uri} ${f.resource?.kind}/${f.resource?.namespace}/${f.resource?.name} ${f.message}`;
}

for (const code of codes) {
  describe(`fixes of ${code}`, () => {
    const dir = join(root, code);
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .sort();
    const cases = files.flatMap((file) => {
      const fixture = loadFixture(join(dir, file));
      return findingsOf(fixture)
        .filter((f) => f.code === code && f.fixes?.length)
        .flatMap((finding) => finding.fixes!.map((fix) => ({ file, fixture, finding, fix })));
    });
    it('has at least one fix to try', () => assert.ok(cases.length > 0));
    for (const { file, fixture, finding, fix } of cases) {
      it(`${file}: ${fix.title}`, () => {
        const fixed: Fixture = { sources: applyEdits(fixture.sources, fix.edits), expectations: [] };
        const after = findingsOf(fixed);
        assert.deepEqual(
          after.filter((f) => f.code === 'yaml-syntax'),
          [],
          'the fix broke the YAML',
        );
        assert.ok(!after.some((f) => identity(f) === identity(finding)), `still reported after "${fix.title}": ${finding.message}`);
        assert.ok(after.length < findingsOf(fixture).length, 'the fix removed no finding');
      });
    }
  });
}
