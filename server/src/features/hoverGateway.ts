// Hovers on Gateway API objects: a route's parentRef (which listeners accept or refuse the route, and why), a
// backendRef (Service port → targetPort → container port per workload, with its weight), and a Gateway listener
// (the routes attached to it, by hostname and path). Gateway semantics §G2–§G7.

import type { Analysis } from '../analysis/analysis';
import {
  attachToGateway, backendShares, backendVerdict, clusterLookup, failureOf, hostnamesIntersect, hostnamesMeet, listenerKinds, parentTarget, percent,
  problemsText, servicePortOfParent, type ListenerVerdict,
} from '../analysis/gatewayRoutes';
import { isRoute, type Gateway, type GatewayListener, type GatewayRoute, type ParentRef, type RouteBackendRef, type RouteRule } from '../model/gatewayApi';
import { formatSelector } from '../model/selector';
import { portLabel } from './hoverService';
import { bounded, code, escape } from './markdown';

export function parentRefHover(analysis: Analysis, route: GatewayRoute, ref: ParentRef): string {
  const { cluster } = analysis;
  const target = parentTarget(clusterLookup(cluster), route, ref);
  const head = `**parentRef** ${code(`${ref.kind} ${target.namespace}/${ref.name ?? '?'}`)}${ref.sectionName ? ` section ${code(ref.sectionName)}` : ''}${ref.port !== undefined ? ` port ${ref.port}` : ''}`;
  const out = [head, ''];
  switch (target.kind) {
    case 'unknown':
      out.push(`Not in the workspace: namespace ${code(target.namespace)} or kind ${code(ref.kind)} is not known from the manifests, so whether the route attaches is unknown.`);
      return out.join('\n');
    case 'missing':
      out.push(`⚠ No ${target.targetKind} ${code(ref.name ?? '')} in namespace ${code(target.namespace)}: the route is not accepted for this parent.`);
      return out.join('\n');
    case 'service': {
      const p = servicePortOfParent(target.service, ref);
      const role = target.namespace === route.namespace ? 'producer route: applies to calls from every namespace' : `consumer route: applies to calls from namespace ${code(route.namespace)}`;
      out.push(`Mesh attachment to Service ${code(target.service.name)} (${role}).`);
      out.push(p ? `Port ${code(portLabel(p))}.` : ref.sectionName || ref.port !== undefined ? '⚠ The Service has no such port.' : 'Every port of the Service.');
      return out.join('\n');
    }
    case 'gateway': {
      const gateway = target.gateway;
      const a = attachToGateway(clusterLookup(cluster), route, ref, gateway);
      out.push(`Gateway ${code(gateway.name)}${gateway.gatewayClassName ? ` (class ${code(gateway.gatewayClassName)})` : ''}: ${outcomeText[a.outcome]}`);
      if (!a.selected.length) out.push('', `Its listeners: ${gateway.listeners.map((l) => code(listenerName(l))).join(', ') || 'none'}.`);
      if (a.selected.length) {
        out.push('', '| listener | accepts? | why |', '|---|---|---|');
        for (const v of a.selected) out.push(`| ${escape(listenerName(v.listener))} | ${verdictWord(v)} | ${escape(verdictWhy(v, route, gateway))} |`);
      }
      return out.join('\n');
    }
  }
}

const outcomeText = {
  attached: 'the route is accepted.',
  'no-listener': '⚠ no listener matches the sectionName/port (reason NoMatchingParent).',
  'not-allowed': '⚠ no listener admits the route (reason NotAllowedByListeners).',
  hostname: '⚠ no admitting listener shares a hostname with the route (reason NoMatchingListenerHostname).',
  unknown: 'whether a listener admits the route depends on what the manifests do not say (namespace labels, an implementation-specific protocol).',
} as const;

function listenerName(l: GatewayListener): string {
  return `${l.name ?? `#${l.index + 1}`} ${l.port ?? '?'}/${l.protocol ?? '?'}${l.hostname ? ` ${l.hostname}` : ''}`;
}

