// What a ServiceMonitor or a PodMonitor selects within the subjects' scope: the Services (by Service label) or the
// workloads (by pod label) its selector matches in the namespaces its namespaceSelector names.

import { monitoredNamespaces, type ScrapeMonitor } from '../model/monitoring';
import type { Service, Workload } from '../model/resources';
import { selectorIsEmpty, selectorMatches } from '../model/selector';
import type { Lookup } from './rule';

/** The namespaces of a monitor that the manifests in scope describe. */
export function monitorNamespaces(lookup: Lookup, m: ScrapeMonitor): string[] {
  const named = monitoredNamespaces(m);
  return named ? named.filter((ns) => lookup.namespaceExists(ns)) : [...lookup.namespaces()];
}

export function selectedServices(lookup: Lookup, m: ScrapeMonitor): Service[] {
  if (!m.selector) return [];
  const selector = m.selector;
  return monitorNamespaces(lookup, m).flatMap((ns) => lookup.servicesIn(ns).filter((s) => selectorMatches(selector, s.labels)));
}

export function selectedWorkloads(lookup: Lookup, m: ScrapeMonitor): Workload[] {
  if (!m.selector || selectorIsEmpty(m.selector)) return [];
  const selector = m.selector;
  return monitorNamespaces(lookup, m).flatMap((ns) => [...lookup.workloadsSelectedBy(ns, selector)]);
}
