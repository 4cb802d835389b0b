// The codes findings carry that are not rules: problems of the input (YAML, a manifest's shape) and of the tools that
// render it (Kustomize, Helm), the note of a file with too many findings, and the note of a suppression that matches
// nothing. They are documented at the end of docs/rules.md and declared in SARIF beside the rules.

import type { Severity } from '../model/config';

export interface InputCode {
  readonly code: string;
  /** The usual severity; some of these codes are reported at several (a render that failed is worse than one not tried). */
  readonly defaultSeverity: Severity;
  readonly title: string;
}

export const inputCodes: readonly InputCode[] = [
  { code: 'config-invalid', defaultSeverity: 'error', title: 'The `.kube-netlens.yaml` file is not valid: none of its values apply until it is fixed' },
  { code: 'helm-dependency-missing', defaultSeverity: 'information', title: 'A chart is not rendered: a dependency it declares is not in its charts/ folder' },
  { code: 'helm-failed', defaultSeverity: 'warning', title: '`helm template` failed, timed out or could not be started for a chart and value set' },
  { code: 'helm-not-rendered', defaultSeverity: 'information', title: 'A chart (or one of its value sets) is not rendered, so its templates are not checked' },
  {
    code: 'ignore-invalid',
    defaultSeverity: 'warning',
    title: 'A `kube-netlens.io/ignore` annotation gives no reason or names a code kube-netlens does not have: it ignores nothing',
  },
  { code: 'ignore-unused', defaultSeverity: 'information', title: 'A suppression (an annotation or an `ignore:` entry) matches no finding any more' },
  {
    code: 'kustomize-name-not-rewritten',
    defaultSeverity: 'warning',
    title: 'A name Kustomize renames (a prefix, a suffix, a hash) is referred to where Kustomize does not rewrite it',
  },
  { code: 'kustomize-not-rendered', defaultSeverity: 'information', title: 'A kustomization is not analysed as a build' },
  { code: 'kustomize-render-failed', defaultSeverity: 'warning', title: 'A Kustomize build failed' },
  {
    code: 'manifest',
    defaultSeverity: 'error',
    title: 'A document that is not a usable Kubernetes object (no name, a malformed metadata, a repeated definition in one file)',
  },
  { code: 'too-many-findings', defaultSeverity: 'information', title: 'A file has more findings than are shown' },
  { code: 'yaml-syntax', defaultSeverity: 'error', title: 'The file is not valid YAML' },
];
