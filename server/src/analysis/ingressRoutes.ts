// Ingress host/path → Service → Service port → targetPort → the container port in each selected workload.

import type { Cluster } from '../model/cluster';
import type { Ingress, IngressBackend, Service } from '../model/resources';
import type { IngressRoute } from './analysis';
import { closestName, namesOf } from './closestName';
import type { ServiceEndpoints } from './endpoints';

export function resolveIngressRoutes(cluster: Cluster, endpointsOf: (s: Service) => ServiceEndpoints): IngressRoute[] {
  const out: IngressRoute[] = [];
  for (const ingress of cluster.ingresses) {
    for (const p of ingress.paths) out.push(routeOf(cluster, endpointsOf, ingress, p.backend, p.host, p.path, false));
    if (ingress.defaultBackend) out.push(routeOf(cluster, endpointsOf, ingress, ingress.defaultBackend, undefined, '/', true));
  }
  return out;
}

function routeOf(
  cluster: Cluster,
  endpointsOf: (s: Service) => ServiceEndpoints,
  ingress: Ingress,
  backend: IngressBackend,
  host: string | undefined,
  path: string,
  isDefault: boolean,
): IngressRoute {
  const base = { ingress, ...(host ? { host } : {}), path, backendSpan: backend.span, ...(isDefault ? { isDefault } : {}) };
  if (backend.resource || backend.serviceName === undefined) return base;
  const serviceName = backend.serviceName;
  // An Ingress can only point at Services in its own namespace.
  const service = cluster.service(ingress.namespace, serviceName);
  if (!service) {
    const close = closestName(serviceName, namesOf(cluster.servicesIn(ingress.namespace)));
    const problem = `No Service "${serviceName}" in namespace "${ingress.namespace}"${close ? `; did you mean "${close}"?` : ' (an Ingress can only send traffic to Services in its own namespace).'}`;
    return { ...base, serviceName, problem };
  }
  const servicePort =
    backend.portNumber !== undefined
      ? service.ports.find((p) => p.port === backend.portNumber)
      : backend.portName !== undefined
        ? service.ports.find((p) => p.name === backend.portName)
        : service.ports.length === 1
          ? service.ports[0]
          : undefined;
  if (!servicePort && service.type !== 'ExternalName') {
    const list = service.ports.map((p) => (p.name ? `${p.port} (${p.name})` : `${p.port}`)).join(', ') || 'none';
    const wanted = backend.portNumber ?? (backend.portName !== undefined ? `"${backend.portName}"` : undefined);
    const problem =
      wanted === undefined
        ? `The backend names no port and Service "${service.name}" has ${service.ports.length} ports (${list}); name one.`
        : `Service "${service.name}" has no port ${wanted}; its ports are ${list}.`;
    return { ...base, serviceName, service, problem };
  }
  const targets = servicePort ? endpointsOf(service).groups.map((g) => ({ workload: g.workload, target: g.ports[servicePort.index] })) : [];
  return { ...base, serviceName, service, ...(servicePort ? { servicePort } : {}), targets };
}
