// One snapshot's analysis: the cluster plus lazily computed, memoized semantics over it.
// Everything here is a pure function of (files, config); callers share one Analysis per snapshot.

import type { AnalysisConfig } from '../model/config';
import { buildCluster, rejectionRuleOf, type Cluster } from '../model/cluster';
import type { ManifestFile } from '../model/parseManifest';
import { planScopes, podClaimClashes, type ScopePlan } from '../model/project';
import type { Location, Span } from '../model/span';
import { isService, type NetworkPolicy, type Resource, type Service, type Workload } from '../model/resources';
import { predictDnsRecords, predictNamespaceRecords, predictServiceRecords, type DnsIndex, type OwnedRecord } from './dnsRecords';
import { resolveEndpoints, type PortTarget, type ServiceEndpoints } from './endpoints';
import { resolveIngressRoutes } from './ingressRoutes';
import { ingressVerdict, policiesSelectingWorkload } from './networkPolicy';
import { resolveName } from './resolveName';
import { serviceEnvFor } from './serviceEnv';
import { hasUnrenderedCharts, localityOf } from './unknowns';
import { servicePath, type ServicePath } from './servicePath';

export type DnsRecordType = 'A' | 'AAAA' | 'SRV' | 'CNAME' | 'PTR';
/** semantics §8: `always`; `while-ready` (≥1 ready endpoint); `coredns-only` (S5); `config-dependent` (needs a Corefile option). */
export type DnsCondition = 'always' | 'while-ready' | 'coredns-only' | 'config-dependent';

export interface DnsRecord {
  readonly name: string;
  readonly type: DnsRecordType;
  /** A literal where the manifest fixes it (a clusterIP, an externalName), otherwise a description such as `<pod IP of web-0>`. */
  readonly answer: string;
  readonly condition: DnsCondition;
  readonly resource: { readonly kind: string; readonly namespace: string; readonly name: string };
  readonly source: Location;
  /** When the condition needs explaining: readiness, publishNotReadyAddresses, the Corefile option it depends on. */
  readonly note?: string;
  /** The Service whose name the record lives under (also for per-pod names owned by a StatefulSet or pod). */
  readonly service?: { readonly namespace: string; readonly name: string };
}

/** What a name written in a pod resolves to from a client namespace (semantics §3.3). */
export interface NameResolution {
  readonly query: string;
  readonly host: string;
  readonly port?: number;
  /** The fully qualified name the resolver's search list reaches first, when one answers. */
  readonly fqdn?: string;
  readonly records: readonly DnsRecord[];
  /** The Service the name lands on (also for per-pod names of a headless Service). */
  readonly service?: Service;
  /** Whether `port` (when given) is a port of that Service. */
  readonly portKnown?: boolean;
  /** Why nothing answers, in a sentence; set only when the name does not resolve. */
  readonly reason?: string;
  /** True when the name looks like a cluster name at all (contains `.svc`, or is a bare/short name checked on request). */
  readonly resolves: boolean;
  /** True when the answer depends on what the workspace does not describe (an IP, a name outside the cluster domain, a system namespace). */
  readonly unknown?: boolean;
  /** The name as the writer probably meant it (a close Service or namespace name), when one exists. */
  readonly suggestion?: string;
  /** Set when the name resolves but not where the writer may think (the search-list capture hazard, semantics §3.3). */
  readonly warning?: string;
}

export interface ServiceEnvVar {
  readonly name: string;
  readonly value: string;
  readonly service: Service;
}

/** An Ingress host/path and where it leads: Service port → targetPort → container ports per workload. */
export interface IngressRoute {
  readonly ingress: Resource;
  readonly host?: string;
  readonly path: string;
  readonly backendSpan: Span;
  readonly serviceName?: string;
  readonly service?: Service;
  readonly servicePort?: Service['ports'][number];
  readonly problem?: string;
  /** The Ingress's default backend (spec.defaultBackend) rather than a rule. */
  readonly isDefault?: boolean;
  /** Where the Service port lands in each selected workload. */
  readonly targets?: readonly { readonly workload: Workload; readonly target: PortTarget }[];
}

