// The rule context (rules/rule.ts) as incremental evaluation gives it: a rule checks one file's objects in one
// namespace (its subjects) and finds everything else through lookups that answer from the scope of that file
// (model/project.ts) and record what they read, so an edit re-runs only the checks whose inputs changed.
//
// The dependency keys are made in one place, engine/depKeys.ts (what each stands for is listed there).

import type { Phrase } from '../l10n/l10n';
import type { Analysis, NameResolution, ScopeAnalysis } from '../analysis/analysis';
import { reach } from '../analysis/reach';
import { resolveName } from '../analysis/resolveName';
import { hasUnrenderedCharts, localityOf, unknownGateway, unknownPods, unknownService } from '../analysis/unknowns';
import { rejectionReason } from '../analysis/validation/rejection';
import { fileNamed, type Cluster, type NamespaceObjects, type ObjectList } from '../model/cluster';
import type { AnalysisConfig } from '../model/config';
import { gatewayObjectsOf, isGateway, isRoute, type Gateway } from '../model/gatewayApi';
import { isIstioNetworkingVersion, istioObjectsOf } from '../model/istio';
import { certificatesOf } from '../model/certManager';
import { destinationRulesFor, serviceEntriesFor } from '../analysis/istioHosts';
import { ingressesClaiming } from '../analysis/ingressClaims';
import { gatewayParentsOf, routesNamingGateway } from '../analysis/routeClaims';
import { publishedNames, servicesPublishing } from '../analysis/externalDns';
import { isControllerLabel } from '../model/podLabels';
import { ingressControllersOf, isIngressController } from '../model/ingressControllers';
import { isService, isWorkload, type EndpointSlice, type Endpoints, type Ingress, type Resource, type Service, type Workload } from '../model/resources';
import { selectorMatches, type LabelSelector, type SelectorRequirement } from '../model/selector';
import type { Lookup, RuleContext } from '../rules/rule';
import { dep, type DepKey } from './depKeys';

/** The dependency keys an object's presence and content feed (engine/depKeys.ts says what each stands for). */
export function keysOf(r: Resource, into: Set<DepKey>): void {
  into.add(dep.namespace(r.namespace));
  into.add(dep.object(r.kind, r.namespace, r.name));
  if (isWorkload(r)) {
    into.add(dep.workloads(r.namespace));
    // a controller's coming, going or change (its labels, its namespace) touches the key through either version
    if (isIngressController(r)) into.add(dep.ingressControllers);
    for (const [k, v] of r.template.labels) into.add(dep.podLabel(r.namespace, k, v));
  }
  if (r.kind === 'NetworkPolicy') into.add(dep.policies(r.namespace));
  if (r.kind === 'Namespace') {
    into.add(dep.namespace(r.name));
    into.add(dep.namespaceDeclared(r.name));
    into.add(dep.namespaceSet);
  }
  if (r.kind === 'Service') {
    into.add(dep.services(r.namespace));
    into.add(dep.servicesNamed(r.name));
    // Every node port written, whatever the type: a change of type or port touches both versions' keys.
    for (const p of (r as Service).ports) if (p.nodePort) into.add(dep.nodePort(p.nodePort));
    for (const n of publishedNames(r as Service)) into.add(dep.publishedName(n));
  }
  if (r.kind === 'EndpointSlice') into.add(dep.slices(r.namespace, (r as EndpointSlice).serviceName ?? ''));
  // Every object of these kinds, Gateway API or not: a change of apiVersion touches the key either way.
  if (r.kind === 'Gateway') into.add(dep.gateways(r.namespace));
  else if (r.kind === 'ReferenceGrant') into.add(dep.grants(r.namespace));
  else if (r.kind === 'Secret') into.add(dep.secrets(r.namespace));
  if (r.kind === 'Certificate') into.add(dep.certificates(r.namespace));
  if (r.kind === 'Ingress') for (const p of (r as Ingress).paths) into.add(dep.ingressHost(p.host ?? ''));
  if (isRoute(r)) for (const g of gatewayParentsOf(r)) into.add(dep.gatewayRoutes(g));
  // Every object of the group, whatever its kind or version: a change of either touches the keys.
  if (isIstioNetworkingVersion(r.apiVersion)) {
    into.add(dep.istio(r.namespace));
    if (r.kind === 'ServiceEntry') into.add(dep.serviceEntries);
    else if (r.kind === 'DestinationRule') into.add(dep.destinationRules);
  }
}

