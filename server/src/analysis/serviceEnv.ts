// The Service environment variables kubelet gives a container (semantics §4): `API_SERVICE_HOST`, `API_PORT_80_TCP`…

import type { Cluster } from '../model/cluster';
import type { Service } from '../model/resources';
import type { ServiceEnvVar } from './analysis';
import { isFirstOfName } from './dnsRecords';
import { isIP, isIPv6 } from './ip';

/**
 * semantics §4: every Service of the pod's namespace with a cluster IP (when enableServiceLinks, the default), plus the
 * master Service `kubernetes` of `default` always; a same-namespace `kubernetes` Service overrides the master one.
 */
export function serviceEnvFor(cluster: Cluster, namespace: string, enableServiceLinks = true): ServiceEnvVar[] {
  const services: Service[] = [];
  if (enableServiceLinks) services.push(...cluster.servicesIn(namespace).filter((s) => isFirstOfName(cluster, s) && hasClusterIP(s)));
  if (!services.some((s) => s.name === 'kubernetes')) {
    const master = cluster.service('default', 'kubernetes');
    services.unshift(master && hasClusterIP(master) ? master : masterService);
  }
  return services.flatMap(variablesOf);
}

/** Only Services with a cluster IP produce variables: headless and ExternalName Services give none. */
function hasClusterIP(s: Service): boolean {
  return s.type !== 'ExternalName' && !s.headless;
}

/** `makeEnvVariableName`: upper case, `-` → `_`. */
export function envName(s: string): string {
  return s.replace(/-/g, '_').toUpperCase();
}

function variablesOf(service: Service): ServiceEnvVar[] {
  const literal = [service.clusterIPs[0], service.clusterIP].find((ip): ip is string => !!ip && isIP(ip));
  const host = literal ?? `<cluster IP of ${service.name}>`;
  const hostPort = (port: number) => (literal && isIPv6(literal) ? `[${literal}]:${port}` : `${host}:${port}`);
  const prefix = envName(service.name);
  const out: ServiceEnvVar[] = [];
  const add = (name: string, value: string) => out.push({ name, value, service });
  const ports = service.ports.filter((p) => p.port !== undefined);
  add(`${prefix}_SERVICE_HOST`, host);
  if (ports.length) add(`${prefix}_SERVICE_PORT`, String(ports[0].port));
  for (const p of ports) if (p.name) add(`${prefix}_SERVICE_PORT_${envName(p.name)}`, String(p.port));
  if (ports.length) add(`${prefix}_PORT`, `${ports[0].protocol.toLowerCase()}://${hostPort(ports[0].port!)}`);
  for (const p of ports) {
    const proto = p.protocol.toUpperCase();
    const base = `${prefix}_PORT_${p.port}_${proto}`;
    add(base, `${p.protocol.toLowerCase()}://${hostPort(p.port!)}`);
    add(`${base}_PROTO`, p.protocol.toLowerCase());
    add(`${base}_PORT`, String(p.port));
    add(`${base}_ADDR`, host);
  }
  return out;
}

/** The API server's Service, which every cluster has in `default` (443/TCP, named https). */
const masterService: Service = {
  kind: 'Service',
  apiVersion: 'v1',
  name: 'kubernetes',
  namespace: 'default',
  namespaceExplicit: true,
  uri: '',
  docIndex: 0,
  span: { start: 0, end: 0 },
  nameSpan: { start: 0, end: 0 },
  kindSpan: { start: 0, end: 0 },
  labels: new Map([
    ['component', 'apiserver'],
    ['provider', 'kubernetes'],
  ]),
  annotations: new Map(),
  source: { text: '', kept: { type: 'map', span: { start: 0, end: 0 }, entries: new Map() } },
  type: 'ClusterIP',
  clusterIPs: [],
  headless: false,
  selectorEmpty: false,
  selectorEntrySpans: new Map(),
  ports: [{ index: 0, name: 'https', port: 443, protocol: 'TCP', targetPort: 6443, targetPortExplicit: true, span: { start: 0, end: 0 } }],
  publishNotReadyAddresses: false,
  sessionAffinity: 'None',
  externalIPs: [],
  ipFamilies: [],
};
