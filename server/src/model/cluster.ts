// All parsed files → one Cluster: resources indexed by (kind, namespace, name) and pod templates indexed by label,
// so selector matching looks up candidates instead of scanning every workload.

import type { ManifestFile } from './parseManifest';
import {
  isService, isWorkload, type ConfigMap, type EndpointSlice, type Endpoints, type Ingress, type NetworkPolicy,
  type Resource, type Service, type Workload,
} from './resources';
import { selectorMatches, type LabelSelector } from './selector';

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
  /** Workloads in `namespace` whose pod template labels contain every pair of the equality selector. */
  workloadsMatching(namespace: string, selector: ReadonlyMap<string, string>): readonly Workload[];
  /** Workloads in `namespace` whose pod template labels satisfy a full label selector. */
  workloadsSelectedBy(namespace: string, selector: LabelSelector): readonly Workload[];
}

export function resourceKey(kind: string, namespace: string, name: string): string {
  return `${kind}\u0000${namespace}\u0000${name}`;
}

export function buildCluster(input: readonly ManifestFile[]): Cluster {
  // Files in URI order, so that every list, and every finding that names several objects, is the same whatever
  // order the files were read in.
  const files = isSortedByUri(input) ? input : [...input].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  const resources = files.flatMap((f) => f.resources);
  const byKey = new Map<string, Resource[]>();
  const services: Service[] = [];
  const workloads: Workload[] = [];
  const endpoints: Endpoints[] = [];
  const endpointSlices: EndpointSlice[] = [];
  const ingresses: Ingress[] = [];
  const networkPolicies: NetworkPolicy[] = [];
  const configMaps: ConfigMap[] = [];
  const namespaces = new Set<string>();
  const declaredNamespaces = new Map<string, Resource>();
  const servicesByNs = new Map<string, Service[]>();
  const servicesByLowerName = new Map<string, Service[]>();
  const workloadsByNs = new Map<string, Workload[]>();
  // namespace → "key=value" → workloads whose template carries that label
  const labelIndex = new Map<string, Map<string, Workload[]>>();

  for (const r of resources) {
    const key = resourceKey(r.kind, r.namespace, r.name);
    const list = byKey.get(key);
    if (list) list.push(r);
    else byKey.set(key, [r]);
    if (r.kind === 'Namespace') {
      namespaces.add(r.name);
      if (!declaredNamespaces.has(r.name)) declaredNamespaces.set(r.name, r);
      continue;
    }
    namespaces.add(r.namespace);
    if (isService(r)) {
      services.push(r);
      push(servicesByNs, r.namespace, r);
      push(servicesByLowerName, r.name.toLowerCase(), r);
    } else if (isWorkload(r)) {
      workloads.push(r);
      push(workloadsByNs, r.namespace, r);
      let idx = labelIndex.get(r.namespace);
      if (!idx) labelIndex.set(r.namespace, (idx = new Map()));
      for (const [k, v] of r.template.labels) push(idx, `${k}=${v}`, r);
    } else if (r.kind === 'Endpoints') endpoints.push(r as Endpoints);
    else if (r.kind === 'EndpointSlice') endpointSlices.push(r as EndpointSlice);
    else if (r.kind === 'Ingress') ingresses.push(r as Ingress);
    else if (r.kind === 'NetworkPolicy') networkPolicies.push(r as NetworkPolicy);
    else if (r.kind === 'ConfigMap') configMaps.push(r as ConfigMap);
  }

  const none: readonly never[] = [];
  const workloadsMatching = (namespace: string, selector: ReadonlyMap<string, string>): readonly Workload[] => {
    const idx = labelIndex.get(namespace);
    if (!idx || selector.size === 0) return none;
    // Start from the rarest pair, then check the rest.
    let best: Workload[] | undefined;
    for (const [k, v] of selector) {
      const c = idx.get(`${k}=${v}`);
      if (!c) return none;
      if (!best || c.length < best.length) best = c;
    }
    return best!.filter((w) => {
      for (const [k, v] of selector) if (w.template.labels.get(k) !== v) return false;
      return true;
    });
  };

  return {
    files,
    resources,
    services,
    workloads,
    endpoints,
    endpointSlices,
    ingresses,
    networkPolicies,
    configMaps,
    namespaces,
    declaredNamespaces,
    get: (kind, namespace, name) => byKey.get(resourceKey(kind, namespace, name)) ?? none,
    service: (namespace, name) => byKey.get(resourceKey('Service', namespace, name))?.[0] as Service | undefined,
    servicesIn: (namespace) => servicesByNs.get(namespace) ?? none,
    servicesNamed: (name) => servicesByLowerName.get(name.toLowerCase()) ?? none,
    workloadsIn: (namespace) => workloadsByNs.get(namespace) ?? none,
    workloadsMatching,
    workloadsSelectedBy: (namespace, selector) => {
      if (selector.matchLabels.size > 0) return workloadsMatching(namespace, selector.matchLabels).filter((w) => selectorMatches(selector, w.template.labels));
      return (workloadsByNs.get(namespace) ?? none).filter((w) => selectorMatches(selector, w.template.labels));
    },
  };
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

function isSortedByUri(files: readonly ManifestFile[]): boolean {
  for (let i = 1; i < files.length; i++) if (files[i - 1].uri > files[i].uri) return false;
  return true;
}
