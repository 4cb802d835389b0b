// What a host name written in a pod resolves to from the pod's namespace: the resolver's search list and ndots
// (semantics §3.2), CoreDNS's parsing of the query (§1.3, §3.3), and a sentence when nothing answers.

import type { AnalysisConfig } from '../model/config';
import { messages, say, type Msg } from '../l10n/l10n';
import type { Cluster } from '../model/cluster';
import type { Endpoints, EndpointSlice, Service, Workload } from '../model/resources';
import type { DnsRecord, NameResolution } from './analysis';
import { closestName, namesOf } from './closestName';
import { unknownPods, unknownService } from './unknowns';
import { rejectionReason } from './validation/rejection';
import { endpointHostsOf, serviceFqdn, zoneOf } from './dnsRecords';
import type { ServiceEndpoints } from './endpoints';
import { isIP } from './ip';

export interface ResolveContext {
  readonly cluster: Cluster;
  readonly config: AnalysisConfig;
  /** The DNS records a Service gives rise to (none for a duplicate). */
  recordsOf(service: Service): readonly DnsRecord[];
  endpointsOf(service: Service): ServiceEndpoints;
}

/** kubelet writes `options ndots:5` for ClusterFirst pods (semantics §3.1). */
export const ndots = 5;

/** Namespaces every cluster has; the workspace rarely describes what runs in them. */
export const systemNamespaces: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

/**
 * Namespaces whose Services the cluster's installer or provider makes, not the manifests: Kubernetes' own (but
 * `default`, where manifests without a namespace land) and those a managed provider documents as its own (GKE's
 * `gke-managed-*` and managed Prometheus's `gmp-system`, `gmp-public`). What the manifests do not define there is
 * unknown (semantics §9.3), and they are never owned (semantics §9.0).
 */
export function isProviderNamespace(ns: string): boolean {
  return (systemNamespaces.has(ns) && ns !== 'default') || ns.startsWith('gke-managed-') || ns === 'gmp-system' || ns === 'gmp-public';
}

