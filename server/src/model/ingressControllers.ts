// Which workloads run an ingress controller, recognised by their image (for ingress-backend-policy-blocked): the
// controller's own pods proxy each request to the backend's pods, so NetworkPolicies must admit them
// (docs/networkpolicy-semantics.md §1, §6).

import type { Cluster } from './cluster';
import type { Workload } from './resources';

/** Images of ingress controllers whose own pods proxy the requests to the backends' pods. */
const controllerImages: readonly RegExp[] = [
  /(^|\/)ingress-nginx\/controller(:|@|$)/,
  /(^|\/)nginx-ingress-controller(:|@|$)/,
  /(^|\/)nginx\/nginx-ingress(:|@|$)/,
  /(^|\/)traefik(:|@|$)/,
  /(^|\/)haproxytech\/kubernetes-ingress(:|@|$)/,
  /(^|\/)haproxy-ingress(:|@|$)/,
  /(^|\/)kong\/kubernetes-ingress-controller(:|@|$)/,
];

/** Whether a workload runs an ingress controller's image. */
export function isIngressController(w: Workload): boolean {
  return w.template.containers.some((c) => c.image !== undefined && controllerImages.some((re) => re.test(c.image!)));
}

/**
 * The controller workloads of one namespace's list, found once per list: a namespace's workload list is the same
 * array while the namespace is unchanged (model/cluster.ts keeps its partition from one build to the next).
 */
const ofList = new WeakMap<readonly Workload[], readonly Workload[]>();
const ofCluster = new WeakMap<Cluster, readonly Workload[]>();

/** The ingress controller workloads of a cluster, namespace by namespace in order of first appearance; made once per cluster. */
export function ingressControllersOf(cluster: Cluster): readonly Workload[] {
  let found = ofCluster.get(cluster);
  if (found) return found;
  const out: Workload[] = [];
  for (const ns of cluster.namespaces) {
    const list = cluster.workloadsIn(ns);
    let mine = ofList.get(list);
    if (!mine) ofList.set(list, (mine = list.filter(isIngressController)));
    out.push(...mine);
  }
  ofCluster.set(cluster, (found = out));
  return found;
}
