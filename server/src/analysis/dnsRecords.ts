// The DNS records CoreDNS will answer for the manifests, following the record tables of semantics §2 and the
// output policy of §8: every name here resolves under its condition; names that never resolve are left out.

import type { AnalysisConfig } from '../model/config';
import type { Cluster } from '../model/cluster';
import type { Span } from '../model/span';
import type { EndpointAddress, EndpointPort, Endpoints, EndpointSlice, Resource, Service, Workload } from '../model/resources';
import type { DnsCondition, DnsRecord, DnsRecordType } from './analysis';
import type { EndpointGroup, ServiceEndpoints } from './endpoints';
import { dashedIP, isIP, isIPv4, isIPv6, reverseName } from './ip';
import { push } from '../model/multiMap';

/** The cluster domain as CoreDNS matches it: lower case, no trailing dot. */
export function zoneOf(config: AnalysisConfig): string {
  return config.clusterDomain.replace(/\.+$/, '').toLowerCase();
}

export function serviceFqdn(name: string, namespace: string, zone: string): string {
  return `${name}.${namespace}.svc.${zone}`.toLowerCase();
}

/** The first Service of each kind/namespace/name: duplicates (a finding of their own) add no records. */
export function isFirstOfName(cluster: Cluster, r: Resource): boolean {
  return cluster.get(r.kind, r.namespace, r.name)[0] === r;
}

/** A hostname an endpoint publishes under its Service (semantics §1.4), with the workload or address it comes from. */
export interface EndpointHost {
  readonly label: string;
  readonly workload: Workload;
  readonly group: EndpointGroup;
  readonly span: Span;
  /** StatefulSet ordinal position after the first, for the OrderedReady note. */
  readonly laterOrdinal?: boolean;
  readonly pattern?: boolean;
}

/**
 * The hostnames the EndpointSlice controller sets for the pods of one group (semantics §1.1 `ShouldSetHostname`):
 * `spec.hostname` when `spec.subdomain` equals the Service name. StatefulSet pods get hostname `<sts>-<i>` and
 * subdomain `serviceName` (§2.3). With `endpoint_pod_names`, pods without a hostname use their pod name (§2.6),
 * which is only known for bare Pods.
 */
export function endpointHostsOf(service: Service, group: EndpointGroup, config: AnalysisConfig): { hosts: EndpointHost[]; byPodName: boolean } {
  const w = group.workload;
  if (w.kind === 'StatefulSet') {
    if (w.serviceName !== service.name) return { hosts: [], byPodName: false };
    const span = w.serviceNameSpan ?? w.nameSpan;
    return {
      hosts: group.podNames.map((label, i) => ({ label, workload: w, group, span, laterOrdinal: i > 0 && w.podManagementPolicy !== 'Parallel' })),
      byPodName: false,
    };
  }
  const t = w.template;
  if (t.hostname && t.subdomain === service.name) {
    return { hosts: [{ label: t.hostname.toLowerCase(), workload: w, group, span: t.hostnameSpan ?? w.nameSpan }], byPodName: false };
  }
  // semantics §2.6 / §1.3: the pod name stands in only below 64 characters.
  if (config.coreDns.endpointPodNames && w.kind === 'Pod' && w.name.length < 64 && !w.name.includes('.')) {
    return { hosts: [{ label: w.name.toLowerCase(), workload: w, group, span: w.nameSpan }], byPodName: true };
  }
  return { hosts: [], byPodName: false };
}

interface Draft {
  readonly name: string;
  readonly type: DnsRecordType;
  readonly answer: string;
  readonly condition: DnsCondition;
  readonly owner: Resource;
  readonly span: Span;
  readonly note?: string;
}

export interface DnsIndex {
  readonly all: readonly DnsRecord[];
  /** Records per owning resource, plus (for a Service) the per-pod names that live under it. */
  readonly byResource: ReadonlyMap<Resource, readonly DnsRecord[]>;
  /** Records by lower-case name. */
  readonly byName: ReadonlyMap<string, readonly DnsRecord[]>;
}

/** A record with the object that makes it (a Service, a workload whose pods it names, an Endpoints or EndpointSlice). */
export interface OwnedRecord {
  readonly record: DnsRecord;
  readonly owner: Resource;
}

/**
 * The records one Service gives rise to: its own name, its SRV names and the per-pod names under it (semantics §2.1,
 * §2.3). All of them live under `<service>.<namespace>.svc.<zone>`, so they are the only records any name with that
 * suffix can have. A duplicate Service (not the first of its name) adds none.
 */
export function predictServiceRecords(service: Service, cluster: Cluster, config: AnalysisConfig, eps: ServiceEndpoints): readonly OwnedRecord[] {
  if (!isFirstOfName(cluster, service)) return [];
  return serviceRecords(service, eps, config, zoneOf(config)).map((d) => ({ record: recordOf(d, service), owner: d.owner }));
}