/** The key standing for a selector's matches in a namespace; undefined for an empty selector, which matches nothing here. */
function selectorKey(namespace: string, selector: ReadonlyMap<string, string>): DepKey | undefined {
  // Controller labels are on no template (model/podLabels.ts): a selector of those alone depends on every workload.
  for (const [k, v] of selector) if (!isControllerLabel(k)) return dep.podLabel(namespace, k, v);
  return selector.size ? dep.workloads(namespace) : undefined;
}

/**
 * A name resolution, whether a selector selects any workload, or why something may exist that the manifests do not
 * show (`unknownKey`), with the inputs it read, kept from one snapshot to the next: a unit that asked depends on the
 * answer (`res:<key>`), which changes only when the answer differs.
 */
export interface KnownResolution {
  readonly resolution: KnownAnswer;
  readonly deps: ReadonlySet<DepKey>;
}

/** What a kept answer is: a name resolution, a yes or no, or a reason (undefined: no reason). */
export type KnownAnswer = NameResolution | boolean | string | Phrase | undefined;

/** Where a rule run finds and keeps the name resolutions it makes (keyed by `resolutionKey`). */
export interface ResolutionMemo {
  get(key: string): KnownResolution | undefined;
  set(key: string, known: KnownResolution): void;
}

/** The memo key of a name written in a namespace of a scope, and the dependency key that stands for its answer. */
export function resolutionKey(scope: string, name: string, fromNamespace: string, near = ''): string {
  return near ? `${scope}\u0001${fromNamespace}/${name}\u0004${near}` : `${scope}\u0001${fromNamespace}/${name}`;
}

/** What the manifests cannot know, asked of a namespace (analysis/unknowns.ts): pods with these label keys, a Service of this name, a Gateway. */
export type UnknownQuestion =
  readonly ['pods', string, string, ...string[]] | readonly ['service', string, string, string] | readonly ['gateway', string, string];

/**
 * The memo key of an unknown question in a scope (see `KnownResolution`). Its answer reads namespace-wide facts (a
 * custom resource anywhere in the namespace, a chart without renders), so a unit that asked it directly would run
 * again on every edit in the namespace; kept as an answer, it runs again only when the reason changes.
 */
export function unknownKey(scope: string, question: UnknownQuestion): string {
  return `${scope}\u0001\u0003${JSON.stringify(question)}`;
}

/** The memo key of "does this selector select any workload in this namespace" in a scope (see `KnownResolution`). */
export function selectionKey(scope: string, namespace: string, selector: LabelSelector): string {
  const expressions = selector.matchExpressions.map((e) => [e.key, e.operator, e.values]);
  return `${scope}\u0001\u0002${namespace}\u0002${JSON.stringify([[...selector.matchLabels], expressions])}`;
}

/**
 * Resolves a name (or a selection, `selectionKey`) afresh through a view of the cluster that notes every lookup, so the resolution depends only on
 * the objects it actually consulted: an edit elsewhere in the namespaces it names leaves it standing.
 */
