// Ingress host/path → Service → Service port → targetPort → the container port in each selected workload.

import { messages, type Msg } from '../l10n/l10n';
import type { AnalysisConfig } from '../model/config';
import type { Cluster } from '../model/cluster';
import type { Ingress, IngressBackend, Service } from '../model/resources';
import type { IngressRoute } from './analysis';
import { closestName, namesOf } from './closestName';
import type { ServiceEndpoints } from './endpoints';

/** The routes of every Ingress, their problems worded in the settings' locale (an Analysis is one per settings object). */
export function resolveIngressRoutes(cluster: Cluster, endpointsOf: (s: Service) => ServiceEndpoints, config: AnalysisConfig): IngressRoute[] {
  const msg = messages(config.locale);
  const out: IngressRoute[] = [];
  for (const ingress of cluster.ingresses) {
    for (const p of ingress.paths) out.push(routeOf(cluster, endpointsOf, msg, ingress, p.backend, p.host, p.path, false));
    if (ingress.defaultBackend) out.push(routeOf(cluster, endpointsOf, msg, ingress, ingress.defaultBackend, undefined, '/', true));
  }
  return out;
}

function routeOf(
  cluster: Cluster,
  endpointsOf: (s: Service) => ServiceEndpoints,
  msg: Msg,
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
    const problem = close
      ? msg('No Service "{0}" in namespace "{1}"; did you mean "{2}"?', serviceName, ingress.namespace, close)
      : msg('No Service "{0}" in namespace "{1}" (an Ingress can only send traffic to Services in its own namespace).', serviceName, ingress.namespace);
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
    const list = service.ports.map((p) => (p.name ? `${p.port} (${p.name})` : `${p.port}`)).join(msg(', ')) || msg('none');
    const wanted = backend.portNumber ?? (backend.portName !== undefined ? `"${backend.portName}"` : undefined);
    const problem =
      wanted === undefined
        ? msg('The backend names no port and Service "{0}" has {1} ports ({2}); name one.', service.name, service.ports.length, list)
        : msg('Service "{0}" has no port {1}; its ports are {2}.', service.name, wanted, list);
    return { ...base, serviceName, service, problem };
  }
  const targets = servicePort ? endpointsOf(service).groups.map((g) => ({ workload: g.workload, target: g.ports[servicePort.index] })) : [];
  return { ...base, serviceName, service, ...(servicePort ? { servicePort } : {}), targets };
}
