// The Gateway API subjects of a rule unit (its routes and Gateways) and the wording the gateway rules share.

import type { Cluster } from '../model/cluster';
import { isGateway, isRoute, type Gateway, type GatewayListener, type GatewayRoute } from '../model/gatewayApi';

/** The routes among a unit's subjects. */
export function routeSubjects(cluster: Cluster): GatewayRoute[] {
  const out: GatewayRoute[] = [];
  for (const r of cluster.resources) if (isRoute(r)) out.push(r);
  return out;
}

/** The Gateways among a unit's subjects. */
export function gatewaySubjects(cluster: Cluster): Gateway[] {
  const out: Gateway[] = [];
  for (const r of cluster.resources) if (isGateway(r)) out.push(r);
  return out;
}

/** The Gateways of a namespace, looked up (for near-miss names). */
export function gatewaysIn(cluster: Cluster, namespace: string): Gateway[] {
  return (cluster.objectsIn(namespace)?.resources ?? []).filter(isGateway);
}

export function listenerLabel(l: GatewayListener): string {
  return `listener "${l.name ?? `#${l.index + 1}`}" (${[l.protocol ?? '?', l.port ?? '?', l.hostname].filter((x) => x !== undefined).join(' ')})`;
}

export function routeLabel(route: GatewayRoute): string {
  return `${route.kind} "${route.name}"`;
}

/** `5 blocks` style wording for a small list. */
export function listOf(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}`;
}