/** Every record of the cluster: the Services' records in cluster order, then the pod-IP name patterns. */
export function predictDnsRecords(cluster: Cluster, config: AnalysisConfig, recordsOf: (s: Service) => readonly OwnedRecord[]): DnsIndex {
  return predictRecordsOf(cluster.services, cluster.workloads, cluster, config, recordsOf);
}

/**
 * The records of one namespace. Every record lives under the name of the namespace of the object that makes it, and
 * is made from that namespace's objects only (semantics §1.1: a Service's endpoints come from its own namespace;
 * §2: `<service>.<namespace>.svc`, `<pod>.<service>.<namespace>.svc`, `<a-b-c-d>.<namespace>.pod`), so a
 * namespace's records are those the whole cluster's prediction gives it.
 */
export function predictNamespaceRecords(
  namespace: string,
  cluster: Cluster,
  config: AnalysisConfig,
  recordsOf: (s: Service) => readonly OwnedRecord[],
): DnsIndex {
  return predictRecordsOf(cluster.servicesIn(namespace), cluster.workloadsIn(namespace), cluster, config, recordsOf);
}

function predictRecordsOf(
  services: readonly Service[],
  workloads: readonly Workload[],
  cluster: Cluster,
  config: AnalysisConfig,
  recordsOf: (s: Service) => readonly OwnedRecord[],
): DnsIndex {
  const zone = zoneOf(config);
  const all: DnsRecord[] = [];
  const byResource = new Map<Resource, DnsRecord[]>();
  const byName = new Map<string, DnsRecord[]>();
  const add = (record: DnsRecord, owner: Resource, under?: Service): void => {
    all.push(record);
    push(byResource, owner, record);
    if (under && under !== owner) push(byResource, under, record);
    push(byName, record.name.toLowerCase(), record);
  };

  for (const service of services) for (const { record, owner } of recordsOf(service)) add(record, owner, service);
  // semantics §2.2 P1 / §8.4: `a-b-c-d.<ns>.pod.<zone>` is answered for any IP in `pods insecure` mode and only for
  // live pod IPs in `pods verified`; the IP is unknown statically, so it is a pattern.
  if (config.coreDns.podsMode !== 'disabled') {
    for (const w of workloads) {
      if (!isFirstOfName(cluster, w)) continue;
      const note =
        config.coreDns.podsMode === 'insecure'
          ? 'CoreDNS "pods insecure" answers this for any IP written in the name; the pod IP is only known at run time.'
          : 'CoreDNS "pods verified" answers this only for the IP of a running pod in the namespace.';
      const d: Draft = {
        name: `<a-b-c-d>.${w.namespace}.pod.${zone}`,
        type: 'A',
        answer: `<pod IP of ${w.kind} ${w.name}>`,
        condition: 'config-dependent',
        owner: w,
        span: w.nameSpan,
        note,
      };
      add(recordOf(d), w);
    }
  }
  return { all, byResource, byName };
}

function recordOf(d: Draft, under?: Service): DnsRecord {
  return {
    name: d.name,
    type: d.type,
    answer: d.answer,
    condition: d.condition,
    resource: { kind: d.owner.kind, namespace: d.owner.namespace, name: d.owner.name },
    source: { uri: d.owner.uri, span: d.span },
    ...(d.note ? { note: d.note } : {}),
    ...(under ? { service: { namespace: under.namespace, name: under.name } } : {}),
  };
}

function serviceRecords(service: Service, eps: ServiceEndpoints, config: AnalysisConfig, zone: string): Draft[] {
  const fqdn = serviceFqdn(service.name, service.namespace, zone);
  const out: Draft[] = [];
  if (service.type === 'ExternalName') {
    // semantics §2.1 E1–E3: a CNAME only, never for an IP-shaped value, never SRV or sub-names.
    const target = service.externalName?.replace(/\.$/, '');
    if (!target || isIP(target)) return out;
    out.push({
      name: fqdn,
      type: 'CNAME',
      answer: `${target.toLowerCase()}.`,
      condition: 'always',
      owner: service,
      span: service.externalNameSpan ?? service.nameSpan,
    });
    return out;
  }
  if (!service.headless) out.push(...clusterIPRecords(service, fqdn));
  const podDerived = service.headless ? headlessPodRecords(service, eps, config, fqdn) : clusterIPPodRecords(service, eps, config, fqdn);
  out.push(...podDerived);
  out.push(...manualRecords(service, eps, fqdn));
  return out;
}

