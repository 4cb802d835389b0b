// Every rule has fixtures that fire it and fixtures that do not, and each fixture's findings match its annotations.

import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { rules } from '../server/src/rules/index';
import { checkDiagnostics } from './helpers/checkDiagnostics';
import { loadFixture } from './helpers/fixture';

const root = join(__dirname, 'fixtures', 'rules');

for (const rule of rules) {
  describe(`rule ${rule.code}`, () => {
    const dir = join(root, rule.code);
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort() : [];
    it('has firing and non-firing fixtures', () => {
      const fixtures = files.map((f) => loadFixture(join(dir, f)));
      assert.ok(fixtures.some((fx) => fx.expectations.some((e) => e.code === rule.code)), `no fixture in ${dir} expects ${rule.code}`);
      assert.ok(fixtures.some((fx) => !fx.expectations.some((e) => e.code === rule.code)), `no fixture in ${dir} stays quiet for ${rule.code}`);
    });
    for (const f of files) {
      it(f, () => {
        checkDiagnostics(loadFixture(join(dir, f)));
      });
    }
  });
}
