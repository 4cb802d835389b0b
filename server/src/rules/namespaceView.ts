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
//   `res:<namespace>/<name>`  what a name written in that namespace resolves to (itself recomputed when what it read
//                     changed, and counted as changed only when the answer differs);
//   `nsset`           which namespaces exist (iterating them, or closest-name searches over them);
//   `*`               anything at all (whole-cluster analyses such as every DNS record or every Ingress route).
// A rule's own namespace is always a dependency of its unit.

import type { Analysis, NameResolution } from '../analysis/analysis';
import { splitHostPort } from '../analysis/resolveName';
import type { Cluster, NamespaceObjects } from '../model/cluster';
import { isWorkload, type Resource } from '../model/resources';

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
  if (r.kind === 'Service') into.add(`svc:${r.name.toLowerCase()}`);
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

/** The memo key of a name written in a namespace, and the dependency key that stands for its answer. */
export function resolutionKey(name: string, fromNamespace: string): string {
  return `${fromNamespace}/${name}`;
}

/** Resolves a name afresh, noting what it read. */
export function resolveKnown(analysis: Analysis, key: string): KnownResolution {
  const cut = key.indexOf('/');
  const fromNamespace = key.slice(0, cut);
  const name = key.slice(cut + 1);
  const deps = new Set<string>();
  nameDeps(name, fromNamespace, deps);
  return { resolution: analysis.resolveName(name, fromNamespace), deps };
}

/** Whether two resolutions of one name tell a rule the same thing (the Service as the very same object). */
export function sameResolution(a: NameResolution, b: NameResolution): boolean {
  if (a === b) return true;
  if (a.service !== b.service) return false;
  return JSON.stringify({ ...a, service: undefined }) === JSON.stringify({ ...b, service: undefined });
}

/** The analysis a namespace-scoped rule sees for one namespace; every read lands in `deps`. */
export function namespaceView(analysis: Analysis, lists: NamespaceLists, deps: Set<string>, resolutions?: Map<string, KnownResolution>): Analysis {
  const c = analysis.cluster;
  const ns = (n: string) => deps.add(`ns:${n}`);
  const cluster: Cluster = {
    files: c.files,
    resources: lists.resources,
    services: lists.services,
    workloads: lists.workloads,
    endpoints: lists.endpoints,
    endpointSlices: lists.endpointSlices,
    ingresses: lists.ingresses,
    networkPolicies: lists.networkPolicies,
    configMaps: lists.configMaps,
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
      if (!resolutions) {
        nameDeps(name, fromNamespace, deps);
        return analysis.resolveName(name, fromNamespace);
      }
      const key = resolutionKey(name, fromNamespace);
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
 * What resolving a written name can read (semantics §3.2, §3.3): the client's namespace (search list, StatefulSet pod
 * names there), every label of the name taken as a namespace or a Service name (each search-list candidate puts a
 * different label in the namespace position), and the set of namespaces (closest-name suggestions).
 */
export function nameDeps(name: string, fromNamespace: string, deps: Set<string>): void {
  // A host of four labels or more (`api.shop.svc.cluster.local`) gets search-list candidates of six labels or more
  // before the zone, which CoreDNS never answers (semantics §3.3): the client's namespace is read only by shorter ones.
  const host = splitHostPort(name)?.host.replace(/\.$/, '');
  if (host === undefined || host.split('.').length <= 3) deps.add(`ns:${fromNamespace}`);
  deps.add('nsset');
  for (const label of name.toLowerCase().split(/[.:/@?#]/)) {
    if (!label) continue;
    deps.add(`ns:${label}`);
    deps.add(`svc:${label}`);
  }
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
