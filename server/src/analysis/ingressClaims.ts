// Which Ingresses claim a host (the Ingress API and the controllers' documentation): the rules of every Ingress of one class are merged by the
// controller, so two Ingresses claiming the same host and path compete, and the controller keeps one of them.

import type { Cluster } from '../model/cluster';
import type { Ingress } from '../model/resources';

const indexes = new WeakMap<Cluster, ReadonlyMap<string, readonly Ingress[]>>();

/** The Ingresses of any namespace with a rule for this host (lower case; `''` for rules without a host), in cluster order. */
export function ingressesClaiming(cluster: Cluster, host: string): readonly Ingress[] {
  let index = indexes.get(cluster);
  if (!index) {
    const m = new Map<string, Ingress[]>();
    for (const ing of cluster.ingresses) {
      for (const h of new Set(ing.paths.map((p) => (p.host ?? '').toLowerCase()))) {
        const l = m.get(h);
        if (l) l.push(ing);
        else m.set(h, [ing]);
      }
    }
    indexes.set(cluster, (index = m));
  }
  return index.get(host.toLowerCase()) ?? [];
}
