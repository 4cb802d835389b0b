// networkpolicy-selects-nothing: a NetworkPolicy whose podSelector matches no pod template in its namespace.

import type { Workload } from '../model/resources';
import { formatSelector, selectorIsEmpty, selectorMatches, unmatchedPairs, type LabelSelector } from '../model/selector';
import { editDistance, isNearMiss } from './closestName';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const networkpolicySelectsNothing = defineRule({
  code: 'networkpolicy-selects-nothing',
  subjects: ['networkPolicies'],
  defaultSeverity: 'information',
  title: 'A NetworkPolicy that applies to no pods',
  description: `A NetworkPolicy only isolates the pods its \`spec.podSelector\` selects, and only in its own namespace. When the selector
matches no pod template in that namespace, the policy protects nothing: often a label typo, or a policy placed in the wrong
namespace. An empty selector (\`podSelector: {}\`) selects every pod in the namespace and is not reported.

Stays quiet when the answer is unknown (network-semantics §9.2): when a custom resource in the namespace may be turned
into pods by an operator, when the selector uses a label whose value a controller generates (\`pod-template-hash\`,
\`controller-revision-hash\`), and when no workload in scope comes within one label of the selector and none matches
it in another namespace, since the pods may then come from another repository, a chart or \`kubectl -n\`.`,
  examples: {
    bad: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: api-ingress}
spec:
  podSelector: {matchLabels: {app: apii}}
  ingress: [{from: [{podSelector: {matchLabels: {app: web}}}]}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: api, image: api}]}`,
    good: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: api-ingress}
spec:
  podSelector: {matchLabels: {app: api}}
  ingress: [{from: [{podSelector: {matchLabels: {app: web}}}]}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: api, image: api}]}`,
  },
  *check({ subjects, lookup }) {
    for (const np of subjects.networkPolicies) {
      if (selectorIsEmpty(np.podSelector)) continue;
      if (lookup.anyWorkloadSelectedBy(np.namespace, np.podSelector)) continue;
      // Pods an operator makes, or labels a controller generates, are unknown here (semantics §9.2).
      if (lookup.podsUnknown(np.namespace, selectorKeys(np.podSelector))) continue;
      const elsewhere = [...lookup.namespaces()].filter((ns) => ns !== np.namespace && lookup.workloadsSelectedBy(ns, np.podSelector).some((w) => w.namespaceExplicit));
      const near = elsewhere.length ? undefined : nearMiss(lookup.workloadsIn(np.namespace), np.podSelector);
      // Without a workload within one label of the selector, the pods may come from elsewhere: unknown.
      if (!elsewhere.length && !near) continue;
      const hint = elsewhere.length
        ? ` Pods with these labels exist in namespace ${elsewhere.map((n) => `"${n}"`).join(', ')}, but a NetworkPolicy only applies in its own namespace.`
        : ` ${near!.workload.kind} "${near!.workload.name}" has every other label, but ${near!.has === undefined ? `no "${near!.key}" label` : `${near!.key}: ${near!.has}`}.`;
      yield {
        uri: np.uri,
        span: np.podSelectorSpan ?? np.nameSpan,
        message: `podSelector (${formatSelector(np.podSelector)}) matches no pod template in namespace "${np.namespace}", so this NetworkPolicy restricts nothing.${hint}`,
        resource: refOf(np),
        related: near ? [{ uri: near.workload.uri, span: near.workload.template.labelSpans.get(near.key)?.value ?? near.workload.template.labelsSpan ?? near.workload.nameSpan, message: `The labels of ${near.workload.kind} "${near.workload.name}"` }] : undefined,
      };
    }
  },
});

/** The label keys a selector reads. */
export function selectorKeys(s: LabelSelector): string[] {
  return [...s.matchLabels.keys(), ...s.matchExpressions.map((r) => r.key)];
}

/** A workload that satisfies every term of the selector but one matchLabels pair. */
export function nearMiss(workloads: readonly Workload[], s: LabelSelector): { readonly workload: Workload; readonly key: string; readonly has?: string } | undefined {
  for (const w of workloads) {
    const labels = w.template.labels;
    const unmatched = unmatchedPairs(s.matchLabels, labels);
    const wrong = unmatched[0]?.[0];
    if (unmatched.length !== 1 || !selectorMatches({ ...s, matchLabels: new Map([...s.matchLabels].filter(([k]) => k !== wrong)) }, labels)) continue;
    // With a single label, any workload is "within one label": only a typo of its value is evidence.
    const has = labels.get(wrong!);
    if (s.matchLabels.size + s.matchExpressions.length < 2 && (has === undefined || !isNearMiss(s.matchLabels.get(wrong!)!, has) || editDistance(s.matchLabels.get(wrong!)!, has) > 2)) continue;
    return { workload: w, key: wrong!, has: labels.get(wrong!) };
  }
  return undefined;
}
