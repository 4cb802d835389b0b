// gateway-route-not-allowed: no listener the parentRef selects admits the route by its namespace or kind.

import { messages, type Msg } from '../l10n/l10n';
import { gatewayAttachments, listenerKinds, type ListenerVerdict } from '../analysis/gatewayRoutes';
import type { GatewayRoute } from '../model/gatewayApi';
import { formatSelector } from '../model/selector';
import { listenerLabel, routeLabel } from './gatewayWording';
import { refOf } from './refOf';
import { defineRule } from './rule';
import { edgeGateway } from './ruleExamples';

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
${edgeGateway('infra')}`,
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
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const route of subjects.routes) {
      for (const { ref, gateway, attachment } of gatewayAttachments(lookup, route)) {
        if (attachment.outcome !== 'not-allowed') continue;
        const why = attachment.selected.map((v) => msg('{0} {1}', listenerLabel(v.listener, msg), refusal(v, route, gateway.namespace, msg)));
        yield {
          uri: route.uri,
          span: ref.nameSpan ?? ref.span,
          message: msg(
            '{0} in namespace "{1}" is not accepted by Gateway "{2}" (reason NotAllowedByListeners): {3}.',
            routeLabel(route),
            route.namespace,
            gateway.name,
            why.join(msg('; ')),
          ),
          resource: refOf(route),
          related: attachment.selected.map((v) => ({
            uri: gateway.uri,
            span: (v.kind === false ? undefined : v.listener.fromSpan) ?? v.listener.allowedRoutesSpan ?? v.listener.nameSpan ?? v.listener.span,
            message: msg('{0} of Gateway "{1}"', listenerLabel(v.listener, msg), gateway.name),
          })),
        };
      }
    }
  },
});

function refusal(v: ListenerVerdict, route: GatewayRoute, gatewayNamespace: string, msg: Msg): string {
  const l = v.listener;
  if (v.kind === false) {
    const kinds = listenerKinds(l) ?? [];
    const admitted = kinds.length ? kinds.join(', ') : msg('no route kinds');
    return l.kinds.length
      ? msg('admits only {0} (allowedRoutes.kinds), not {1}', admitted, route.kind)
      : msg('admits only {0} (implied by protocol {1}), not {2}', admitted, String(l.protocol), route.kind);
  }
  if (l.from === 'Same')
    return l.fromSpan
      ? msg('admits only routes from its own namespace "{0}" (allowedRoutes.namespaces.from: Same)', gatewayNamespace)
      : msg('admits only routes from its own namespace "{0}" (allowedRoutes.namespaces.from: Same, the default)', gatewayNamespace);
  if (l.from === 'Selector') {
    return l.namespaceSelector
      ? msg('admits only namespaces labelled {0}, and namespace "{1}" is not', formatSelector(l.namespaceSelector), route.namespace)
      : msg('sets from: Selector without a selector, which admits no namespace');
  }
  return msg('does not admit namespace "{0}"', route.namespace);
}
