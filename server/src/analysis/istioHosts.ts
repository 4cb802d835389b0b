// How Istio reads the hosts written in its networking objects (istio semantics §I1): a name without a dot is a short
// name, expanded in the namespace of the object that writes it (`reviews` in a VirtualService of `shop` is
// `reviews.shop.svc.<zone>`); any name with a dot is taken as written (Istio does not expand `reviews.shop`), and
// matches a Service only as `<name>.<namespace>.svc.<zone>`, or a ServiceEntry host (exactly, or by its wildcard).

import type { Cluster } from '../model/cluster';
import type { AnalysisConfig } from '../model/config';
import { isDestinationRule, isServiceEntry, istioObjectsOf, type DestinationRule, type ServiceEntry } from '../model/istio';
import { zoneOf } from './dnsRecords';

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
  return indexOf(cluster, config).entries.filter((e) => e.hosts.some((h) => hostCovers(h, fqdn))).map((e) => e.entry);
}

/** The DestinationRules of any namespace for this fully qualified host. */
export function destinationRulesFor(cluster: Cluster, config: AnalysisConfig, fqdn: string): readonly DestinationRule[] {
  return indexOf(cluster, config).rules.get(fqdn) ?? [];
}
