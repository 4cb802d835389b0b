// The public names ExternalDNS publishes for a Service (its `external-dns.alpha.kubernetes.io/hostname` annotation,
// a comma-separated list) and which Services publish a name, across namespaces. ExternalDNS's service source
// publishes LoadBalancer Services by default (NodePort, ClusterIP and headless ones only with flags of its own).

import type { Cluster } from '../model/cluster';
import type { Service } from '../model/resources';

export const hostnameAnnotation = 'external-dns.alpha.kubernetes.io/hostname';

/** The names a Service's annotation asks ExternalDNS to publish (lower case, without a trailing dot). */
export function publishedNames(service: Service): string[] {
  const v = service.annotations.get(hostnameAnnotation);
  if (!v) return [];
  return [
    ...new Set(
      v
        .split(',')
        .map((s) => s.trim().toLowerCase().replace(/\.$/, ''))
        .filter(Boolean),
    ),
  ];
}

const indexes = new WeakMap<Cluster, ReadonlyMap<string, readonly Service[]>>();

/** The Services of any namespace whose annotation publishes this name, in cluster order. */
export function servicesPublishing(cluster: Cluster, name: string): readonly Service[] {
  let index = indexes.get(cluster);
  if (!index) {
    const m = new Map<string, Service[]>();
    for (const s of cluster.services) {
      for (const n of publishedNames(s)) {
        const l = m.get(n);
        if (l) l.push(s);
        else m.set(n, [s]);
      }
    }
    indexes.set(cluster, (index = m));
  }
  return index.get(name.toLowerCase()) ?? [];
}
