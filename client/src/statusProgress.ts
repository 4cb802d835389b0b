// The status item's words for work under way (server/src/protocol.ts StatusProgress): files read while indexing,
// Helm charts rendered and Kustomize roots built by the real Kustomize, each as done/total.

import type { StatusProgress } from '../../server/src/protocol';
import { english, type L10n } from './l10n';

/** `indexing 400/1117 files`, `rendering 3/10 charts · building 2/5 Kustomize roots`; undefined when nothing runs. */
export function progressText(p: StatusProgress | undefined, l10n: L10n = english): string | undefined {
  if (!p) return undefined;
  const parts: string[] = [];
  if (p.files) parts.push(l10n.t('indexing {0}/{1} files', p.files.done, p.files.total));
  if (p.charts)
    parts.push(
      p.charts.total === 1
        ? l10n.t('rendering {0}/{1} chart', p.charts.done, p.charts.total)
        : l10n.t('rendering {0}/{1} charts', p.charts.done, p.charts.total),
    );
  if (p.kustomizeRoots)
    parts.push(
      p.kustomizeRoots.total === 1
        ? l10n.t('building {0}/{1} Kustomize root', p.kustomizeRoots.done, p.kustomizeRoots.total)
        : l10n.t('building {0}/{1} Kustomize roots', p.kustomizeRoots.done, p.kustomizeRoots.total),
    );
  return parts.length ? parts.join(' · ') : undefined;
}
