// One unit of a rule run: the analysis a namespace-scoped rule sees when it checks only its subjects in one file and
// one namespace, and the inputs it consulted, so an edit re-runs only the checks whose inputs changed.
//
// The resource lists (`services`, `workloads`…) hold only that file's objects in that namespace: a namespace-scoped
// rule iterates them for its subjects and never to look something up. Every lookup goes through the index functions
// of the whole cluster and is recorded as a dependency key:
//   `file:<uri>`      the file's own objects (every unit depends on its file);
//   `ns:<namespace>`  anything about the objects in that namespace;
//   `svcs:<namespace>` / `wls:<namespace>` / `netpol:<namespace>`  the Services / workloads / NetworkPolicies in it;
//   `nsdecl:<namespace>`  the Namespace object declaring it;
//   `obj:<kind>/<namespace>/<name>`  the objects with exactly this kind, namespace and name;
//   `pod:<namespace>/<key>=<value>`  the workloads in that namespace whose pod template carries this label (a
//                     selector's matches all carry its first pair, so that pair stands for the whole selector);
//   `nsx:<namespace>` whether that namespace appears anywhere;
//   `svc:<name>`      which Services of any namespace carry this name (case-insensitive, semantics §1.3);
//   `nodeport:<port>` which Services of any namespace claim this node port (semantics §5.6);
//   `slice:<namespace>/<service>`  the EndpointSlices in that namespace labelled for that Service (semantics §1.2);
//   `res:<namespace>/<name>`  what a name written in that namespace resolves to (itself recomputed when what it read
//                     changed, and counted as changed only when the answer differs);
//   `nsset`           which namespaces exist (iterating them, or closest-name searches over them);
//   `*`               anything at all (whole-cluster analyses such as every DNS record or every Ingress route).

import type { Analysis, NameResolution } from '../analysis/analysis';
import { resolveName } from '../analysis/resolveName';
import type { Cluster, NamespaceObjects } from '../model/cluster';
import { isService, isWorkload, type EndpointSlice, type Resource, type Service } from '../model/resources';

/** Resources split by list, in cluster order: one namespace's, or one file's share of one namespace. */
export type NamespaceLists = NamespaceObjects;

/** The dependency keys an object's presence and content feed (see the module comment). */
export function keysOf(r: Resource, into: Set<string>): void {
  into.add(`ns:${r.namespace}`);
  into.add(objectKey(r.kind, r.namespace, r.name));
  if (isWorkload(r)) {
    into.add(`wls:${r.namespace}`);
    for (const [k, v] of r.template.labels) into.add(podKey(r.namespace, k, v));
  }
  if (r.kind === 'NetworkPolicy') into.add(`netpol:${r.namespace}`);
  if (r.kind === 'Namespace') {
    into.add(`ns:${r.name}`);
    into.add(`nsdecl:${r.name}`);
    into.add('nsset');
  }
  if (r.kind === 'Service') {
    into.add(`svcs:${r.namespace}`);
    into.add(`svc:${r.name.toLowerCase()}`);
    // Every node port written, whatever the type: a change of type or port touches both versions' keys.
    for (const p of (r as Service).ports) if (p.nodePort) into.add(`nodeport:${p.nodePort}`);
  }
  if (r.kind === 'EndpointSlice') into.add(sliceKey(r.namespace, (r as EndpointSlice).serviceName ?? ''));
}

function sliceKey(namespace: string, service: string): string {
  return `slice:${namespace}/${service}`;
}

function objectKey(kind: string, namespace: string, name: string): string {
  return `obj:${kind}/${namespace}/${name}`;
}

function podKey(namespace: string, key: string, value: string): string {
  return `pod:${namespace}/${key}=${value}`;
}

/** The key standing for a selector's matches in a namespace; undefined for an empty selector, which matches nothing here. */
function selectorKey(namespace: string, selector: ReadonlyMap<string, string>): string | undefined {
  for (const [k, v] of selector) return podKey(namespace, k, v);
  return undefined;
}

/** A name resolution with the inputs it read, kept from one snapshot to the next. */
export interface KnownResolution {
  readonly resolution: NameResolution;
  readonly deps: ReadonlySet<string>;
}

/** Where a rule run finds and keeps the name resolutions it makes (keyed by `resolutionKey`). */
export interface ResolutionMemo {
  get(key: string): KnownResolution | undefined;
  set(key: string, known: KnownResolution): void;
}