export function resolveKnown(scope: ScopeAnalysis, key: string): KnownResolution {
  const analysis = scope.analysis;
  const from = key.indexOf('\u0001') + 1;
  if (key.charCodeAt(from) === 3) {
    const question = JSON.parse(key.slice(from + 1)) as UnknownQuestion;
    const deps = new Set<DepKey>([dep.charts]);
    const recorder = recorderFor(analysis);
    recorder.deps = deps;
    const cluster = recorder.context.cluster;
    const resolution =
      question[0] === 'pods'
        ? unknownPods(cluster, question[1], question.slice(3), question[2])
        : question[0] === 'service'
          ? unknownService(cluster, question[1], question[2], question[3])
          : unknownGateway(cluster, question[1], question[2]);
    return { resolution, deps };
  }
  if (key.charCodeAt(from) === 2) {
    const cut = key.indexOf('\u0002', from + 1);
    const [labels, expressions] = JSON.parse(key.slice(cut + 1)) as [[string, string][], [string, SelectorRequirement['operator'], string[]][]];
    const selector: LabelSelector = {
      matchLabels: new Map(labels),
      matchExpressions: expressions.map(([k, operator, values]): SelectorRequirement => ({ key: k, operator, values, span: { start: 0, end: 0 } })),
      labelSpans: new Map(),
      span: { start: 0, end: 0 },
    };
    const deps = new Set<DepKey>();
    const recorder = recorderFor(analysis);
    recorder.deps = deps;
    return { resolution: recorder.context.cluster.workloadsSelectedBy(key.slice(from + 1, cut), selector).length > 0, deps };
  }
  const cut = key.indexOf('/', from);
  const fromNamespace = key.slice(from, cut);
  const end = key.indexOf('\u0004', cut);
  const name = end < 0 ? key.slice(cut + 1) : key.slice(cut + 1, end);
  const near = end < 0 ? '' : key.slice(end + 1);
  // Whether a chart lacks its renders is worked out once per snapshot (analysis/unknowns.ts): a resolution that
  // reads it from that memo reads no file list, so it depends on the charts whether it read them or not.
  const deps = new Set<DepKey>([dep.charts]);
  const recorder = recorderFor(analysis);
  recorder.deps = deps;
  return { resolution: resolveName(recorder.context, name, fromNamespace, near), deps };
}

/** One recording view of a snapshot's cluster for all its name resolutions, pointed at each one's dependency set in turn. */
interface Recorder {
  deps: Set<string>;
  readonly context: Parameters<typeof resolveName>[0];
}

const recorders = new WeakMap<Analysis, Recorder>();

function recorderFor(analysis: Analysis): Recorder {
  let r = recorders.get(analysis);
  if (r) return r;
  const recorder: Recorder = {
    deps: new Set(),
    context: {
      cluster: recordedCluster(analysis.cluster, (k) => recorder.deps.add(k)),
      config: analysis.config,
      endpointsOf: (service) => {
        endpointDeps(service, recorder.deps);
        return analysis.endpointsOf(service);
      },
      // A Service's records are made from the Service itself and its endpoints (network-semantics.md 2.1).
      recordsOf: (service) => {
        endpointDeps(service, recorder.deps);
        return analysis.dnsRecordsFor(service);
      },
    },
  };
  recorders.set(analysis, (r = recorder));
  return r;
}

/**
 * What a Service's endpoints are made of (semantics §1.1, §1.2): the Service, the workloads its selector matches in
 * its own namespace, the Endpoints object of its name and the EndpointSlices labelled with its name.
 */
function endpointDeps(service: Service, deps: Set<string>): void {
  deps.add(dep.object('Service', service.namespace, service.name));
  if (service.selector) {
    const key = selectorKey(service.namespace, service.selector);
    if (key) deps.add(key);
  }
  deps.add(dep.object('Endpoints', service.namespace, service.name));
  deps.add(dep.slices(service.namespace, service.name));
}

/** Whether two resolutions of one name tell a rule the same thing (the Service as the very same object). */
export function sameResolution(a: KnownAnswer, b: KnownAnswer): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  // a reason (a Phrase, analysis/unknowns.ts) is the same when it says the same
  if (!('query' in a) || !('query' in b)) return JSON.stringify(a) === JSON.stringify(b);
  if (a.service !== b.service) return false;
  return JSON.stringify({ ...a, service: undefined }) === JSON.stringify({ ...b, service: undefined });
}

/** A unit's rule context, made once per evaluation and bound to each unit in turn. */
export interface UnitContext {
  readonly context: RuleContext;
  /** From now on the subjects are `subjects`, lookups answer from `scope`, and every read lands in `deps`. */
  bind(subjects: NamespaceObjects, deps: Set<DepKey>, scope: ScopeAnalysis): void;
}

/**
 * The rule context of incremental evaluation: one object whose lookups go to the bound scope's analysis and record
 * their dependency keys. `resolutions` keeps name resolutions across units and evaluations (keyed by
 * `resolutionKey`, scope included); without it each resolution is made afresh and its reads recorded directly.
 */
