// All parsed files → one Cluster: resources indexed by (kind, namespace, name) and pod templates indexed by label,
// so selector matching looks up candidates instead of scanning every workload.

import { isGateway, isRoute, type Gateway, type GatewayRoute } from './gatewayApi';
import { push } from './multiMap';
import type { ManifestFile } from './parseManifest';
import {
  isService,
  isWorkload,
  type ConfigMap,
  type EndpointSlice,
  type Endpoints,
  type Ingress,
  type NetworkPolicy,
  type Resource,
  type Service,
  type Workload,
} from './resources';
import { isControllerLabel, selectsPods } from './podLabels';
import { equalityMatches, selectorMatches, type LabelSelector } from './selector';

export interface Cluster {
  readonly files: readonly ManifestFile[];
  readonly resources: readonly Resource[];
  readonly services: readonly Service[];
  readonly workloads: readonly Workload[];
  readonly endpoints: readonly Endpoints[];
  readonly endpointSlices: readonly EndpointSlice[];
  readonly ingresses: readonly Ingress[];
  readonly networkPolicies: readonly NetworkPolicy[];
  readonly configMaps: readonly ConfigMap[];
  readonly routes: readonly GatewayRoute[];
  readonly gateways: readonly Gateway[];
  /** Namespaces that appear anywhere (declared or used by an object). */
  readonly namespaces: ReadonlySet<string>;
  /** Namespaces declared with `kind: Namespace`, with their labels. */
  readonly declaredNamespaces: ReadonlyMap<string, Resource>;
  /** Every object with this kind, namespace and name (more than one is a duplicate). */
  get(kind: string, namespace: string, name: string): readonly Resource[];
  service(namespace: string, name: string): Service | undefined;
  servicesIn(namespace: string): readonly Service[];
  /** Services of any namespace whose name equals `name` ignoring case (CoreDNS compares names case-insensitively, semantics §1.3). */
  servicesNamed(name: string): readonly Service[];
  workloadsIn(namespace: string): readonly Workload[];
  /** Workloads of Helm hooks (tests, pre-install Jobs): kept out of every list, their pods exist while the hook runs. */
  hookWorkloadsIn(namespace: string): readonly Workload[];
  /** NodePort and LoadBalancer Services of any namespace with a port claiming this node port, in cluster order (the allocator is cluster-wide, semantics §5.6). */
  servicesClaimingNodePort(nodePort: number): readonly Service[];
  /** Workloads in `namespace` whose pod template labels contain every pair of the equality selector. */
  workloadsMatching(namespace: string, selector: ReadonlyMap<string, string>): readonly Workload[];
  /** Workloads in `namespace` whose pod template labels satisfy a full label selector. */
  workloadsSelectedBy(namespace: string, selector: LabelSelector): readonly Workload[];
  /** The objects whose `metadata.namespace` is `namespace`; undefined when there are none. */
  objectsIn(namespace: string): NamespaceObjects | undefined;
  /** Every namespace some object's `metadata.namespace` names, in order of first appearance. */
  namespacesWithObjects(): Iterable<string>;
  /** Objects defined in more than one file (kind, namespace and name): every definition of each, in cluster order. */
  copies(): readonly (readonly Resource[])[];
  /** An object of this kind, namespace and name that the API server rejects, so it is in no list or index (semantics §9.4). */
  rejected(kind: string, namespace: string, name: string): Resource | undefined;
}

/** The objects of one namespace (by `metadata.namespace`), split by list, in cluster order. */
export interface NamespaceObjects {
  readonly resources: readonly Resource[];
  readonly services: readonly Service[];
  readonly workloads: readonly Workload[];
  readonly endpoints: readonly Endpoints[];
  readonly endpointSlices: readonly EndpointSlice[];
  readonly ingresses: readonly Ingress[];
  readonly networkPolicies: readonly NetworkPolicy[];
  readonly configMaps: readonly ConfigMap[];
  /** Gateway API routes (HTTPRoute, GRPCRoute, TLSRoute, TCPRoute, UDPRoute) and Gateways (gateway semantics §G1). */
  readonly routes: readonly GatewayRoute[];
  readonly gateways: readonly Gateway[];
}

/** The name of one of the lists `NamespaceObjects` splits objects into. */
export type ObjectList = keyof NamespaceObjects;

export function resourceKey(kind: string, namespace: string, name: string): string {
  return `${kind}\u0000${namespace}\u0000${name}`;
}

