// Which routes name a Gateway as their parent (gateway semantics §G2, §G10): the routes of every namespace attached to
// one Gateway's listeners are merged into one routing table, so two HTTPRoutes claiming the same hostname and match
// there compete, and the Gateway API's tie-break gives the requests to one of them.

import type { Cluster } from '../model/cluster';
import { gatewayGroup, type GatewayRoute } from '../model/gatewayApi';

const indexes = new WeakMap<Cluster, ReadonlyMap<string, readonly GatewayRoute[]>>();

/** The routes of any namespace with a parentRef to the Gateway `namespace/name`, in cluster order. */
export function routesNamingGateway(cluster: Cluster, namespace: string, name: string): readonly GatewayRoute[] {
  let index = indexes.get(cluster);
  if (!index) {
    const m = new Map<string, GatewayRoute[]>();
    for (const route of cluster.routes) {
      for (const key of new Set(gatewayParentsOf(route))) {
        const l = m.get(key);
        if (l) l.push(route);
        else m.set(key, [route]);
      }
    }
    indexes.set(cluster, (index = m));
  }
  return index.get(`${namespace}/${name}`) ?? [];
}

/** `namespace/name` of each Gateway a route's parentRefs name. */
export function gatewayParentsOf(route: GatewayRoute): string[] {
  return route.parentRefs.filter((p) => p.group === gatewayGroup && p.kind === 'Gateway' && p.name).map((p) => `${p.namespace ?? route.namespace}/${p.name}`);
}
