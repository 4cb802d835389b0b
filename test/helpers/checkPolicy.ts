// The one place tests call policiesSelecting and ingressAllowed.

import type { Analysis } from '../../server/src/analysis/analysis';
import type { Workload } from '../../server/src/model/resources';

function workload(analysis: Analysis, ref: string): Workload {
  const [kind, ns, name] = ref.split('/');
  const w = analysis.cluster.workloads.find((x) => x.kind === kind && x.namespace === ns && x.name === name);
  if (!w) throw new Error(`no workload ${ref}`);
  return w;
}

export function policyNames(analysis: Analysis, ref: string): string[] {
  return analysis.policiesSelecting(workload(analysis, ref)).map((p) => p.name);
}

/** `allowed by a,b` / `denied by a` / `allowed (no policy)` for a peer `ns` with labels `k=v,…` on a port. */
export function reach(analysis: Analysis, ref: string, peer: { namespace: string; labels: Record<string, string> }, port: number, protocol?: string): string {
  const v = analysis.ingressAllowed(workload(analysis, ref), { namespace: peer.namespace, labels: new Map(Object.entries(peer.labels)) }, port, protocol);
  if (!v.policies.length) return 'allowed (no policy)';
  return v.allowed ? `allowed by ${v.allowedBy.map((p) => p.name).join(',')}` : `denied by ${v.policies.map((p) => p.name).join(',')}`;
}
