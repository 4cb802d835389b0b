// ingress-backend-missing: an Ingress backend that names a Service missing from the Ingress's namespace, or a port that Service lacks.

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
  *check({ subjects, lookup }) {
    for (const ingress of subjects.ingresses) {
      const backends: { backend: IngressBackend; where: string }[] = [];
      if (ingress.defaultBackend) backends.push({ backend: ingress.defaultBackend, where: 'requests that match no rule (the default backend)' });
      for (const p of ingress.paths) backends.push({ backend: p.backend, where: `requests for ${p.host ?? 'any host'}${p.path.startsWith('/') ? '' : ' '}${p.path}` });
      for (const { backend, where } of backends) {
        if (backend.resource || backend.serviceName === undefined) continue;
        const finding = checkBackend(lookup, ingress, backend, where);
        if (finding) yield finding;
      }
    }
  },
});

function checkBackend(lookup: Lookup, ingress: Ingress, backend: IngressBackend, where: string): FindingDraft | undefined {
  const name = backend.serviceName!;
  const service = lookup.service(ingress.namespace, name);
  if (!service) {
    // An operator may create the Service, or a Service written without a namespace may be applied here (semantics §9.2).
    if (!closestName(name, namesOf(lookup.servicesIn(ingress.namespace))) && lookup.serviceUnknown(ingress.namespace, name, ingress.uri)) return undefined;
    return missingService(lookup, ingress, backend, where);
  }
  // An ExternalName Service may legitimately declare no ports; controllers that support it use the backend port as is.
  if (service.type === 'ExternalName' && !service.ports.length) return undefined;
  const { portNumber, portName } = backend;
  if (portNumber !== undefined && service.ports.some((p) => p.port === portNumber)) return undefined;
  if (portName !== undefined && service.ports.some((p) => p.name === portName)) return undefined;
  if (portNumber === undefined && portName === undefined) return undefined;
  const has = service.ports.length ? service.ports.map((p) => (p.name ? `${p.port} (${p.name})` : `${p.port}`)).join(', ') : 'none';
  const written = portNumber !== undefined ? `port ${portNumber}` : `port "${portName}"`;
  const targetHint = portNumber !== undefined && service.ports.some((p) => p.targetPort === portNumber)
    ? ` ${portNumber} is a targetPort of the Service; an Ingress must name the Service port, not the container port.`
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
        fixes.push({ title: `Use port ${p.port}${p.name ? ` (${p.name})` : ''} of Service "${name}"`, edits: [{ uri: ingress.uri, span, newText: String(p.port) }], isPreferred: candidate ? true : undefined });
      }
    } else {
      const names = service.ports.map((p) => p.name).filter((n): n is string => n !== undefined);
      const guess = closestName(portName!, names);
      const offered = guess ? [guess.name] : names.slice(0, maxOffered);
      for (const n of offered) fixes.push({ title: `Use port "${n}" of Service "${name}"`, edits: [{ uri: ingress.uri, span, newText: n }], isPreferred: guess?.clear || undefined });
    }
  }
  return {
    uri: ingress.uri,
    span: backend.portSpan ?? backend.serviceNameSpan ?? backend.span,
    message: `Ingress "${ingress.name}" sends ${where} to ${written} of Service "${name}", but that Service has no such port (its ports: ${has}), so the ingress controller cannot route these requests.${targetHint}`,
    resource: refOf(ingress),
    related: [{ uri: service.uri, span: service.portsSpan ?? service.nameSpan, message: `The ports of Service "${name}"` }],
    fixes,
  };
}

function missingService(lookup: Lookup, ingress: Ingress, backend: IngressBackend, where: string): FindingDraft {
  const name = backend.serviceName!;
  const guess = closestName(name, namesOf(lookup.servicesIn(ingress.namespace)));
  const elsewhere: Service | undefined = lookup.servicesNamed(name).find((s) => s.name === name && s.namespace !== ingress.namespace);
  const parts = [`Ingress "${ingress.name}" sends ${where} to Service "${name}", which does not exist in namespace "${ingress.namespace}", so the ingress controller cannot route these requests.`];
  if (guess) parts.push(`Did you mean "${guess.name}"?`);
  if (elsewhere) parts.push(`A Service "${name}" exists in namespace "${elsewhere.namespace}", but an Ingress can only route to Services in its own namespace.`);
  const closest = guess ? lookup.service(ingress.namespace, guess.name) : undefined;
  return {
    uri: ingress.uri,
    span: backend.serviceNameSpan ?? backend.span,
    message: parts.join(' '),
    resource: refOf(ingress),
    related: [
      ...(closest ? [{ uri: closest.uri, span: closest.nameSpan, message: `Service "${closest.name}" has the closest name` }] : []),
      ...(elsewhere ? [{ uri: elsewhere.uri, span: elsewhere.nameSpan, message: `Service "${name}" is in namespace "${elsewhere.namespace}", not "${ingress.namespace}"` }] : []),
    ],
    fixes: guess && backend.serviceNameSpan ? [{ title: `Change the backend Service to "${guess.name}"`, edits: [{ uri: ingress.uri, span: backend.serviceNameSpan, newText: guess.name }], isPreferred: guess.clear || undefined }] : [],
  };
}
