// How Istio reads the hosts written in its networking objects (istio-semantics §I1): a name without a dot is a short
// name, expanded in the namespace of the object that writes it (`reviews` in a VirtualService of `shop` is
// `reviews.shop.svc.<zone>`); any name with a dot is taken as written (Istio does not expand `reviews.shop`), and
// matches a Service only as `<name>.<namespace>.svc.<zone>`, or a ServiceEntry host (exactly, or by its wildcard).

import type { Cluster } from '../model/cluster';
import type { AnalysisConfig } from '../model/config';
import { isDestinationRule, isServiceEntry, istioObjectsOf, type DestinationRule, type IstioGateway, type ServiceEntry } from '../model/istio';
import type { Service } from '../model/resources';
import { zoneOf } from './dnsRecords';
import { isIP } from './ip';

/** The fully qualified host Istio makes of a written host in a namespace (pkg/config/host: short names only). */
export function istioFqdn(written: string, namespace: string, zone: string): string {
  const h = written.trim().toLowerCase();
  if (h.startsWith('*') || h.includes('.')) return h.replace(/\.$/, '');
  return `${h}.${namespace}.svc.${zone}`;
}

/** `web.shop.svc.cluster.local` → Service `web` in `shop`; undefined for any other shape. */
export function serviceOfFqdn(fqdn: string, zone: string): { readonly name: string; readonly namespace: string } | undefined {
  const suffix = `.svc.${zone}`;
  if (!fqdn.endsWith(suffix)) return undefined;
  const labels = fqdn.slice(0, -suffix.length).split('.');
  return labels.length === 2 && labels[0] && labels[1] ? { name: labels[0], namespace: labels[1] } : undefined;
}

/** Whether a host pattern (`*.example.com`, `*`, or a name) covers a fully qualified host (Istio's host.Name.Matches). */
export function hostCovers(pattern: string, fqdn: string): boolean {
  const p = pattern.toLowerCase();
  if (p === '*') return true;
  if (p.startsWith('*')) return fqdn.endsWith(p.slice(1));
  return p === fqdn;
}

interface IstioIndex {
  /** Each ServiceEntry with its hosts made fully qualified in its namespace. */
  readonly entries: readonly { readonly entry: ServiceEntry; readonly hosts: readonly string[] }[];
  /** fully qualified host → DestinationRules */
  readonly rules: ReadonlyMap<string, readonly DestinationRule[]>;
}

const indexes = new WeakMap<Cluster, WeakMap<AnalysisConfig, IstioIndex>>();

function indexOf(cluster: Cluster, config: AnalysisConfig): IstioIndex {
  let perConfig = indexes.get(cluster);
  if (!perConfig) indexes.set(cluster, (perConfig = new WeakMap()));
  let found = perConfig.get(config);
  if (found) return found;
  const zone = zoneOf(config);
  const entries: { entry: ServiceEntry; hosts: string[] }[] = [];
  const rules = new Map<string, DestinationRule[]>();
  for (const ns of cluster.namespacesWithObjects()) {
    const objects = istioObjectsOf(cluster.objectsIn(ns)?.resources);
    for (const e of objects.serviceEntries) if (isServiceEntry(e)) entries.push({ entry: e, hosts: e.hosts.map((h) => istioFqdn(h.value, e.namespace, zone)) });
    for (const r of objects.destinationRules) {
      if (!isDestinationRule(r) || !r.host) continue;
      const fqdn = istioFqdn(r.host, r.namespace, zone);
      const l = rules.get(fqdn);
      if (l) l.push(r);
      else rules.set(fqdn, [r]);
    }
  }
  found = { entries, rules };
  perConfig.set(config, found);
  return found;
}

/** The ServiceEntries of any namespace with a host covering `fqdn` (exportTo is not read: every entry counts as visible). */
export function serviceEntriesFor(cluster: Cluster, config: AnalysisConfig, fqdn: string): readonly ServiceEntry[] {
  return indexOf(cluster, config)
    .entries.filter((e) => e.hosts.some((h) => hostCovers(h, fqdn)))
    .map((e) => e.entry);
}

/** The DestinationRules of any namespace for this fully qualified host. */
export function destinationRulesFor(cluster: Cluster, config: AnalysisConfig, fqdn: string): readonly DestinationRule[] {
  return indexOf(cluster, config).rules.get(fqdn) ?? [];
}

