// One snapshot's analysis: the cluster plus lazily computed, memoized semantics over it.
// Everything here is a pure function of (files, config); callers share one Analysis per snapshot.

import type { AnalysisConfig } from '../model/config';
import type { Cluster } from '../model/cluster';
import type { Service } from '../model/resources';
import { resolveEndpoints, type ServiceEndpoints } from './endpoints';

export interface Analysis {
  readonly cluster: Cluster;
  readonly config: AnalysisConfig;
  endpointsOf(service: Service): ServiceEndpoints;
}

export function createAnalysis(cluster: Cluster, config: AnalysisConfig): Analysis {
  const endpoints = new Map<Service, ServiceEndpoints>();
  return {
    cluster,
    config,
    endpointsOf(service) {
      let e = endpoints.get(service);
      if (!e) endpoints.set(service, (e = resolveEndpoints(cluster, service)));
      return e;
    },
  };
}
