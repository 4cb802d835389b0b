// The Gateway entry of a Service's path (gateway semantics §G9), as data: each route with a backendRef to the
// Service, the listeners that accept it (or the Service parents it is a mesh route on), and per rule the verdict and
// traffic share of every backendRef (§G7). Drawn by features/traceGraph.ts.

import type { Cluster } from '../model/cluster';
import { isRoute, type Gateway, type GatewayListener, type GatewayRoute, type RouteBackendRef, type RouteRule } from '../model/gatewayApi';
import type { Service } from '../model/resources';
import { acceptingListeners, backendShares, backendVerdict, clusterLookup, parentTarget, portlessServiceRefs, type BackendVerdict } from './gatewayRoutes';

export interface RoutePath {
  readonly route: GatewayRoute;
  /** The listeners that accept the route (§G3). */
  readonly listeners: readonly { readonly gateway: Gateway; readonly listener: GatewayListener }[];
  /** Service parents (§G8): the route is a mesh route on that Service's traffic; producer when in the same namespace. */
  readonly meshParents: readonly { readonly service: Service; readonly namespace: string; readonly producer: boolean }[];
  /** Accepted by a listener, or a mesh route. */
  readonly attached: boolean;
  /** A Service backendRef without a port: the API server rejects the route. */
  readonly rejected: boolean;
  readonly rules: readonly RuleBackends[];
}

export interface RuleBackends {
  readonly rule: RouteRule;
  /** Every backendRef of the rule, in order, with its verdict and its share of the rule's traffic. */
  readonly backends: readonly { readonly ref: RouteBackendRef; readonly verdict: BackendVerdict; readonly share: number }[];
  /** The share of the rule's traffic that goes to invalid backends. */
  readonly invalidShare: number;
  /** Every backend invalid and no filters: all matching requests fail (§G7). */
  readonly allInvalid: boolean;
}

/** The routes with a backendRef to this Service, and of each only the rules that have one. */
export function routesTo(cluster: Cluster, service: Service): RoutePath[] {
  const out: RoutePath[] = [];
  for (const route of cluster.resources) {
    if (!isRoute(route)) continue;
    const path = routePath(cluster, route, (b) => b.verdict.service === service);
    if (path) out.push(path);
  }
  return out;
}

/**
 * The routes accepted by a listener of this Gateway (§G3), with all their rules and only this Gateway's listeners
 * (a parentRef names a Gateway, so a second copy of one is the same Gateway).
 */
export function routesFrom(cluster: Cluster, gateway: Gateway): RoutePath[] {
  const out: RoutePath[] = [];
  for (const route of cluster.resources) {
    if (!isRoute(route) || !route.parentRefs.length) continue;
    const path = routePath(cluster, route);
    const listeners = path?.listeners.filter((l) => l.gateway.namespace === gateway.namespace && l.gateway.name === gateway.name);
    if (path && listeners?.length) out.push({ ...path, listeners });
  }
  return out;
}

/** Whether a route path reaches the Gateway through this listener (matched by name, as parentRefs name it). */
export function throughListener(path: RoutePath, listener: GatewayListener): boolean {
  return path.listeners.some((l) => (l.listener.name ?? l.listener.index) === (listener.name ?? listener.index));
}

/**
 * One route's path: its listeners and mesh parents, and the rules with a backend `keep` keeps (every rule when it is
 * not given); undefined when no rule is left.
 */
export function routePath(cluster: Cluster, route: GatewayRoute, keep?: (b: RuleBackends['backends'][number]) => boolean): RoutePath | undefined {
  const lookup = clusterLookup(cluster);
  const rules: RuleBackends[] = [];
  for (const rule of route.rules) {
    const shares = backendShares(rule);
    const backends = rule.backendRefs.map((ref, i) => ({ ref, verdict: backendVerdict(lookup, route, ref), share: shares[i] }));
    if (keep && !backends.some(keep)) continue;
    const invalidShare = backends.reduce((s, b) => s + (b.verdict.status === 'invalid' ? b.share : 0), 0);
    rules.push({ rule, backends, invalidShare, allInvalid: backends.every((b) => b.verdict.status === 'invalid') && !rule.filters.length });
  }
  if (!rules.length) return undefined;
  const listeners = acceptingListeners(lookup, route);
  const meshParents = route.parentRefs.flatMap((ref) => {
    const t = parentTarget(lookup, route, ref);
    return t.kind === 'service' ? [{ service: t.service, namespace: t.namespace, producer: t.namespace === route.namespace }] : [];
  });
  return { route, listeners, meshParents, attached: listeners.length > 0 || meshParents.length > 0, rejected: portlessServiceRefs(route).length > 0, rules };
}
