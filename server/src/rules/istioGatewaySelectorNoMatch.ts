// istio-gateway-selector-no-match: an Istio Gateway whose selector misses the gateway pods in scope by a typo.

import { messages, type Msg } from '../l10n/l10n';
import { isIstioGateway, isIstioNetworkingVersion, type IstioGateway } from '../model/istio';
import type { Workload } from '../model/resources';
import { isTypo } from './closestName';
import type { Fix, FindingDraft } from './finding';
import { refOf } from './refOf';
import { defineRule, type Lookup } from './rule';

export const istioGatewaySelectorNoMatch = defineRule({
  code: 'istio-gateway-selector-no-match',
  subjects: ['resources'],
  defaultSeverity: 'warning',
  title: 'Istio Gateway selector misses the gateway pods',
  description: `An Istio Gateway configures the gateway pods its \`selector\` matches, in any namespace (istio-semantics §I4): a selector that matches no pod configures nothing, and its servers never listen. The same mistake is \`istioctl analyze\`'s IST0101 (ReferencedResourceNotFound, \`selector\`). Gateway deployments are mostly installed apart from the routes (istioctl, the gateway chart, a platform), so whether a pod carries the labels is unknown unless the manifests hold the gateway deployment: the rule reports a selector that matches no pod template in scope while a workload in scope carries all its labels but one, and that one with a value a typo away (\`ingresgateway\` for \`ingressgateway\`). Stays quiet for any other selector, and for an empty one.`,
  examples: {
    bad: `apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: shop-gateway}
spec:
  selector: {istio: ingresgateway}
  servers: [{port: {number: 80, name: http, protocol: HTTP}, hosts: ["*"]}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: istio-ingressgateway, namespace: istio-system}
spec:
  selector: {matchLabels: {istio: ingressgateway}}
  template:
    metadata: {labels: {istio: ingressgateway}}
    spec:
      containers: [{name: istio-proxy, image: auto}]`,
    good: `apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: shop-gateway}
spec:
  selector: {istio: ingressgateway}
  servers: [{port: {number: 80, name: http, protocol: HTTP}, hosts: ["*"]}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: istio-ingressgateway, namespace: istio-system}
spec:
  selector: {matchLabels: {istio: ingressgateway}}
  template:
    metadata: {labels: {istio: ingressgateway}}
    spec:
      containers: [{name: istio-proxy, image: auto}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const r of subjects.resources) {
      if (!isIstioNetworkingVersion(r.apiVersion) || !isIstioGateway(r) || !r.selector.size) continue;
      const f = check(lookup, r, msg);
      if (f) yield f;
    }
  },
});

/** The gateways an Istio installation names by role: two of them differ in few letters and are not typos of each other. */
const knownGateways: ReadonlySet<string> = new Set([
  'ingressgateway',
  'egressgateway',
  'eastwestgateway',
  'istio-ingressgateway',
  'istio-egressgateway',
  'istio-eastwestgateway',
]);

function check(lookup: Lookup, gw: IstioGateway, msg: Msg): FindingDraft | undefined {
  const near: { workload: Workload; key: string; has: string }[] = [];
  for (const ns of lookup.namespaces()) {
    if (lookup.workloadsMatching(ns, gw.selector).length) return undefined;
    for (const w of lookup.workloadsIn(ns)) {
      const off = [...gw.selector].filter(([k, v]) => w.template.labels.get(k) !== v);
      if (off.length !== 1) continue;
      const [key, wanted] = off[0];
      const has = w.template.labels.get(key);
      if (has !== undefined && isTypo(wanted, has) && !(knownGateways.has(wanted) && knownGateways.has(has))) near.push({ workload: w, key, has });
    }
  }
  if (!near.length) return undefined;
  const m = near[0];
  const span = gw.selectorEntrySpans.get(m.key)?.value ?? gw.selectorSpan ?? gw.nameSpan;
  const others = new Set(near.filter((n) => n.key === m.key).map((n) => n.has));
  const fixes: Fix[] =
    others.size === 1 && gw.selectorEntrySpans.has(m.key)
      ? [{ title: msg('Change the selector value to "{0}"', m.has), edits: [{ uri: gw.uri, span, newText: m.has }], isPreferred: true }]
      : [];
  return {
    uri: gw.uri,
    span,
    message: msg(
      'Gateway "{0}" selects gateway pods labelled {1}: {2}, but no pod template in scope carries that, so no gateway serves its servers. {3} "{4}" in namespace "{5}" carries {1}: {6}; did you mean "{6}"?',
      gw.name,
      m.key,
      String(gw.selector.get(m.key)),
      m.workload.kind,
      m.workload.name,
      m.workload.namespace,
      m.has,
    ),
    resource: refOf(gw),
    related: near.slice(0, 5).map((n) => ({
      uri: n.workload.uri,
      span: n.workload.template.labelsSpan ?? n.workload.nameSpan,
      message: msg('The pod labels of {0} "{1}"', n.workload.kind, n.workload.name),
    })),
    fixes,
  };
}
