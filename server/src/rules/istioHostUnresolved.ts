// istio-host-unresolved: a VirtualService destination, or a DestinationRule host, that names no Service and no ServiceEntry host.

import { namesOf } from '../analysis/closestName';
import { isDestinationRule, isIstioNetworkingVersion, isVirtualService } from '../model/istio';
import type { ResourceBase } from '../model/resources';
import type { Span } from '../model/span';
import { closestName, isTypo } from './closestName';
import type { FindingDraft } from './finding';
import { istioTarget } from './istioTarget';
import { servicesBeside } from './selectorEvidence';
import { refOf } from './refOf';
import { defineRule, type Lookup } from './rule';
import type { AnalysisConfig } from '../model/config';

export const istioHostUnresolved = defineRule({
  code: 'istio-host-unresolved',
  subjects: ['resources'],
  defaultSeverity: 'warning',
  title: 'Istio destination or DestinationRule host names no Service',
  description: `Istio sends a route's or a mirror's \`destination.host\` only to a host of its service registry: a Kubernetes Service, as \`<name>.<namespace>.svc.<zone>\`, or a ServiceEntry host. A name without a dot is expanded in the namespace of the VirtualService (or DestinationRule) that writes it, **not** in the Service's; any name with a dot is taken as written, so the Kubernetes DNS short form \`reviews.shop\` matches nothing (istio-semantics §I1). Requests routed to a host that is not in the registry fail with 503 (no cluster), and a DestinationRule for such a host applies to nothing. The same mistake is \`istioctl analyze\`'s IST0101 (ReferencedResourceNotFound, \`host\` and \`mirror host\`) and IST0174 (UnknownDestinationRuleHost). A missing Service is reported when there is evidence that the name is wrong (network-semantics §9.0): its name is a slip of a Service's in that namespace (with the fix), the API server rejects the Service of that name, or a short name is read in the wrong namespace (a Service of that name exists in another namespace, Services of the host's namespace are written beside the Istio object, and nothing may make this one there: an operator's custom resource, an unrendered chart, a Service written without a namespace). Stays quiet for any other missing name (routing is often written for Services made elsewhere: another repository, a VM registered into the mesh, Istio's own namespaces \`istio-system\`, \`istio-ingress\` and \`istio-egress\`), hosts outside the cluster domain (they may be ServiceEntries applied from elsewhere, or reached with \`ALLOW_ANY\`), wildcards and IPs, and namespaces no manifest in scope describes.`,
  examples: {
    bad: `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviews, namespace: shop}
spec:
  hosts: [reviews]
  http:
    - route:
        - destination: {host: reviwes}
---
apiVersion: v1
kind: Service
metadata: {name: reviews, namespace: shop}
spec:
  selector: {app: reviews}
  ports: [{name: http, port: 9080}]`,
    good: `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviews, namespace: shop}
spec:
  hosts: [reviews]
  http:
    - route:
        - destination: {host: reviews.shop.svc.cluster.local}
---
apiVersion: v1
kind: Service
metadata: {name: reviews, namespace: shop}
spec:
  selector: {app: reviews}
  ports: [{name: http, port: 9080}]`,
  },
  *check({ subjects, lookup, config }) {
    for (const r of subjects.resources) {
      if (!isIstioNetworkingVersion(r.apiVersion)) continue;
      if (isVirtualService(r)) {
        for (const d of r.destinations) {
          if (d.host === undefined || !d.hostSpan) continue;
          const what = d.role === 'mirror' ? `mirrors ${d.where} to` : `routes ${d.where} to`;
          const f = checkHost(lookup, config, r, d.host, d.hostSpan, `VirtualService "${r.name}" ${what} host "${d.host}"`, 'requests on this route fail with 503 (no cluster)');
          if (f) yield f;
        }
      } else if (isDestinationRule(r) && r.host !== undefined && r.hostSpan) {
        const f = checkHost(lookup, config, r, r.host, r.hostSpan, `DestinationRule "${r.name}" is for host "${r.host}"`, 'its traffic policy and subsets apply to nothing');
        if (f) yield f;
      }
    }
  },
});

