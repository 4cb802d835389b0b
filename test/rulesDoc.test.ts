// docs/rules.md matches the registry, and every rule's documented examples behave as documented.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../server/src/features/analyzeTexts';
import { rules } from '../server/src/rules/index';
import { renderRulesDoc } from '../server/src/rules/rulesDoc';
import { runRules } from '../server/src/engine/evaluate';

const docPath = join(__dirname, '..', 'docs', 'rules.md');

describe('docs/rules.md', () => {
  it('is up to date with the rule registry', () => {
    const written = existsSync(docPath) ? readFileSync(docPath, 'utf8') : '';
    assert.ok(
      written === renderRulesDoc(rules),
      'docs/rules.md is stale: `npm run derived` updates it (the build and the tests also run it); commit the result',
    );
  });

  it('has a section anchored at each code', () => {
    const doc = renderRulesDoc(rules);
    for (const r of rules) assert.ok(doc.includes(`\n## ${r.code}\n`), `no section for ${r.code}`);
  });
});

for (const rule of rules) {
  describe(`examples of ${rule.code}`, () => {
    const codesIn = (text: string) => runRules(analyzeTexts([{ uri: 'file:///docs/example.yaml', text }]), [rule]).map((f) => f.code);
    it('the "fires on" example fires the rule', () => {
      assert.ok(codesIn(rule.examples.bad).includes(rule.code), `the bad example of ${rule.code} does not fire it`);
    });
    it('the "quiet on" example does not', () => {
      assert.deepEqual(codesIn(rule.examples.good), [], `the good example of ${rule.code} fires it`);
    });
  });
}
