// route-match-conflict: two HTTPRoutes applied together claim the same hostname and match on one Gateway listener.

import { acceptingListeners, hostnamesIntersect } from '../analysis/gatewayRoutes';
import type { GatewayListener, GatewayRoute, MatchClaim, RouteRule } from '../model/gatewayApi';
import { hasPlaceholder } from '../model/placeholder';
import { sameApplyUnit } from './applyUnit';
import { listenerLabel } from './gatewayWording';
import { refOf } from './refOf';
import { defineRule } from './rule';
import { messages } from '../l10n/l10n';
import { edgeGateway } from './ruleExamples';

export const routeMatchConflict = defineRule({
  code: 'route-match-conflict',
  subjects: ['routes'],
  defaultSeverity: 'warning',
  title: 'Two HTTPRoutes claim the same hostname and match on one listener',
  description: `A Gateway merges the rules of every HTTPRoute attached to a listener. When two HTTPRoutes applied together (in one file, one folder, one Kustomize build or one Helm release) claim the same hostname and the same match (path type and value, method, headers, query parameters) on one listener, the Gateway API's tie-break decides (gateway semantics §G10, \`HTTPRouteRule.Matches\`): the request goes to the **oldest route by \`creationTimestamp\`**, then to the route **first in alphabetical order of "namespace/name"**, and the other route's rule gets none of it (implementations mark it with a conflict condition at most). Which backend answers then depends on the order the routes were created in. The finding is on each of the two routes, with the other as the related place. Stays quiet for matches that differ in anything (a header, a method, a query parameter, another path type), routes whose hostnames differ (a more specific hostname takes precedence over a wildcard or a route without hostnames, so those do not tie), routes on different listeners or Gateways, the two rules of one route (the first rule wins, as written), routes of different folders or of variants never applied together, and values a tool fills in later.`,
  examples: {
    bad: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec:
  parentRefs: [{name: edge}]
  hostnames: [shop.example.com]
  rules: [{backendRefs: [{name: shop, port: 80}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop-v2}
spec:
  parentRefs: [{name: edge}]
  hostnames: [shop.example.com]
  rules: [{backendRefs: [{name: shop-v2, port: 80}]}]
---
${edgeGateway()}`,
    good: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec:
  parentRefs: [{name: edge}]
  hostnames: [shop.example.com]
  rules: [{backendRefs: [{name: shop, port: 80}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop-v2}
spec:
  parentRefs: [{name: edge}]
  hostnames: [shop.example.com]
  rules: [{matches: [{path: {type: PathPrefix, value: /v2}}], backendRefs: [{name: shop-v2, port: 80}]}]
---
${edgeGateway()}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const route of subjects.routes) {
      if (route.kind !== 'HTTPRoute' || route.hostnames.some((h) => hasPlaceholder(h.value))) continue;
      const reported = new Set<GatewayRoute>();
      for (const { gateway, listener } of acceptingListeners(lookup, route)) {
        const mine = hostsOn(route, listener);
        for (const other of lookup.routesNamingGateway(gateway.namespace, gateway.name)) {
          if (other === route || other.kind !== 'HTTPRoute' || reported.has(other) || (other.namespace === route.namespace && other.name === route.name))
            continue;
          if (!sameApplyUnit(route.uri, other.uri) || other.hostnames.some((h) => hasPlaceholder(h.value))) continue;
          const host = hostsOn(other, listener).find((h) => mine.includes(h));
          if (host === undefined) continue;
          const clash = firstClash(route, other);
          if (!clash || !acceptingListeners(lookup, other).some((o) => o.listener === listener)) continue;
          reported.add(other);
          const [winner] = [`${route.namespace}/${route.name}`, `${other.namespace}/${other.name}`].sort();
          const hostText = host === '' ? msg('every host of {0}', listenerLabel(listener, msg)) : msg('host {0} on {1}', host, listenerLabel(listener, msg));
          yield {
            uri: route.uri,
            span: clash.mine.span,
            message:
              other.namespace !== route.namespace
                ? msg(
                    'HTTPRoute "{0}" and HTTPRoute "{1}" in namespace "{2}" both match {3} for {4} of Gateway "{5}": the Gateway API gives such requests to the oldest route (creationTimestamp), then to the first by "namespace/name" (here "{6}" when both are created in the same second), and the other route\'s rule gets none of them. Which Service answers depends on the order they were created in; give one of them another hostname or match, or merge them.',
                    route.name,
                    other.name,
                    other.namespace,
                    clash.mine.key,
                    hostText,
                    gateway.name,
                    winner,
                  )
                : msg(
                    'HTTPRoute "{0}" and HTTPRoute "{1}" both match {2} for {3} of Gateway "{4}": the Gateway API gives such requests to the oldest route (creationTimestamp), then to the first by "namespace/name" (here "{5}" when both are created in the same second), and the other route\'s rule gets none of them. Which Service answers depends on the order they were created in; give one of them another hostname or match, or merge them.',
                    route.name,
                    other.name,
                    clash.mine.key,
                    hostText,
                    gateway.name,
                    winner,
                  ),
            resource: refOf(route),
            related: [
              {
                uri: other.uri,
                span: clash.theirs.span,
                message: msg('HTTPRoute "{0}" rule {1} matches the same requests', other.name, clash.theirRule.index + 1),
              },
            ],
          };
        }
      }
    }
  },
});

/**
 * The hostnames a route claims on a listener: those it writes that the listener's hostname meets, as written (a route
 * hostname that does not match the listener's is ignored there, gateway semantics §G4); `''` for a route without
 * hostnames (every host of the listener). Only equal claims tie: a more specific hostname takes precedence (§G10).
 */
function hostsOn(route: GatewayRoute, listener: GatewayListener): string[] {
  if (!route.hostnames.length) return [''];
  return route.hostnames
    .map((h) => h.value)
    .filter((h) => !listener.hostname || hasPlaceholder(listener.hostname) || hostnamesIntersect(listener.hostname.toLowerCase(), h));
}

function firstClash(route: GatewayRoute, other: GatewayRoute): { mine: MatchClaim; theirs: MatchClaim; theirRule: RouteRule } | undefined {
  for (const rule of route.rules) {
    for (const mine of rule.matchClaims) {
      if (hasPlaceholder(mine.key)) continue;
      for (const theirRule of other.rules) {
        const theirs = theirRule.matchClaims.find((c) => c.key === mine.key);
        if (theirs) return { mine, theirs, theirRule };
      }
    }
  }
  return undefined;
}