/** `http://user@host:8080/path?q` → host and port; undefined when no host can be read. */
export function splitHostPort(written: string): { host: string; port?: number } | undefined {
  let s = written.trim();
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  s = s.replace(/^[^/@]*@/, '');
  s = s.split(/[/?#]/)[0];
  if (s.startsWith('[')) return undefined;
  const m = /^([^:]*)(?::(\d{1,5}))?$/.exec(s);
  if (!m || !m[1]) return undefined;
  const port = m[2] !== undefined ? Number(m[2]) : undefined;
  return { host: m[1], port: port !== undefined && port >= 1 && port <= 65535 ? port : undefined };
}

/** The names the resolver tries, in order (semantics §3.2). */
export function searchCandidates(host: string, fromNamespace: string, zone: string): string[] {
  if (host.endsWith('.')) return [host.slice(0, -1)];
  const search = [`${fromNamespace}.svc.${zone}`, `svc.${zone}`, zone].map((s) => `${host}.${s}`);
  const dots = host.split('.').length - 1;
  return dots < ndots ? [...search, host] : [host, ...search];
}

type Lookup =
  | { readonly kind: 'answer'; readonly records: readonly DnsRecord[]; readonly service?: Service; readonly perPod: boolean }
  | { readonly kind: 'none' }
  /** The workspace does not describe what answers here (outside the zone, or a system namespace it says nothing about). */
  | { readonly kind: 'unknown' };

/**
 * How the pod's resolver answers a name written in `fromNamespace` (semantics §3). `near`: the `localityOf` of the
 * file that writes it (analysis/unknowns.ts), so that an unrendered chart makes the answer unknown only for names
 * written beside it; '' counts every unrendered chart (semantics §9.0: unknown stays inside the unit it concerns).
 */
export function resolveName(ctx: ResolveContext, written: string, fromNamespace: string, near = ''): NameResolution {
  const msg = messages(ctx.config.locale);
  const parsed = splitHostPort(written);
  if (!parsed) return { query: written, host: written, records: [], resolves: false, reason: msg('"{0}" has no host name in it.', written) };
  const host = parsed.host.toLowerCase();
  const base = { query: written, host, ...(parsed.port !== undefined ? { port: parsed.port } : {}) };
  if (isIP(host.replace(/\.$/, '')))
    return { ...base, records: [], resolves: false, unknown: true, reason: msg('"{0}" is an IP address, not a DNS name.', host) };
  const zone = zoneOf(ctx.config);
  const candidates = searchCandidates(host, fromNamespace, zone);
  const inCluster = looksInCluster(ctx, host, fromNamespace, zone);
  // A name meant for the cluster that no cluster candidate answers also fails upstream (NXDOMAIN).
  const lookups = candidates.map((c) => {
    const lookup = lookupName(ctx, c, zone);
    return { fqdn: c, lookup: inCluster && lookup.kind === 'unknown' && !inZone(c, zone) ? ({ kind: 'none' } as const) : lookup };
  });
  const first = lookups.find((l) => l.lookup.kind !== 'none');
  if (first?.lookup.kind === 'answer') {
    const answer = first.lookup;
    const later = lookups.slice(lookups.indexOf(first) + 1).find((l) => l.lookup.kind === 'answer');
    const warning =
      first === lookups[0] && host.includes('.') && !host.endsWith('.') && later
        ? msg(
            'From namespace "{0}", "{1}" first matches {2} (endpoint "{3}" of Service "{4}" in "{0}"), so it never reaches {5}. Write the full name to be sure.',
            fromNamespace,
            host,
            first.fqdn,
            host.split('.')[0],
            host.split('.')[1],
            later.fqdn,
          )
        : undefined;
    const portKnown = parsed.port !== undefined && answer.service ? portIsServed(ctx, answer.service, parsed.port, answer.perPod) : undefined;
    // Built field by field (in the order the other answers use) rather than by spreading: this runs for every name.
    const resolved: { -readonly [K in keyof NameResolution]?: NameResolution[K] } = { query: written, host };
    if (parsed.port !== undefined) resolved.port = parsed.port;
    resolved.fqdn = first.fqdn;
    resolved.records = answer.records;
    if (answer.service) resolved.service = answer.service;
    if (portKnown !== undefined) resolved.portKnown = portKnown;
    if (portKnown === false) resolved.reason = portReason(answer.service!, parsed.port!, answer.perPod, msg);
    if (warning) resolved.warning = warning;
    resolved.resolves = true;
    return resolved as NameResolution;
  }
  const intended = intendedName(ctx, host, fromNamespace, zone);
  if (first?.lookup.kind === 'unknown') {
    return { ...base, records: [], resolves: false, unknown: true, reason: msg('This workspace does not describe what answers {0}.', first.fqdn) };
  }
  const why = explainMissing(ctx, host, intended, zone, msg, near);
  return {
    ...base,
    records: [],
    resolves: false,
    reason: why.reason,
    ...(why.suggestion ? { suggestion: why.suggestion } : {}),
    ...(why.unknown ? { unknown: true } : {}),
  };
}

function inZone(fqdn: string, zone: string): boolean {
  return fqdn === zone || fqdn.endsWith(`.${zone}`);
}

/**
 * Whether a written host is meant for cluster DNS: `…svc`, `…pod` or the zone itself at the end, a single label, or
 * `a.b` / `a.b.c` whose last label is a namespace (or, for `a.b`, a Service or a StatefulSet pod `a`) the workspace knows. Anything else
 * (`example.com`) goes to the upstream resolvers, which the manifests say nothing about.
 */
function looksInCluster(ctx: ResolveContext, host: string, fromNamespace: string, zone: string): boolean {
  const h = host.replace(/\.$/, '');
  if (inZone(h, zone)) return true;
  const labels = h.split('.');
  const last = labels[labels.length - 1];
  if (last === 'svc' || last === 'pod' || labels.length === 1) return true;
  if (labels.length === 2)
    return (
      namespaceKnown(ctx.cluster, last) ||
      serviceNamed(ctx.cluster, fromNamespace, last) !== undefined ||
      statefulSetFor(ctx.cluster, fromNamespace, labels[0]) !== undefined
    );
  if (labels.length === 3) return namespaceKnown(ctx.cluster, last);
  return false;
}

/** Whether the workspace describes a namespace (any object uses or declares it). */
function namespaceKnown(cluster: Cluster, ns: string): boolean {
  return cluster.namespaces.has(ns);
}

function serviceNamed(cluster: Cluster, ns: string, name: string): Service | undefined {
  return cluster.service(ns, name) ?? cluster.servicesNamed(name).find((s) => s.namespace === ns);
}

/** How CoreDNS answers one fully qualified name, judged from the manifests (semantics §1.3, §2, §3.3). */
function lookupName(ctx: ResolveContext, fqdn: string, zone: string): Lookup {
  if (fqdn !== zone && !fqdn.endsWith(`.${zone}`)) return { kind: 'unknown' };
  // Most candidates of the search list end in neither `.svc` nor `.pod` (`x.ns.svc.<zone>.ns.svc.<zone>`): no answer.
  if (fqdn !== zone && !fqdn.endsWith(`.svc.${zone}`) && !fqdn.endsWith(`.pod.${zone}`)) return { kind: 'none' };
  const labels = fqdn === zone ? [] : fqdn.slice(0, -(zone.length + 1)).split('.');
  const last = labels[labels.length - 1];
  const ns = labels[labels.length - 2];
  if (last === 'pod' && labels.length === 3) {
    // semantics §2.2 P1: any valid IP in an existing namespace under `pods insecure`; only live pod IPs under `verified`.
    if (ctx.config.coreDns.podsMode === 'disabled' || !namespaceKnown(ctx.cluster, ns) || !podLabelIsIP(labels[0])) return { kind: 'none' };
    const record: DnsRecord = {
      name: fqdn,
      type: 'A',
      answer: labels[0].replace(/-/g, ctx.config.coreDns.podsMode === 'verified' ? '-' : '.'),
      condition: 'config-dependent',
      resource: { kind: 'Namespace', namespace: ns, name: ns },
      source: { uri: '', span: { start: 0, end: 0 } },
    };
    return { kind: 'answer', records: [record], perPod: true };
  }
  // semantics §3.3: anything that is not `…<ns>.svc` or `…<ns>.pod` is an invalid request (NXDOMAIN).
  if (last !== 'svc' || labels.length < 3 || labels.length > 5) return { kind: 'none' };
  if (!namespaceKnown(ctx.cluster, ns)) return systemNamespaces.has(ns) ? builtin(ctx, labels, fqdn) : { kind: 'none' };
  const svcLabel = labels[labels.length - 3];
  const service = serviceNamed(ctx.cluster, ns, svcLabel);
  if (!service) return builtin(ctx, labels, fqdn);
  // Only the Services named `svcLabel` in `ns` make records ending in `.<svcLabel>.<ns>.svc.<zone>` (semantics §2.1).
  const records = recordsNamed(ctx, ns, svcLabel, fqdn);
  const srv = labels.length === 5 || (labels.length === 4 && labels[0].startsWith('_'));
  const wanted = records.filter((r) => (srv ? r.type === 'SRV' : r.type !== 'SRV' && r.type !== 'PTR'));
  if (wanted.length) return { kind: 'answer', records: wanted, service, perPod: labels.length === 4 || service.headless };
  // semantics §1.4 P4: dashed-IP endpoint names exist for ready endpoints without a hostname; the IPs are unknown here.
  if (labels.length === 4 && podLabelIsIP(labels[0]) && service.type !== 'ExternalName' && ctx.endpointsOf(service).groups.length) {
    const record: DnsRecord = {
      name: fqdn,
      type: 'A',
      answer: `<endpoint of ${service.name} with IP ${labels[0]}, if there is one>`,
      condition: 'config-dependent',
      resource: { kind: 'Service', namespace: service.namespace, name: service.name },
      source: { uri: service.uri, span: service.nameSpan },
    };
    return { kind: 'answer', records: [record], service, perPod: true };
  }
  return { kind: 'none' };
}

function recordsNamed(ctx: ResolveContext, ns: string, svcLabel: string, fqdn: string): readonly DnsRecord[] {
  const out: DnsRecord[] = [];
  for (const s of ctx.cluster.servicesNamed(svcLabel)) {
    if (s.namespace !== ns) continue;
    const named = byLowerName(ctx.recordsOf(s)).get(fqdn);
    if (named) for (const r of named) out.push(r);
  }
  return out;
}

/** A Service's records by lower-case name, kept with the list they index (an analysis hands out the same list each time). */
const recordIndexes = new WeakMap<readonly DnsRecord[], ReadonlyMap<string, readonly DnsRecord[]>>();

function byLowerName(records: readonly DnsRecord[]): ReadonlyMap<string, readonly DnsRecord[]> {
  let index = recordIndexes.get(records);
  if (index) return index;
  const m = new Map<string, DnsRecord[]>();
  for (const r of records) {
    const name = r.name.toLowerCase();
    const l = m.get(name);
    if (l) l.push(r);
    else m.set(name, [r]);
  }
  recordIndexes.set(records, (index = m));
  return index;
}

/** The API server's own Service `kubernetes.default` always exists; other system-namespace names are unknown to the workspace. */
function builtin(ctx: ResolveContext, labels: readonly string[], fqdn: string): Lookup {
  const ns = labels[labels.length - 2];
  if (labels.length === 3 && labels[0] === 'kubernetes' && ns === 'default') {
    const record: DnsRecord = {
      name: fqdn,
      type: 'A',
      answer: '<cluster IP of the API server Service>',
      condition: 'always',
      resource: { kind: 'Service', namespace: 'default', name: 'kubernetes' },
      source: { uri: '', span: { start: 0, end: 0 } },
    };
    return { kind: 'answer', records: [record], perPod: false };
  }
  if (systemNamespaces.has(ns) && !ctx.cluster.servicesIn(ns).length) return { kind: 'unknown' };
  // kube-system and the other namespaces of the cluster's own hold Services the installer or the provider makes
  // (DNS, metrics, a CNI's relay): a name there that is no typo of a Service the manifests define is unknown
  // (semantics §9.3). `default` is where manifests without a namespace land: it is judged like any other.
  if (isProviderNamespace(ns) && labels.length === 3 && !closestName(labels[0], namesOf(ctx.cluster.servicesIn(ns)))) return { kind: 'unknown' };
  return { kind: 'none' };
}

function podLabelIsIP(label: string): boolean {
  const dashes = (label.match(/-/g) ?? []).length;
  if (dashes === 3 && !label.includes('--')) return isIP(label.replace(/-/g, '.'));
  return isIP(label.replace(/-/g, ':'));
}

/**
 * Whether a port written with the name reaches something: a Service port for a cluster IP Service; for headless
 * Services and per-pod names the client talks to pods directly, so a container port counts too (semantics §5.5).
 */
function portIsServed(ctx: ResolveContext, service: Service, port: number, direct: boolean): boolean | undefined {
  if (service.type === 'ExternalName') return undefined;
  if (service.ports.some((p) => p.port === port)) return true;
  if (!direct && !service.headless) return false;
  const eps = ctx.endpointsOf(service);
  for (const g of eps.groups) {
    if (g.ports.some((t) => t.containerPort === port)) return true;
    if (g.workload.template.containers.some((c) => c.ports.some((p) => p.containerPort === port))) return true;
  }
  for (const m of eps.manual) {
    const r = m.resource;
    const ports = r.kind === 'Endpoints' ? (r as Endpoints).subsets.flatMap((s) => s.ports) : (r as EndpointSlice).ports;
    if (ports.some((p) => p.port === port)) return true;
  }
  // With no known pods the port cannot be judged.
  return eps.groups.length || eps.manual.length ? false : undefined;
}

function portReason(service: Service, port: number, direct: boolean, msg: Msg): string {
  const list = service.ports.map((p) => (p.name ? `${p.port}/${p.name}` : `${p.port}`)).join(', ') || msg('none');
  if (!direct && !service.headless)
    return msg('Service "{0}" has no port {1} (its ports: {2}); connections to {1} on its cluster IP are refused or time out.', service.name, port, list);
  return msg('Neither Service "{0}" nor its pods declare port {1} (Service ports: {2}).', service.name, port, list);
}

/** The fully qualified name the writer most likely meant, for explaining why nothing answers. */
function intendedName(ctx: ResolveContext, host: string, fromNamespace: string, zone: string): string {
  const h = host.replace(/\.$/, '');
  if (h === zone || h.endsWith(`.${zone}`)) return h;
  const labels = h.split('.');
  const last = labels[labels.length - 1];
  if (last === 'svc' || last === 'pod') return `${h}.${zone}`;
  if (labels.length === 1) return `${h}.${fromNamespace}.svc.${zone}`;
  if (labels.length === 2) {
    // `web-0.nginx`: a per-pod name in the client's namespace when `nginx` is a Service there, or a StatefulSet pod name.
    const sameNs = serviceNamed(ctx.cluster, fromNamespace, labels[1]) !== undefined || statefulSetFor(ctx.cluster, fromNamespace, labels[0]) !== undefined;
    if (sameNs && !namespaceKnown(ctx.cluster, labels[1])) return `${h}.${fromNamespace}.svc.${zone}`;
    return `${h}.svc.${zone}`;
  }
  if (labels.length === 3 && namespaceKnown(ctx.cluster, labels[2])) return `${h}.svc.${zone}`;
  return h;
}

function statefulSetFor(cluster: Cluster, ns: string, podName: string): { sts: Workload; ordinal: number } | undefined {
  // A StatefulSet's pods are `<name>-<ordinal>`: the name is what precedes the last dash, when only digits follow it.
  const dash = podName.lastIndexOf('-');
  if (dash <= 0 || !/^\d+$/.test(podName.slice(dash + 1))) return undefined;
  const sts = statefulSetsByName(cluster.workloadsIn(ns)).get(podName.slice(0, dash));
  return sts && { sts, ordinal: Number(podName.slice(dash + 1)) };
}

/** A namespace's StatefulSets by lower-case name (the first of a name), kept with its workload list. */
const byName = new WeakMap<readonly Workload[], ReadonlyMap<string, Workload>>();

function statefulSetsByName(workloads: readonly Workload[]): ReadonlyMap<string, Workload> {
  let index = byName.get(workloads);
  if (index) return index;
  const m = new Map<string, Workload>();
  for (const w of workloads) {
    const key = w.name.toLowerCase();
    if (w.kind === 'StatefulSet' && !m.has(key)) m.set(key, w);
  }
  byName.set(workloads, (index = m));
  return index;
}

/** Replaces one label of the written host, keeping the rest as written; undefined when that label was not written. */
function replaceLabel(host: string, index: number, value: string): string | undefined {
  const trailing = host.endsWith('.');
  const labels = host.replace(/\.$/, '').split('.');
  if (index >= labels.length) return undefined;
  labels[index] = value;
  return labels.join('.') + (trailing ? '.' : '');
}

function explainMissing(
  ctx: ResolveContext,
  host: string,
  fqdn: string,
  zone: string,
  msg: Msg,
  near: string,
): { reason: string; suggestion?: string; unknown?: boolean } {
  const cluster = ctx.cluster;
  if (fqdn !== zone && !fqdn.endsWith(`.${zone}`))
    return { reason: msg('"{0}" is not a cluster name, and nothing in the cluster domain {1} answers it.', host, zone) };
  const labels = fqdn.slice(0, -(zone.length + 1)).split('.');
  const last = labels[labels.length - 1];
  if (last === 'pod') {
    if (ctx.config.coreDns.podsMode === 'disabled')
      return { reason: msg('CoreDNS answers <a-b-c-d>.<namespace>.pod names only when the Corefile enables "pods"; it is disabled in the settings.') };
    return { reason: msg('"{0}" is not <dashed IP>.<namespace>.pod.{1} with an IP and a namespace of this workspace.', host, zone) };
  }
  if (last !== 'svc') {
    // semantics §3.3: `data.prod.cluster.local` is an invalid request.
    if (labels.length === 2) {
      const fixed = `${labels[0]}.${labels[1]}.svc.${zone}`;
      return {
        reason: msg('"{0}" is missing ".svc": cluster DNS answers <service>.<namespace>.svc.{1}, so write "{2}".', host, zone, fixed),
        suggestion: host.endsWith('.') ? `${fixed}.` : fixed,
      };
    }
    return { reason: msg('CoreDNS answers only <service>.<namespace>.svc.{0} and <dashed IP>.<namespace>.pod.{0} names; "{1}" is neither.', zone, host) };
  }
  if (labels.length < 3 || labels.length > 5)
    return {
      reason: msg(
        '"{0}" has the wrong number of labels before ".svc": write <service>.<namespace>.svc.{1}, or <pod hostname>.<service>.<namespace>.svc.{1}.',
        host,
        zone,
      ),
    };
  const nsIndex = labels.length - 2;
  const ns = labels[nsIndex];
  const svcLabel = labels[labels.length - 3];
  const hostLabels = host.replace(/\.$/, '').split('.').length;
  if (!namespaceKnown(cluster, ns)) {
    const close = closestName(ns, cluster.namespaces);
    const elsewhere = cluster.servicesNamed(svcLabel)[0];
    // semantics §9.3: a namespace no manifest in scope describes may exist (another repository, `kubectl create
    // namespace`): unknown, unless its name is a near miss of one that is described (a typo).
    if (!close)
      return {
        reason: elsewhere
          ? msg(
              'namespace "{0}" is not described by the manifests in scope (it may be created elsewhere); a Service "{1}" exists in namespace "{2}".',
              ns,
              elsewhere.name,
              elsewhere.namespace,
            )
          : msg('namespace "{0}" is not described by the manifests in scope (it may be created elsewhere).', ns),
        unknown: true,
      };
    const reason = msg('"{0}" is not a namespace in this workspace; did you mean "{1}"?', ns, close);
    const suggestion =
      nsIndex < hostLabels
        ? replaceLabel(host, nsIndex, close)
        : elsewhere && nsIndex < hostLabels
          ? replaceLabel(host, nsIndex, elsewhere.namespace)
          : undefined;
    return { reason, ...(suggestion ? { suggestion } : {}) };
  }
  const service = serviceNamed(cluster, ns, svcLabel);
  const pod = labels.length === 4 && !labels[0].startsWith('_') ? labels[0] : undefined;
  const sts = pod ? statefulSetFor(cluster, ns, pod) : undefined;
  if (!service) {
    const close = closestName(svcLabel, namesOf(cluster.servicesIn(ns)));
    const svcIndex = labels.length - 3;
    const suggestion = close && svcIndex < hostLabels ? replaceLabel(host, svcIndex, close) : undefined;
    if (pod && sts) {
      const reason = sts.sts.serviceName
        ? msg(
            '{0}.{1} needs a headless Service "{1}" that selects the StatefulSet\'s pods; there is no Service "{1}" in namespace "{2}" (StatefulSet "{3}" names "{4}" as its serviceName).',
            pod,
            svcLabel,
            ns,
            sts.sts.name,
            sts.sts.serviceName,
          )
        : msg('{0}.{1} needs a headless Service "{1}" that selects the StatefulSet\'s pods; there is no Service "{1}" in namespace "{2}".', pod, svcLabel, ns);
      const stsSuggestion =
        sts.sts.serviceName && serviceNamed(cluster, ns, sts.sts.serviceName) && svcIndex < hostLabels
          ? replaceLabel(host, svcIndex, sts.sts.serviceName)
          : suggestion;
      return { reason, ...(stsSuggestion ? { suggestion: stsSuggestion } : {}) };
    }
    const other = cluster.servicesNamed(svcLabel).find((s) => s.namespace !== ns);
    // semantics §9.4: a Service the API server rejects has no records.
    const rejected = cluster.rejected('Service', ns, svcLabel);
    if (rejected) return { reason: msg('{0}, so nothing answers this name.', String(rejectionReason(rejected, ctx.config))) };
    // semantics §9.2–9.3: an operator may create the Service, or a Service written without a namespace may be applied here.
    const unknown = close ? undefined : unknownService(cluster, ns, svcLabel, near);
    if (unknown)
      return { reason: msg('No manifest in scope defines Service "{0}" in namespace "{1}", but {2}.', svcLabel, ns, say(unknown, msg)), unknown: true };
    const reason = close
      ? msg('No Service "{0}" in namespace "{1}"; did you mean "{2}"?', svcLabel, ns, close)
      : other
        ? msg('No Service "{0}" in namespace "{1}"; there is one in namespace "{2}".', svcLabel, ns, other.namespace)
        : msg('No Service "{0}" in namespace "{1}".', svcLabel, ns);
    return { reason, ...(suggestion ? { suggestion } : {}) };
  }
  const fqdnSvc = serviceFqdn(service.name, service.namespace, zone);
  if (service.type === 'ExternalName') {
    const target = service.externalName?.replace(/\.$/, '');
    if (labels.length > 3)
      return { reason: msg('Service "{0}" is an ExternalName: CoreDNS answers only {1} itself (a CNAME), no SRV or per-pod names.', service.name, fqdnSvc) };
    if (!target) return { reason: msg('ExternalName Service "{0}" has no externalName, so there is nothing to answer with.', service.name) };
    return {
      reason: msg(
        'ExternalName Service "{0}" points at the IP address "{1}"; CoreDNS answers NXDOMAIN for IP-shaped ExternalNames (use a selector-less Service with Endpoints instead).',
        service.name,
        target,
      ),
    };
  }
  const eps = ctx.endpointsOf(service);
  // Names that need endpoints, of a Service whose pods an operator makes or a controller labels: unknown (semantics §9.2).
  if (eps.source === 'selector' && !eps.groups.length && service.selector) {
    const unknown = unknownPods(cluster, ns, service.selector.keys(), near);
    if (unknown) return { reason: msg('Service "{0}" selects no pod template in scope, but {1}.', service.name, say(unknown, msg)), unknown: true };
  }
  if (labels.length === 3) {
    // Only headless Services lack an S1 record; theirs needs ready endpoints (semantics §2.1 H1).
    if (eps.source === 'none' || (eps.source === 'selector' && !eps.groups.length)) {
      const why = service.selector ? msg('its selector matches no pod template in "{0}"', ns) : msg('it has no selector and no Endpoints for it');
      return { reason: msg('Headless Service "{0}" has no endpoints ({1}), so its name has no addresses (NXDOMAIN).', service.name, why) };
    }
    if (eps.groups.every((g) => g.replicas === 0))
      return { reason: msg('Headless Service "{0}" selects only workloads scaled to 0 replicas, so its name has no addresses.', service.name) };
    return { reason: msg('Headless Service "{0}" has no ready addresses in the manifests, so its name has no answer.', service.name) };
  }
  if (labels[0].startsWith('_')) {
    const portName = labels[0].slice(1);
    const proto = (labels[1] ?? '').replace(/^_/, '').toUpperCase();
    const port = service.ports.find((p) => p.name?.toLowerCase() === portName);
    if (!port) return { reason: msg('Service "{0}" has no port named "{1}"; SRV names exist only for named Service ports.', service.name, portName) };
    if (port.protocol !== proto) return { reason: msg('Port "{0}" of Service "{1}" uses {2}, not {3}.', portName, service.name, port.protocol, proto) };
    return { reason: msg('No ready pod of Service "{0}" serves port "{1}" (its targetPort does not resolve in the selected pods).', service.name, portName) };
  }
  if (sts) {
    const { sts: set, ordinal } = sts;
    const prefix = `${pod}.${service.name}`;
    if (set.serviceName !== service.name)
      return {
        reason: msg(
          '{0} needs StatefulSet "{1}" to be governed by "{2}", but its serviceName is "{3}".',
          prefix,
          set.name,
          service.name,
          set.serviceName ?? '',
        ),
      };
    if (!eps.groups.some((g) => g.workload === set))
      return {
        reason: msg(
          '{0} needs a headless Service "{1}" that selects the StatefulSet\'s pods; its selector does not match the pod template labels of "{2}".',
          prefix,
          service.name,
          set.name,
        ),
      };
    const count = set.replicas ?? 1;
    const last = set.ordinalsStart + count - 1;
    if (ordinal < set.ordinalsStart || ordinal > last) {
      const range = count ? `${set.name}-${set.ordinalsStart} … ${set.name}-${last}` : msg('none');
      return {
        reason:
          count === 1
            ? msg('StatefulSet "{0}" has {1} replica ({2}), so there is no pod "{3}".', set.name, count, range, pod!)
            : msg('StatefulSet "{0}" has {1} replicas ({2}), so there is no pod "{3}".', set.name, count, range, pod!),
      };
    }
  }
  const known = eps.groups.flatMap((g) => endpointHostsOf(service, g, ctx.config).hosts.map((h) => h.label));
  const close = pod ? closestName(pod, known) : undefined;
  const reason = close
    ? msg(
        'Service "{0}" has no endpoint with hostname "{1}"; only StatefulSet pods, pods with hostname and subdomain "{0}", and Endpoints addresses with a hostname get per-pod names; did you mean "{2}"?',
        service.name,
        pod ?? labels[0],
        close,
      )
    : msg(
        'Service "{0}" has no endpoint with hostname "{1}"; only StatefulSet pods, pods with hostname and subdomain "{0}", and Endpoints addresses with a hostname get per-pod names.',
        service.name,
        pod ?? labels[0],
      );
  const suggestion = close ? replaceLabel(host, 0, close) : undefined;
  return { reason, ...(suggestion ? { suggestion } : {}) };
}
