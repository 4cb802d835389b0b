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
import { bounded, code, escape, inCell, joined, lines, md, text, type Md } from './markdown';

export function parentRefHover(analysis: Analysis, route: GatewayRoute, ref: ParentRef): Md {
  const { cluster } = analysis;
  const target = parentTarget(clusterLookup(cluster), route, ref);
  const head = md`**parentRef** ${code(`${ref.kind} ${target.namespace}/${ref.name ?? '?'}`)}${ref.sectionName ? md` section ${code(ref.sectionName)}` : md``}${ref.port !== undefined ? md` port ${ref.port}` : md``}`;
  const out: Md[] = [head, md``];
  switch (target.kind) {
    case 'unknown':
      out.push(md`Not in the workspace: namespace ${code(target.namespace)} or kind ${code(ref.kind)} is not known from the manifests, so whether the route attaches is unknown.`);
      return lines(out);
    case 'missing':
      out.push(md`⚠ No ${text(String(target.targetKind))} ${code(ref.name ?? md``)} in namespace ${code(target.namespace)}: the route is not accepted for this parent.`);
      return lines(out);
    case 'service': {
      const p = servicePortOfParent(target.service, ref);
      const role = target.namespace === route.namespace ? md`producer route: applies to calls from every namespace` : md`consumer route: applies to calls from namespace ${code(route.namespace)}`;
      out.push(md`Mesh attachment to Service ${code(target.service.name)} (${text(String(role))}).`);
      out.push(p ? md`Port ${code(portLabel(p))}.` : ref.sectionName || ref.port !== undefined ? md`⚠ The Service has no such port.` : md`Every port of the Service.`);
      return lines(out);
    }
    case 'gateway': {
      const gateway = target.gateway;
      const a = attachToGateway(clusterLookup(cluster), route, ref, target);
      out.push(md`Gateway ${code(gateway.name)}${gateway.gatewayClassName ? md` (class ${code(gateway.gatewayClassName)})` : md``}: ${a.onlyBelow ? md`its listeners would not accept the route, but it is written only in a folder below the route's, which is not applied with it: whether the route meets this Gateway is unknown.` : outcomeText[a.outcome]}`);
      if (!a.selected.length) out.push(md``, md`Its listeners: ${gateway.listeners.length ? joined(gateway.listeners.map((l) => code(listenerName(l))), ', ') : md`none`}.`);
      if (a.selected.length) {
        out.push(md``, md`| listener | accepts? | why |`, md`|---|---|---|`);
        for (const v of a.selected) out.push(md`| ${escape(listenerName(v.listener))} | ${text(String(verdictWord(v)))} | ${escape(verdictWhy(v, route, gateway))} |`);
      }
      return lines(out);
    }
  }
}

const outcomeText = {
  attached: md`the route is accepted.`,
  'no-listener': md`⚠ no listener matches the sectionName/port (reason NoMatchingParent).`,
  'not-allowed': md`⚠ no listener admits the route (reason NotAllowedByListeners).`,
  hostname: md`⚠ no admitting listener shares a hostname with the route (reason NoMatchingListenerHostname).`,
  unknown: md`whether a listener admits the route depends on what the manifests do not say (namespace labels, an implementation-specific protocol).`,
} as const;

function listenerName(l: GatewayListener): string {
  return (`${l.name ?? `#${l.index + 1}`} ${l.port ?? '?'}/${l.protocol ?? '?'}${l.hostname ? ` ${l.hostname}` : ''}`);
}

function verdictWord(v: ListenerVerdict): Md {
  if (v.kind === false || v.namespace === false || !v.hostname) return md`✖ no`;
  if (v.kind === 'unknown' || v.namespace === 'unknown') return md`? unknown`;
  return md`✓ yes`;
}

function verdictWhy(v: ListenerVerdict, route: GatewayRoute, gateway: Gateway): Md {
  const l = v.listener;
  if (v.kind === false) return md`admits ${text((listenerKinds(l) ?? []).join(', ') || 'no kinds')}, not ${text(String(route.kind))}`;
  if (v.kind === 'unknown') return md`protocol ${text(String(l.protocol ?? md`?`))} is implementation-specific`;
  if (v.namespace === false) {
    if (l.from === 'Same') return md`only routes from ${text(String(gateway.namespace))} (from: Same)`;
    if (l.from === 'Selector') return l.namespaceSelector ? md`namespace ${text(String(route.namespace))} does not match ${text(String(formatSelector(l.namespaceSelector)))}` : md`from: Selector without a selector`;
    return md`from: ${text(String(l.from))}`;
  }
  if (v.namespace === 'unknown') return md`namespace ${text(String(route.namespace))} has no Namespace manifest, so its labels are unknown`;
  if (!v.hostname) return md`hostname ${text(String(l.hostname))} meets none of ${text(String(route.hostnames.map((h) => h.value).join(', ')))}`;
  return l.from === 'All' ? md`routes from every namespace` : l.from === 'Selector' ? md`namespace selected` : md`same namespace`;
}

/** A route hostname: the listeners of its Gateways whose hostname it meets (gateway semantics §G4). */
export function routeHostnameHover(analysis: Analysis, route: GatewayRoute, hostname: string): Md {
  const lookup = clusterLookup(analysis.cluster);
  const out: Md[] = [md`**Hostname** ${code(hostname)} of ${text(String(route.kind))} ${code(route.name)}`, md``];
  const rows: Md[] = [];
  for (const ref of route.parentRefs) {
    const t = parentTarget(lookup, route, ref);
    if (t.kind !== 'gateway') continue;
    for (const l of t.gateway.listeners) {
      if (ref.sectionName !== undefined && l.name !== ref.sectionName) continue;
      if (ref.port !== undefined && l.port !== ref.port) continue;
      const meets = !l.hostname || hostnamesIntersect(l.hostname, hostname);
      rows.push(md`- ${meets ? md`✓` : md`✖`} ${code(`${t.gateway.name}/${listenerName(l)}`)}${l.hostname ? md`` : md` (no hostname: every host)`}`);
    }
  }
  if (!rows.length) out.push(md`No Gateway listener in the workspace is selected by this route's parentRefs.`);
  else out.push(md`Listeners selected by the parentRefs, and whether this hostname meets theirs (\`*.\` matches one or more labels, never the bare domain):`, md``, ...rows);
  return lines(out);
}

export function backendRefHover(analysis: Analysis, route: GatewayRoute, rule: RouteRule, ref: RouteBackendRef): Md {
  const v = backendVerdict(clusterLookup(analysis.cluster), route, ref);
  const share = backendShares(rule)[ref.index];
  const out: Md[] = [md`**backendRef** ${code(`${ref.kind} ${v.namespace}/${ref.name ?? md`?`}`)}${text(String(ref.port !== undefined ? md` port ${ref.port}` : md``))}`, md``];
  out.push(md`Weight ${text(String(ref.weight))}: ${text(String(percent(share)))} of the ${text(String(failureOf(route.kind).traffic))} matching rule ${text(String(rule.index + 1))}${rule.matches.length ? md` (${escape(rule.matches.join('; '))})` : md``}.`);
  if (v.status === 'unknown' && !v.service) {
    out.push(md``, md`Not modelled here (another kind, or a namespace no manifest populates): unknown.`);
    return lines(out);
  }
  if (v.status === 'invalid') {
    const { traffic, fate } = failureOf(route.kind);
    out.push(md``, md`⚠ Invalid (${text(String(problemsText(v.problems)))}): these ${text(String(traffic))} ${text(String(fate))}.`);
  }
  const svc = v.service;
  if (!svc) return lines(out);
  const sp = v.servicePort;
  out.push(md``, md`→ Service ${code(svc.name)}${sp ? md` port ${code(portLabel(sp))}` : md``}`);
  if (!sp) return lines(out);
  const groups = analysis.endpointsOf(svc).groups;
  if (!groups.length) out.push(md`→ no pods: the Service has no selected endpoints (${text(String(route.kind === 'HTTPRoute' ? md`HTTP 503` : md`no answer`))} while none is ready)`);
  for (const g of groups) {
    const t = g.ports[sp.index];
    if (!t || t.containerPort === undefined) out.push(md`→ ${text(String(g.workload.kind))} ${code(g.workload.name)}: ⚠ targetPort ${code(String(sp.targetPort))} does not resolve in its pods`);
    else out.push(md`→ targetPort ${code(String(sp.targetPort))} → container port ${text(String(t.containerPort))} of ${text(String(g.workload.kind))} ${code(g.workload.name)}${text(String(g.replicas === undefined ? md`` : md` ×${g.replicas}`))}`);
  }
  return lines(out);
}

/** The routes attached to one listener of a Gateway (routes anywhere in the workspace whose parentRefs it accepts). */
export function attachedRoutes(analysis: Analysis, gateway: Gateway, listener: GatewayListener): GatewayRoute[] {
  const out: GatewayRoute[] = [];
  for (const r of analysis.cluster.resources) {
    if (!isRoute(r)) continue;
    for (const ref of r.parentRefs) {
      const t = parentTarget(clusterLookup(analysis.cluster), r, ref);
      if (t.kind !== 'gateway' || t.gateway !== gateway) continue;
      const a = attachToGateway(clusterLookup(analysis.cluster), r, ref, t);
      if (a.selected.some((v) => v.listener === listener && v.kind === true && v.namespace === true && v.hostname)) {
        out.push(r);
        break;
      }
    }
  }
  return out;
}

/** The Gateway itself: its class and each listener with the routes it accepts (gateway semantics §G3). */
export function gatewayHover(analysis: Analysis, gateway: Gateway): Md {
  const out: Md[] = [md`**Gateway** ${code(`${gateway.namespace}/${gateway.name}`)}${gateway.gatewayClassName ? md` of class ${code(gateway.gatewayClassName)}` : md``}`, md``];
  if (!gateway.listeners.length) {
    out.push(md`No listeners: nothing can attach to this Gateway.`);
    return lines(out);
  }
  out.push(md`| listener | admits | routes attached |`, md`|---|---|---|`);
  for (const l of gateway.listeners) {
    const routes = attachedRoutes(analysis, gateway, l);
    const from = l.from === 'All' ? md`every namespace` : l.from === 'Selector' ? md`selected namespaces` : md`its namespace`;
    out.push(md`| ${inCell(text(listenerName(l)))} | ${inCell(text((listenerKinds(l) ?? ['implementation-specific kinds']).join(', ')))} from ${from} | ${routes.length ? inCell(text(routes.map((r) => `${r.kind} ${r.namespace}/${r.name}`).join(', '))) : md`none`} |`);
  }
  out.push(md``, md`Gateways add no cluster DNS names: clients reach them at the addresses the controller assigns.`);
  return lines(out);
}

export function listenerHover(analysis: Analysis, gateway: Gateway, listener: GatewayListener): Md {
  const out: Md[] = [md`**Listener** ${code(listenerName(listener))} of Gateway ${code(gateway.name)}`, md``];
  const from = listener.from === 'Selector' && listener.namespaceSelector ? md`namespaces labelled ${code(formatSelector(listener.namespaceSelector))}` : listener.from === 'All' ? md`every namespace` : md`namespace ${code(gateway.namespace)} only`;
  out.push(md`Admits ${text(String((listenerKinds(listener) ?? ['implementation-specific kinds']).join(', ')))} from ${text(String(from))}.`);
  const routes = attachedRoutes(analysis, gateway, listener);
  if (!routes.length) {
    out.push(md``, md`No route in the workspace is attached to this listener.`);
    return lines(out);
  }
  out.push(md``, md`Routes attached:`);
  out.push(...bounded(routes, 12, (r) => {
    const hosts = r.hostnames.length ? r.hostnames.filter(() => hostnamesMeet(listener, r)).map((h) => h.value).join(', ') : listener.hostname ?? '*';
    const paths = r.rules.flatMap((rule) => rule.matches).slice(0, 4);
    return md`- ${text(String(r.kind))} ${code(`${r.namespace}/${r.name}`)}: ${escape(hosts)}${paths.length ? md` · ${escape(paths.join('; '))}` : md``}`;
  }));
  return lines(out);
}
