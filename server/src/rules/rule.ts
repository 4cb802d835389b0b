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
  /**
   * `namespace`: the check may run for a few subjects at a time (one file's objects in one namespace, see
   * rules/namespaceView.ts). It must iterate the cluster's resource lists only for its subjects, report only on its
   * subjects (each finding comes from one subject, never one per other object it found), and find everything else
   * through the index functions (`service`, `servicesIn`, `servicesNamed`, `workloadsMatching`…), so each read is
   * recorded and an edit re-runs only the checks whose findings could change. Without it the rule runs over the
   * whole cluster after every edit.
   */
  readonly scope?: 'namespace';
  check(analysis: Analysis): Iterable<FindingDraft>;
}
