// istio-subset-selects-nothing: a DestinationRule subset whose labels select none of its Service's pods.

import { joinSentences, messages, type Msg } from '../l10n/l10n';
import { isDestinationRule, isIstioNetworkingVersion, type DestinationRule, type DestinationRuleSubset } from '../model/istio';
import { selectsPods } from '../model/podLabels';
import type { Service, Workload } from '../model/resources';
import { isTypo } from './closestName';
import type { Fix, FindingDraft } from './finding';
import { istioTarget } from './istioTarget';
import { refOf } from './refOf';
import { defineRule } from './rule';

/**
 * Labels Istio adds to every endpoint from where it runs (pilot's label.AugmentLabels): the node, its topology and the
 * cluster and network of the mesh. No manifest knows their values.
 */
function isEndpointLabel(key: string): boolean {
  // The injector's pod labels too (service.istio.io/canonical-*, security.istio.io/tlsMode): set on the pods, not in templates.
  return (
    key.startsWith('service.istio.io/') ||
    key.startsWith('security.istio.io/') ||
    key.startsWith('topology.istio.io/') ||
    key.startsWith('topology.kubernetes.io/') ||
    key === 'kubernetes.io/hostname' ||
    key === 'istio-locality' ||
    key.startsWith('failure-domain.beta.kubernetes.io/')
  );
}

export const istioSubsetSelectsNothing = defineRule({
  code: 'istio-subset-selects-nothing',
  subjects: ['resources'],
  defaultSeverity: 'warning',
  title: "DestinationRule subset selects none of its Service's pods",
  description: `A DestinationRule subset is the Service's endpoints whose pod labels carry every one of the subset's \`labels\` (istio-semantics §I3). A subset that selects none of the pods behind its host's Service has no endpoints, and a route to it fails with 503 "no healthy upstream". The same mistake is \`istioctl analyze\`'s IST0173 (DestinationRuleSubsetNotSelectPods). A label value that is a typo of the pods' value is offered as the fix. Stays quiet when the host is not a Service with a selector whose pods are in scope, when the pods may carry labels the manifests do not show (an operator's pods, a generated label value, a label Istio sets from the node's topology or its sidecar injector sets on the pods: \`service.istio.io/*\`, \`security.istio.io/*\`), and for subsets without labels (every endpoint).`,
  examples: {
    bad: `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: reviews}
spec:
  host: reviews
  subsets:
    - {name: v2, labels: {version: v2}}
---
apiVersion: v1
kind: Service
metadata: {name: reviews}
spec:
  selector: {app: reviews}
  ports: [{name: http, port: 9080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: reviews-v1}
spec:
  selector: {matchLabels: {app: reviews, version: v1}}
  template:
    metadata: {labels: {app: reviews, version: v1}}
    spec:
      containers: [{name: reviews, image: example/reviews:1}]`,
    good: `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: reviews}
spec:
  host: reviews
  subsets:
    - {name: v1, labels: {version: v1}}
---
apiVersion: v1
kind: Service
metadata: {name: reviews}
spec:
  selector: {app: reviews}
  ports: [{name: http, port: 9080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: reviews-v1}
spec:
  selector: {matchLabels: {app: reviews, version: v1}}
  template:
    metadata: {labels: {app: reviews, version: v1}}
    spec:
      containers: [{name: reviews, image: example/reviews:1}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const r of subjects.resources) {
      if (!isIstioNetworkingVersion(r.apiVersion) || !isDestinationRule(r) || r.host === undefined || !r.subsets.length) continue;
      const target = istioTarget(lookup, config, r.host, r.namespace);
      if (target.kind !== 'service' || !target.service.selector) continue;
      const service = target.service;
      const pods = lookup.endpointsOf(service).groups.map((g) => g.workload);
      if (!pods.length) continue;
      for (const subset of r.subsets) {
        if (!subset.labels.size || [...subset.labels.keys()].some(isEndpointLabel)) continue;
        if (pods.some((w) => selectsPods(w, subset.labels))) continue;
        if (lookup.podsUnknown(service.namespace, subset.labels.keys(), r.uri)) continue;
        yield finding(r, subset, service, pods, msg);
      }
    }
  },
});

function finding(r: DestinationRule, subset: DestinationRuleSubset, service: Service, pods: readonly Workload[], msg: Msg): FindingDraft {
  const labels = [...subset.labels].map(([k, v]) => `${k}: ${v}`).join(', ');
  // A value the pods carry under the same key, one slip away: the fix.
  const fixes: Fix[] = [];
  let guess: string | undefined;
  for (const [k, v] of subset.labels) {
    const values = new Set(
      pods.flatMap((w) => {
        const has = w.template.labels.get(k);
        return has !== undefined && isTypo(v, has) ? [has] : [];
      }),
    );
    const spans = subset.labelSpans.get(k);
    if (values.size === 1 && spans) {
      guess = [...values][0];
      const fixed = new Map(subset.labels).set(k, guess);
      if (pods.some((w) => selectsPods(w, fixed)))
        fixes.push({ title: msg('Change the label value to "{0}"', guess), edits: [{ uri: r.uri, span: spans.value, newText: guess }], isPreferred: true });
      break;
    }
  }
  const shown = pods
    .slice(0, 5)
    .map(
      (w) =>
        `${w.kind} "${w.name}" (${
          [...w.template.labels]
            .filter(([k]) => subset.labels.has(k))
            .map(([k, v]) => `${k}: ${v}`)
            .join(', ') || msg('no {0} label', [...subset.labels.keys()].join(', '))
        })`,
    )
    .join(', ');
  return {
    uri: r.uri,
    span: subset.labelsSpan ?? subset.nameSpan ?? subset.span,
    message: joinSentences([
      msg(
        'Subset "{0}" of DestinationRule "{1}" selects pods labelled {2}, but none of the pods of Service "{3}" carries them (its pods: {4}), so the subset has no endpoints and routes to it fail with 503 "no healthy upstream".',
        subset.name ?? '?',
        r.name,
        labels,
        service.name,
        `${shown}${pods.length > 5 ? ', …' : ''}`,
      ),
      ...(guess && fixes.length ? [msg('Did you mean "{0}"?', guess)] : []),
    ]),
    resource: refOf(r),
    related: pods
      .slice(0, 5)
      .map((w) => ({ uri: w.uri, span: w.template.labelsSpan ?? w.nameSpan, message: msg('The pod labels of {0} "{1}"', w.kind, w.name) })),
    fixes,
  };
}
