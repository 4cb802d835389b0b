// NetworkPolicy reach: which policies isolate a workload's pods, and whether a peer may open a connection to them.

import type { Cluster } from '../model/cluster';
import type { NetworkPolicy, PolicyPeer, PolicyPort, Workload } from '../model/resources';
import { selectorMatches } from '../model/selector';
import type { PolicyVerdict } from './analysis';

/** Policies in the workload's namespace whose podSelector matches its pod labels (`{}` selects every pod). */
export function policiesSelectingWorkload(cluster: Cluster, workload: Workload): NetworkPolicy[] {
  return (cluster.objectsIn(workload.namespace)?.networkPolicies ?? []).filter((p) => selectorMatches(p.podSelector, workload.template.labels));
}

/** Namespace labels: those declared on a `kind: Namespace` object plus the automatic `kubernetes.io/metadata.name`. */
export function namespaceLabels(cluster: Cluster, namespace: string): ReadonlyMap<string, string> {
  const declared = cluster.declaredNamespaces.get(namespace);
  return new Map([...(declared?.labels ?? []), ['kubernetes.io/metadata.name', namespace]]);
}

export function ingressVerdict(
  cluster: Cluster,
  workload: Workload,
  peer: { readonly labels: ReadonlyMap<string, string>; readonly namespace: string },
  port: number,
  protocol = 'TCP',
): PolicyVerdict {
  // A pod is isolated for ingress only when some policy with policyType Ingress selects it; otherwise all traffic is allowed.
  const policies = policiesSelectingWorkload(cluster, workload).filter((p) => p.policyTypes.includes('Ingress'));
  if (!policies.length) return { allowed: true, policies: [], allowedBy: [] };
  const allowedBy = policies.filter((p) =>
    p.ingress.some(
      (rule) =>
        (rule.peers.length === 0 || rule.peers.some((q) => peerMatches(cluster, p, q, peer))) &&
        (rule.ports.length === 0 || rule.ports.some((q) => portMatches(workload, q, port, protocol))),
    ),
  );
  return { allowed: allowedBy.length > 0, policies, allowedBy };
}

/**
 * A peer entry: podSelector alone means pods of the policy's namespace; namespaceSelector alone means every pod of the
 * matching namespaces; both together must both match. ipBlock peers are CIDRs, which pod IPs cannot be checked against.
 */
function peerMatches(
  cluster: Cluster,
  policy: NetworkPolicy,
  q: PolicyPeer,
  peer: { readonly labels: ReadonlyMap<string, string>; readonly namespace: string },
): boolean {
  if (q.ipBlock) return false;
  if (!q.podSelector && !q.namespaceSelector) return false;
  const nsOk = q.namespaceSelector ? selectorMatches(q.namespaceSelector, namespaceLabels(cluster, peer.namespace)) : peer.namespace === policy.namespace;
  const podOk = q.podSelector ? selectorMatches(q.podSelector, peer.labels) : true;
  return nsOk && podOk;
}

/** A numeric port (with optional endPort range), or a named port looked up in the workload's containers. */
function portMatches(workload: Workload, q: PolicyPort, port: number, protocol: string): boolean {
  if (q.protocol !== protocol) return false;
  if (q.port === undefined) return true;
  if (typeof q.port === 'number') return q.endPort !== undefined ? port >= q.port && port <= q.endPort : port === q.port;
  return workload.template.containers.some((c) => c.ports.some((p) => p.name === q.port && p.protocol === protocol && p.containerPort === port));
}