/** The memo key of a name written in a namespace, and the dependency key that stands for its answer. */
export function resolutionKey(name: string, fromNamespace: string): string {
  return `${fromNamespace}/${name}`;
}

/**
 * Resolves a name afresh through a view of the cluster that notes every lookup, so the resolution depends only on
 * the objects it actually consulted: an edit elsewhere in the namespaces it names leaves it standing.
 */
export function resolveKnown(analysis: Analysis, key: string): KnownResolution {
  const cut = key.indexOf('/');
  const fromNamespace = key.slice(0, cut);
  const name = key.slice(cut + 1);
  const deps = new Set<string>();
  const recorder = recorderFor(analysis);
  recorder.deps = deps;
  return { resolution: resolveName(recorder.context, name, fromNamespace), deps };
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
      cluster: recordedCluster(analysis.cluster, (k) => recorder.deps.add(k), () => undefined),
      config: analysis.config,
      endpointsOf: (service) => {
        endpointDeps(service, recorder.deps);
        return analysis.endpointsOf(service);
      },
      // A Service's records are made from the Service itself and its endpoints (semantics §2.1).
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
  deps.add(objectKey('Service', service.namespace, service.name));
  if (service.selector) {
    const key = selectorKey(service.namespace, service.selector);
    if (key) deps.add(key);
  }
  deps.add(objectKey('Endpoints', service.namespace, service.name));
  deps.add(sliceKey(service.namespace, service.name));
}

/** Whether two resolutions of one name tell a rule the same thing (the Service as the very same object). */
export function sameResolution(a: NameResolution, b: NameResolution): boolean {
  if (a === b) return true;
  if (a.service !== b.service) return false;
  return JSON.stringify({ ...a, service: undefined }) === JSON.stringify({ ...b, service: undefined });
}

/** The analysis namespace-scoped rules see, bound to one unit at a time: made once per evaluation, bound per unit. */
export interface UnitView {
  readonly analysis: Analysis;
  /** From now on the lists are `lists` and every read lands in `deps`. */
  bind(lists: NamespaceLists, deps: Set<string>): void;
}

export function unitView(analysis: Analysis, resolutions?: ResolutionMemo): UnitView {
  let deps = new Set<string>();
  let lists: NamespaceLists | undefined;
  const record = (key: string) => deps.add(key);
  const everything = () => deps.add('*');
  const cluster = recordedCluster(analysis.cluster, record, () => lists);
  const view: Analysis = {
    cluster,
    config: analysis.config,
    // semantics §1.1, §1.2: a Service's endpoints come from itself, the pods its selector matches in its namespace,
    // the Endpoints object of its name and the EndpointSlices labelled with it.
    endpointsOf(service) {
      endpointDeps(service, deps);
      return analysis.endpointsOf(service);
    },
    dnsRecords() {
      everything();
      return analysis.dnsRecords();
    },
    // semantics §2: a Service's records are made from it and its endpoints; other records from objects in their namespace.
    dnsRecordsFor(resource) {
      if (isService(resource)) endpointDeps(resource, deps);
      else record(`ns:${resource.namespace}`);
      return analysis.dnsRecordsFor(resource);
    },
    resolveName(name, fromNamespace) {
      const key = resolutionKey(name, fromNamespace);
      if (!resolutions) {
        const fresh = resolveKnown(analysis, key);
        for (const k of fresh.deps) deps.add(k);
        return fresh.resolution;
      }
      let known = resolutions.get(key);
      if (!known) resolutions.set(key, (known = resolveKnown(analysis, key)));
      deps.add(`res:${key}`);
      return known.resolution;
    },
    // semantics §4: the variables come from the Services of the pod's namespace and the master Service in `default`.
    serviceEnv(namespace, enableServiceLinks) {
      record(`svcs:${namespace}`);
      record('svcs:default');
      return analysis.serviceEnv(namespace, enableServiceLinks);
    },
    ingressRoutes() {
      everything();
      return analysis.ingressRoutes();
    },
    policiesSelecting(workload) {
      record(`netpol:${workload.namespace}`);
      record(objectKey(workload.kind, workload.namespace, workload.name));
      return analysis.policiesSelecting(workload);
    },
    ingressAllowed(workload, peer, port, protocol) {
      everything();
      return analysis.ingressAllowed(workload, peer, port, protocol);
    },
    trace(service, findings) {
      everything();
      return analysis.trace(service, findings);
    },
  };
  return {
    analysis: view,
    bind(l, d) {
      lists = l;
      deps = d;
    },
  };
}