/** One namespace's share of the cluster with its indexes; unchanged namespaces keep theirs from one build to the next. */
interface Partition extends NamespaceObjects {
  /** kind + name → objects */
  readonly byKey: ReadonlyMap<string, Resource[]>;
  /** "key=value" → workloads whose pod template carries that label */
  readonly labelIndex: ReadonlyMap<string, Workload[]>;
  /** lower-case name → Services */
  readonly servicesByLowerName: ReadonlyMap<string, Service[]>;
  /** node port → the NodePort and LoadBalancer Services claiming it */
  readonly nodePortClaims: ReadonlyMap<number, Service[]>;
  /** Objects defined in more than one file: every definition of each, in cluster order. */
  readonly copies: readonly (readonly Resource[])[];
  /** kind + name → the first rejected definition */
  readonly rejected: ReadonlyMap<string, Resource>;
  readonly hookWorkloads: readonly Workload[];
}

/**
 * `previous`, a cluster built from an earlier version of the same files: the namespaces whose objects all sit in
 * files that did not change (the same parsed objects) keep their lists and indexes, so an edit costs the namespaces
 * it touches.
 */
export function buildCluster(input: readonly ManifestFile[], previous?: Cluster, rejects?: (r: Resource) => boolean): Cluster {
  // The same parsed files under the same rule: the same cluster (an edit leaves most apply scopes as they were).
  if (previous && rejectsOf.get(previous) === rejects && sameFiles(input, previous.files)) return previous;
  // Files in URI order, so that every list, and every finding that names several objects, is the same whatever
  // order the files were read in.
  const files = isSortedByUri(input, previous?.files) ? input : [...input].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  // Partitions built with another rejection rule (other settings) are not reused.
  const reusable = previous && rejectsOf.get(previous) === rejects ? partitionsOf.get(previous) : undefined;
  const { filesOf, namespaces, declaredNamespaces, touched } = (previous && reusable && relayout(previous, files)) ?? layout(files, previous);
  const partitions = new Map<string, Partition>();
  for (const [ns, holders] of filesOf) {
    const kept = reusable && touched && !touched.has(ns) ? reusable.get(ns) : undefined;
    partitions.set(ns, kept ?? buildPartition(ns, holders, rejects));
  }

  let lists: NamespaceObjects | undefined;
  let copies: readonly (readonly Resource[])[] | undefined;
  const all = (): NamespaceObjects => (lists ??= concatLists(files));
  /**
   * A cluster-wide lookup made of each partition's index, memoized per key: the matches of every namespace, back in
   * cluster order (file, then place in the file) when several namespaces have some.
   */
  const acrossNamespaces = <K>(indexOf: (p: Partition) => ReadonlyMap<K, Service[]>) => {
    const memo = new Map<K, readonly Service[]>();
    return (key: K): readonly Service[] => {
      let found = memo.get(key);
      if (found) return found;
      const parts: Service[][] = [];
      for (const p of partitions.values()) {
        const l = indexOf(p).get(key);
        if (l) parts.push(l);
      }
      found = parts.length === 1 ? parts[0] : parts.flat().sort(inClusterOrder);
      memo.set(key, found);
      return found;
    };
  };
  const byLowerName = acrossNamespaces((p) => p.servicesByLowerName);
  const servicesNamed = (name: string): readonly Service[] => byLowerName(name.toLowerCase());
  const servicesClaimingNodePort = acrossNamespaces((p) => p.nodePortClaims);

  const none: readonly never[] = [];
  const workloadsMatching = (namespace: string, selector: ReadonlyMap<string, string>): readonly Workload[] => {
    const partition = partitions.get(namespace);
    if (!partition || selector.size === 0) return none;
    // Start from the rarest pair a template writes, then check every pair on each candidate, controller labels
    // included (model/podLabels.ts).
    let best: readonly Workload[] | undefined;
    let controllerLabels = false;
    for (const [k, v] of selector) {
      if (isControllerLabel(k)) {
        controllerLabels = true;
        continue;
      }
      const c = partition.labelIndex.get(`${k}=${v}`);
      if (!c) return none;
      if (!best || c.length < best.length) best = c;
    }
    // Without controller labels the template labels decide alone (the common case, kept cheap).
    if (!controllerLabels) return selector.size === 1 ? best! : best!.filter((w) => equalityMatches(selector, w.template.labels));
    return (best ?? partition.workloads).filter((w) => selectsPods(w, selector));
  };
  const get = (kind: string, namespace: string, name: string): readonly Resource[] => partitions.get(namespace)?.byKey.get(`${kind}\u0000${name}`) ?? none;

  const cluster: Cluster = {
    files,
    get resources() {
      return all().resources;
    },
    get services() {
      return all().services;
    },
    get workloads() {
      return all().workloads;
    },
    get endpoints() {
      return all().endpoints;
    },
    get endpointSlices() {
      return all().endpointSlices;
    },
    get ingresses() {
      return all().ingresses;
    },
    get networkPolicies() {
      return all().networkPolicies;
    },
    get configMaps() {
      return all().configMaps;
    },
    get routes() {
      return all().routes;
    },
    get gateways() {
      return all().gateways;
    },
    namespaces,
    declaredNamespaces,
    get,
    service: (namespace, name) => get('Service', namespace, name)[0] as Service | undefined,
    servicesIn: (namespace) => partitions.get(namespace)?.services ?? none,
    servicesNamed,
    workloadsIn: (namespace) => partitions.get(namespace)?.workloads ?? none,
    hookWorkloadsIn: (namespace) => partitions.get(namespace)?.hookWorkloads ?? none,
    servicesClaimingNodePort,
    workloadsMatching,
    workloadsSelectedBy: (namespace, selector) => {
      if (selector.matchLabels.size > 0) return workloadsMatching(namespace, selector.matchLabels).filter((w) => selectorMatches(selector, w.template.labels));
      return (partitions.get(namespace)?.workloads ?? none).filter((w) => selectorMatches(selector, w.template.labels));
    },
    objectsIn: (namespace) => partitions.get(namespace),
    namespacesWithObjects: () => partitions.keys(),
    copies: () => (copies ??= [...partitions.values()].flatMap((p) => p.copies)),
    rejected: (kind, namespace, name) => partitions.get(namespace)?.rejected.get(`${kind}\u0000${name}`),
  };
  rejectsOf.set(cluster, rejects);
  partitionsOf.set(cluster, partitions);
  layouts.set(cluster, { filesOf, namespaces, declaredNamespaces });
  return cluster;
}

