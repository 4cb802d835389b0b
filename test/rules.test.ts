// Every rule module is registered, every rule has fixtures that fire it and fixtures that do not (one annotation at
// least with a part of its message), and each fixture's findings match its annotations.

import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { rules } from '../server/src/rules/index';
import type { Rule } from '../server/src/rules/rule';
import { checkDiagnostics } from './helpers/checkDiagnostics';
import { loadFixture } from './helpers/fixture';

const root = join(__dirname, 'fixtures', 'rules');

// Adding a rule is its module and its fixtures; the registry is generated from the modules (scripts/derived.ts). A
// module whose rule the registry misses, or a fixture folder no rule owns, fails here.
describe('the rule registry', () => {
  it('holds every rule module of server/src/rules', async () => {
    const folder = join(__dirname, '..', 'server', 'src', 'rules');
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts'))) {
      const exported = Object.values((await import(join(folder, file))) as Record<string, unknown>);
      for (const value of exported.filter(isRule)) {
        assert.ok(
          rules.includes(value),
          `${file} exports rule ${value.code}, which the generated registry server/src/rules/index.ts lacks: export it as \`export const <name> = defineRule({ … })\`, then \`npm run derived\` (the build and the tests also run it)`,
        );
      }
    }
  });

  it('has a rule for every fixture folder', () => {
    const codes = new Set(rules.map((r) => r.code));
    for (const folder of readdirSync(root)) {
      assert.ok(
        codes.has(folder),
        `test/fixtures/rules/${folder} names no registered rule: no rule module defines code ${folder}, or \`npm run derived\` has not run since one does`,
      );
    }
  });
});

function isRule(value: unknown): value is Rule {
  return typeof value === 'object' && value !== null && typeof (value as Rule).code === 'string' && typeof (value as Rule).check === 'function';
}

for (const rule of rules) {
  describe(`rule ${rule.code}`, () => {
    const dir = join(root, rule.code);
    const files = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.yaml'))
          .sort()
      : [];
    it('has firing and non-firing fixtures, and an annotation that names a part of its message', () => {
      const fixtures = files.map((f) => loadFixture(join(dir, f)));
      assert.ok(
        fixtures.some((fx) => fx.expectations.some((e) => e.code === rule.code)),
        `no fixture in ${dir} expects ${rule.code}`,
      );
      assert.ok(
        fixtures.some((fx) => !fx.expectations.some((e) => e.code === rule.code)),
        `no fixture in ${dir} stays quiet for ${rule.code}`,
      );
      assert.ok(
        fixtures.some((fx) => fx.expectations.some((e) => e.code === rule.code && e.message)),
        `no annotation in ${dir} gives a message part for ${rule.code}`,
      );
    });
    for (const f of files) {
      it(f, () => {
        checkDiagnostics(loadFixture(join(dir, f)));
      });
    }
  });
}
