// The status bar item's words (no vscode import, so tests read them): the counts, and a tooltip naming each group
// of files that is not analysed on its own and why. Each sentence goes through `l10n.t` (vscode.l10n in the editor).

import type { StatusParams } from '../../server/src/protocol';
import { english, type L10n } from './l10n';
import { progressText } from './statusProgress';

export function statusText(s: StatusParams, l10n: L10n = english): string {
  const working = progressText(s.progress, l10n);
  if (s.indexing) return `$(sync~spin) ${working ? l10n.t('Kubernetes: {0}', working) : l10n.t('Kubernetes: indexing manifests')}`;
  const skipped = s.skippedTemplates + s.skippedOther + (s.skippedTests ?? 0) + (s.skippedBuildInputs ?? 0);
  const parts = [s.resources === 1 ? l10n.t('{0} resource', s.resources) : l10n.t('{0} resources', s.resources)];
  if (skipped) parts.push(l10n.t('{0} skipped', skipped));
  const charts = (s.chartsRendered ?? 0) + (s.chartsNotRendered ?? 0);
  if (charts)
    parts.push(
      charts === 1 ? l10n.t('{0}/{1} chart rendered', s.chartsRendered ?? 0, charts) : l10n.t('{0}/{1} charts rendered', s.chartsRendered ?? 0, charts),
    );
  parts.push(s.problems === 1 ? l10n.t('{0} problem', s.problems) : l10n.t('{0} problems', s.problems));
  return working ? `$(sync~spin) ${parts.join(' · ')} · ${working}` : `$(pulse) ${parts.join(' · ')}`;
}

/** The item's tooltip: what was read, and each group of files not analysed on its own, with why. */
export function statusTooltip(s: StatusParams, l10n: L10n = english): string {
  const files = (n: number) => (n === 1 ? l10n.t('{0} file', n) : l10n.t('{0} files', n));
  const lines = [
    'Kubernetes Network Lens',
    s.resources === 1 ? l10n.t('{0} resource in {1}', s.resources, files(s.files)) : l10n.t('{0} resources in {1}', s.resources, files(s.files)),
    s.problems === 1
      ? l10n.t('{0} networking problem (click to open the Problems panel)', s.problems)
      : l10n.t('{0} networking problems (click to open the Problems panel)', s.problems),
  ];
  if (s.chartsRendered)
    lines.push(
      s.chartsRendered === 1
        ? l10n.t('{0} Helm chart rendered with helm and checked on their template lines', s.chartsRendered)
        : l10n.t('{0} Helm charts rendered with helm and checked on their template lines', s.chartsRendered),
    );
  if (s.chartsNotRendered)
    lines.push(
      s.chartsNotRendered === 1
        ? l10n.t('{0} Helm chart not rendered (see the note on each Chart.yaml)', s.chartsNotRendered)
        : l10n.t('{0} Helm charts not rendered (see the note on each Chart.yaml)', s.chartsNotRendered),
    );
  const skipped: string[] = [];
  if (s.skippedBuildInputs)
    skipped.push(
      l10n.t(
        '{0}: Kustomize build inputs (kustomizations, the bases, patches and files they read), checked in each build they are part of',
        files(s.skippedBuildInputs),
      ),
    );
  if (s.skippedTemplates)
    skipped.push(
      l10n.t(
        '{0}: Helm chart templates of charts not rendered, or other Go templates ({{ }}), which only a render turns into objects',
        files(s.skippedTemplates),
      ),
    );
  if (s.skippedTests)
    skipped.push(
      l10n.t(
        '{0}: test suites (chainsaw, kuttl, Go testdata), which a test harness applies, patches and asserts, or Go modules copied into vendor/',
        files(s.skippedTests),
      ),
    );
  if (s.skippedOther) skipped.push(l10n.t('{0}: too large (kubeNetlens.files.maxSizeKB), too deeply nested or binary, not read', files(s.skippedOther)));
  if (skipped.length) lines.push('', l10n.t('Not analysed on their own:'), ...skipped.map((l) => `- ${l}`));
  return lines.join('\n');
}
