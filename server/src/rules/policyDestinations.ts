// The pods a NetworkPolicy rule's ports refer to (docs/networkpolicy-semantics.md netpol §5, §6): for ingress the pods the
// policy selects, for egress the pods its `to` peers select. Undefined wherever the manifests cannot tell (pods an
// operator may make, generated labels, namespace labels without a manifest, no `to`: any destination), so the rules
// that use them stay quiet there (network-semantics §9).

import type { NetworkPolicy, PolicyPeer, Workload } from '../model/resources';
import { isGeneratedLabel } from '../model/podLabels';
import { selectorIsEmpty, selectorMatches, type LabelSelector } from '../model/selector';
import { selectorKeys } from './networkpolicySelectsNothing';
import type { Lookup } from './rule';

const everyPod: LabelSelector = { matchLabels: new Map(), matchExpressions: [], labelSpans: new Map(), span: { start: 0, end: 0 } };

/** The workloads a selector selects in a namespace, or undefined when none does or other pods may carry its labels. */
export function selectedWorkloads(lookup: Lookup, namespace: string, selector: LabelSelector): readonly Workload[] | undefined {
  const keys = selectorKeys(selector);
  if (keys.some(isGeneratedLabel) || lookup.podsUnknown(namespace, keys)) return undefined;
  const found = lookup.workloadsSelectedBy(namespace, selector);
  return found.length ? found : undefined;
}

/** The namespaces in scope a namespaceSelector selects, or undefined when labels without a manifest decide. */
export function selectedNamespaces(lookup: Lookup, selector: LabelSelector): string[] | undefined {
  if (selectorIsEmpty(selector)) return undefined;
  const out: string[] = [];
  for (const ns of lookup.namespaces()) {
    const declared = lookup.namespaceDeclaration(ns);
    if (!declared && selectorKeys(selector).some((k) => k !== 'kubernetes.io/metadata.name')) return undefined;
    if (selectorMatches(selector, new Map([...(declared?.labels ?? []), ['kubernetes.io/metadata.name', ns]]))) out.push(ns);
  }
  return out.length ? out : undefined;
}

/** Every pod an egress rule's peers select (ipBlock peers aside), or undefined when any peer's pods cannot be told. */
export function egressDestinations(lookup: Lookup, np: NetworkPolicy, peers: readonly PolicyPeer[]): readonly Workload[] | undefined {
  if (!peers.length) return undefined;
  const out: Workload[] = [];
  for (const peer of peers) {
    if (peer.ipBlock) continue;
    const namespaces = peer.namespaceSelector ? selectedNamespaces(lookup, peer.namespaceSelector) : [np.namespace];
    if (!namespaces) return undefined;
    for (const ns of namespaces) {
      const found = selectedWorkloads(lookup, ns, peer.podSelector ?? everyPod);
      if (!found) return undefined;
      out.push(...found);
    }
  }
  return out.length ? out : undefined;
}

/** The destinations of one rule of the policy. */
export function ruleDestinations(
  lookup: Lookup,
  np: NetworkPolicy,
  direction: 'ingress' | 'egress',
  peers: readonly PolicyPeer[],
): readonly Workload[] | undefined {
  return direction === 'ingress' ? selectedWorkloads(lookup, np.namespace, np.podSelector) : egressDestinations(lookup, np, peers);
}
