// The registered rules' metadata (code, title, description, default severity), for SARIF and settings UIs.

import type { Severity } from '../model/config';
import { rules } from '../rules/index';

export interface RuleInfo {
  readonly code: string;
  readonly title: string;
  readonly description: string;
  readonly defaultSeverity: Severity;
}

export const ruleCatalog: readonly RuleInfo[] = rules.map((r) => ({ code: r.code, title: r.title, description: r.description, defaultSeverity: r.defaultSeverity }));