export function unitContext(config: AnalysisConfig, resolutions?: ResolutionMemo): UnitContext {
  let deps = new Set<DepKey>();
  let subjects: NamespaceObjects = emptyObjects;
  let scope: ScopeAnalysis | undefined;
  const a = () => scope!.analysis;
  const record = (key: DepKey) => deps.add(key);
  /** A kept answer (`KnownResolution`): the unit depends on the answer, not on what was read to make it. */
  const known = (key: string): KnownAnswer => {
    if (!resolutions) {
      const fresh = resolveKnown(scope!, key);
      for (const k of fresh.deps) deps.add(k);
      return fresh.resolution;
    }
    let found = resolutions.get(key);
    if (!found) resolutions.set(key, (found = resolveKnown(scope!, key)));
    deps.add(dep.answer(key));
    return found.resolution;
  };
  // The cluster's own questions go through the one recording view of a cluster (recordedCluster), made once per
  // scope's cluster: the keys a lookup records are the keys an analysis function asking the same cluster records.
  let viewOf: Cluster | undefined;
  let view: Cluster | undefined;
  const c = (): Cluster => {
    const cluster = a().cluster;
    if (cluster !== viewOf) [viewOf, view] = [cluster, recordedCluster(cluster, record)];
    return view!;
  };
  const lookup: Lookup = {
    get: (kind, namespace, name) => c().get(kind, namespace, name),
    service: (namespace, name) => c().service(namespace, name),
    servicesIn: (namespace) => c().servicesIn(namespace),
    servicesNamed: (name) => c().servicesNamed(name),
    workloadsIn: (namespace) => c().workloadsIn(namespace),
    hookWorkloadsIn: (namespace) => c().hookWorkloadsIn(namespace),
    workloadsMatching: (namespace, selector) => c().workloadsMatching(namespace, selector),
    workloadsSelectedBy: (namespace, selector) => c().workloadsSelectedBy(namespace, selector),
    workloadsSelectedInVariants(namespace, selector) {
      const workspace = scope!.workspace;
      if (!workspace) return [];
      record(dep.workloads(namespace));
      return variantWorkloads(workspace, a().cluster, namespace).filter((w) => selectorMatches(selector, w.template.labels));
    },
    workloadsInVariants(namespace) {
      const workspace = scope!.workspace;
      if (!workspace) return [];
      record(dep.workloads(namespace));
      return variantWorkloads(workspace, a().cluster, namespace);
    },
    workloadsInFolderOf(uri) {
      const all = scope!.workspace ?? a().cluster;
      // Any workload of any namespace may be written there: the set of namespaces, and each one's workloads.
      record(dep.namespaceSet);
      for (const ns of all.namespaces) record(dep.workloads(ns));
      return workloadsByFolder(all).get(folderOf(uri)) ?? [];
    },
    servicesClaimingNodePort: (nodePort) => c().servicesClaimingNodePort(nodePort),
    endpointsNamed: (namespace, name) => c().get('Endpoints', namespace, name) as readonly Endpoints[],
    slicesFor(namespace, service) {
      record(dep.slices(namespace, service));
      return slicesOf(a().cluster, namespace, service);
    },
    namespaceExists: (namespace) => c().namespaces.has(namespace),
    namespaceDeclaration: (namespace) => c().declaredNamespaces.get(namespace),
    namespaces() {
      record(dep.namespaceSet);
      return a().cluster.namespaces;
    },
    ingressControllers() {
      record(dep.ingressControllers);
      return ingressControllersOf(a().cluster);
    },
    gatewaysIn(namespace) {
      record(dep.gateways(namespace));
      return a().cluster.objectsIn(namespace)?.gateways ?? [];
    },
    servicesInVariants(namespace) {
      const workspace = scope!.workspace;
      if (!workspace) return [];
      record(dep.services(namespace));
      const own = new Set(a().cluster.servicesIn(namespace));
      const out: Service[] = [];
      for (const s of workspace.servicesIn(namespace)) {
        for (const d of workspace.get('Service', namespace, s.name)) if (isService(d) && !own.has(d) && !out.includes(d)) out.push(d);
      }
      return out;
    },
    gatewaysInVariants(namespace) {
      const workspace = scope!.workspace;
      if (!workspace) return [];
      record(dep.gateways(namespace));
      const own = new Set(a().cluster.objectsIn(namespace)?.gateways ?? []);
      const out: Gateway[] = [];
      for (const g of workspace.objectsIn(namespace)?.gateways ?? []) {
        for (const d of workspace.get('Gateway', namespace, g.name)) if (isGateway(d) && !own.has(d) && !out.includes(d)) out.push(d);
      }
      return out;
    },
    referenceGrantsIn(namespace) {
      record(dep.grants(namespace));
      return gatewayObjectsOf(a().cluster.objectsIn(namespace)?.resources).referenceGrants;
    },
    secretsIn(namespace) {
      record(dep.secrets(namespace));
      return gatewayObjectsOf(a().cluster.objectsIn(namespace)?.resources).secrets as readonly Resource[];
    },
    fileText(uri) {
      record(dep.file(uri));
      return fileNamed(a().cluster.files, uri)?.text;
    },
    rejected(kind, namespace, name) {
      record(dep.object(kind, namespace, name));
      const r = a().cluster.rejected(kind, namespace, name);
      return r && rejectionReason(r, config);
    },
    podsUnknown(namespace, keys, from) {
      return known(unknownKey(scope!.id, ['pods', namespace, from ? localityOf(from) : '', ...keys])) as Phrase | undefined;
    },
    serviceUnknown(namespace, name, from) {
      return known(unknownKey(scope!.id, ['service', namespace, name, from ? localityOf(from) : ''])) as Phrase | undefined;
    },
    gatewayUnknown(namespace, from) {
      return known(unknownKey(scope!.id, ['gateway', namespace, from ? localityOf(from) : ''])) as Phrase | undefined;
    },
    // network-semantics.md 1.1, 1.2: a Service's endpoints come from itself, the pods its selector matches in its namespace,
    // the Endpoints object of its name and the EndpointSlices labelled with it.
    endpointsOf(service) {
      endpointDeps(service, deps);
      return a().endpointsOf(service);
    },
    // network-semantics.md 2: a Service's records are made from it and its endpoints; other records from objects in their namespace.
    dnsRecordsFor(resource) {
      if (isService(resource)) endpointDeps(resource, deps);
      else record(dep.namespace(resource.namespace));
      return a().dnsRecordsFor(resource);
    },
    resolveName(name, fromNamespace, from) {
      // Where the name is written matters only while a chart lacks its render: the key leaves it out otherwise, so
      // every file of a namespace shares one resolution of a name.
      record(dep.charts);
      const near = from && hasUnrenderedCharts(a().cluster) ? localityOf(from) : '';
      return known(resolutionKey(scope!.id, name, fromNamespace, near)) as NameResolution;
    },
    anyWorkloadSelectedBy(namespace, selector) {
      return known(selectionKey(scope!.id, namespace, selector)) as boolean;
    },
    // network-semantics.md 4: the variables come from the Services of the pod's namespace and the master Service in `default`.
    serviceEnv(namespace, enableServiceLinks) {
      record(dep.services(namespace));
      record(dep.services('default'));
      return a().serviceEnv(namespace, enableServiceLinks);
    },
    policiesSelecting(workload) {
      record(dep.policies(workload.namespace));
      record(dep.object(workload.kind, workload.namespace, workload.name));
      return a().policiesSelecting(workload);
    },
    istioObjectsIn(namespace) {
      record(dep.istio(namespace));
      return istioObjectsOf(a().cluster.objectsIn(namespace)?.resources);
    },
    serviceEntriesFor(fqdn) {
      record(dep.serviceEntries);
      return serviceEntriesFor(a().cluster, a().config, fqdn);
    },
    destinationRulesFor(fqdn) {
      record(dep.destinationRules);
      return destinationRulesFor(a().cluster, a().config, fqdn);
    },
    servicesPublishing(name) {
      record(dep.publishedName(name));
      return servicesPublishing(a().cluster, name);
    },
    certificatesIn(namespace) {
      record(dep.certificates(namespace));
      return certificatesOf(a().cluster.objectsIn(namespace)?.resources);
    },
    ingressesClaiming(host) {
      record(dep.ingressHost(host));
      return ingressesClaiming(a().cluster, host);
    },
    routesNamingGateway(namespace, name) {
      record(dep.gatewayRoutes(`${namespace}/${name}`));
      return routesNamingGateway(a().cluster, namespace, name);
    },
    destinationRulesInVariants(fqdn) {
      const workspace = scope!.workspace;
      if (!workspace) return [];
      record(dep.destinationRules);
      const own = new Set(destinationRulesFor(a().cluster, a().config, fqdn));
      return destinationRulesFor(workspace, a().config, fqdn).filter((r) => !own.has(r));
    },
    // docs/networkpolicy-semantics.md: both ends' policies and namespace labels, and the policy kinds of the network
    // plugin anywhere in scope (which make the answer unknown): a whole-scope read.
    reach(from, to, port) {
      record(dep.anything);
      return reach(a().cluster, 'template' in from ? { kind: 'workload', workload: from } : from, { kind: 'workload', workload: to }, port);
    },
  };
  const context: RuleContext = {
    get subjects() {
      return subjects;
    },
    lookup,
    config,
  };
  return {
    context,
    bind(s, d, sc) {
      subjects = s;
      deps = d;
      scope = sc;
    },
  };
}