export interface PolicyVerdict {
  readonly allowed: boolean;
  /** Policies that select the pods for ingress; empty means no isolation (everything allowed). */
  readonly policies: readonly NetworkPolicy[];
  /** The policies whose rules allow the peer. */
  readonly allowedBy: readonly NetworkPolicy[];
}

/** One scope of the workspace (model/project.ts) with the analysis its lookups answer from. */
export interface ScopeAnalysis {
  /** '' for the whole workspace. */
  readonly id: string;
  /** The variant for people; undefined for the whole workspace. */
  readonly label?: string;
  /** The files whose objects this scope checks and reports on. */
  readonly members: readonly ManifestFile[];
  readonly analysis: Analysis;
  /** With variants, the cluster of the whole workspace, every variant included (undefined for a single scope). */
  readonly workspace?: Cluster;
  /** With variants, the cluster its analysis answers from, known before the analysis is made (made when first asked). */
  readonly cluster?: Cluster;
}

export interface Analysis {
  readonly cluster: Cluster;
  readonly config: AnalysisConfig;
  /**
   * The scopes of the workspace: one (the whole workspace) unless variants of one install sit side by side. The
   * questions below about one object answer in that object's scope.
   */
  scopes(): readonly ScopeAnalysis[];
  /** The scope whose lookups answer for the objects of this file. */
  scopeOf(uri: string): ScopeAnalysis;
  /** Which parts of the workspace are variants of each other ('' when none): equal values mean equal scopes. */
  readonly variants: string;
  endpointsOf(service: Service): ServiceEndpoints;
  /** Every DNS record the manifests predict (semantics §2, output policy §8), all conditions included. */
  dnsRecords(): readonly DnsRecord[];
  /** The records a Service or workload (StatefulSet/pod names) gives rise to. */
  dnsRecordsFor(resource: Resource): readonly DnsRecord[];
  /**
   * A name as written in a pod (`mysql`, `mysql.db:3306`, `web-0.nginx`, `x.ns.svc.cluster.local`) from a client
   * namespace; `from`, the file that writes it (an unrendered chart makes names unknown only beside it).
   */
  resolveName(name: string, fromNamespace: string, from?: string): NameResolution;
  /** Service environment variables a pod in `namespace` receives (semantics §4). */
  serviceEnv(namespace: string, enableServiceLinks?: boolean): readonly ServiceEnvVar[];
  ingressRoutes(): readonly IngressRoute[];
  /** NetworkPolicies whose podSelector selects the workload's pods (same namespace). */
  policiesSelecting(workload: Workload): readonly NetworkPolicy[];
  /** Whether ingress from a peer (pod labels + namespace) on a port/protocol reaches the workload's pods. */
  ingressAllowed(
    workload: Workload,
    peer: { readonly labels: ReadonlyMap<string, string>; readonly namespace: string },
    port: number,
    protocol?: string,
  ): PolicyVerdict;
  /** The path of one Service as semantic data (servicePath.ts); features/traceGraph.ts draws it. */
  servicePath(service: Service): ServicePath;
}

/**
 * What is worked out about one namespace's objects: endpoints, DNS records and NetworkPolicy selection depend only on
 * the objects of the namespace they are in (semantics §1.1, §2, §6). Kept with the cluster's partition of that
 * namespace, which the next snapshot reuses when none of its objects changed: an edit elsewhere keeps this work.
 */
interface NamespaceMemo {
  readonly endpoints: Map<Service, ServiceEndpoints>;
  readonly records: Map<Service, readonly OwnedRecord[]>;
  /** The same array every time, so what is derived from a Service's records can be kept with them. */
  readonly under: Map<Service, readonly DnsRecord[]>;
  dns?: DnsIndex;
  readonly policies: Map<Workload, readonly NetworkPolicy[]>;
}

const namespaceMemos = new WeakMap<object, Map<AnalysisConfig, NamespaceMemo>>();

