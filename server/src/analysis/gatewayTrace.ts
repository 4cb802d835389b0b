// The Gateway entry of a Service's trace (gateway semantics §G9): each listener that accepts a route, the route rule
// (matches, filters, how much of it fails), and the backendRef that names this Service (port, weight), before the
// Service hop. An invalid backend shows what its share of the rule's traffic gets (§G7).

import type { Cluster } from '../model/cluster';
import { isRoute, type Gateway, type GatewayListener, type GatewayRoute } from '../model/gatewayApi';
import type { Service } from '../model/resources';
import type { Span } from '../model/span';
import type { SourceSpan, TraceEdge, TraceNode } from '../protocol';
import { acceptingListeners, clusterLookup, parentTarget, portlessServiceRefs, backendShares, backendVerdict, failureOf, listenerKinds, percent, problemsText } from './gatewayRoutes';

export interface GatewayHops {
  /** Nodes made for a route's rule or backendRef, to put the route's findings on. */
  readonly places: readonly { readonly id: string; readonly route: GatewayRoute; readonly span: Span }[];
}

interface Sink {
  node(n: Omit<TraceNode, 'findings'>): void;
  edge(from: string, to: string, status: TraceEdge['status'], label?: string): void;
  source(uri: string, span: Span | undefined): SourceSpan | undefined;
}

export function gatewayEntries(cluster: Cluster, service: Service, sink: Sink): GatewayHops {
  const places: { id: string; route: GatewayRoute; span: Span }[] = [];
  const listenerIds = new Set<string>();
  for (const route of cluster.resources) {
    if (!isRoute(route)) continue;
    const rules = route.rules.filter((rule) => rule.backendRefs.some((b) => backendVerdict(clusterLookup(cluster), route, b).service === service));
    if (!rules.length) continue;
    const lookup = clusterLookup(cluster);
    const listeners = acceptingListeners(lookup, route);
    // Gateway semantics §G8: a Service parent makes this a mesh route on that Service's traffic.
    const meshParents = route.parentRefs.flatMap((ref) => {
      const t = parentTarget(lookup, route, ref);
      return t.kind === 'service' ? [`${t.namespace === route.namespace ? 'producer' : 'consumer'} route on Service ${t.namespace}/${t.service.name}`] : [];
    });
    const attached = listeners.length > 0 || meshParents.length > 0;
    for (const rule of rules) {
      const verdicts = rule.backendRefs.map((b) => backendVerdict(clusterLookup(cluster), route, b));
      const shares = backendShares(rule);
      const { traffic, fate } = failureOf(route.kind);
      const invalidShare = verdicts.reduce((s, v, i) => s + (v.status === 'invalid' ? shares[i] : 0), 0);
      const allInvalid = verdicts.every((v) => v.status === 'invalid') && !rule.filters.length;
      const ruleId = `gateway:rule:${route.kind}/${route.namespace}/${route.name}/${rule.index}`;
      const detail = [
        rule.matches.length ? `Matches ${rule.matches.join('; ')}.` : 'Matches every request of the route.',
        ...(route.hostnames.length ? [`Hostnames ${route.hostnames.map((h) => h.value).join(', ')}.`] : []),
        ...(rule.filters.length ? [`Filters: ${rule.filters.join(', ')}.`] : []),
        allInvalid ? `Every backend is invalid: all ${traffic} it matches ${fate}.` : invalidShare > 0 ? `${percent(invalidShare)} of its ${traffic} go to invalid backends and ${fate}.` : `Sends its ${traffic} to ${rule.backendRefs.length} ${rule.backendRefs.length === 1 ? 'backend' : 'backends'} by weight.`,
        ...meshParents.map((m) => `Mesh ${m}: calls to it that match this rule are sent here.`),
        ...(attached ? [] : ['No Gateway in the workspace accepts this route.']),
        ...(portlessServiceRefs(route).length ? ['The API server rejects this route: a Service backendRef has no port ("Must have port for Service reference").'] : []),
      ];
      sink.node({ id: ruleId, kind: 'route-rule', column: 'route', label: `${route.kind} ${route.name} · rule ${rule.index + 1}`, detail, status: allInvalid ? 'error' : invalidShare > 0 || !attached ? 'warning' : 'ok', source: sink.source(route.uri, rule.span) });
      places.push({ id: ruleId, route, span: rule.span });
      for (const { gateway, listener } of listeners) {
        const lid = `gateway:listener:${gateway.namespace}/${gateway.name}/${listener.name ?? listener.index}`;
        if (!listenerIds.has(lid)) {
          listenerIds.add(lid);
          sink.node({ id: lid, kind: 'gateway-listener', column: 'listener', label: `${gateway.name} · ${listener.name ?? '?'} ${listener.port ?? '?'}/${listener.protocol ?? '?'}${listener.hostname ? ` ${listener.hostname}` : ''}`, detail: listenerDetail(gateway, listener), status: 'ok', source: sink.source(gateway.uri, listener.span) });
        }
        sink.edge(lid, ruleId, 'ok', route.hostnames.length ? route.hostnames.map((h) => h.value).join(', ') : undefined);
      }
      rule.backendRefs.forEach((b, i) => {
        const v = verdicts[i];
        if (v.service !== service) return;
        const id = `gateway:backend:${route.kind}/${route.namespace}/${route.name}/${rule.index}/${b.index}`;
        const share = percent(shares[i]);
        const detail = [`${route.kind} ${route.name} sends ${share} of rule ${rule.index + 1}'s ${traffic} (weight ${b.weight}) to Service port ${b.port ?? '(none)'}.`];
        if (v.status === 'invalid') detail.push(`Invalid (${problemsText(v.problems)}): these ${traffic} ${fate}.`);
        sink.node({ id, kind: 'backend-ref', column: 'entry', label: `${route.name} → port ${b.port ?? '?'} (${share})`, detail, status: v.status === 'invalid' ? 'error' : 'ok', source: sink.source(route.uri, b.span) });
        places.push({ id, route, span: b.span });
        sink.edge(ruleId, id, v.status === 'invalid' ? 'broken' : 'ok', `weight ${b.weight}`);
        sink.edge(id, 'service', v.status === 'invalid' ? 'broken' : 'ok', b.port !== undefined ? String(b.port) : undefined);
      });
    }
  }
  return { places };
}

function listenerDetail(gateway: Gateway, l: GatewayListener): string[] {
  return [
    `Gateway ${gateway.namespace}/${gateway.name}${gateway.gatewayClassName ? ` (class ${gateway.gatewayClassName})` : ''} listens on ${l.port ?? '?'}/${l.protocol ?? '?'}${l.hostname ? ` for ${l.hostname}` : ' for every hostname'}.`,
    `Admits ${(listenerKinds(l) ?? ['implementation-specific kinds']).join(', ')} from ${l.from === 'All' ? 'every namespace' : l.from === 'Selector' ? 'selected namespaces' : `namespace ${gateway.namespace}`}.`,
  ];
}
