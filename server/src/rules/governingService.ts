// The governing Service of a StatefulSet (`spec.serviceName`) and whether it gives the pods their per-pod DNS names.

import type { NamespaceObjects } from '../model/cluster';
import type { Lookup } from './rule';
import { selectsPods } from '../model/podLabels';
import type { Service, Workload } from '../model/resources';

/** StatefulSets, each with the Service its serviceName names in its namespace (undefined when there is none). */
export function* statefulSetsWithService(
  subjects: Pick<NamespaceObjects, 'workloads'>,
  lookup: Lookup,
): Generator<{ readonly statefulSet: Workload; readonly service?: Service }> {
  for (const w of subjects.workloads) {
    if (w.kind !== 'StatefulSet') continue;
    yield { statefulSet: w, service: w.serviceName ? lookup.service(w.namespace, w.serviceName) : undefined };
  }
}

/** semantics §2.3 (2): the Service selects the pods when its non-empty selector is a subset of the template labels. */
export function selectsTemplate(service: Service, workload: Workload): boolean {
  if (!service.selector || service.type === 'ExternalName') return false;
  return selectsPods(workload, service.selector);
}

/** `web-0.nginx.default.svc.cluster.local`: the first pod's stable name, for messages. */
export function firstPodName(statefulSet: Workload, serviceName: string, clusterDomain: string): string {
  return `${statefulSet.name}-${statefulSet.ordinalsStart}.${serviceName}.${statefulSet.namespace}.svc.${clusterDomain}`;
}