/** The EndpointSlices labelled for a Service (semantics §1.2: CoreDNS and kube-proxy associate them by that label only). */
export function slicesOf(cluster: Cluster, namespace: string, service: string): readonly EndpointSlice[] {
  const all = cluster.objectsIn(namespace)?.endpointSlices;
  if (!all?.length) return [];
  return all.filter((s) => s.serviceName === service);
}

const emptyObjects: NamespaceObjects = {
  resources: [],
  services: [],
  workloads: [],
  endpoints: [],
  endpointSlices: [],
  ingresses: [],
  networkPolicies: [],
  configMaps: [],
  routes: [],
  gateways: [],
};

/**
 * The cluster with every lookup recorded, for name resolution (analysis/resolveName.ts reads a Cluster): reading a
 * resource list depends on everything.
 */
/**
 * The folder a file is in; a render's URI (`…/overlay/kustomization.yaml#rendered`, `…/chart/#helm/values.yaml`)
 * stands for the folder of the kustomization or chart that defines it.
 */
function folderOf(uri: string): string {
  const hash = uri.indexOf('#');
  const path = hash < 0 ? uri : uri.slice(0, hash);
  return path.endsWith('/') ? path.slice(0, -1) : path.slice(0, Math.max(path.lastIndexOf('/'), 0));
}