const emptyMemo = (): NamespaceMemo => ({ endpoints: new Map(), records: new Map(), under: new Map(), policies: new Map() });

/**
 * The analysis of a workspace. With variants side by side (model/project.ts), each scope gets a cluster of the files
 * it sees and an analysis of its own, and questions about an object go to its scope's analysis; `previous`, the
 * analysis of an earlier snapshot, lends its scopes' clusters so an edit rebuilds only what it touched.
 */
export function createAnalysis(cluster: Cluster, config: AnalysisConfig, previous?: Analysis): Analysis {
  const plan = planScopes(cluster.files, cluster.copies(), podClaimClashes(cluster));
  if (plan.scopes.length === 1) return createScopeAnalysis(cluster, config, undefined);
  return createProjectAnalysis(cluster, config, plan, previous);
}

const scopeClusters = new WeakMap<Analysis, ReadonlyMap<string, Cluster>>();

function createProjectAnalysis(cluster: Cluster, config: AnalysisConfig, plan: ScopePlan, previous: Analysis | undefined): Analysis {
  const before = previous && scopeClusters.get(previous);
  const clusters = new Map<string, Cluster>();
  const scopes: ScopeAnalysis[] = plan.scopes.map((s) => {
    const c = buildCluster(s.visible, before?.get(s.id), rejectionRuleOf(cluster));
    clusters.set(s.id, c);
    // made when first asked: an edit asks the scopes of the files it touched (1,000 Kustomize builds are 1,000 scopes)
    let made: Analysis | undefined;
    const scope: ScopeAnalysis = {
      id: s.id,
      label: s.label,
      members: s.members,
      workspace: cluster,
      cluster: c,
      get analysis() {
        return (made ??= createScopeAnalysis(c, config, scope));
      },
    };
    return scope;
  });
  const byId = new Map(scopes.map((s) => [s.id, s]));
  const scopeOf = (uri: string): ScopeAnalysis => byId.get(plan.scopeOf(uri).id) ?? scopes[0];
  const whole = createScopeAnalysis(cluster, config, undefined);
  const memberOf = (scope: ScopeAnalysis) => {
    const uris = new Set(scope.members.map((f) => f.uri));
    return (uri: string) => uris.has(uri);
  };
  let records: readonly DnsRecord[] | undefined;
  let routes: readonly IngressRoute[] | undefined;
  const analysis: Analysis = {
    ...whole,
    variants: plan.signature,
    scopes: () => scopes,
    scopeOf,
    endpointsOf: (service) => scopeOf(service.uri).analysis.endpointsOf(service),
    // Each record once, from the scope of the object it comes from (network-semantics.md 8: never a name from an arbitrary copy).
    dnsRecords: () =>
      (records ??= uniqueRecords(
        scopes.flatMap((s) => {
          const mine = memberOf(s);
          return s.analysis.dnsRecords().filter((r) => mine(r.source.uri));
        }),
      )),
    dnsRecordsFor: (resource) => scopeOf(resource.uri).analysis.dnsRecordsFor(resource),
    ingressRoutes: () =>
      (routes ??= scopes.flatMap((s) => {
        const mine = memberOf(s);
        return s.analysis.ingressRoutes().filter((r) => mine(r.ingress.uri));
      })),
    policiesSelecting: (workload) => scopeOf(workload.uri).analysis.policiesSelecting(workload),
    ingressAllowed: (workload, peer, port, protocol) => scopeOf(workload.uri).analysis.ingressAllowed(workload, peer, port, protocol),
    servicePath: (service) => scopeOf(service.uri).analysis.servicePath(service),
  };
  scopeClusters.set(analysis, clusters);
  return analysis;
}

