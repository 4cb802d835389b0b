// One namespace's share of a rule run: the analysis a namespace-scoped rule sees when it checks only the subjects
// of one namespace, and the inputs it consulted, so an edit re-runs only the checks whose inputs changed.
//
// The resource lists (`services`, `workloads`…) hold only that namespace's objects: a namespace-scoped rule iterates
// them for its subjects and never to look something up. Every lookup goes through the index functions of the whole
// cluster and is recorded as a dependency key:
//   `ns:<namespace>`  anything about the objects in that namespace (or the namespace's own existence and labels);
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
// A rule's own namespace is always a dependency of its unit.

import type { Analysis, NameResolution } from '../analysis/analysis';
import { resolveName } from '../analysis/resolveName';
import type { Cluster, NamespaceObjects } from '../model/cluster';
import { isWorkload, type EndpointSlice, type Resource, type Service } from '../model/resources';

/** The resources of one namespace, by list, in cluster order. */
export type NamespaceLists = NamespaceObjects;

/** Every namespace that holds at least one object (by `metadata.namespace`), with its objects split by list. */
export function namespaceLists(cluster: Cluster): ReadonlyMap<string, NamespaceLists> {
  const out = new Map<string, NamespaceLists>();
  for (const ns of cluster.namespacesWithObjects()) out.set(ns, cluster.objectsIn(ns)!);
  return out;
}

