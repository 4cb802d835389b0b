// The registry: every rule, in one explicit list. Add a rule here and in docs (npm run rules-doc).

import { duplicateResource } from './duplicateResource';
import type { Rule } from './rule';

export const rules: readonly Rule[] = [duplicateResource];

export function ruleByCode(code: string): Rule | undefined {
  return rules.find((r) => r.code === code);
}