/** semantics §2.1 S1, S2, S4: independent of endpoints and readiness. */
function clusterIPRecords(service: Service, fqdn: string): Draft[] {
  const out: Draft[] = [];
  const ips = (service.clusterIPs.length ? service.clusterIPs : service.clusterIP ? [service.clusterIP] : []).filter(isIP);
  if (ips.length) {
    for (const ip of ips)
      out.push({
        name: fqdn,
        type: isIPv6(ip) ? 'AAAA' : 'A',
        answer: ip,
        condition: 'always',
        owner: service,
        span: service.clusterIPSpan ?? service.nameSpan,
      });
  } else {
    const families = service.ipFamilies.length ? service.ipFamilies : ['IPv4'];
    for (const f of families) {
      const v6 = f === 'IPv6';
      out.push({
        name: fqdn,
        type: v6 ? 'AAAA' : 'A',
        answer: `<cluster ${v6 ? 'IPv6' : 'IP'} of ${service.name}, allocated when it is created>`,
        condition: 'always',
        owner: service,
        span: service.nameSpan,
      });
    }
  }
  for (const p of service.ports) {
    // semantics §2.1 S2 / §5.8: only named ports; the port is the Service port.
    if (!p.name || p.port === undefined) continue;
    out.push({
      name: `_${p.name}._${p.protocol.toLowerCase()}.${fqdn}`.toLowerCase(),
      type: 'SRV',
      answer: `0 100 ${p.port} ${fqdn}.`,
      condition: 'always',
      owner: service,
      span: p.nameSpan ?? p.span,
    });
  }
  for (const ip of ips) {
    const rev = reverseName(ip);
    if (rev)
      out.push({
        name: rev,
        type: 'PTR',
        answer: `${fqdn}.`,
        condition: 'always',
        owner: service,
        span: service.clusterIPSpan ?? service.nameSpan,
        note: "Answered when the Corefile serves the reverse zones (kubeadm's does).",
      });
  }
  return out;
}

function readinessNote(service: Service, group: EndpointGroup): string {
  if (service.publishNotReadyAddresses) return 'publishNotReadyAddresses: answered as soon as the pod has an IP, Ready or not.';
  return group.readinessGated ? 'Answered only while the pod passes its readiness probe.' : 'Answered while the pod is running and Ready.';
}

/** semantics §2.1 H1–H3 and §2.3 for the pods a headless Service selects. */
function headlessPodRecords(service: Service, eps: ServiceEndpoints, config: AnalysisConfig, fqdn: string): Draft[] {
  const out: Draft[] = [];
  for (const group of eps.groups) {
    const w = group.workload;
    // A workload scaled to zero has no pods, so nothing answers for it.
    if (group.replicas === 0) continue;
    const note = readinessNote(service, group);
    out.push(
      ...familyRecords(service).map((type) => ({
        name: fqdn,
        type,
        answer: `<pod IPs of ${w.kind} ${w.name}>`,
        condition: 'while-ready' as const,
        owner: service,
        span: service.selectorSpan ?? service.nameSpan,
        note,
      })),
    );
    const { hosts, byPodName } = endpointHostsOf(service, group, config);
    for (const h of hosts) {
      const hostNote = h.laterOrdinal ? `${note} With podManagementPolicy OrderedReady, ${h.label} is created only after the pods before it are Ready.` : note;
      for (const type of familyRecords(service)) {
        out.push({
          name: `${h.label}.${fqdn}`,
          type,
          answer: podIPOf(h),
          condition: byPodName ? 'config-dependent' : 'while-ready',
          owner: w,
          span: h.span,
          note: byPodName ? 'Needs the CoreDNS option endpoint_pod_names.' : hostNote,
        });
      }
    }
    for (const target of group.ports) {
      const p = target.servicePort;
      // semantics §2.1 H3: named Service ports only; the port is the resolved container port; pods lacking it are absent.
      if (!p.name || target.containerPort === undefined) continue;
      const name = `_${p.name}._${p.protocol.toLowerCase()}.${fqdn}`.toLowerCase();
      if (hosts.length && !byPodName) {
        for (const h of hosts)
          out.push({
            name,
            type: 'SRV',
            answer: `0 100 ${target.containerPort} ${h.label}.${fqdn}.`,
            condition: 'while-ready',
            owner: service,
            span: p.nameSpan ?? p.span,
            note,
          });
      } else {
        const label = config.coreDns.endpointPodNames ? '<pod name>' : '<a-b-c-d>';
        out.push({
          name,
          type: 'SRV',
          answer: `0 100 ${target.containerPort} ${label}.${fqdn}. (one per ready pod of ${w.kind} ${w.name})`,
          condition: 'while-ready',
          owner: service,
          span: p.nameSpan ?? p.span,
          note,
        });
      }
    }
  }
  return out;
}

