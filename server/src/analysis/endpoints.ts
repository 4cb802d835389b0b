// Which pods back a Service and which container port each Service port lands on (semantics §1.1, §1.2, §5).

import type { Cluster } from '../model/cluster';
import { phrase, type Phrase } from '../l10n/l10n';
import { podsMatching } from '../model/podLabels';
import type { Container, ContainerPort, EndpointAddress, Endpoints, EndpointSlice, PodTemplate, Service, ServicePort, Workload } from '../model/resources';

/** Where one Service port lands in one pod template. */
export interface PortTarget {
  readonly servicePort: ServicePort;
  /** The container port number traffic reaches; undefined when a named targetPort does not resolve in this template. */
  readonly containerPort?: number;
  readonly container?: Container;
  readonly declared?: ContainerPort;
  /** Why it did not resolve: no port of that name, or one with that name but another protocol. */
  readonly unresolved?: 'missing-name' | 'protocol-mismatch';
}

/** The pods of one workload that a Service selects. */
export interface EndpointGroup {
  readonly workload: Workload;
  /** Desired pods (replicas); undefined for DaemonSets (one per node). */
  readonly replicas?: number;
  /** A readiness probe gates the pods' DNS and kube-proxy membership (semantics §2.4), unless publishNotReadyAddresses. */
  readonly readinessGated: boolean;
  /** StatefulSet pod names in ordinal order (`web-0`, `web-1`…). */
  readonly podNames: readonly string[];
  readonly ports: readonly PortTarget[];
}

/** A manual Endpoints object or EndpointSlice that supplies addresses to a selector-less Service. */
export interface ManualEndpoints {
  readonly resource: Endpoints | EndpointSlice;
  readonly addresses: readonly EndpointAddress[];
  /** False when the mirroring controller ignores it (semantics §1.2). */
  readonly mirrored: boolean;
  /** Why it is ignored (when not mirrored). */
  readonly reason?: Phrase;
}

export type EndpointSource = 'selector' | 'manual' | 'none' | 'external-name';

export interface ServiceEndpoints {
  readonly service: Service;
  readonly source: EndpointSource;
  readonly groups: readonly EndpointGroup[];
  readonly manual: readonly ManualEndpoints[];
}

export function resolveEndpoints(cluster: Cluster, service: Service): ServiceEndpoints {
  // semantics §1.1 (1): ExternalName Services get no endpoints.
  if (service.type === 'ExternalName') return { service, source: 'external-name', groups: [], manual: [] };
  // semantics §1.1 (2): no selector (absent or `{}`) → endpoints only from manual objects.
  if (!service.selector) {
    const manual = manualEndpointsFor(cluster, service);
    return { service, source: manual.some((m) => m.mirrored) ? 'manual' : 'none', groups: [], manual };
  }
  // semantics §1.1 (3): pods only in the Service's own namespace, equality match on every pair.
  const groups = cluster.workloadsMatching(service.namespace, service.selector).map((w) => endpointGroup(service, w));
  return { service, source: 'selector', groups, manual: manualEndpointsFor(cluster, service) };
}

export function endpointGroup(service: Service, workload: Workload): EndpointGroup {
  // A selector on a per-pod label (a StatefulSet pod's name or index) selects one pod (semantics §9.1).
  const selected = service.selector ? podsMatching(workload, service.selector) : workload.replicas;
  const names = statefulPodNames(workload);
  return {
    workload,
    replicas: selected,
    readinessGated: !service.publishNotReadyAddresses && workload.template.containers.some((c) => c.hasReadinessProbe),
    podNames: selected === 1 && names.length > 1 ? names.filter((n) => matchesPodName(workload, service.selector!, n)) : names,
    ports: service.ports.map((p) => resolveTargetPort(workload.template, p)),
  };
}

/** Whether the one StatefulSet pod a per-pod selector picks is the pod named `name`. */
function matchesPodName(w: Workload, selector: ReadonlyMap<string, string>, name: string): boolean {
  const ordinal = name.slice(w.name.length + 1);
  const byName = selector.get('statefulset.kubernetes.io/pod-name');
  const byIndex = selector.get('apps.kubernetes.io/pod-index');
  return (byName === undefined || byName === name) && (byIndex === undefined || byIndex === ordinal);
}

/** StatefulSet pods are `<sts>-<ordinal>` from `ordinals.start` (semantics §2.3). Capped so a huge replica count stays cheap. */
export function statefulPodNames(w: Workload, max = 1000): string[] {
  if (w.kind !== 'StatefulSet') return [];
  const n = Math.min(w.replicas ?? 1, max);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`${w.name}-${w.ordinalsStart + i}`);
  return out;
}

/**
 * semantics §5.2–5.3: a numeric targetPort is used verbatim; a named one is looked up per pod by name and protocol,
 * main containers in order first, then sidecar init containers.
 */
export function resolveTargetPort(template: PodTemplate, servicePort: ServicePort): PortTarget {
  const tp = servicePort.targetPort;
  if (typeof tp === 'number') {
    for (const c of template.containers) {
      const declared = c.ports.find((p) => p.containerPort === tp && p.protocol === servicePort.protocol);
      if (declared) return { servicePort, containerPort: tp, container: c, declared };
    }
    return { servicePort, containerPort: tp };
  }
  if (tp === undefined) return { servicePort, unresolved: 'missing-name' };
  let nameOnly = false;
  for (const c of template.containers) {
    for (const p of c.ports) {
      if (p.name !== tp) continue;
      if (p.protocol === servicePort.protocol) return { servicePort, containerPort: p.containerPort, container: c, declared: p };
      nameOnly = true;
    }
  }
  return { servicePort, unresolved: nameOnly ? 'protocol-mismatch' : 'missing-name' };
}

/** semantics §1.2: manual Endpoints are mirrored only for a selector-less Service of the same name, without the skip label. */
export function manualEndpointsFor(cluster: Cluster, service: Service): ManualEndpoints[] {
  const out: ManualEndpoints[] = [];
  for (const r of cluster.get('Endpoints', service.namespace, service.name) as Endpoints[]) {
    const addresses = r.subsets.flatMap((s) => s.addresses);
    let reason: Phrase | undefined;
    if (service.selector) reason = phrase('the Service has a selector, so the EndpointSlice controller manages its endpoints and ignores this object');
    else if (r.labels.get('endpointslice.kubernetes.io/skip-mirror') === 'true')
      reason = phrase('it carries the label {0}', 'endpointslice.kubernetes.io/skip-mirror: "true"');
    else if (r.annotations.has('control-plane.alpha.kubernetes.io/leader')) reason = phrase('it carries the leader-election annotation');
    out.push({ resource: r, addresses, mirrored: reason === undefined, reason });
  }
  for (const s of cluster.objectsIn(service.namespace)?.endpointSlices ?? []) {
    if (s.serviceName !== service.name) continue;
    // semantics §1.2: CoreDNS links a slice to its Service only through the kubernetes.io/service-name label.
    out.push({ resource: s, addresses: s.endpoints, mirrored: true });
  }
  return out;
}

/** Total desired pods behind a Service; undefined if a DaemonSet makes it depend on the node count. */
export function endpointCount(eps: ServiceEndpoints): number | undefined {
  if (eps.source === 'manual') return eps.manual.filter((m) => m.mirrored).reduce((n, m) => n + m.addresses.length, 0);
  let n = 0;
  for (const g of eps.groups) {
    if (g.replicas === undefined) return undefined;
    n += g.replicas;
  }
  return n;
}
