// The status item's words for work under way (server/src/protocol.ts StatusProgress): files read while indexing,
// Helm charts rendered and Kustomize roots built by the real Kustomize, each as done/total.

import type { StatusProgress, WorkCount } from '../../server/src/protocol';

const count = (c: WorkCount, noun: string) => `${c.done}/${c.total} ${noun}`;

/** `indexing 400/1117 files`, `rendering 3/10 charts · building 2/5 Kustomize roots`; undefined when nothing runs. */
export function progressText(p: StatusProgress | undefined): string | undefined {
  if (!p) return undefined;
  const parts: string[] = [];
  if (p.files) parts.push(`indexing ${count(p.files, 'files')}`);
  if (p.charts) parts.push(`rendering ${count(p.charts, p.charts.total === 1 ? 'chart' : 'charts')}`);
  if (p.kustomizeRoots) parts.push(`building ${count(p.kustomizeRoots, p.kustomizeRoots.total === 1 ? 'Kustomize root' : 'Kustomize roots')}`);
  return parts.length ? parts.join(' · ') : undefined;
}