/** The dependency keys an object's presence and content feed (see the module comment). */
export function keysOf(r: Resource, into: Set<string>): void {
  into.add(`ns:${r.namespace}`);
  into.add(objectKey(r.kind, r.namespace, r.name));
  if (isWorkload(r)) for (const [k, v] of r.template.labels) into.add(podKey(r.namespace, k, v));
  if (r.kind === 'Namespace') {
    into.add(`ns:${r.name}`);
    into.add('nsset');
  }
  if (r.kind === 'Service') {
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
  const cluster = recordedCluster(analysis.cluster, deps);
  const endpointsOf = (service: Service) => {
    endpointDeps(service, deps);
    return analysis.endpointsOf(service);
  };
  // A Service's records are made from the Service itself and its endpoints (semantics §2.1).
  const recordsOf = (service: Service) => {
    endpointDeps(service, deps);
    return analysis.dnsRecordsFor(service);
  };
  return { resolution: resolveName({ cluster, config: analysis.config, recordsOf, endpointsOf }, name, fromNamespace), deps };
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

/** The analysis a namespace-scoped rule sees for one namespace; every read lands in `deps`. */
export function namespaceView(analysis: Analysis, lists: NamespaceLists, deps: Set<string>, resolutions?: ResolutionMemo): Analysis {
  const ns = (n: string) => deps.add(`ns:${n}`);
  const cluster = recordedCluster(analysis.cluster, deps, lists);
  const everything = () => deps.add('*');
  return {
    cluster,
    config: analysis.config,
    // semantics §1.1: endpoints come from the Service's own namespace (pods, manual Endpoints and slices).
    endpointsOf(service) {
      ns(service.namespace);
      return analysis.endpointsOf(service);
    },
    dnsRecords() {
      everything();
      return analysis.dnsRecords();
    },
    // semantics §2: every record lives under the name of its own namespace and is made from objects there.
    dnsRecordsFor(resource) {
      ns(resource.namespace);
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
    serviceEnv(namespace, enableServiceLinks) {
      ns(namespace);
      return analysis.serviceEnv(namespace, enableServiceLinks);
    },
    ingressRoutes() {
      everything();
      return analysis.ingressRoutes();
    },
    policiesSelecting(workload) {
      ns(workload.namespace);
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
}

/**
 * The cluster with every lookup recorded in `deps`. With `lists`, the resource lists are those of one namespace (a
 * rule iterates them for its subjects); without, they are the whole cluster's and reading one depends on everything.
 */
function recordedCluster(c: Cluster, deps: Set<string>, lists?: NamespaceLists): Cluster {
  const ns = (n: string) => deps.add(`ns:${n}`);
  const lookups: Omit<Cluster, keyof ResourceLists> = {
    files: c.files,
    namespaces: recordedSet(c.namespaces, deps),
    declaredNamespaces: recordedMap(c.declaredNamespaces, deps),
    get(kind, namespace, name) {
      deps.add(objectKey(kind, namespace, name));
      return c.get(kind, namespace, name);
    },
    service(namespace, name) {
      deps.add(objectKey('Service', namespace, name));
      return c.service(namespace, name);
    },
    servicesIn(namespace) {
      ns(namespace);
      return c.servicesIn(namespace);
    },
    servicesNamed(name) {
      deps.add(`svc:${name.toLowerCase()}`);
      return c.servicesNamed(name);
    },
    workloadsIn(namespace) {
      ns(namespace);
      return c.workloadsIn(namespace);
    },
    servicesClaimingNodePort(nodePort) {
      deps.add(`nodeport:${nodePort}`);
      return c.servicesClaimingNodePort(nodePort);
    },
    workloadsMatching(namespace, selector) {
      const key = selectorKey(namespace, selector);
      if (key) deps.add(key);
      return c.workloadsMatching(namespace, selector);
    },
    objectsIn(namespace) {
      ns(namespace);
      return c.objectsIn(namespace);
    },
    namespacesWithObjects() {
      deps.add('*');
      return c.namespacesWithObjects();
    },
    workloadsSelectedBy(namespace, selector) {
      const key = selectorKey(namespace, selector.matchLabels);
      if (key) deps.add(key);
      else ns(namespace);
      return c.workloadsSelectedBy(namespace, selector);
    },
  };
  // Copied as property descriptors: reading a whole-cluster list must count only when a caller reads it.
  return Object.defineProperties(lookups, Object.getOwnPropertyDescriptors(listsOf(c, deps, lists))) as Cluster;
}

type ResourceLists = Pick<Cluster, 'resources' | 'services' | 'workloads' | 'endpoints' | 'endpointSlices' | 'ingresses' | 'networkPolicies' | 'configMaps'>;

function listsOf(c: Cluster, deps: Set<string>, lists: NamespaceLists | undefined): ResourceLists {
  if (lists) {
    return { resources: lists.resources, services: lists.services, workloads: lists.workloads, endpoints: lists.endpoints, endpointSlices: lists.endpointSlices, ingresses: lists.ingresses, networkPolicies: lists.networkPolicies, configMaps: lists.configMaps };
  }
  const whole = <K extends keyof ResourceLists>(k: K): ResourceLists[K] => {
    deps.add('*');
    return c[k];
  };
  return {
    get resources() { return whole('resources'); },
    get services() { return whole('services'); },
    get workloads() { return whole('workloads'); },
    get endpoints() { return whole('endpoints'); },
    get endpointSlices() { return whole('endpointSlices'); },
    get ingresses() { return whole('ingresses'); },
    get networkPolicies() { return whole('networkPolicies'); },
    get configMaps() { return whole('configMaps'); },
  };
}

function recordedSet(set: ReadonlySet<string>, deps: Set<string>): ReadonlySet<string> {
  return {
    has: (v) => {
      deps.add(`nsx:${v}`);
      return set.has(v);
    },
    get size() {
      deps.add('nsset');
      return set.size;
    },
    forEach(cb, thisArg) {
      deps.add('nsset');
      set.forEach((v) => cb.call(thisArg, v, v, this));
    },
    entries() {
      deps.add('nsset');
      return set.entries();
    },
    keys() {
      deps.add('nsset');
      return set.keys();
    },
    values() {
      deps.add('nsset');
      return set.values();
    },
    [Symbol.iterator]() {
      deps.add('nsset');
      return set[Symbol.iterator]();
    },
  } as ReadonlySet<string>;
}

function recordedMap<V>(map: ReadonlyMap<string, V>, deps: Set<string>): ReadonlyMap<string, V> {
  return {
    get: (k) => {
      deps.add(`ns:${k}`);
      return map.get(k);
    },
    has: (k) => {
      deps.add(`ns:${k}`);
      return map.has(k);
    },
    get size() {
      deps.add('nsset');
      return map.size;
    },
    forEach(cb, thisArg) {
      deps.add('nsset');
      map.forEach((v, k) => cb.call(thisArg, v, k, this));
    },
    entries() {
      deps.add('nsset');
      return map.entries();
    },
    keys() {
      deps.add('nsset');
      return map.keys();
    },
    values() {
      deps.add('nsset');
      return map.values();
    },
    [Symbol.iterator]() {
      deps.add('nsset');
      return map[Symbol.iterator]();
    },
  } as ReadonlyMap<string, V>;
}
