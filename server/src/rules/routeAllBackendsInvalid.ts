// route-all-backends-invalid: every backendRef of a route rule is invalid and the rule has no filters, so all its requests fail.

import { messages } from '../l10n/l10n';
import { portlessServiceRefs } from '../analysis/gatewayRoutes';
import type { RouteRule } from '../model/gatewayApi';
import { defineRule } from './rule';
import { refOf } from './refOf';
import { backendSubjects, problemsText, ruleLabel, type BackendSubject } from './routeBackends';

export const routeAllBackendsInvalid = defineRule({
  code: 'route-all-backends-invalid',
  subjects: ['routes'],
  defaultSeverity: 'warning',
  title: 'Every backend of a route rule is invalid: all its requests fail',
  description: `"If *all* entries in BackendRefs are invalid, and there are also no filters specified in this route rule, *all* traffic which matches this rule MUST receive a 500 status code" (\`HTTPRouteRule.BackendRefs\`; GRPCRoute answers UNAVAILABLE; TCP, TLS and UDP routes refuse the connections), *gateway semantics §G7*. A backend is invalid when its Service is missing, lacks the port, is an ExternalName Service, or lies in another namespace without a ReferenceGrant; each reason has its own finding. Backends whose validity the manifests cannot tell (other kinds, namespaces no manifest populates) keep the rule quiet.`,
  examples: {
    bad: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec:
  rules:
    - backendRefs:
        - {name: web, port: 8080}
        - {name: web-canary, port: 80}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80, targetPort: 8080}]}`,
    good: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec:
  rules:
    - backendRefs:
        - {name: web, port: 80}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80, targetPort: 8080}]}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    const byRule = new Map<RouteRule, BackendSubject[]>();
    for (const b of backendSubjects(subjects, lookup)) {
      const l = byRule.get(b.rule);
      if (l) l.push(b);
      else byRule.set(b.rule, [b]);
    }
    for (const [rule, backends] of byRule) {
      const route = backends[0].route;
      // A route with a portless Service backendRef is rejected as a whole: route-backend-port says so.
      if (rule.filters.length || !backends.every((b) => b.verdict.status === 'invalid') || portlessServiceRefs(route).length) continue;
      const label = msg('{0} of {1} "{2}"', ruleLabel(rule, msg), route.kind, route.name);
      const matched = rule.matches.length ? msg(' ({0})', rule.matches.join('; ')) : '';
      const kind = route.kind;
      const message =
        kind === 'HTTPRoute'
          ? msg('Every backend of {0} is invalid and the rule has no filters, so all requests it matches{1} get HTTP 500.', label, matched)
          : kind === 'GRPCRoute'
            ? msg('Every backend of {0} is invalid and the rule has no filters, so all calls it matches{1} get gRPC status UNAVAILABLE.', label, matched)
            : kind === 'UDPRoute'
              ? msg('Every backend of {0} is invalid and the rule has no filters, so all datagrams it matches{1} are dropped.', label, matched)
              : msg('Every backend of {0} is invalid and the rule has no filters, so all connections it matches{1} are refused.', label, matched);
      yield {
        uri: route.uri,
        span: rule.backendRefsSpan ?? rule.span,
        message,
        resource: refOf(route),
        related: backends.map((b) => ({
          uri: route.uri,
          span: b.ref.nameSpan ?? b.ref.span,
          message: msg('Backend "{0}": {1}', b.ref.name ?? '?', problemsText(b.verdict.problems, msg)),
        })),
      };
    }
  },
});