/** Namespaces the Istio installer fills with Services of its own (istiod, gateways, add-ons): what is not written there is unknown. */
const istioNamespaces: ReadonlySet<string> = new Set(['istio-system', 'istio-ingress', 'istio-egress']);

function checkHost(lookup: Lookup, config: AnalysisConfig, r: ResourceBase, written: string, span: Span, subject: string, consequence: string): FindingDraft | undefined {
  const target = istioTarget(lookup, config, written, r.namespace);
  if (target.kind === 'unexpanded') {
    const s = target.service;
    return {
      uri: r.uri,
      span,
      message: `${subject}, but Istio expands only names without a dot: "${written}" is taken as a host of its own, which no Service or ServiceEntry declares, so ${consequence}. Write "${target.full}" (or "${s.name}" from namespace "${s.namespace}").`,
      resource: refOf(r),
      related: [{ uri: s.uri, span: s.nameSpan, message: `Service "${s.name}" in namespace "${s.namespace}"` }],
      fixes: [{ title: `Write the full name "${target.full}"`, edits: [{ uri: r.uri, span, newText: target.full }], isPreferred: true }],
    };
  }
  if (target.kind !== 'missing') return undefined;
  const guess = closestName(target.name, namesOf(lookup.servicesIn(target.namespace)));
  const rejected = lookup.rejected('Service', target.namespace, target.name);
  const close = guess ? lookup.service(target.namespace, guess.name) : undefined;
  const elsewhere = lookup.servicesNamed(target.name).find((s) => s.name === target.name && s.namespace !== target.namespace && s.namespaceExplicit);
  // Evidence that the name is wrong (semantics §9.0): a slip of a Service's name there, a rejected Service, or a short
  // name read in the wrong namespace, where the Services are written beside the Istio object and nothing else may
  // make this one (an operator, a chart, a Service applied without a namespace: §9.2). Routing for Services made
  // elsewhere (another repository, a VM registered into the mesh) is common: any other name is unknown.
  const typo = guess !== undefined && isTypo(target.name, guess.name);
  const misplaced = !guess && elsewhere !== undefined && !written.includes('.') && !istioNamespaces.has(target.namespace)
    && servicesBeside(lookup, r.uri, target.namespace) && !lookup.serviceUnknown(target.namespace, target.name, r.uri);
  if (!typo && !rejected && !misplaced) return undefined;
  const parts = [`${subject}, which Istio reads as ${target.fqdn}, but there is no Service "${target.name}" in namespace "${target.namespace}"${rejected ? ` (${rejected})` : ''} and no ServiceEntry declares it, so ${consequence}.`];
  if (guess) parts.push(`Did you mean "${guess.name}"?`);
  if (misplaced) parts.push(`A Service "${target.name}" exists in namespace "${elsewhere.namespace}": a short name is read in the namespace of the ${r.kind}, so write "${target.name}.${elsewhere.namespace}.svc.${target.fqdn.slice(target.fqdn.indexOf('.svc.') + 5)}".`);
  const fixedHost = guess ? written.replace(/^[^.]+/, guess.name) : misplaced ? `${target.name}.${elsewhere.namespace}.svc.${target.fqdn.slice(target.fqdn.indexOf('.svc.') + 5)}` : undefined;
  return {
    uri: r.uri,
    span,
    message: parts.join(' '),
    resource: refOf(r),
    related: [
      ...(close ? [{ uri: close.uri, span: close.nameSpan, message: `Service "${close.name}" has the closest name` }] : []),
      ...(misplaced ? [{ uri: elsewhere.uri, span: elsewhere.nameSpan, message: `Service "${target.name}" is in namespace "${elsewhere.namespace}"` }] : []),
    ],
    fixes: fixedHost ? [{ title: `Change the host to "${fixedHost}"`, edits: [{ uri: r.uri, span, newText: fixedHost }], isPreferred: guess?.clear || undefined }] : [],
  };
}
