// ingress-backend-missing: an Ingress backend that names a Service missing from the Ingress's namespace, or a port that Service lacks.

import { joinSentences, messages, type Msg } from '../l10n/l10n';
import type { Ingress, IngressBackend, Service } from '../model/resources';
import { closestName } from './closestName';
import type { Fix, FindingDraft } from './finding';
import { refOf } from './refOf';
import { defineRule, type Lookup } from './rule';
import { namesOf } from '../analysis/closestName';

/** Ports offered as fixes when none stands out. */
const maxOffered = 5;

export const ingressBackendMissing = defineRule({
  code: 'ingress-backend-missing',
  subjects: ['ingresses'],
  defaultSeverity: 'warning',
  title: 'Ingress backend names a missing Service or port',
  description: `An Ingress routes each host/path (and its \`defaultBackend\`) to a Service **in the Ingress's own namespace**, on a Service port given by number or by name. The port is the Service's \`port\`, not the container's \`targetPort\`. If the Service or the port does not exist, the ingress controller has nowhere to send the request and answers with an error (typically 503 or 404) for that path. Kubernetes accepts the Ingress anyway. Stays quiet when a missing Service may be created by something the manifests do not show (network-semantics §9.2): an operator (a custom resource in the namespace), or a Service written without a namespace, which lands wherever it is applied; nor where the manifests hold routing only for the namespace (no Service and no workload there: the applications are deployed from elsewhere); a close name is still reported as a typo. Both the \`networking.k8s.io/v1\` form (\`service.name\`, \`service.port.number|name\`) and the older \`serviceName\`/\`servicePort\` form are checked.`,
  examples: {
    bad: `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop}
spec:
  rules:
    - host: shop.example.com
      http:
        paths:
          - path: /
            pathType: Prefix
            backend: {service: {name: frontend, port: {number: 8080}}}
---
apiVersion: v1
kind: Service
metadata: {name: frontend}
spec:
  selector: {app: frontend}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: frontend}
spec:
  selector: {matchLabels: {app: frontend}}
  template:
    metadata: {labels: {app: frontend}}
    spec:
      containers: [{name: web, image: nginx, ports: [{containerPort: 8080}]}]`,
    good: `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop}
spec:
  rules:
    - host: shop.example.com
      http:
        paths:
          - path: /
            pathType: Prefix
            backend: {service: {name: frontend, port: {number: 80}}}
---
apiVersion: v1
kind: Service
metadata: {name: frontend}
spec:
  selector: {app: frontend}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: frontend}
spec:
  selector: {matchLabels: {app: frontend}}
  template:
    metadata: {labels: {app: frontend}}
    spec:
      containers: [{name: web, image: nginx, ports: [{containerPort: 8080}]}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const ingress of subjects.ingresses) {
      const backends: { backend: IngressBackend; where: string }[] = [];
      if (ingress.defaultBackend) backends.push({ backend: ingress.defaultBackend, where: msg('requests that match no rule (the default backend)') });
      for (const p of ingress.paths)
        backends.push({ backend: p.backend, where: msg('requests for {0}', `${p.host ?? msg('any host')}${p.path.startsWith('/') ? '' : ' '}${p.path}`) });
      for (const { backend, where } of backends) {
        if (backend.resource || backend.serviceName === undefined) continue;
        const finding = checkBackend(lookup, ingress, backend, where, msg);
        if (finding) yield finding;
      }
    }
  },
});

function checkBackend(lookup: Lookup, ingress: Ingress, backend: IngressBackend, where: string, msg: Msg): FindingDraft | undefined {
  const name = backend.serviceName!;
  const service = lookup.service(ingress.namespace, name);
  if (!service) {
    // An operator may create the Service, or a Service written without a namespace may be applied here (semantics §9.2).
    if (!closestName(name, namesOf(lookup.servicesIn(ingress.namespace))) && lookup.serviceUnknown(ingress.namespace, name, ingress.uri)) return undefined;
    return missingService(lookup, ingress, backend, where, msg);
  }
  // An ExternalName Service may legitimately declare no ports; controllers that support it use the backend port as is.
  if (service.type === 'ExternalName' && !service.ports.length) return undefined;
  const { portNumber, portName } = backend;
  if (portNumber !== undefined && service.ports.some((p) => p.port === portNumber)) return undefined;
  if (portName !== undefined && service.ports.some((p) => p.name === portName)) return undefined;
  if (portNumber === undefined && portName === undefined) return undefined;
  const has = service.ports.length ? service.ports.map((p) => (p.name ? `${p.port} (${p.name})` : `${p.port}`)).join(', ') : msg('none');
  const written = portNumber !== undefined ? msg('port {0}', portNumber) : msg('port "{0}"', portName!);
  const targetHint =
    portNumber !== undefined && service.ports.some((p) => p.targetPort === portNumber)
      ? msg('{0} is a targetPort of the Service; an Ingress must name the Service port, not the container port.', portNumber)
      : '';
  const fixes: Fix[] = [];
  if (backend.portSpan) {
    const span = backend.portSpan;
    if (portNumber !== undefined) {
      const viaTarget = service.ports.filter((p) => p.targetPort === portNumber && p.port !== undefined);
      const candidate = viaTarget.length === 1 ? viaTarget[0] : service.ports.length === 1 ? service.ports[0] : undefined;
      // One obvious port (the one whose targetPort was written, or the only one) is preferred; otherwise every port is offered.
      const offered = candidate ? [candidate] : service.ports.slice(0, maxOffered);
      for (const p of offered) {
        if (p.port === undefined) continue;
        fixes.push({
          title: p.name ? msg('Use port {0} ({1}) of Service "{2}"', p.port, p.name, name) : msg('Use port {0} of Service "{1}"', p.port, name),
          edits: [{ uri: ingress.uri, span, newText: String(p.port) }],
          isPreferred: candidate ? true : undefined,
        });
      }
    } else {
      const names = service.ports.map((p) => p.name).filter((n): n is string => n !== undefined);
      const guess = closestName(portName!, names);
      const offered = guess ? [guess.name] : names.slice(0, maxOffered);
      for (const n of offered)
        fixes.push({
          title: msg('Use port "{0}" of Service "{1}"', n, name),
          edits: [{ uri: ingress.uri, span, newText: n }],
          isPreferred: guess?.clear || undefined,
        });
    }
  }
  return {
    uri: ingress.uri,
    span: backend.portSpan ?? backend.serviceNameSpan ?? backend.span,
    message: joinSentences([
      msg(
        'Ingress "{0}" sends {1} to {2} of Service "{3}", but that Service has no such port (its ports: {4}), so the ingress controller cannot route these requests.',
        ingress.name,
        where,
        written,
        name,
        has,
      ),
      ...(targetHint ? [targetHint] : []),
    ]),
    resource: refOf(ingress),
    related: [{ uri: service.uri, span: service.portsSpan ?? service.nameSpan, message: msg('The ports of Service "{0}"', name) }],
    fixes,
  };
}

function missingService(lookup: Lookup, ingress: Ingress, backend: IngressBackend, where: string, msg: Msg): FindingDraft {
  const name = backend.serviceName!;
  const guess = closestName(name, namesOf(lookup.servicesIn(ingress.namespace)));
  const elsewhere: Service | undefined = lookup.servicesNamed(name).find((s) => s.name === name && s.namespace !== ingress.namespace);
  const parts = [
    msg(
      'Ingress "{0}" sends {1} to Service "{2}", which does not exist in namespace "{3}", so the ingress controller cannot route these requests.',
      ingress.name,
      where,
      name,
      ingress.namespace,
    ),
  ];
  if (guess) parts.push(msg('Did you mean "{0}"?', guess.name));
  if (elsewhere)
    parts.push(msg('A Service "{0}" exists in namespace "{1}", but an Ingress can only route to Services in its own namespace.', name, elsewhere.namespace));
  const closest = guess ? lookup.service(ingress.namespace, guess.name) : undefined;
  return {
    uri: ingress.uri,
    span: backend.serviceNameSpan ?? backend.span,
    message: joinSentences(parts),
    resource: refOf(ingress),
    related: [
      ...(closest ? [{ uri: closest.uri, span: closest.nameSpan, message: msg('Service "{0}" has the closest name', closest.name) }] : []),
      ...(elsewhere
        ? [
            {
              uri: elsewhere.uri,
              span: elsewhere.nameSpan,
              message: msg('Service "{0}" is in namespace "{1}", not "{2}"', name, elsewhere.namespace, ingress.namespace),
            },
          ]
        : []),
    ],
    fixes:
      guess && backend.serviceNameSpan
        ? [
            {
              title: msg('Change the backend Service to "{0}"', guess.name),
              edits: [{ uri: ingress.uri, span: backend.serviceNameSpan, newText: guess.name }],
              isPreferred: guess.clear || undefined,
            },
          ]
        : [],
  };
}
