// gateway-route-not-allowed: no listener the parentRef selects admits the route by its namespace or kind.

import { attachToGateway, listenerKinds, parentTarget, type ListenerVerdict } from '../analysis/gatewayRoutes';
import type { GatewayRoute } from '../model/gatewayApi';
import { formatSelector } from '../model/selector';
import { listenerLabel, routeLabel } from './gatewayWording';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const gatewayRouteNotAllowed = defineRule({
  code: 'gateway-route-not-allowed',
  subjects: ['routes'],
  defaultSeverity: 'warning',
  title: "No listener of the parent Gateway admits the route's namespace or kind",
  description: `A Gateway listener admits routes through \`allowedRoutes\`: \`namespaces.from\` is \`Same\` by default (only routes in the Gateway's namespace), \`All\`, or \`Selector\` (namespaces whose labels match; every namespace carries \`kubernetes.io/metadata.name\`), and \`kinds\` is either written or implied by the protocol (HTTP/HTTPS: HTTPRoute and GRPCRoute; TLS: TLSRoute; TCP: TCPRoute; UDP: UDPRoute) (*gateway semantics §G3*). If no selected listener admits the route, it is not accepted (reason \`NotAllowedByListeners\`). ReferenceGrant does not apply here. When the labels of a namespace without a Namespace manifest would decide, or the protocol is implementation-specific, the rule stays quiet. A Gateway written only in folders below the route's (another example's, in a documentation folder) is not known to be applied with the route, so the rule stays quiet there (*gateway semantics §G2*).`,
  examples: {
    bad: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: edge, namespace: infra}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: example
  listeners: [{name: http, port: 80, protocol: HTTP}]`,
    good: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: edge, namespace: infra}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: example
  listeners:
    - name: http
      port: 80
      protocol: HTTP
      allowedRoutes: {namespaces: {from: All}}`,
  },
  *check({ subjects, lookup }) {
    for (const route of subjects.routes) {
      for (const ref of route.parentRefs) {
        const target = parentTarget(lookup, route, ref);
        if (target.kind !== 'gateway') continue;
        const gateway = target.gateway;
        const attachment = attachToGateway(lookup, route, ref, target);
        if (attachment.outcome !== 'not-allowed') continue;
        const why = attachment.selected.map((v) => `${listenerLabel(v.listener)} ${refusal(v, route, gateway.namespace)}`);
        yield {
          uri: route.uri,
          span: ref.nameSpan ?? ref.span,
          message: `${routeLabel(route)} in namespace "${route.namespace}" is not accepted by Gateway "${gateway.name}" (reason NotAllowedByListeners): ${why.join('; ')}.`,
          resource: refOf(route),
          related: attachment.selected.map((v) => ({
            uri: gateway.uri,
            span: (v.kind === false ? undefined : v.listener.fromSpan) ?? v.listener.allowedRoutesSpan ?? v.listener.nameSpan ?? v.listener.span,
            message: `${listenerLabel(v.listener)} of Gateway "${gateway.name}"`,
          })),
        };
      }
    }
  },
});

function refusal(v: ListenerVerdict, route: GatewayRoute, gatewayNamespace: string): string {
  const l = v.listener;
  if (v.kind === false) {
    const kinds = listenerKinds(l) ?? [];
    return `admits only ${kinds.length ? kinds.join(', ') : 'no route kinds'}${l.kinds.length ? ' (allowedRoutes.kinds)' : ` (implied by protocol ${l.protocol})`}, not ${route.kind}`;
  }
  if (l.from === 'Same') return `admits only routes from its own namespace "${gatewayNamespace}" (allowedRoutes.namespaces.from: Same${l.fromSpan ? '' : ', the default'})`;
  if (l.from === 'Selector') {
    return l.namespaceSelector ? `admits only namespaces labelled ${formatSelector(l.namespaceSelector)}, and namespace "${route.namespace}" is not` : 'sets from: Selector without a selector, which admits no namespace';
  }
  return `does not admit namespace "${route.namespace}"`;
}