/** semantics §2.1 S5: per-endpoint names under a Service with a cluster IP are a CoreDNS extension. */
function clusterIPPodRecords(service: Service, eps: ServiceEndpoints, config: AnalysisConfig, fqdn: string): Draft[] {
  const out: Draft[] = [];
  for (const group of eps.groups) {
    if (group.replicas === 0) continue;
    const { hosts, byPodName } = endpointHostsOf(service, group, config);
    for (const h of hosts) {
      out.push({
        name: `${h.label}.${fqdn}`,
        type: 'A',
        answer: podIPOf(h),
        condition: byPodName ? 'config-dependent' : 'coredns-only',
        owner: h.workload,
        span: h.span,
        note: `CoreDNS answers this while the pod is ready, but ${service.name} has a cluster IP: it is not in the DNS specification, kube-dns does not serve it, and zone transfers leave it out. Make the Service headless (clusterIP: None) for stable per-pod names.`,
      });
    }
  }
  return out;
}

/** Ready addresses with their ports, for manual Endpoints (mirrored, semantics §1.2) and EndpointSlices. */
function manualAddresses(eps: ServiceEndpoints): { resource: Endpoints | EndpointSlice; address: EndpointAddress; ports: readonly EndpointPort[] }[] {
  const out: { resource: Endpoints | EndpointSlice; address: EndpointAddress; ports: readonly EndpointPort[] }[] = [];
  for (const m of eps.manual) {
    if (!m.mirrored) continue;
    const r = m.resource;
    // semantics §1.2 / §2.4: notReadyAddresses (and slice endpoints with ready: false) never answer, whatever publishNotReadyAddresses says.
    if (r.kind === 'Endpoints') {
      for (const s of (r as Endpoints).subsets)
        for (const a of s.addresses) if (a.ready && a.ip && isIP(a.ip)) out.push({ resource: r, address: a, ports: s.ports });
    } else {
      const slice = r as EndpointSlice;
      for (const a of slice.endpoints) if (a.ready && a.ip && isIP(a.ip)) out.push({ resource: r, address: a, ports: slice.ports });
    }
  }
  return out;
}

function manualRecords(service: Service, eps: ServiceEndpoints, fqdn: string): Draft[] {
  const out: Draft[] = [];
  // semantics §1.1 (2): with a selector, the EndpointSlice controller owns the endpoints; manual objects are ignored
  // except EndpointSlices that carry the service-name label, which CoreDNS reads regardless.
  for (const { resource, address, ports } of manualAddresses(eps)) {
    const ip = address.ip!;
    const type: DnsRecordType = isIPv4(ip) ? 'A' : 'AAAA';
    const label = address.hostname?.toLowerCase();
    const via = `${resource.kind} ${resource.name}`;
    if (service.headless) {
      out.push({ name: fqdn, type, answer: ip, condition: 'always', owner: resource, span: address.span, note: `A ready address of ${via}.` });
      if (label) out.push({ name: `${label}.${fqdn}`, type, answer: ip, condition: 'always', owner: resource, span: address.span });
      else
        out.push({
          name: `${dashedIP(ip)}.${fqdn}`,
          type,
          answer: ip,
          condition: 'config-dependent',
          owner: resource,
          span: address.span,
          note: 'Dashed-IP endpoint names are a CoreDNS behaviour outside the DNS specification.',
        });
      for (const p of ports) {
        if (!p.name || p.port === undefined) continue;
        out.push({
          name: `_${p.name}._${p.protocol.toLowerCase()}.${fqdn}`.toLowerCase(),
          type: 'SRV',
          answer: `0 100 ${p.port} ${label ?? dashedIP(ip)}.${fqdn}.`,
          condition: 'always',
          owner: resource,
          span: p.span,
        });
      }
    } else if (label) {
      out.push({
        name: `${label}.${fqdn}`,
        type,
        answer: ip,
        condition: 'coredns-only',
        owner: resource,
        span: address.span,
        note: `CoreDNS answers per-endpoint names even under a cluster IP Service; the DNS specification and kube-dns do not.`,
      });
    }
    const rev = reverseName(ip);
    if (rev)
      out.push({
        name: rev,
        type: 'PTR',
        answer: `${label ?? dashedIP(ip)}.${fqdn}.`,
        condition: service.headless ? 'always' : 'coredns-only',
        owner: resource,
        span: address.span,
      });
  }
  return out;
}

/** StatefulSet pods have known names; other pods are named after their workload. */
function podIPOf(h: EndpointHost): string {
  return h.workload.kind === 'StatefulSet' || h.workload.kind === 'Pod'
    ? `<pod IP of ${h.workload.kind === 'Pod' ? h.workload.name : h.label}>`
    : `<pod IPs of ${h.workload.kind} ${h.workload.name}>`;
}

function familyRecords(service: Service): DnsRecordType[] {
  if (!service.ipFamilies.length) return ['A'];
  return service.ipFamilies.map((f) => (f === 'IPv6' ? 'AAAA' : 'A'));
}