function uniqueRecords(records: readonly DnsRecord[]): DnsRecord[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const k = `${r.name}\u0000${r.type}\u0000${r.answer}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function createScopeAnalysis(cluster: Cluster, config: AnalysisConfig, scope: ScopeAnalysis | undefined): Analysis {
  const loose = new Map<string, NamespaceMemo>();
  const memoOf = (namespace: string): NamespaceMemo => {
    const partition = cluster.objectsIn(namespace);
    if (!partition) {
      let m = loose.get(namespace);
      if (!m) loose.set(namespace, (m = emptyMemo()));
      return m;
    }
    let byConfig = namespaceMemos.get(partition);
    if (!byConfig) namespaceMemos.set(partition, (byConfig = new Map()));
    let m = byConfig.get(config);
    if (!m) byConfig.set(config, (m = emptyMemo()));
    return m;
  };
  const endpointsOf = (service: Service): ServiceEndpoints => {
    const memo = memoOf(service.namespace).endpoints;
    let e = memo.get(service);
    if (!e) memo.set(service, (e = resolveEndpoints(cluster, service)));
    return e;
  };
  const recordsOf = (service: Service): readonly OwnedRecord[] => {
    const memo = memoOf(service.namespace).records;
    let r = memo.get(service);
    if (!r) memo.set(service, (r = predictServiceRecords(service, cluster, config, endpointsOf(service))));
    return r;
  };
  let dns: DnsIndex | undefined;
  const dnsIndex = (): DnsIndex => (dns ??= predictDnsRecords(cluster, config, recordsOf));
  // Built per namespace on demand: a workload's records are all in its own namespace.
  const dnsOf = (namespace: string): DnsIndex => {
    const memo = memoOf(namespace);
    return (memo.dns ??= predictNamespaceRecords(namespace, cluster, config, recordsOf));
  };
  const recordsUnder = (service: Service): readonly DnsRecord[] => {
    const memo = memoOf(service.namespace).under;
    let r = memo.get(service);
    if (!r) memo.set(service, (r = recordsOf(service).map((o) => o.record)));
    return r;
  };
  let routes: readonly IngressRoute[] | undefined;
  const resolutions = new Map<string, NameResolution>();
  const envs = new Map<string, readonly ServiceEnvVar[]>();
  const paths = new Map<Service, ServicePath>();
  let self: ScopeAnalysis | undefined = scope;
  const own = (): ScopeAnalysis => (self ??= { id: '', members: cluster.files, analysis });
  const analysis: Analysis = {
    cluster,
    config,
    variants: '',
    scopes: () => [own()],
    scopeOf: () => own(),
    endpointsOf,
    dnsRecords: () => dnsIndex().all,
    // A Service's records are exactly those it gives rise to (every one is listed under it).
    dnsRecordsFor: (resource) => (isService(resource) ? recordsUnder(resource) : (dnsOf(resource.namespace).byResource.get(resource) ?? [])),
    resolveName(name, fromNamespace, from) {
      const near = from && hasUnrenderedCharts(cluster) ? localityOf(from) : '';
      const key = `${fromNamespace}\u0000${name}\u0000${near}`;
      let r = resolutions.get(key);
      if (!r) resolutions.set(key, (r = resolveName({ cluster, config, recordsOf: recordsUnder, endpointsOf }, name, fromNamespace, near)));
      return r;
    },
    serviceEnv(namespace, enableServiceLinks = true) {
      const key = `${namespace}\u0000${enableServiceLinks}`;
      let r = envs.get(key);
      if (!r) envs.set(key, (r = serviceEnvFor(cluster, namespace, enableServiceLinks)));
      return r;
    },
    ingressRoutes: () => (routes ??= resolveIngressRoutes(cluster, endpointsOf, config)),
    policiesSelecting(workload) {
      const memo = memoOf(workload.namespace).policies;
      let r = memo.get(workload);
      if (!r) memo.set(workload, (r = policiesSelectingWorkload(cluster, workload)));
      return r;
    },
    ingressAllowed: (workload, peer, port, protocol) => ingressVerdict(cluster, workload, peer, port, protocol),
    servicePath(service) {
      let r = paths.get(service);
      if (!r) paths.set(service, (r = servicePath(analysis, service)));
      return r;
    },
  };
  return analysis;
}
