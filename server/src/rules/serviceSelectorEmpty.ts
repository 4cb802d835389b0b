// service-selector-empty: `selector: {}` on a Service, which Kubernetes reads as "no selector" rather than "every pod".

import { messages } from '../l10n/l10n';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const serviceSelectorEmpty = defineRule({
  code: 'service-selector-empty',
  subjects: ['services'],
  defaultSeverity: 'warning',
  traceHop: 'endpoints',
  title: 'Service has an empty selector ({}), which selects no pods',
  description: `An empty \`selector: {}\` looks like "select every pod", but after the API round trip it cannot be told apart from no selector at all (semantics §1.1). The EndpointSlice controller then creates **no** endpoints for the Service: only a manually written Endpoints object or EndpointSlice can give it backends (semantics §1.2). Either list the pod labels to select, or remove the empty selector if the endpoints are managed by hand.`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {}
  ports: [{port: 80}]`,
    good: `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, ports: [{containerPort: 80}]}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const service of subjects.services) {
      // semantics §1.1 (1): ExternalName Services never get endpoints, whatever the selector says.
      if (!service.selectorEmpty || service.type === 'ExternalName' || !service.selectorSpan) continue;
      const manual = lookup.endpointsOf(service).manual.filter((m) => m.mirrored);
      const message = manual.length
        ? msg(
            'selector: {} counts as no selector, so Service "{0}" gets its endpoints only from {1}, never from pods. If that is intended, remove the empty selector so the manifest says so.',
            service.name,
            manual.map((m) => `${m.resource.kind} "${m.resource.name}"`).join(msg(' and ')),
          )
        : msg(
            'selector: {} does not select every pod: Kubernetes treats an empty selector as no selector, so Service "{0}" gets no endpoints and connections to it fail. List the labels of the pods it should reach.',
            service.name,
          );
      yield { uri: service.uri, span: service.selectorSpan, message, resource: refOf(service) };
    }
  },
});
