// What a host written in an Istio object (a destination, a DestinationRule's host) lands on, within the subjects'
// scope (istio-semantics §I1), read through the rule's recording lookups.

import { istioHostTarget, type IstioTarget } from '../analysis/istioHosts';
import type { AnalysisConfig } from '../model/config';
import type { Lookup } from './rule';

export type { IstioTarget } from '../analysis/istioHosts';

export function istioTarget(lookup: Lookup, config: AnalysisConfig, written: string, namespace: string): IstioTarget {
  return istioHostTarget(lookup, config, written, namespace);
}
