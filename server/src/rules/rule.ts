// The shape of a rule module: metadata that generates docs/rules.md, and a pure check over the analysis.

import type { Severity } from '../model/config';
import type { Analysis } from '../analysis/analysis';
import type { FindingDraft } from './finding';

export interface Rule {
  /** Stable code shown in the editor and used in settings (`kubeNetlens.rules`). */
  readonly code: string;
  readonly defaultSeverity: Severity;
  /** One line: what the rule catches. */
  readonly title: string;
  /** Markdown for docs/rules.md: why it matters, citing network-semantics where it applies. */
  readonly description: string;
  /** A manifest that fires the rule and one that does not, for the docs. */
  readonly examples: { readonly bad: string; readonly good: string };
  check(analysis: Analysis): Iterable<FindingDraft>;
}
