// Prometheus operator scrape objects (monitoring.coreos.com/v1): ServiceMonitors, which scrape the endpoints of the
// Services their selector matches by Service label, and PodMonitors, which scrape the pods their selector matches,
// each on the ports named in their endpoints. Readers never throw.

import { readLabelSelector, type ResourceBase } from './resources';
import type { LabelSelector } from './selector';
import type { Span } from './span';
import { at, bool, entry, items, isMap, text, type YMap, type YNode } from './yamlTree';

export const monitoringGroup = 'monitoring.coreos.com';

export interface MonitorEndpoint {
  readonly index: number;
  /** The port name (ServiceMonitor: a Service port's name; PodMonitor: a container port's name). */
  readonly port?: string;
  readonly portSpan?: Span;
  /** `targetPort` (deprecated) or PodMonitor `portNumber`: the endpoint is chosen by number or by the pod's port. */
  readonly byNumber: boolean;
  readonly span: Span;
}

export interface MonitorNamespaces {
  /** `any: true`: every namespace. */
  readonly any: boolean;
  /** `matchNames`; empty with `any` false means the monitor's own namespace. */
  readonly matchNames: readonly string[];
}

export interface ScrapeMonitor extends ResourceBase {
  readonly kind: 'ServiceMonitor' | 'PodMonitor';
  readonly selector?: LabelSelector;
  readonly selectorSpan?: Span;
  readonly namespaceSelector: MonitorNamespaces;
  readonly endpoints: readonly MonitorEndpoint[];
  /** Marks the object as read. */
  readonly monitor: true;
}

export function isMonitoringVersion(apiVersion: string): boolean {
  return apiVersion.startsWith(`${monitoringGroup}/`);
}

export function isScrapeMonitor(r: ResourceBase): r is ScrapeMonitor {
  return (r.kind === 'ServiceMonitor' || r.kind === 'PodMonitor') && 'monitor' in r;
}

export function readMonitor(base: ResourceBase, root: YMap): ScrapeMonitor | undefined {
  if (base.kind !== 'ServiceMonitor' && base.kind !== 'PodMonitor') return undefined;
  const spec = at(root, 'spec');
  const list = base.kind === 'ServiceMonitor' ? at(spec, 'endpoints') : at(spec, 'podMetricsEndpoints');
  const ns = at(spec, 'namespaceSelector');
  return {
    ...base,
    kind: base.kind,
    selector: readLabelSelector(at(spec, 'selector')),
    selectorSpan: entry(spec, 'selector')?.keySpan,
    namespaceSelector: {
      any: bool(at(ns, 'any')) ?? false,
      matchNames: items(at(ns, 'matchNames'))
        .map(text)
        .filter((s): s is string => !!s),
    },
    endpoints: items(list)
      .filter(isMap)
      .map((e: YNode, index): MonitorEndpoint => ({
        index,
        port: text(at(e, 'port')) || undefined,
        portSpan: at(e, 'port')?.span,
        byNumber: at(e, 'targetPort') !== undefined || at(e, 'portNumber') !== undefined,
        span: e.span,
      })),
    monitor: true,
  };
}

/** The namespaces a monitor looks in (`undefined`: every namespace). */
export function monitoredNamespaces(m: ScrapeMonitor): readonly string[] | undefined {
  if (m.namespaceSelector.any) return undefined;
  return m.namespaceSelector.matchNames.length ? m.namespaceSelector.matchNames : [m.namespace];
}
