// The status bar item's words (no vscode import, so tests read them): the counts, and a tooltip naming each group
// of files that is not analysed on its own and why.

import type { StatusParams } from '../../server/src/protocol';
import { progressText } from './statusProgress';

export function statusText(s: StatusParams): string {
  const working = progressText(s.progress);
  if (s.indexing) return `$(sync~spin) Kubernetes: ${working ?? 'indexing manifests'}`;
  const skipped = s.skippedTemplates + s.skippedOther + (s.skippedTests ?? 0) + (s.skippedBuildInputs ?? 0);
  const parts = [`${s.resources} ${s.resources === 1 ? 'resource' : 'resources'}`];
  if (skipped) parts.push(`${skipped} skipped`);
  const charts = (s.chartsRendered ?? 0) + (s.chartsNotRendered ?? 0);
  if (charts) parts.push(`${s.chartsRendered ?? 0}/${charts} ${charts === 1 ? 'chart' : 'charts'} rendered`);
  parts.push(`${s.problems} ${s.problems === 1 ? 'problem' : 'problems'}`);
  return working ? `$(sync~spin) ${parts.join(' · ')} · ${working}` : `$(pulse) ${parts.join(' · ')}`;
}

/** The item's tooltip: what was read, and each group of files not analysed on its own, with why. */
export function statusTooltip(s: StatusParams): string {
  const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;
  const lines = [
    'Kubernetes Network Lens',
    `${s.resources} ${s.resources === 1 ? 'resource' : 'resources'} in ${files(s.files)}`,
    `${s.problems} networking ${s.problems === 1 ? 'problem' : 'problems'} (click to open the Problems panel)`,
  ];
  if (s.chartsRendered) lines.push(`${s.chartsRendered} Helm ${s.chartsRendered === 1 ? 'chart' : 'charts'} rendered with helm and checked on their template lines`);
  if (s.chartsNotRendered) lines.push(`${s.chartsNotRendered} Helm ${s.chartsNotRendered === 1 ? 'chart' : 'charts'} not rendered (see the note on each Chart.yaml)`);
  const skipped: string[] = [];
  if (s.skippedBuildInputs) skipped.push(`${files(s.skippedBuildInputs)}: Kustomize build inputs (kustomizations, the bases, patches and files they read), checked in each build they are part of`);
  if (s.skippedTemplates) skipped.push(`${files(s.skippedTemplates)}: Helm chart templates of charts not rendered, or other Go templates ({{ }}), which only a render turns into objects`);
  if (s.skippedTests) skipped.push(`${files(s.skippedTests)}: test suites (chainsaw, kuttl, Go testdata), which a test harness applies, patches and asserts`);
  if (s.skippedOther) skipped.push(`${files(s.skippedOther)}: too large (kubeNetlens.files.maxSizeKB), too deeply nested or binary, not read`);
  if (skipped.length) lines.push('', 'Not analysed on their own:', ...skipped.map((l) => `- ${l}`));
  return lines.join('\n');
}
