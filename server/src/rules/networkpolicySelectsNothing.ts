// networkpolicy-selects-nothing: a NetworkPolicy whose podSelector matches no pod template in its namespace.

import { joinSentences, messages } from '../l10n/l10n';
import { hasPlaceholder } from '../model/placeholder';
import { isGeneratedLabel } from '../model/podLabels';
import { formatSelector, selectorIsEmpty, selectorMatches, type LabelSelector } from '../model/selector';
import { refOf } from './refOf';
import { defineRule } from './rule';
import { describeNearMiss, describeOwned, isDecisive, nearMissRelated, selectorEvidence } from './selectorEvidence';

export const networkpolicySelectsNothing = defineRule({
  code: 'networkpolicy-selects-nothing',
  subjects: ['networkPolicies'],
  defaultSeverity: 'warning',
  title: 'A NetworkPolicy that applies to no pods',
  description: `A NetworkPolicy only isolates the pods its \`spec.podSelector\` selects, and only in its own namespace. When the selector
matches no pod template in that namespace, the policy protects nothing: often a label typo, or a policy placed in the wrong
namespace. An empty selector (\`podSelector: {}\`) selects every pod in the namespace and is not reported.

It reports when the manifests show what the selector was meant to match (network-semantics §9.0): a workload that comes
close (a typo of a label value, the value under another key such as \`app\` for \`app.kubernetes.io/name\`, all labels but
one of several), whatever else is in the namespace, or pods that match in another namespace.

Stays quiet when the answer is unknown (network-semantics §9.2): when nothing comes close and a custom resource in the
namespace is one an operator turns into pods (or a deployer's manifests land there), when the selector uses a label whose
value a controller generates (\`pod-template-hash\`, \`controller-revision-hash\`), and when the manifests deploy no
workload carrying the selector's label keys next to the policy (a folder of policies only, for pods deployed from
another repository, a chart or \`kubectl -n\`). A policy that matches pods in another build of the same files (a shared
policy set applied to a build that leaves one app out) is quiet too, as is a policy for the pods of a Helm hook (a
pre-upgrade Job, a test pod), which exist while the hook runs. With workloads next to it that carry the keys
(an owned namespace), a policy that matches none of them is reported, and the message names them.`,
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
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const np of subjects.networkPolicies) {
      if (selectorIsEmpty(np.podSelector)) continue;
      if (lookup.anyWorkloadSelectedBy(np.namespace, np.podSelector)) continue;
      // A policy for the pods of a Helm hook (a pre-upgrade Job, a test pod) selects them while the hook runs.
      if (lookup.hookWorkloadsIn(np.namespace).some((w) => selectorMatches(np.podSelector, w.template.labels))) continue;
      const keys = selectorKeys(np.podSelector);
      if (keys.some(isGeneratedLabel) || [...np.podSelector.matchLabels.values()].some(hasPlaceholder)) continue;
      // The evidence model (rules/selectorEvidence.ts, semantics §9.0): a near miss first, whatever else is in scope.
      const evidence = selectorEvidence(lookup, np, np.podSelector, msg);
      if (evidence.inVariants.length) continue;
      const near = evidence.near[0];
      let hint: string;
      // Pods an operator makes may carry the labels (semantics §9.2), unless a near miss is decisive.
      if (!(near && isDecisive(near)) && lookup.podsUnknown(np.namespace, keys, np.uri)) continue;
      if (near) hint = describeNearMiss(near, msg);
      else if (evidence.elsewhere.length)
        hint = msg(
          'Pods with these labels exist in namespace {0}, but a NetworkPolicy only applies in its own namespace.',
          [...new Set(evidence.elsewhere.map((w) => w.namespace))].map((n) => `"${n}"`).join(', '),
        );
      // Nothing close, but the manifests deploy workloads into the namespace next to the policy, carrying the
      // selector's keys (semantics §9.0: an owned namespace): the policy was written for pods these manifests should
      // make, and protects none of them. A shared policy set applied to a build that leaves one app out is quiet: the
      // app's pods are in another build of the same files (evidence.inVariants, above).
      else if (evidence.owned.length) hint = describeOwned(evidence.owned, np.namespace, formatSelector(np.podSelector), msg);
      // Nothing deployed here carries its keys: the pods come from elsewhere (another repository, a chart, \`kubectl -n\`).
      else continue;
      yield {
        uri: np.uri,
        span:
          (near
            ? near.closeness === 'key'
              ? np.podSelector.labelSpans.get(near.key)?.key
              : np.podSelector.labelSpans.get(near.key)?.value
            : soleValueSpan(np.podSelector)) ??
          np.podSelectorSpan ??
          np.nameSpan,
        message: joinSentences([
          msg(
            'podSelector ({0}) matches no pod template in namespace "{1}", so this NetworkPolicy restricts nothing.',
            formatSelector(np.podSelector),
            np.namespace,
          ),
          hint,
        ]),
        resource: refOf(np),
        related: near ? [nearMissRelated(near, msg)] : undefined,
      };
    }
  },
});

/** The label keys a selector reads. */
export function selectorKeys(s: LabelSelector): string[] {
  return [...s.matchLabels.keys(), ...s.matchExpressions.map((r) => r.key)];
}

/** The value of a selector's one label, when it has exactly one and no expressions: what matches nothing. */
function soleValueSpan(s: LabelSelector): { start: number; end: number } | undefined {
  if (s.matchExpressions.length || s.labelSpans.size !== 1) return undefined;
  return [...s.labelSpans.values()][0].value;
}
