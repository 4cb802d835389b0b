// networkpolicy-peer-selects-nothing: a NetworkPolicy `from`/`to` peer whose podSelector matches no pods where it
// looks, so the traffic the rule was written to allow stays blocked.

import type { PolicyPeer, PolicyRule } from '../model/resources';
import { formatSelector, selectorIsEmpty, selectorMatches, type LabelSelector } from '../model/selector';
import { nearMiss, selectorKeys } from './networkpolicySelectsNothing';
import { refOf } from './refOf';
import { defineRule, type Lookup } from './rule';

export const networkpolicyPeerSelectsNothing = defineRule({
  code: 'networkpolicy-peer-selects-nothing',
  subjects: ['networkPolicies'],
  defaultSeverity: 'warning',
  title: 'A NetworkPolicy allows traffic from or to pods that do not exist',
  description: `A NetworkPolicy rule allows traffic only from (\`ingress[].from\`) or to (\`egress[].to\`) the peers it lists. A peer's
\`podSelector\` selects pods in the policy's own namespace, or, with a \`namespaceSelector\`, in the namespaces that selector
picks. When it matches no pods, the rule allows nothing, and the traffic it was written for is dropped once the policy
isolates the pods: a one-letter label typo in a peer silently blocks a service.

Stays quiet when the answer is unknown (network-semantics §9): when the namespaces a \`namespaceSelector\` picks cannot be
told from the manifests (labels of namespaces without a manifest, other than \`kubernetes.io/metadata.name\`), when a custom
resource in a target namespace may be turned into pods by an operator, when the selector uses a generated label, and
when no workload there comes within one label of the selector (the peers may be deployed by another repository).`,
  examples: {
    bad: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: api-from-web}
spec:
  podSelector: {matchLabels: {app: api}}
  ingress:
    - from: [{podSelector: {matchLabels: {app: web, tier: fronted}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, tier: frontend}}
    spec: {containers: [{name: web, image: web}]}`,
    good: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: api-from-web}
spec:
  podSelector: {matchLabels: {app: api}}
  ingress:
    - from: [{podSelector: {matchLabels: {app: web, tier: frontend}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, tier: frontend}}
    spec: {containers: [{name: web, image: web}]}`,
  },
  *check({ subjects, lookup }) {
    for (const np of subjects.networkPolicies) {
      const rules: [PolicyRule, 'from' | 'to'][] = [...np.ingress.map((r): [PolicyRule, 'from'] => [r, 'from']), ...np.egress.map((r): [PolicyRule, 'to'] => [r, 'to'])];
      for (const [rule, direction] of rules) {
        for (const peer of rule.peers) {
          const problem = checkPeer(lookup, np.namespace, peer);
          if (!problem) continue;
          yield {
            uri: np.uri,
            span: problem.span ?? peer.span,
            message: `This ${direction} peer selects pods labelled ${formatSelector(peer.podSelector!)} ${problem.where}, but no pod there has these labels, so the rule allows no traffic ${direction} them and that traffic is dropped. ${problem.hint}`,
            resource: refOf(np),
            related: problem.related,
          };
        }
      }
    }
  },
});

interface PeerProblem {
  /** The selector pair at fault. */
  readonly span?: { start: number; end: number };
  readonly where: string;
  readonly hint: string;
  readonly related?: { readonly uri: string; readonly span: { start: number; end: number }; readonly message: string }[];
}

function checkPeer(lookup: Lookup, policyNamespace: string, peer: PolicyPeer): PeerProblem | undefined {
  const pods = peer.podSelector;
  // No podSelector (namespaces or IP blocks only), or `podSelector: {}` (every pod): nothing to check.
  if (!pods || selectorIsEmpty(pods)) return undefined;
  const namespaces = peerNamespaces(lookup, policyNamespace, peer.namespaceSelector);
  if (!namespaces) return undefined;
  // Whether any namespace has such pods first, then whether any may have pods the manifests do not show: a peer
  // that selects pods somewhere then depends on those pods only, not on everything in the namespaces before it.
  for (const ns of namespaces) if (lookup.anyWorkloadSelectedBy(ns, pods)) return undefined;
  for (const ns of namespaces) if (lookup.podsUnknown(ns, selectorKeys(pods))) return undefined;
  for (const ns of namespaces) {
    const near = nearMiss(lookup.workloadsIn(ns), pods);
    if (!near) continue;
    const where = peer.namespaceSelector ? `in namespace${namespaces.length > 1 ? 's' : ''} ${namespaces.map((n) => `"${n}"`).join(', ')}` : `in namespace "${policyNamespace}"`;
    const label = near.has === undefined ? `no "${near.key}" label` : `${near.key}: ${near.has}`;
    return {
      span: pods.labelSpans.get(near.key)?.value,
      where,
      hint: `${near.workload.kind} "${near.workload.name}"${ns !== policyNamespace ? ` in namespace "${ns}"` : ''} has every other label, but ${label}.`,
      related: [{ uri: near.workload.uri, span: near.workload.template.labelSpans.get(near.key)?.value ?? near.workload.template.labelsSpan ?? near.workload.nameSpan, message: `The pod labels of ${near.workload.kind} "${near.workload.name}"` }],
    };
  }
  return undefined;
}

/**
 * The namespaces a peer's pods are looked for in: the policy's own without a namespaceSelector; with one, the
 * namespaces in scope it selects by their labels (every namespace has `kubernetes.io/metadata.name`, semantics §9.3).
 * Undefined when the manifests cannot tell (labels of a namespace without a manifest decide, or none is selected).
 */
function peerNamespaces(lookup: Lookup, policyNamespace: string, selector: LabelSelector | undefined): string[] | undefined {
  if (!selector) return [policyNamespace];
  if (selectorIsEmpty(selector)) return undefined;
  const out: string[] = [];
  for (const ns of lookup.namespaces()) {
    const declared = lookup.namespaceDeclaration(ns);
    const labels = new Map(declared?.labels ?? []);
    labels.set('kubernetes.io/metadata.name', ns);
    const onlyName = [...selector.matchLabels.keys()].every((k) => k === 'kubernetes.io/metadata.name') && !selector.matchExpressions.length;
    // Without a Namespace manifest only the name label is known: other labels may select it.
    if (!declared && !onlyName) return undefined;
    if (selectorMatches(selector, labels)) out.push(ns);
  }
  return out.length ? out : undefined;
}
