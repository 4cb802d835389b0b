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
import { joinSentences, messages, type Msg } from '../l10n/l10n';

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
      const msg = messages(config.locale);
      if (isVirtualService(r)) {
        for (const d of r.destinations) {
          if (d.host === undefined || !d.hostSpan) continue;
          const subject =
            d.role === 'mirror'
              ? msg('VirtualService "{0}" mirrors {1} to host "{2}"', r.name, d.where, d.host)
              : msg('VirtualService "{0}" routes {1} to host "{2}"', r.name, d.where, d.host);
          const f = checkHost(lookup, config, msg, r, d.host, d.hostSpan, subject, msg('requests on this route fail with 503 (no cluster)'));
          if (f) yield f;
        }
      } else if (isDestinationRule(r) && r.host !== undefined && r.hostSpan) {
        const f = checkHost(
          lookup,
          config,
          msg,
          r,
          r.host,
          r.hostSpan,
          msg('DestinationRule "{0}" is for host "{1}"', r.name, r.host),
          msg('its traffic policy and subsets apply to nothing'),
        );
        if (f) yield f;
      }
    }
  },
});

/** Namespaces the Istio installer fills with Services of its own (istiod, gateways, add-ons): what is not written there is unknown. */
const istioNamespaces: ReadonlySet<string> = new Set(['istio-system', 'istio-ingress', 'istio-egress']);

function checkHost(
  lookup: Lookup,
  config: AnalysisConfig,
  msg: Msg,
  r: ResourceBase,
  written: string,
  span: Span,
  subject: string,
  consequence: string,
): FindingDraft | undefined {
  const target = istioTarget(lookup, config, written, r.namespace);
  if (target.kind === 'unexpanded') {
    const s = target.service;
    return {
      uri: r.uri,
      span,
      message: msg(
        '{0}, but Istio expands only names without a dot: "{1}" is taken as a host of its own, which no Service or ServiceEntry declares, so {2}. Write "{3}" (or "{4}" from namespace "{5}").',
        subject,
        written,
        consequence,
        target.full,
        s.name,
        s.namespace,
      ),
      resource: refOf(r),
      related: [{ uri: s.uri, span: s.nameSpan, message: msg('Service "{0}" in namespace "{1}"', s.name, s.namespace) }],
      fixes: [{ title: msg('Write the full name "{0}"', target.full), edits: [{ uri: r.uri, span, newText: target.full }], isPreferred: true }],
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
  const misplaced =
    !guess &&
    elsewhere !== undefined &&
    !written.includes('.') &&
    !istioNamespaces.has(target.namespace) &&
    servicesBeside(lookup, r.uri, target.namespace) &&
    !lookup.serviceUnknown(target.namespace, target.name, r.uri);
  if (!typo && !rejected && !misplaced) return undefined;
  const parts = [
    rejected
      ? msg(
          '{0}, which Istio reads as {1}, but there is no Service "{2}" in namespace "{3}" ({4}) and no ServiceEntry declares it, so {5}.',
          subject,
          target.fqdn,
          target.name,
          target.namespace,
          rejected,
          consequence,
        )
      : msg(
          '{0}, which Istio reads as {1}, but there is no Service "{2}" in namespace "{3}" and no ServiceEntry declares it, so {4}.',
          subject,
          target.fqdn,
          target.name,
          target.namespace,
          consequence,
        ),
  ];
  if (guess) parts.push(msg('Did you mean "{0}"?', guess.name));
  if (misplaced)
    parts.push(
      msg(
        'A Service "{0}" exists in namespace "{1}": a short name is read in the namespace of the {2}, so write "{3}".',
        target.name,
        elsewhere.namespace,
        r.kind,
        `${target.name}.${elsewhere.namespace}.svc.${target.fqdn.slice(target.fqdn.indexOf('.svc.') + 5)}`,
      ),
    );
  const fixedHost = guess
    ? written.replace(/^[^.]+/, guess.name)
    : misplaced
      ? `${target.name}.${elsewhere.namespace}.svc.${target.fqdn.slice(target.fqdn.indexOf('.svc.') + 5)}`
      : undefined;
  return {
    uri: r.uri,
    span,
    message: joinSentences(parts),
    resource: refOf(r),
    related: [
      ...(close ? [{ uri: close.uri, span: close.nameSpan, message: msg('Service "{0}" has the closest name', close.name) }] : []),
      ...(misplaced
        ? [{ uri: elsewhere.uri, span: elsewhere.nameSpan, message: msg('Service "{0}" is in namespace "{1}"', target.name, elsewhere.namespace) }]
        : []),
    ],
    fixes: fixedHost
      ? [{ title: msg('Change the host to "{0}"', fixedHost), edits: [{ uri: r.uri, span, newText: fixedHost }], isPreferred: guess?.clear || undefined }]
      : [],
  };
}