const partitionsOf = new WeakMap<Cluster, ReadonlyMap<string, Partition>>();
const rejectsOf = new WeakMap<Cluster, ((r: Resource) => boolean) | undefined>();

/** The rejection rule a cluster was built with, for clusters built from it (the scopes of model/project.ts). */
export function rejectionRuleOf(cluster: Cluster): ((r: Resource) => boolean) | undefined {
  return rejectsOf.get(cluster);
}

/** Which files hold each namespace's objects, and the namespaces in order of first appearance. */
interface Layout {
  /** namespace → the files holding its objects, in order */
  readonly filesOf: ReadonlyMap<string, readonly ManifestFile[]>;
  readonly namespaces: ReadonlySet<string>;
  readonly declaredNamespaces: ReadonlyMap<string, Resource>;
  /** The namespaces whose partitions must be rebuilt; undefined for all of them. */
  readonly touched?: ReadonlySet<string>;
}

const layouts = new WeakMap<Cluster, Layout>();

/** The file with this URI among files in URI order (a cluster's, a snapshot's): a binary search. */
export function fileNamed(files: readonly ManifestFile[], uri: string): ManifestFile | undefined {
  let lo = 0;
  let hi = files.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const u = files[mid].uri;
    if (u === uri) return files[mid];
    if (u < uri) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** Every namespace that holds an object (by `metadata.namespace`), in cluster order, with the files holding them, in order. */
export function filesByNamespace(cluster: Cluster): ReadonlyMap<string, readonly ManifestFile[]> {
  return (layouts.get(cluster) ?? layout(cluster.files, undefined)).filesOf;
}

const fileShares = new WeakMap<ManifestFile, Map<string, NamespaceObjects>>();

/** A file's objects in one namespace, split by list, in file order (made once per parsed file and namespace). */
export function fileObjectsIn(file: ManifestFile, namespace: string): NamespaceObjects {
  const share = shareOf(file);
  if (share.namespaces.length === 1 && share.namespaces[0] === namespace) return share.lists;
  let byNs = fileShares.get(file);
  if (!byNs) fileShares.set(file, (byNs = new Map()));
  let found = byNs.get(namespace);
  if (!found) {
    const l = emptyLists();
    for (const r of file.resources) if (r.namespace === namespace) addToLists(l, r);
    byNs.set(namespace, (found = l));
  }
  return found;
}

function layout(files: readonly ManifestFile[], previous: Cluster | undefined): Layout {
  const filesOf = new Map<string, ManifestFile[]>();
  const namespaces = new Set<string>();
  const declaredNamespaces = new Map<string, Resource>();
  for (const f of files) {
    const share = shareOf(f);
    for (const ns of share.namespaces) push(filesOf, ns, f);
    for (const r of share.namespaceObjects) {
      namespaces.add(r.kind === 'Namespace' ? r.name : r.namespace);
      if (r.kind === 'Namespace' && !declaredNamespaces.has(r.name)) declaredNamespaces.set(r.name, r);
    }
  }
  return { filesOf, namespaces, declaredNamespaces, touched: previous ? touchedNamespaces(previous.files, files) : undefined };
}

/**
 * The previous cluster's layout with the files that changed swapped in, when that is all an edit did: the same
 * files in the same order, and no changed file gains or loses a namespace or holds a Namespace object. Otherwise
 * undefined (the layout is rebuilt). Costs a pass of identity checks instead of a pass over every file's objects.
 */
function relayout(previous: Cluster, files: readonly ManifestFile[]): Layout | undefined {
  const before = layouts.get(previous);
  const old = previous.files;
  if (!before || old.length !== files.length) return undefined;
  const swapped = new Map<ManifestFile, ManifestFile>();
  const touched = new Set<string>();
  for (let i = 0; i < files.length; i++) {
    const a = old[i];
    const b = files[i];
    if (a === b) continue;
    if (a.uri !== b.uri) return undefined;
    const sa = shareOf(a);
    const sb = shareOf(b);
    if (sa.namespaces.length !== sb.namespaces.length || sa.namespaces.some((ns, j) => sb.namespaces[j] !== ns)) return undefined;
    if (sa.namespaceObjects.some(isNamespace) || sb.namespaceObjects.some(isNamespace)) return undefined;
    swapped.set(a, b);
    for (const ns of sb.namespaces) touched.add(ns);
  }
  const filesOf = new Map(before.filesOf);
  for (const ns of touched)
    filesOf.set(
      ns,
      filesOf.get(ns)!.map((f) => swapped.get(f) ?? f),
    );
  return { filesOf, namespaces: before.namespaces, declaredNamespaces: before.declaredNamespaces, touched };
}

function isNamespace(r: Resource): boolean {
  return r.kind === 'Namespace';
}

/** What one file contributes, computed once per parsed file. */
interface FileShare {
  /** The namespaces its objects are in (by `metadata.namespace`), in order of first appearance. */
  readonly namespaces: readonly string[];
  /** Its Namespace objects and the first object of every namespace it uses, in order (the cluster's namespace order). */
  readonly namespaceObjects: readonly Resource[];
  readonly lists: NamespaceObjects;
}

const shares = new WeakMap<ManifestFile, FileShare>();

function shareOf(f: ManifestFile): FileShare {
  let share = shares.get(f);
  if (share) return share;
  const namespaces = new Set<string>();
  const seen = new Set<string>();
  const namespaceObjects: Resource[] = [];
  const lists = emptyLists();
  for (const r of f.resources) {
    addToLists(lists, r);
    namespaces.add(r.namespace);
    const ns = r.kind === 'Namespace' ? r.name : r.namespace;
    if (r.kind === 'Namespace' || !seen.has(ns)) namespaceObjects.push(r);
    seen.add(ns);
  }
  shares.set(f, (share = { namespaces: [...namespaces], namespaceObjects, lists }));
  return share;
}

/** Namespaces holding an object of a file that changed, appeared or went away. */
function touchedNamespaces(before: readonly ManifestFile[], after: readonly ManifestFile[]): ReadonlySet<string> {
  const touched = new Set<string>();
  const old = new Map(before.map((f) => [f.uri, f]));
  for (const f of after) {
    const o = old.get(f.uri);
    old.delete(f.uri);
    if (o === f) continue;
    for (const ns of shareOf(f).namespaces) touched.add(ns);
    if (o) for (const ns of shareOf(o).namespaces) touched.add(ns);
  }
  for (const o of old.values()) for (const ns of shareOf(o).namespaces) touched.add(ns);
  return touched;
}

function emptyLists() {
  return {
    resources: [] as Resource[],
    services: [] as Service[],
    workloads: [] as Workload[],
    endpoints: [] as Endpoints[],
    endpointSlices: [] as EndpointSlice[],
    ingresses: [] as Ingress[],
    networkPolicies: [] as NetworkPolicy[],
    configMaps: [] as ConfigMap[],
    routes: [] as GatewayRoute[],
    gateways: [] as Gateway[],
  };
}

function addToLists(l: ReturnType<typeof emptyLists>, r: Resource): void {
  l.resources.push(r);
  if (r.kind === 'Namespace') return;
  if (isService(r)) l.services.push(r);
  else if (isWorkload(r)) l.workloads.push(r);
  else if (r.kind === 'Endpoints') l.endpoints.push(r as Endpoints);
  else if (r.kind === 'EndpointSlice') l.endpointSlices.push(r as EndpointSlice);
  else if (r.kind === 'Ingress') l.ingresses.push(r as Ingress);
  else if (r.kind === 'NetworkPolicy') l.networkPolicies.push(r as NetworkPolicy);
  else if (r.kind === 'ConfigMap') l.configMaps.push(r as ConfigMap);
  else if (isRoute(r)) l.routes.push(r);
  else if (isGateway(r)) l.gateways.push(r);
}

/**
 * One file's objects, split by list, in file order: its share of the cluster's lists (`cluster.workloads` is every
 * file's `workloads` in file order), made once per parsed file, which the next build reuses while the file is unchanged.
 */
export function objectsOfFile(file: ManifestFile): NamespaceObjects {
  return shareOf(file).lists;
}

/** The objects of several files, split by list, in file order. */
export function objectsOfFiles(files: readonly ManifestFile[]): NamespaceObjects {
  return concatLists(files);
}

function concatLists(files: readonly ManifestFile[]): NamespaceObjects {
  const l = emptyLists();
  for (const f of files) {
    const own = shareOf(f).lists;
    for (const k of listNames) {
      const from = own[k] as readonly Resource[];
      const into = l[k] as Resource[];
      for (let i = 0; i < from.length; i++) into.push(from[i]);
    }
  }
  return l;
}

const listNames = [
  'resources',
  'services',
  'workloads',
  'endpoints',
  'endpointSlices',
  'ingresses',
  'networkPolicies',
  'configMaps',
  'routes',
  'gateways',
] as const satisfies readonly ObjectList[];

function inClusterOrder(a: Resource, b: Resource): number {
  return a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : a.span.start - b.span.start;
}

function buildPartition(namespace: string, holders: readonly ManifestFile[], rejects: ((r: Resource) => boolean) | undefined): Partition {
  const rejected = new Map<string, Resource>();
  const l = emptyLists();
  const byKey = new Map<string, Resource[]>();
  const labelIndex = new Map<string, Workload[]>();
  const servicesByLowerName = new Map<string, Service[]>();
  const nodePortClaims = new Map<number, Service[]>();
  const hookWorkloads: Workload[] = [];
  for (const f of holders) {
    for (const r of f.resources) {
      if (r.namespace !== namespace) continue;
      const key = `${r.kind}\u0000${r.name}`;
      // Helm hooks (tests, pre-install jobs) exist only while the hook runs, not with the release: nothing selects them.
      if (r.annotations.has('helm.sh/hook')) {
        if (isWorkload(r)) hookWorkloads.push(r);
        continue;
      }
      // semantics §9.4: an object the API server rejects never exists; it is kept aside for the messages about it.
      if (rejects?.(r)) {
        if (!rejected.has(key)) rejected.set(key, r);
        continue;
      }
      const before = byKey.get(key);
      push(byKey, key, r);
      // Several definitions of one object are one object: lookups see the first (the others are copies, or variants
      // that are never applied together, see model/project.ts); duplicate-resource reports them where they clash.
      if (before) continue;
      addToLists(l, r);
      if (r.kind === 'Namespace') continue;
      if (isWorkload(r)) for (const [k, v] of r.template.labels) push(labelIndex, `${k}=${v}`, r);
      else if (isService(r)) {
        push(servicesByLowerName, r.name.toLowerCase(), r);
        for (const port of claimedNodePorts(r)) push(nodePortClaims, port, r);
      }
    }
  }
  const copies: Resource[][] = [];
  for (const defs of byKey.values()) if (defs.length > 1 && defs.some((d) => d.uri !== defs[0].uri)) copies.push(defs);
  return { ...l, byKey, labelIndex, servicesByLowerName, nodePortClaims, copies, rejected, hookWorkloads };
}

/** The node ports a Service claims, once each: only NodePort and LoadBalancer Services allocate them. */
export function claimedNodePorts(svc: Service): readonly number[] {
  if (svc.type !== 'NodePort' && svc.type !== 'LoadBalancer') return [];
  const out: number[] = [];
  for (const p of svc.ports) if (p.nodePort && p.nodePortSpan && !out.includes(p.nodePort)) out.push(p.nodePort);
  return out;
}

/** Whether files are in URI order; against the (ordered) files of a previous build only the entries that differ are compared. */
function sameFiles(a: readonly ManifestFile[], b: readonly ManifestFile[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isSortedByUri(files: readonly ManifestFile[], before?: readonly ManifestFile[]): boolean {
  const aligned = before?.length === files.length;
  for (let i = 1; i < files.length; i++) {
    if (aligned && files[i] === before![i] && files[i - 1] === before![i - 1]) continue;
    if (files[i - 1].uri > files[i].uri) return false;
  }
  return true;
}
