// networkpolicy-selects-nothing: a NetworkPolicy whose podSelector matches no pod template in its namespace.

import { formatSelector, selectorIsEmpty } from '../model/selector';
import { refOf } from './refOf';
import type { Rule } from './rule';

export const networkpolicySelectsNothing: Rule = {
  code: 'networkpolicy-selects-nothing',
  defaultSeverity: 'information',
  title: 'A NetworkPolicy that applies to no pods',
  description: `A NetworkPolicy only isolates the pods its \`spec.podSelector\` selects, and only in its own namespace. When the selector
matches no pod template in that namespace, the policy protects nothing: often a label typo, or a policy placed in the wrong
namespace. An empty selector (\`podSelector: {}\`) selects every pod in the namespace and is not reported.`,
  examples: {
    bad: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: api-ingress}
spec:
  podSelector: {matchLabels: {app: apii}}
  ingress: [{from: [{podSelector: {matchLabels: {app: web}}}]}]`,
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
      if (lookup.workloadsSelectedBy(np.namespace, np.podSelector).length) continue;
      const elsewhere = [...lookup.namespaces()].filter((ns) => ns !== np.namespace && lookup.workloadsSelectedBy(ns, np.podSelector).length);
      const hint = elsewhere.length
        ? ` Pods with these labels exist in namespace ${elsewhere.map((n) => `"${n}"`).join(', ')}, but a NetworkPolicy only applies in its own namespace.`
        : ' Check the labels against the pod templates.';
      yield {
        uri: np.uri,
        span: np.podSelectorSpan ?? np.nameSpan,
        message: `podSelector (${formatSelector(np.podSelector)}) matches no pod template in namespace "${np.namespace}", so this NetworkPolicy restricts nothing.${hint}`,
        resource: refOf(np),
      };
    }
  },
};