function verdictWord(v: ListenerVerdict): string {
  if (v.kind === false || v.namespace === false || !v.hostname) return '✖ no';
  if (v.kind === 'unknown' || v.namespace === 'unknown') return '? unknown';
  return '✓ yes';
}

function verdictWhy(v: ListenerVerdict, route: GatewayRoute, gateway: Gateway): string {
  const l = v.listener;
  if (v.kind === false) return `admits ${(listenerKinds(l) ?? []).join(', ') || 'no kinds'}, not ${route.kind}`;
  if (v.kind === 'unknown') return `protocol ${l.protocol ?? '?'} is implementation-specific`;
  if (v.namespace === false) {
    if (l.from === 'Same') return `only routes from ${gateway.namespace} (from: Same)`;
    if (l.from === 'Selector') return l.namespaceSelector ? `namespace ${route.namespace} does not match ${formatSelector(l.namespaceSelector)}` : 'from: Selector without a selector';
    return `from: ${l.from}`;
  }
  if (v.namespace === 'unknown') return `namespace ${route.namespace} has no Namespace manifest, so its labels are unknown`;
  if (!v.hostname) return `hostname ${l.hostname} meets none of ${route.hostnames.map((h) => h.value).join(', ')}`;
  return l.from === 'All' ? 'routes from every namespace' : l.from === 'Selector' ? 'namespace selected' : 'same namespace';
}

/** A route hostname: the listeners of its Gateways whose hostname it meets (gateway semantics §G4). */
export function routeHostnameHover(analysis: Analysis, route: GatewayRoute, hostname: string): string {
  const lookup = clusterLookup(analysis.cluster);
  const out = [`**Hostname** ${code(hostname)} of ${route.kind} ${code(route.name)}`, ''];
  const rows: string[] = [];
  for (const ref of route.parentRefs) {
    const t = parentTarget(lookup, route, ref);
    if (t.kind !== 'gateway') continue;
    for (const l of t.gateway.listeners) {
      if (ref.sectionName !== undefined && l.name !== ref.sectionName) continue;
      if (ref.port !== undefined && l.port !== ref.port) continue;
      const meets = !l.hostname || hostnamesIntersect(l.hostname, hostname);
      rows.push(`- ${meets ? '✓' : '✖'} ${code(`${t.gateway.name}/${listenerName(l)}`)}${l.hostname ? '' : ' (no hostname: every host)'}`);
    }
  }
  if (!rows.length) out.push('No Gateway listener in the workspace is selected by this route\'s parentRefs.');
  else out.push('Listeners selected by the parentRefs, and whether this hostname meets theirs (`*.` matches one or more labels, never the bare domain):', '', ...rows);
  return out.join('\n');
}

export function backendRefHover(analysis: Analysis, route: GatewayRoute, rule: RouteRule, ref: RouteBackendRef): string {
  const v = backendVerdict(clusterLookup(analysis.cluster), route, ref);
  const share = backendShares(rule)[ref.index];
  const out = [`**backendRef** ${code(`${ref.kind} ${v.namespace}/${ref.name ?? '?'}`)}${ref.port !== undefined ? ` port ${ref.port}` : ''}`, ''];
  out.push(`Weight ${ref.weight}: ${percent(share)} of the ${failureOf(route.kind).traffic} matching rule ${rule.index + 1}${rule.matches.length ? ` (${escape(rule.matches.join('; '))})` : ''}.`);
  if (v.status === 'unknown' && !v.service) {
    out.push('', 'Not modelled here (another kind, or a namespace no manifest populates): unknown.');
    return out.join('\n');
  }
  if (v.status === 'invalid') {
    const { traffic, fate } = failureOf(route.kind);
    out.push('', `⚠ Invalid (${problemsText(v.problems)}): these ${traffic} ${fate}.`);
  }
  const svc = v.service;
  if (!svc) return out.join('\n');
  const sp = v.servicePort;
  out.push('', `→ Service ${code(svc.name)}${sp ? ` port ${code(portLabel(sp))}` : ''}`);
  if (!sp) return out.join('\n');
  const groups = analysis.endpointsOf(svc).groups;
  if (!groups.length) out.push(`→ no pods: the Service has no selected endpoints (${route.kind === 'HTTPRoute' ? 'HTTP 503' : 'no answer'} while none is ready)`);
  for (const g of groups) {
    const t = g.ports[sp.index];
    if (!t || t.containerPort === undefined) out.push(`→ ${g.workload.kind} ${code(g.workload.name)}: ⚠ targetPort ${code(String(sp.targetPort))} does not resolve in its pods`);
    else out.push(`→ targetPort ${code(String(sp.targetPort))} → container port ${t.containerPort} of ${g.workload.kind} ${code(g.workload.name)}${g.replicas === undefined ? '' : ` ×${g.replicas}`}`);
  }
  return out.join('\n');
}