const byFolder = new WeakMap<Cluster, ReadonlyMap<string, readonly Workload[]>>();

/** Every workload definition of a cluster (repeated definitions too) by the folder it is written in, made once per cluster. */
function workloadsByFolder(cluster: Cluster): ReadonlyMap<string, readonly Workload[]> {
  let index = byFolder.get(cluster);
  if (index) return index;
  const found = new Map<string, Workload[]>();
  const seen = new Set<Workload>();
  for (const ns of cluster.namespaces) {
    for (const w of cluster.workloadsIn(ns)) {
      for (const d of cluster.get(w.kind, ns, w.name)) {
        if (!isWorkload(d) || seen.has(d)) continue;
        seen.add(d);
        const folder = folderOf(d.uri);
        const list = found.get(folder);
        if (list) list.push(d);
        else found.set(folder, [d]);
      }
    }
  }
  byFolder.set(cluster, (index = found));
  return index;
}

/**
 * The workloads of a namespace that a scope's lookups do not answer with: every definition the workspace holds (a
 * workload defined differently in two variants has a definition in each) that is not one of the scope's.
 */
function variantWorkloads(workspace: Cluster, mine: Cluster, namespace: string): Workload[] {
  const own = new Set(mine.workloadsIn(namespace));
  const out: Workload[] = [];
  for (const w of workspace.workloadsIn(namespace)) {
    for (const d of workspace.get(w.kind, namespace, w.name)) if (!own.has(d as Workload) && isWorkload(d)) out.push(d);
  }
  return out;
}

