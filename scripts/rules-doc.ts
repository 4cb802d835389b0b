// Writes docs/rules.md from the rule registry (`npm run rules-doc`); test/rulesDoc.test.ts fails when it is stale.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { rules } from '../server/src/rules/index';
import { renderRulesDoc } from '../server/src/rules/rulesDoc';

const target = join(__dirname, '..', 'docs', 'rules.md');
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, renderRulesDoc(rules));
console.log(`wrote ${target} (${rules.length} rules)`);
