// The path of one Service as semantic data, with the objects (and so the source offsets) it passes through and a
// verdict per hop: how its name resolves, who can call it (node ports, load balancer, external IPs, Ingress rules,
// Gateway routes), whether kube-proxy programs it, the endpoints behind it (one group per workload, not per pod), the
// container port each Service port lands on, the NetworkPolicies in the way, and whether any request gets through.
// features/traceGraph.ts draws it.

import type { EndpointPort, EndpointSlice, Endpoints, NetworkPolicy, Service, ServicePort, Workload } from '../model/resources';
import type { Analysis, IngressRoute } from './analysis';
import { serviceFqdn, zoneOf } from './dnsRecords';
import type { EndpointGroup, ManualEndpoints, ServiceEndpoints } from './endpoints';
import { routesTo, type RoutePath } from './gatewayTrace';
import { isIP } from './ip';

/** How the Service's own name resolves (semantics §2): always, only while a pod is ready, or not at all (NXDOMAIN). */
export type DnsVerdict = 'resolves' | 'while-ready' | 'nxdomain';

export interface ServicePath {
  readonly service: Service;
  readonly zone: string;
  readonly fqdn: string;
  readonly dns: DnsVerdict;
  /** For an ExternalName Service: its target without the final dot, and whether CoreDNS cannot answer it (§3). */
  readonly external?: { readonly target?: string; readonly broken: boolean };
  /** The ports every node opens for a NodePort or LoadBalancer Service (§5.6). */
  readonly nodePorts: readonly ServicePort[];
  readonly loadBalancer: boolean;
  readonly externalIPs: readonly string[];
  /** The Ingress rules (and default backends) in the Service's namespace that send to it. */
  readonly ingress: readonly IngressRoute[];
  /** The Gateway API routes with a backendRef to it (gateway semantics §G9). */
  readonly routes: readonly RoutePath[];
  /** kube-proxy programs the Service: not headless and not ExternalName (§5.4). */
  readonly proxied: boolean;
  readonly endpoints: ServiceEndpoints;
  /** Per selected workload: its endpoint group and the NetworkPolicies that select its pods for ingress. */
  readonly groups: readonly GroupPath[];
  readonly manual: readonly ManualPath[];
  /** Neither a selected workload nor a mirrored manual Endpoints object: nothing receives the traffic. */
  readonly noEndpoints: boolean;
  /** The StatefulSets whose serviceName is this Service. */
  readonly governs: readonly Workload[];
  /** Some request can reach a pod (or, for an ExternalName, its target resolves). */
  readonly reachable: boolean;
  /** Endpoints and ports exist, but every group with them is isolated by policies that allow no ingress. */
  readonly deniedByPolicy: boolean;
}

export interface GroupPath {
  readonly group: EndpointGroup;
  /** The policies selecting the pods with policy type Ingress. */
  readonly policies: readonly NetworkPolicy[];
}

export interface ManualPath {
  readonly manual: ManualEndpoints;
  /** Mirrored, with at least one ready address. */
  readonly ok: boolean;
  /** Per Service port (in order), the port of the Endpoints object that receives it. */
  readonly ports: readonly { readonly servicePort: ServicePort; readonly endpointPort?: EndpointPort }[];
}

export function servicePath(analysis: Analysis, service: Service): ServicePath {
  const { cluster, config } = analysis;
  const zone = zoneOf(config);
  const fqdn = serviceFqdn(service.name, service.namespace, zone);
  const eps = analysis.endpointsOf(service);
  const isExternal = service.type === 'ExternalName';
  const externalTarget = service.externalName?.replace(/\.$/, '');
  const externalBroken = isExternal && (!externalTarget || isIP(externalTarget));

  const nameRecords = analysis.dnsRecordsFor(service).filter((r) => r.name === fqdn && r.type !== 'SRV' && r.type !== 'PTR');
  const dns: DnsVerdict = !nameRecords.length ? 'nxdomain' : nameRecords.every((r) => r.condition === 'while-ready') ? 'while-ready' : 'resolves';
  const proxied = !isExternal && !service.headless;

  let reachable = isExternal ? !externalBroken : false;
  let deniedByPolicy = false;
  const groups: GroupPath[] = [];
  const manual: ManualPath[] = [];
  if (!isExternal) {
    for (const g of eps.groups) {
      const policies = analysis.policiesSelecting(g.workload).filter((p) => p.policyTypes.includes('Ingress'));
      groups.push({ group: g, policies });
      const denyAll = policies.length > 0 && policies.every((p) => p.ingress.length === 0);
      const anyPort = g.ports.length === 0 || g.ports.some((t) => t.containerPort !== undefined);
      const zero = g.replicas === 0;
      if (!zero && anyPort && !denyAll) reachable = true;
      if (!zero && anyPort && denyAll) deniedByPolicy = true;
    }
    for (const m of eps.manual) {
      const r = m.resource;
      const ok = m.mirrored && m.addresses.some((a) => a.ready);
      const epPorts = r.kind === 'Endpoints' ? (r as Endpoints).subsets.flatMap((s) => s.ports) : (r as EndpointSlice).ports;
      const ports = service.ports.map((p) => ({
        servicePort: p,
        endpointPort:
          epPorts.find((e) => (e.name ?? '') === (p.name ?? '') && e.protocol === p.protocol) ??
          (epPorts.length === 1 && service.ports.length === 1 ? epPorts[0] : undefined),
      }));
      manual.push({ manual: m, ok, ports });
      if (ok && (service.ports.length === 0 || ports.some((p) => p.endpointPort))) reachable = true;
    }
  }

  return {
    service,
    zone,
    fqdn,
    dns,
    ...(isExternal ? { external: { ...(externalTarget ? { target: externalTarget } : {}), broken: externalBroken } } : {}),
    nodePorts: !isExternal && (service.type === 'NodePort' || service.type === 'LoadBalancer') ? service.ports : [],
    loadBalancer: !isExternal && service.type === 'LoadBalancer',
    externalIPs: isExternal ? [] : service.externalIPs,
    ingress: analysis.ingressRoutes().filter((r) => r.ingress.namespace === service.namespace && r.serviceName === service.name),
    routes: routesTo(cluster, service),
    proxied,
    endpoints: eps,
    groups,
    manual,
    noEndpoints: !isExternal && !eps.groups.length && !eps.manual.some((m) => m.mirrored),
    governs: cluster.workloadsIn(service.namespace).filter((w) => w.kind === 'StatefulSet' && w.serviceName === service.name),
    reachable,
    deniedByPolicy,
  };
}
