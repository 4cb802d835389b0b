// gateway-hostname-mismatch: the route and every listener that admits it set hostnames, and none intersect.

import { messages } from '../l10n/l10n';
import { gatewayAttachments } from '../analysis/gatewayRoutes';
import { listenerLabel, routeLabel } from './gatewayWording';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const gatewayHostnameMismatch = defineRule({
  code: 'gateway-hostname-mismatch',
  subjects: ['routes'],
  defaultSeverity: 'warning',
  title: "The route's hostnames match no hostname of the listeners that admit it",
  description: `When a listener sets \`hostname\` and an HTTPRoute, GRPCRoute or TLSRoute sets \`hostnames\`, they must intersect for the route to be accepted on that listener. \`*.example.com\` matches one or more labels in front of \`example.com\` (\`a.example.com\`, \`a.b.example.com\`) but not \`example.com\` itself (*gateway semantics §G4*, \`Listener.Hostname\`). If no admitting listener intersects, the route is not accepted (reason \`NoMatchingListenerHostname\`) and its requests get 404 from the Gateway. A Gateway written only in folders below the route's (another example's, in a documentation folder) is not known to be applied with the route, so the rule stays quiet there (*gateway semantics §G2*).`,
  examples: {
    bad: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec:
  parentRefs: [{name: edge}]
  hostnames: [example.com]
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge}
spec:
  gatewayClassName: example
  listeners: [{name: http, port: 80, protocol: HTTP, hostname: "*.example.com"}]`,
    good: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec:
  parentRefs: [{name: edge}]
  hostnames: [shop.example.com]
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge}
spec:
  gatewayClassName: example
  listeners: [{name: http, port: 80, protocol: HTTP, hostname: "*.example.com"}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const route of subjects.routes) {
      for (const { ref, gateway, attachment } of gatewayAttachments(lookup, route)) {
        if (attachment.outcome !== 'hostname') continue;
        const admitting = attachment.selected.filter((v) => v.kind === true && v.namespace === true);
        const hosts = route.hostnames.map((h) => h.value).join(', ');
        yield {
          uri: route.uri,
          span: route.hostnamesSpan ?? ref.nameSpan ?? ref.span,
          message: msg(
            '{0} serves {1}, but no listener of Gateway "{2}" that admits it has an intersecting hostname ({3}), so the route is not accepted (reason NoMatchingListenerHostname) and requests for these hosts get 404. A "*." wildcard matches one or more labels, never the bare domain.',
            routeLabel(route),
            hosts,
            gateway.name,
            admitting.map((v) => listenerLabel(v.listener, msg)).join(', '),
          ),
          resource: refOf(route),
          related: admitting.map((v) => ({
            uri: gateway.uri,
            span: v.listener.hostnameSpan ?? v.listener.span,
            message: msg('Hostname of {0}', listenerLabel(v.listener, msg)),
          })),
        };
      }
    }
  },
});
