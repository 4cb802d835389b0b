// The registered rules' metadata (code, title, description, default severity), for SARIF and settings UIs; and the
// codes no rule makes (rules/inputCodes.ts), which SARIF declares too.

import type { Severity } from '../model/config';
import { inputCodes } from '../rules/inputCodes';
import { rules } from '../rules/index';

export interface RuleInfo {
  readonly code: string;
  readonly title: string;
  readonly description: string;
  readonly defaultSeverity: Severity;
  /** The heading of docs/rules.md that documents the code (its anchor is the code). */
  readonly documented: 'rule' | 'other';
}

export const ruleCatalog: readonly RuleInfo[] = rules.map((r) => ({
  code: r.code,
  title: r.title,
  description: r.description,
  defaultSeverity: r.defaultSeverity,
  documented: 'rule',
}));

/** Every code a finding may carry: the rules, then the other codes. */
export const codeCatalog: readonly RuleInfo[] = [
  ...ruleCatalog,
  ...inputCodes.map((c) => ({ code: c.code, title: c.title, description: c.title, defaultSeverity: c.defaultSeverity, documented: 'other' as const })),
];
