// route-backend-missing: a route's Service backendRef names no Service in the namespace it resolves to.

import { joinSentences, messages } from '../l10n/l10n';
import { closestName } from './closestName';
import { defineRule } from './rule';
import { refOf } from './refOf';
import { backendLabel, backendSubjects, consequence } from './routeBackends';

export const routeBackendMissing = defineRule({
  code: 'route-backend-missing',
  subjects: ['routes'],
  defaultSeverity: 'warning',
  title: 'A route backendRef names a Service that does not exist',
  description: `A \`backendRefs\` entry defaults to group \`""\`, kind \`Service\` and the route's namespace (*gateway semantics §G5*, \`BackendObjectReference\`). When that Service does not exist, the backend is invalid: the requests it would get receive HTTP 500 (gRPC UNAVAILABLE; refused connections for TCP, TLS and UDP routes), *gateway semantics §G7*. A namespace that no manifest populates is not judged, nor a Service an operator may create (a custom resource in its namespace, semantics §9.2), nor a namespace where the manifests hold routing only (no Service and no workload there: the applications are deployed from elsewhere, as in documentation examples and routing repositories).`,
  examples: {
    bad: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec:
  rules: [{backendRefs: [{name: fronted, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: frontend}
spec: {ports: [{port: 80}]}`,
    good: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec:
  rules: [{backendRefs: [{name: frontend, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: frontend}
spec: {ports: [{port: 80}]}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const b of backendSubjects(subjects, lookup)) {
      if (!b.verdict.problems.includes('missing') || !b.ref.nameSpan) continue;
      const name = b.ref.name!;
      const ns = b.verdict.namespace;
      // semantics §9.4: a Service the API server rejects never exists; say why instead of offering another name.
      const rejected = lookup.rejected('Service', ns, name);
      const guess = rejected
        ? undefined
        : closestName(
            name,
            lookup.servicesIn(ns).map((s) => s.name),
          );
      const closest = guess ? lookup.service(ns, guess.name) : undefined;
      const missing = rejected ? msg('but {0} and never exists', rejected) : msg('which does not exist in namespace "{0}"', ns);
      yield {
        uri: b.route.uri,
        span: b.ref.nameSpan,
        message: joinSentences([
          msg('{0} sends traffic to Service "{1}", {2}, so {3}.', backendLabel(b), name, missing, consequence(b, msg)),
          ...(guess ? [msg('Did you mean "{0}"?', guess.name)] : []),
        ]),
        resource: refOf(b.route),
        related: closest ? [{ uri: closest.uri, span: closest.nameSpan, message: msg('Service "{0}" has the closest name', closest.name) }] : [],
        fixes: guess
          ? [
              {
                title: msg('Change the backend Service to "{0}"', guess.name),
                edits: [{ uri: b.route.uri, span: b.ref.nameSpan, newText: guess.name }],
                isPreferred: guess.clear || undefined,
              },
            ]
          : [],
      };
    }
  },
});
