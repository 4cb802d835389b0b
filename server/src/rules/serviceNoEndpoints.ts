// service-no-endpoints: a selector-less Service with no manual Endpoints or EndpointSlice for it anywhere in the workspace.

import { messages } from '../l10n/l10n';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const serviceNoEndpoints = defineRule({
  code: 'service-no-endpoints',
  subjects: ['services'],
  defaultSeverity: 'warning',
  traceHop: 'endpoints',
  title: 'Service without a selector has no Endpoints or EndpointSlice',
  description: `A Service without a selector gets no endpoints from Kubernetes (semantics §1.1): its backends must be written by hand, as an \`Endpoints\` object with the Service's name or an \`EndpointSlice\` labelled \`kubernetes.io/service-name: <service>\`, in the same namespace (semantics §1.2). Without one, connections to the Service fail and a headless Service's name does not resolve.

The rule looks for those objects in the workspace (one that exists but is not mirrored is reported by \`endpoints-not-mirrored\` instead); if they are created by something else (an operator, a script), turn the rule off for that workspace. It stays quiet on its own when a custom resource in the namespace may be managed by an operator that writes them (network-semantics §9.2), and says so when the Endpoints object exists but the API server rejects it.`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata: {name: billing-db}
spec:
  ports: [{port: 5432}]`,
    good: `apiVersion: v1
kind: Service
metadata: {name: billing-db}
spec:
  ports: [{port: 5432}]
---
apiVersion: v1
kind: Endpoints
metadata: {name: billing-db}
subsets:
  - addresses: [{ip: 10.20.0.15}]
    ports: [{port: 5432}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const service of subjects.services) {
      // An empty selector is reported by service-selector-empty; ExternalName Services need no endpoints (semantics §1.1 (1)).
      if (service.selector || service.selectorEmpty || service.type === 'ExternalName') continue;
      // Hand-written objects that exist but are not mirrored (semantics §1.2) are explained by endpoints-not-mirrored.
      if (lookup.endpointsOf(service).manual.length) continue;
      // An operator may write the Endpoints of its selector-less Services (semantics §9.2).
      if (lookup.podsUnknown(service.namespace, [], service.uri)) continue;
      const rejected = lookup.rejected('Endpoints', service.namespace, service.name);
      const effect = service.headless
        ? msg('its DNS name {0} will not resolve', `${service.name}.${service.namespace}.svc.${config.clusterDomain}`)
        : msg('connections to it fail');
      yield {
        uri: service.uri,
        span: service.nameSpan,
        message: rejected
          ? msg('Service "{0}" has no selector, and its {1}, so it has no endpoints and {2}.', service.name, rejected, effect)
          : msg(
              'Service "{0}" has no selector and no Endpoints or EndpointSlice for it in namespace "{1}", so it has no endpoints and {2}. Add a selector matching the pods, or an Endpoints object named "{0}" listing the backend addresses.',
              service.name,
              service.namespace,
              effect,
            ),
        resource: refOf(service),
      };
    }
  },
});
