// What a host written in an Istio object (a destination, a DestinationRule's host) lands on, within the subjects'
// scope (istio semantics §I1): a Service, a ServiceEntry, nothing, or something the manifests cannot know.

import { istioFqdn, serviceOfFqdn } from '../analysis/istioHosts';
import { zoneOf } from '../analysis/dnsRecords';
import { isIP } from '../analysis/ip';
import type { AnalysisConfig } from '../model/config';
import type { ServiceEntry } from '../model/istio';
import type { Service } from '../model/resources';
import type { Lookup } from './rule';

export type IstioTarget =
  | { readonly kind: 'service'; readonly fqdn: string; readonly service: Service }
  | { readonly kind: 'entry'; readonly fqdn: string; readonly entry: ServiceEntry }
  /** `<name>.<namespace>.svc.<zone>` in a namespace the manifests describe, with no Service of that name there. */
  | { readonly kind: 'missing'; readonly fqdn: string; readonly name: string; readonly namespace: string }
  /** `<name>.<namespace>` (or `….svc`) written for a Service that exists: Istio does not expand it. */
  | { readonly kind: 'unexpanded'; readonly fqdn: string; readonly service: Service; readonly full: string }
  /** A wildcard, an IP, a host outside the cluster domain, a namespace no manifest describes. */
  | { readonly kind: 'unknown'; readonly fqdn: string };

export function istioTarget(lookup: Lookup, config: AnalysisConfig, written: string, namespace: string): IstioTarget {
  const zone = zoneOf(config);
  const fqdn = istioFqdn(written, namespace, zone);
  if (!fqdn || fqdn.startsWith('*') || isIP(fqdn)) return { kind: 'unknown', fqdn };
  const entry = lookup.serviceEntriesFor(fqdn)[0];
  if (entry) return { kind: 'entry', fqdn, entry };
  const parts = serviceOfFqdn(fqdn, zone);
  if (parts) {
    const service = lookup.service(parts.namespace, parts.name);
    if (service) return { kind: 'service', fqdn, service };
    if (!lookup.namespaceExists(parts.namespace)) return { kind: 'unknown', fqdn };
    return { kind: 'missing', fqdn, ...parts };
  }
  // `reviews.shop` or `reviews.shop.svc`: a Kubernetes DNS short form that Istio takes as a host of its own.
  const labels = fqdn.split('.');
  if ((labels.length === 2 || (labels.length === 3 && labels[2] === 'svc')) && lookup.namespaceExists(labels[1])) {
    const service = lookup.service(labels[1], labels[0]);
    if (service) return { kind: 'unexpanded', fqdn, service, full: `${labels[0]}.${labels[1]}.svc.${zone}` };
  }
  return { kind: 'unknown', fqdn };
}
