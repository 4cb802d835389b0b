// Every fix a rule offers in its fixtures, applied to the text: the finding goes away, no new one appears, and the files still parse.

import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../server/src/features/diagnostics';
import type { Finding } from '../server/src/rules/finding';
import { rules } from '../server/src/rules/index';
import { applyFix } from './helpers/applyFix';
import { loadFixture } from './helpers/fixture';

const root = join(__dirname, 'fixtures', 'rules');

/** A finding's identity across edits: its rule and resource (spans move when text is inserted). */
const keyOf = (f: Finding) => `${f.code} ${f.resource?.kind}/${f.resource?.namespace}/${f.resource?.name}`;
const count = (findings: readonly Finding[], key: string) => findings.filter((f) => keyOf(f) === key).length;
const parseProblems = (findings: readonly Finding[]) => findings.filter((f) => f.code === 'yaml-syntax' || f.code === 'manifest').map((f) => f.message);

let offered = 0;

for (const rule of rules) {
  const dir = join(root, rule.code);
  if (!existsSync(dir)) continue;
  describe(`fixes of ${rule.code}`, () => {
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .sort()) {
      const fixture = loadFixture(join(dir, file));
      const before = diagnosticsFor(analyzeTexts(fixture.sources));
      for (const finding of before.filter((f) => f.code === rule.code)) {
        for (const fix of finding.fixes ?? []) {
          it(`${file}: ${fix.title}`, () => {
            offered++;
            const after = diagnosticsFor(analyzeTexts(applyFix(fixture.sources, fix)));
            assert.deepEqual(parseProblems(after), parseProblems(before), 'the fixed text no longer parses cleanly');
            const key = keyOf(finding);
            assert.ok(count(after, key) < count(before, key), `the finding is still there after the fix: ${finding.message}`);
            const known = new Set(before.map(keyOf));
            const added = after.filter((f) => !known.has(keyOf(f))).map((f) => `${f.code}: ${f.message}`);
            assert.deepEqual(added, [], 'the fix causes new findings');
            const resources = (fs: typeof fixture.sources) => analyzeTexts(fs).cluster.resources.length;
            assert.ok(resources(applyFix(fixture.sources, fix)) >= resources(fixture.sources), 'the fix lost an object');
          });
        }
      }
    }
  });
}

describe('fixes overall', () => {
  it('rules offer fixes in their fixtures', () => {
    assert.ok(offered > 0, 'no fix was exercised');
  });
});
