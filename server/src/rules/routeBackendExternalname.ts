// route-backend-externalname: a route backendRef resolves to an ExternalName Service, which implementations should not support.

import { joinSentences, messages } from '../l10n/l10n';
import { defineRule } from './rule';
import { refOf } from './refOf';
import { backendLabel, backendSubjects } from './routeBackends';

export const routeBackendExternalname = defineRule({
  code: 'route-backend-externalname',
  subjects: ['routes'],
  defaultSeverity: 'warning',
  title: 'A route backendRef names an ExternalName Service',
  description: `"Implementations SHOULD NOT support ExternalName Services" (\`BackendObjectReference.Kind\`, CVE-2021-25740; *gateway semantics §G5*): most Gateway controllers mark such a backend invalid (ResolvedRefs: False) and answer its requests with HTTP 500, and those that forward do so in implementation-specific ways. Route to a Service with endpoints, or use the controller's own external-backend resource.`,
  examples: {
    bad: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: docs}
spec:
  rules: [{backendRefs: [{name: docs-site, port: 443}]}]
---
apiVersion: v1
kind: Service
metadata: {name: docs-site}
spec: {type: ExternalName, externalName: docs.example.com, ports: [{port: 443}]}`,
    good: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: docs}
spec:
  rules: [{backendRefs: [{name: docs-site, port: 443}]}]
---
apiVersion: v1
kind: Service
metadata: {name: docs-site}
spec: {selector: {app: docs}, ports: [{port: 443}]}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const b of backendSubjects(subjects, lookup)) {
      if (!b.verdict.problems.includes('externalname') || !b.verdict.service) continue;
      const svc = b.verdict.service;
      const target = svc.externalName ?? msg('no externalName');
      const head = msg('{0} sends traffic to Service "{1}", an ExternalName Service ({2}).', backendLabel(b), svc.name, target);
      const kind = b.route.kind;
      const tail =
        kind === 'HTTPRoute'
          ? msg(
              'Gateway API implementations should not support ExternalName backends: most mark the backend invalid (ResolvedRefs: False), and then the requests sent to it get HTTP 500.',
            )
          : kind === 'GRPCRoute'
            ? msg(
                'Gateway API implementations should not support ExternalName backends: most mark the backend invalid (ResolvedRefs: False), and then the calls sent to it get gRPC status UNAVAILABLE.',
              )
            : kind === 'UDPRoute'
              ? msg(
                  'Gateway API implementations should not support ExternalName backends: most mark the backend invalid (ResolvedRefs: False), and then the datagrams sent to it are dropped.',
                )
              : msg(
                  'Gateway API implementations should not support ExternalName backends: most mark the backend invalid (ResolvedRefs: False), and then the connections sent to it are refused.',
                );
      yield {
        uri: b.route.uri,
        span: b.ref.nameSpan ?? b.ref.span,
        message: joinSentences([head, tail]),
        resource: refOf(b.route),
        related: [{ uri: svc.uri, span: svc.typeSpan ?? svc.nameSpan, message: msg('Service "{0}" is of type ExternalName', svc.name) }],
      };
    }
  },
});