/** The routes attached to one listener of a Gateway (routes anywhere in the workspace whose parentRefs it accepts). */
export function attachedRoutes(analysis: Analysis, gateway: Gateway, listener: GatewayListener): GatewayRoute[] {
  const out: GatewayRoute[] = [];
  for (const r of analysis.cluster.resources) {
    if (!isRoute(r)) continue;
    for (const ref of r.parentRefs) {
      const t = parentTarget(clusterLookup(analysis.cluster), r, ref);
      if (t.kind !== 'gateway' || t.gateway !== gateway) continue;
      const a = attachToGateway(clusterLookup(analysis.cluster), r, ref, gateway);
      if (a.selected.some((v) => v.listener === listener && v.kind === true && v.namespace === true && v.hostname)) {
        out.push(r);
        break;
      }
    }
  }
  return out;
}

/** The Gateway itself: its class and each listener with the routes it accepts (gateway semantics §G3). */
export function gatewayHover(analysis: Analysis, gateway: Gateway): string {
  const out = [`**Gateway** ${code(`${gateway.namespace}/${gateway.name}`)}${gateway.gatewayClassName ? ` of class ${code(gateway.gatewayClassName)}` : ''}`, ''];
  if (!gateway.listeners.length) {
    out.push('No listeners: nothing can attach to this Gateway.');
    return out.join('\n');
  }
  out.push('| listener | admits | routes attached |', '|---|---|---|');
  for (const l of gateway.listeners) {
    const routes = attachedRoutes(analysis, gateway, l);
    const from = l.from === 'All' ? 'every namespace' : l.from === 'Selector' ? 'selected namespaces' : 'its namespace';
    out.push(`| ${escape(listenerName(l))} | ${escape((listenerKinds(l) ?? ['implementation-specific kinds']).join(', '))} from ${from} | ${routes.length ? escape(routes.map((r) => `${r.kind} ${r.namespace}/${r.name}`).join(', ')) : 'none'} |`);
  }
  out.push('', 'Gateways add no cluster DNS names: clients reach them at the addresses the controller assigns.');
  return out.join('\n');
}

export function listenerHover(analysis: Analysis, gateway: Gateway, listener: GatewayListener): string {
  const out = [`**Listener** ${code(listenerName(listener))} of Gateway ${code(gateway.name)}`, ''];
  const from = listener.from === 'Selector' && listener.namespaceSelector ? `namespaces labelled ${code(formatSelector(listener.namespaceSelector))}` : listener.from === 'All' ? 'every namespace' : `namespace ${code(gateway.namespace)} only`;
  out.push(`Admits ${(listenerKinds(listener) ?? ['implementation-specific kinds']).join(', ')} from ${from}.`);
  const routes = attachedRoutes(analysis, gateway, listener);
  if (!routes.length) {
    out.push('', 'No route in the workspace is attached to this listener.');
    return out.join('\n');
  }
  out.push('', 'Routes attached:');
  out.push(...bounded(routes, 12, (r) => {
    const hosts = r.hostnames.length ? r.hostnames.filter(() => hostnamesMeet(listener, r)).map((h) => h.value).join(', ') : listener.hostname ?? '*';
    const paths = r.rules.flatMap((rule) => rule.matches).slice(0, 4);
    return `- ${r.kind} ${code(`${r.namespace}/${r.name}`)}: ${escape(hosts)}${paths.length ? ` · ${escape(paths.join('; '))}` : ''}`;
  }));
  return out.join('\n');
}
