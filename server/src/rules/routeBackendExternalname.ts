// route-backend-externalname: a route backendRef resolves to an ExternalName Service, which implementations should not support.

import { failureOf } from '../analysis/gatewayRoutes';
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
  *check({ subjects, lookup }) {
    for (const b of backendSubjects(subjects, lookup)) {
      if (!b.verdict.problems.includes('externalname') || !b.verdict.service) continue;
      const svc = b.verdict.service;
      const { traffic, fate } = failureOf(b.route.kind);
      yield {
        uri: b.route.uri,
        span: b.ref.nameSpan ?? b.ref.span,
        message: `${backendLabel(b)} sends traffic to Service "${svc.name}", an ExternalName Service (${svc.externalName ?? 'no externalName'}). Gateway API implementations should not support ExternalName backends: most mark the backend invalid (ResolvedRefs: False), and then the ${traffic} sent to it ${fate}.`,
        resource: refOf(b.route),
        related: [{ uri: svc.uri, span: svc.typeSpan ?? svc.nameSpan, message: `Service "${svc.name}" is of type ExternalName` }],
      };
    }
  },
});