export type IstioTarget =
  | { readonly kind: 'service'; readonly fqdn: string; readonly service: Service }
  | { readonly kind: 'entry'; readonly fqdn: string; readonly entry: ServiceEntry }
  /** `<name>.<namespace>.svc.<zone>` in a namespace the manifests describe, with no Service of that name there. */
  | { readonly kind: 'missing'; readonly fqdn: string; readonly name: string; readonly namespace: string }
  /** `<name>.<namespace>` (or `….svc`) written for a Service that exists: Istio does not expand it. */
  | { readonly kind: 'unexpanded'; readonly fqdn: string; readonly service: Service; readonly full: string }
  /** A wildcard, an IP, a host outside the cluster domain, a namespace no manifest describes. */
  | { readonly kind: 'unknown'; readonly fqdn: string };

/** What host resolution reads: a rule's recording lookup, or a cluster (`clusterHostView`). */
export interface IstioHostView {
  service(namespace: string, name: string): Service | undefined;
  namespaceExists(namespace: string): boolean;
  serviceEntriesFor(fqdn: string): readonly ServiceEntry[];
}

export function clusterHostView(cluster: Cluster, config: AnalysisConfig): IstioHostView {
  return {
    service: (namespace, name) => cluster.service(namespace, name),
    namespaceExists: (namespace) => cluster.namespaces.has(namespace),
    serviceEntriesFor: (fqdn) => serviceEntriesFor(cluster, config, fqdn),
  };
}

/** What a host written in an Istio object of `namespace` lands on (istio-semantics §I1). */
export function istioHostTarget(view: IstioHostView, config: AnalysisConfig, written: string, namespace: string): IstioTarget {
  const zone = zoneOf(config);
  const fqdn = istioFqdn(written, namespace, zone);
  if (!fqdn || fqdn.startsWith('*') || isIP(fqdn)) return { kind: 'unknown', fqdn };
  const entry = view.serviceEntriesFor(fqdn)[0];
  if (entry) return { kind: 'entry', fqdn, entry };
  const parts = serviceOfFqdn(fqdn, zone);
  if (parts) {
    const service = view.service(parts.namespace, parts.name);
    if (service) return { kind: 'service', fqdn, service };
    if (!view.namespaceExists(parts.namespace)) return { kind: 'unknown', fqdn };
    return { kind: 'missing', fqdn, ...parts };
  }
  // `reviews.shop` or `reviews.shop.svc`: a Kubernetes DNS short form that Istio takes as a host of its own.
  const labels = fqdn.split('.');
  if ((labels.length === 2 || (labels.length === 3 && labels[2] === 'svc')) && view.namespaceExists(labels[1])) {
    const service = view.service(labels[1], labels[0]);
    if (service) return { kind: 'unexpanded', fqdn, service, full: `${labels[0]}.${labels[1]}.svc.${zone}` };
  }
  return { kind: 'unknown', fqdn };
}

/** `name` or `namespace/name`; undefined for `mesh` and the legacy `name.namespace` form (istio-semantics §I4). */
export function gatewayRef(written: string, namespace: string): { readonly namespace: string; readonly name: string } | undefined {
  if (written === 'mesh' || !written) return undefined;
  const slash = written.indexOf('/');
  if (slash >= 0) {
    const ns = written.slice(0, slash);
    const name = written.slice(slash + 1);
    return name && !name.includes('/') ? { namespace: ns && ns !== '.' ? ns : namespace, name } : undefined;
  }
  return written.includes('.') ? undefined : { namespace, name: written };
}

/** The hosts of a Gateway's servers that a VirtualService of `namespace` may use (Istio's host.NamesForNamespace). */
export function gatewayServerHosts(gw: IstioGateway, namespace: string): string[] {
  const out: string[] = [];
  for (const s of gw.servers) {
    for (const h of s.hosts) {
      const v = h.value.toLowerCase();
      const slash = v.indexOf('/');
      if (slash < 0) {
        out.push(v);
        continue;
      }
      const ns = v.slice(0, slash);
      const host = v.slice(slash + 1);
      if (ns === '*' || ns === namespace || (ns === '.' && gw.namespace === namespace)) out.push(host);
    }
  }
  return out;
}

/** Whether two host patterns overlap (Istio's host.Name.Matches: a wildcard matches the names under it, either way). */
export function istioHostsOverlap(a: string, b: string): boolean {
  if (a === b || a === '*' || b === '*') return true;
  if (a.startsWith('*') && b.endsWith(a.slice(1))) return true;
  return b.startsWith('*') && a.endsWith(b.slice(1));
}