/**
 * The cluster with every lookup recorded. While `lists()` gives lists, the resource lists are those (a rule iterates
 * them for its subjects); without, they are the whole cluster's and reading one depends on everything.
 */
function recordedCluster(c: Cluster, record: (key: string) => void, lists: () => NamespaceLists | undefined): Cluster {
  const listed = <K extends keyof ResourceLists>(k: K): ResourceLists[K] => {
    const l = lists();
    if (l) return l[k] as ResourceLists[K];
    record('*');
    return c[k];
  };
  return {
    files: c.files,
    namespaces: recordedSet(c.namespaces, record),
    declaredNamespaces: recordedMap(c.declaredNamespaces, record),
    get resources() { return listed('resources'); },
    get services() { return listed('services'); },
    get workloads() { return listed('workloads'); },
    get endpoints() { return listed('endpoints'); },
    get endpointSlices() { return listed('endpointSlices'); },
    get ingresses() { return listed('ingresses'); },
    get networkPolicies() { return listed('networkPolicies'); },
    get configMaps() { return listed('configMaps'); },
    get(kind, namespace, name) {
      record(objectKey(kind, namespace, name));
      return c.get(kind, namespace, name);
    },
    service(namespace, name) {
      record(objectKey('Service', namespace, name));
      return c.service(namespace, name);
    },
    servicesIn(namespace) {
      record(`svcs:${namespace}`);
      return c.servicesIn(namespace);
    },
    servicesNamed(name) {
      record(`svc:${name.toLowerCase()}`);
      return c.servicesNamed(name);
    },
    workloadsIn(namespace) {
      record(`wls:${namespace}`);
      return c.workloadsIn(namespace);
    },
    servicesClaimingNodePort(nodePort) {
      record(`nodeport:${nodePort}`);
      return c.servicesClaimingNodePort(nodePort);
    },
    workloadsMatching(namespace, selector) {
      const key = selectorKey(namespace, selector);
      if (key) record(key);
      return c.workloadsMatching(namespace, selector);
    },
    objectsIn(namespace) {
      record(`ns:${namespace}`);
      return c.objectsIn(namespace);
    },
    namespacesWithObjects() {
      record('*');
      return c.namespacesWithObjects();
    },
    workloadsSelectedBy(namespace, selector) {
      const key = selectorKey(namespace, selector.matchLabels);
      record(key ?? `wls:${namespace}`);
      return c.workloadsSelectedBy(namespace, selector);
    },
  };
}

type ResourceLists = Pick<Cluster, 'resources' | 'services' | 'workloads' | 'endpoints' | 'endpointSlices' | 'ingresses' | 'networkPolicies' | 'configMaps'>;

function recordedSet(set: ReadonlySet<string>, record: (key: string) => void): ReadonlySet<string> {
  return {
    has: (v) => {
      record(`nsx:${v}`);
      return set.has(v);
    },
    get size() {
      record('nsset');
      return set.size;
    },
    forEach(cb, thisArg) {
      record('nsset');
      set.forEach((v) => cb.call(thisArg, v, v, this));
    },
    entries() {
      record('nsset');
      return set.entries();
    },
    keys() {
      record('nsset');
      return set.keys();
    },
    values() {
      record('nsset');
      return set.values();
    },
    [Symbol.iterator]() {
      record('nsset');
      return set[Symbol.iterator]();
    },
  } as ReadonlySet<string>;
}

function recordedMap<V>(map: ReadonlyMap<string, V>, record: (key: string) => void): ReadonlyMap<string, V> {
  return {
    get: (k) => {
      record(`nsdecl:${k}`);
      return map.get(k);
    },
    has: (k) => {
      record(`nsdecl:${k}`);
      return map.has(k);
    },
    get size() {
      record('nsset');
      return map.size;
    },
    forEach(cb, thisArg) {
      record('nsset');
      map.forEach((v, k) => cb.call(thisArg, v, k, this));
    },
    entries() {
      record('nsset');
      return map.entries();
    },
    keys() {
      record('nsset');
      return map.keys();
    },
    values() {
      record('nsset');
      return map.values();
    },
    [Symbol.iterator]() {
      record('nsset');
      return map[Symbol.iterator]();
    },
  } as ReadonlyMap<string, V>;
}
