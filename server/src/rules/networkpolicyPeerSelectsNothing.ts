// networkpolicy-peer-selects-nothing: a NetworkPolicy `from`/`to` peer whose podSelector matches no pods where it
// looks, so the traffic the rule was written to allow stays blocked.

import { messages, type Msg } from '../l10n/l10n';
import { hasPlaceholder } from '../model/placeholder';
import { isGeneratedLabel } from '../model/podLabels';
import type { NetworkPolicy, PolicyPeer, PolicyRule } from '../model/resources';
import { formatSelector, selectorIsEmpty, selectorMatches, type LabelSelector } from '../model/selector';
import { selectorKeys } from './networkpolicySelectsNothing';
import { describeNearMiss, describeOwned, isDecisive, nearMissRelated, ofSameUnit, selectorEvidence } from './selectorEvidence';
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

A workload that comes close to the peer's selector (a value typo, the value under another key, all labels but one of
several) is named, whatever else is in the namespace (network-semantics §9.0).

Stays quiet when the answer is unknown (network-semantics §9): when the namespaces a \`namespaceSelector\` picks cannot be
told from the manifests (labels of namespaces without a manifest, other than \`kubernetes.io/metadata.name\`), when
nothing comes close and a custom resource in a target namespace is one an operator turns into pods, when the selector
uses a generated label, and when nothing comes close in another namespace (or nothing is deployed next to the policy
with the peer's label keys): the clients or servers a peer names there are often deployed by another repository (an
ingress controller, a metrics scraper). A peer of the policy's own namespace that matches none of the workloads these
manifests deploy there with its label keys (an owned namespace) is reported, and the message names them. A near miss
or an owned namespace counts only within the policy's unit: for a policy of a Helm release, the workloads of that
release, not those of another chart beside it. A peer for the pods of a Helm hook (a test pod) is quiet.`,
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
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const np of subjects.networkPolicies) {
      const rules: [PolicyRule, 'from' | 'to'][] = [
        ...np.ingress.map((r): [PolicyRule, 'from'] => [r, 'from']),
        ...np.egress.map((r): [PolicyRule, 'to'] => [r, 'to']),
      ];
      for (const [rule, direction] of rules) {
        for (const peer of rule.peers) {
          const problem = checkPeer(lookup, np, peer, msg);
          if (!problem) continue;
          yield {
            uri: np.uri,
            span: problem.span ?? peer.span,
            message:
              direction === 'from'
                ? msg(
                    'This from peer selects pods labelled {0} {1}, but no pod there has these labels, so the rule allows no traffic from them and that traffic is dropped. {2}',
                    formatSelector(peer.podSelector!),
                    problem.where,
                    problem.hint,
                  )
                : msg(
                    'This to peer selects pods labelled {0} {1}, but no pod there has these labels, so the rule allows no traffic to them and that traffic is dropped. {2}',
                    formatSelector(peer.podSelector!),
                    problem.where,
                    problem.hint,
                  ),
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

function checkPeer(lookup: Lookup, np: NetworkPolicy, peer: PolicyPeer, msg: Msg): PeerProblem | undefined {
  const policyNamespace = np.namespace;
  const pods = peer.podSelector;
  // No podSelector (namespaces or IP blocks only), or `podSelector: {}` (every pod): nothing to check.
  if (!pods || selectorIsEmpty(pods)) return undefined;
  const namespaces = peerNamespaces(lookup, policyNamespace, peer.namespaceSelector);
  if (!namespaces) return undefined;
  // Whether any namespace has such pods first: a peer that selects pods somewhere depends on those pods only.
  for (const ns of namespaces) if (lookup.anyWorkloadSelectedBy(ns, pods)) return undefined;
  // Pods of a Helm hook (a test pod, a pre-upgrade Job) exist while the hook runs: a peer for them admits them then.
  for (const ns of namespaces) if (lookup.hookWorkloadsIn(ns).some((w) => selectorMatches(pods, w.template.labels))) return undefined;
  const keys = selectorKeys(pods);
  if (keys.some(isGeneratedLabel) || [...pods.matchLabels.values()].some(hasPlaceholder)) return undefined;
  const quoted = namespaces.map((n) => `"${n}"`).join(', ');
  const where = peer.namespaceSelector
    ? namespaces.length > 1
      ? msg('in namespaces {0}', quoted)
      : msg('in namespace {0}', quoted)
    : msg('in namespace "{0}"', policyNamespace);
  // The evidence model (rules/selectorEvidence.ts, semantics §9.0): a near miss is reported whatever else is there.
  for (const ns of namespaces) {
    const evidence = selectorEvidence(lookup, { uri: np.uri, namespace: ns }, pods, msg);
    if (evidence.inVariants.length) return undefined;
    // A near miss is evidence only within the policy's unit (semantics §9.0): the pods of another release or another
    // chart's example are installed on their own, and the peer may name pods of neither.
    const near = evidence.near.find((m) => ofSameUnit(np.uri, m.workload.uri));
    if (!near || (!isDecisive(near) && lookup.podsUnknown(ns, keys, np.uri))) continue;
    // the near miss's workload (its words start with it in every language), placed in its namespace
    const hint = describeNearMiss(near, msg).replace(/^(\w+ "[^"]*")/, ns !== policyNamespace ? msg('{0} in namespace "{1}"', '$1', ns) : '$1');
    return {
      span: near.closeness === 'key' ? pods.labelSpans.get(near.key)?.key : pods.labelSpans.get(near.key)?.value,
      where,
      hint,
      related: [nearMissRelated(near, msg)],
    };
  }
  // Nothing near. A peer of the policy's own namespace (no namespaceSelector), where the manifests deploy workloads
  // next to the policy that carry the peer's keys (an owned namespace, semantics §9.0), names pods these manifests
  // should make: reported, naming them. Peers in other namespaces name clients or servers often deployed by others (an
  // ingress controller, a scraper): unknown.
  if (!peer.namespaceSelector && !lookup.podsUnknown(policyNamespace, keys, np.uri)) {
    const evidence = selectorEvidence(lookup, np, pods, msg);
    const owned = evidence.owned.filter((w) => ofSameUnit(np.uri, w.uri));
    if (owned.length && !evidence.inVariants.length)
      return {
        span: pods.matchExpressions.length || pods.labelSpans.size !== 1 ? undefined : [...pods.labelSpans.values()][0].value,
        where,
        hint: describeOwned(owned, policyNamespace, formatSelector(pods), msg),
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