function recordedCluster(c: Cluster, record: (key: DepKey) => void): Cluster {
  const listed = <K extends keyof ResourceLists>(k: K): ResourceLists[K] => {
    record(dep.anything);
    return c[k];
  };
  return {
    // Name resolution reads the file list only to learn which Helm charts have renders (analysis/unknowns.ts).
    get files() {
      record(dep.charts);
      return c.files;
    },
    namespaces: recordedSet(c.namespaces, record),
    declaredNamespaces: recordedMap(c.declaredNamespaces, record),
    get resources() {
      return listed('resources');
    },
    get services() {
      return listed('services');
    },
    get workloads() {
      return listed('workloads');
    },
    get endpoints() {
      return listed('endpoints');
    },
    get endpointSlices() {
      return listed('endpointSlices');
    },
    get ingresses() {
      return listed('ingresses');
    },
    get networkPolicies() {
      return listed('networkPolicies');
    },
    get configMaps() {
      return listed('configMaps');
    },
    get routes() {
      return listed('routes');
    },
    get gateways() {
      return listed('gateways');
    },
    get(kind, namespace, name) {
      record(dep.object(kind, namespace, name));
      return c.get(kind, namespace, name);
    },
    service(namespace, name) {
      record(dep.object('Service', namespace, name));
      return c.service(namespace, name);
    },
    servicesIn(namespace) {
      record(dep.services(namespace));
      return c.servicesIn(namespace);
    },
    servicesNamed(name) {
      record(dep.servicesNamed(name));
      return c.servicesNamed(name);
    },
    workloadsIn(namespace) {
      record(dep.workloads(namespace));
      return c.workloadsIn(namespace);
    },
    hookWorkloadsIn(namespace) {
      record(dep.workloads(namespace));
      return c.hookWorkloadsIn(namespace);
    },
    servicesClaimingNodePort(nodePort) {
      record(dep.nodePort(nodePort));
      return c.servicesClaimingNodePort(nodePort);
    },
    workloadsMatching(namespace, selector) {
      const key = selectorKey(namespace, selector);
      if (key) record(key);
      return c.workloadsMatching(namespace, selector);
    },
    objectsIn(namespace) {
      record(dep.namespace(namespace));
      return c.objectsIn(namespace);
    },
    namespacesWithObjects() {
      record(dep.anything);
      return c.namespacesWithObjects();
    },
    copies() {
      record(dep.anything);
      return c.copies();
    },
    rejected(kind, namespace, name) {
      record(dep.object(kind, namespace, name));
      return c.rejected(kind, namespace, name);
    },
    workloadsSelectedBy(namespace, selector) {
      const key = selectorKey(namespace, selector.matchLabels);
      record(key ?? dep.workloads(namespace));
      return c.workloadsSelectedBy(namespace, selector);
    },
  };
}

type ResourceLists = Pick<Cluster, ObjectList>;

function recordedSet(set: ReadonlySet<string>, record: (key: DepKey) => void): ReadonlySet<string> {
  return {
    has: (v) => {
      record(dep.namespaceExists(v));
      return set.has(v);
    },
    get size() {
      record(dep.namespaceSet);
      return set.size;
    },
    forEach(cb, thisArg) {
      record(dep.namespaceSet);
      set.forEach((v) => cb.call(thisArg, v, v, this));
    },
    entries() {
      record(dep.namespaceSet);
      return set.entries();
    },
    keys() {
      record(dep.namespaceSet);
      return set.keys();
    },
    values() {
      record(dep.namespaceSet);
      return set.values();
    },
    [Symbol.iterator]() {
      record(dep.namespaceSet);
      return set[Symbol.iterator]();
    },
  } as ReadonlySet<string>;
}

function recordedMap<V>(map: ReadonlyMap<string, V>, record: (key: DepKey) => void): ReadonlyMap<string, V> {
  return {
    get: (k) => {
      record(dep.namespaceDeclared(k));
      return map.get(k);
    },
    has: (k) => {
      record(dep.namespaceDeclared(k));
      return map.has(k);
    },
    get size() {
      record(dep.namespaceSet);
      return map.size;
    },
    forEach(cb, thisArg) {
      record(dep.namespaceSet);
      map.forEach((v, k) => cb.call(thisArg, v, k, this));
    },
    entries() {
      record(dep.namespaceSet);
      return map.entries();
    },
    keys() {
      record(dep.namespaceSet);
      return map.keys();
    },
    values() {
      record(dep.namespaceSet);
      return map.values();
    },
    [Symbol.iterator]() {
      record(dep.namespaceSet);
      return map[Symbol.iterator]();
    },
  } as ReadonlyMap<string, V>;
}
