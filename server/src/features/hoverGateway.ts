// Hovers on Gateway API objects: a route's parentRef (which listeners accept or refuse the route, and why), a
// backendRef (Service port → targetPort → container port per workload, with its weight), and a Gateway listener
// (the routes attached to it, by hostname and path). Gateway semantics §G2–§G7.

import type { Analysis } from '../analysis/analysis';
import {
  attachToGateway,
  backendShares,
  backendVerdict,
  clusterLookup,
  failureOf,
  hostnamesIntersect,
  hostnamesMeet,
  listenerKinds,
  parentTarget,
  percent,
  problemsText,
  servicePortOfParent,
  type ListenerVerdict,
} from '../analysis/gatewayRoutes';
import { isRoute, type Gateway, type GatewayListener, type GatewayRoute, type ParentRef, type RouteBackendRef, type RouteRule } from '../model/gatewayApi';
import { messages } from '../l10n/l10n';
import { formatSelector } from '../model/selector';
import { portLabel } from './hoverService';
import { bounded, code, escape, inCell, joined, lines, md, text, type Md, mdMessages, type MdMsg } from './markdown';

export function parentRefHover(analysis: Analysis, route: GatewayRoute, ref: ParentRef): Md {
  const msg = mdMessages(analysis.config.locale);
  const { cluster } = analysis;
  const target = parentTarget(clusterLookup(cluster), route, ref);
  const head = msg(
    '**parentRef** {0}{1}{2}',
    code(`${ref.kind} ${target.namespace}/${ref.name ?? '?'}`),
    ref.sectionName ? msg(' section {0}', code(ref.sectionName)) : md``,
    ref.port !== undefined ? msg(' port {0}', ref.port) : md``,
  );
  const out: Md[] = [head, md``];
  switch (target.kind) {
    case 'unknown':
      out.push(
        msg(
          'Not in the workspace: namespace {0} or kind {1} is not known from the manifests, so whether the route attaches is unknown.',
          code(target.namespace),
          code(ref.kind),
        ),
      );
      return lines(out);
    case 'missing':
      out.push(
        msg(
          '⚠ No {0} {1} in namespace {2}: the route is not accepted for this parent.',
          text(String(target.targetKind)),
          code(ref.name ?? md``),
          code(target.namespace),
        ),
      );
      return lines(out);
    case 'service': {
      const p = servicePortOfParent(target.service, ref);
      const role =
        target.namespace === route.namespace
          ? msg('producer route: applies to calls from every namespace')
          : msg('consumer route: applies to calls from namespace {0}', code(route.namespace));
      out.push(msg('Mesh attachment to Service {0} ({1}).', code(target.service.name), text(String(role))));
      out.push(
        p
          ? msg('Port {0}.', code(portLabel(p)))
          : ref.sectionName || ref.port !== undefined
            ? msg('⚠ The Service has no such port.')
            : msg('Every port of the Service.'),
      );
      return lines(out);
    }
    case 'gateway': {
      const gateway = target.gateway;
      const a = attachToGateway(clusterLookup(cluster), route, ref, target);
      out.push(
        msg(
          'Gateway {0}{1}: {2}',
          code(gateway.name),
          gateway.gatewayClassName ? msg(' (class {0})', code(gateway.gatewayClassName)) : md``,
          a.onlyBelow
            ? msg(
                "its listeners would not accept the route, but it is written only in a folder below the route's, which is not applied with it: whether the route meets this Gateway is unknown.",
              )
            : outcomeTexts(msg)[a.outcome],
        ),
      );
      if (!a.selected.length)
        out.push(
          md``,
          msg(
            'Its listeners: {0}.',
            gateway.listeners.length
              ? joined(
                  gateway.listeners.map((l) => code(listenerName(l))),
                  ', ',
                )
              : msg('none'),
          ),
        );
      if (a.selected.length) {
        out.push(md``, msg('| listener | accepts? | why |'), md`|---|---|---|`);
        for (const v of a.selected)
          out.push(md`| ${escape(listenerName(v.listener))} | ${text(String(verdictWord(msg, v)))} | ${escape(verdictWhy(msg, v, route, gateway))} |`);
      }
      return lines(out);
    }
  }
}

const outcomeTexts = (msg: MdMsg) => ({
  attached: msg('the route is accepted.'),
  'no-listener': msg('⚠ no listener matches the sectionName/port (reason NoMatchingParent).'),
  'not-allowed': msg('⚠ no listener admits the route (reason NotAllowedByListeners).'),
  hostname: msg('⚠ no admitting listener shares a hostname with the route (reason NoMatchingListenerHostname).'),
  unknown: msg('whether a listener admits the route depends on what the manifests do not say (namespace labels, an implementation-specific protocol).'),
});

function listenerName(l: GatewayListener): string {
  return `${l.name ?? `#${l.index + 1}`} ${l.port ?? '?'}/${l.protocol ?? '?'}${l.hostname ? ` ${l.hostname}` : ''}`;
}

function verdictWord(msg: MdMsg, v: ListenerVerdict): Md {
  if (v.kind === false || v.namespace === false || !v.hostname) return msg('✖ no');
  if (v.kind === 'unknown' || v.namespace === 'unknown') return msg('? unknown');
  return msg('✓ yes');
}

function verdictWhy(msg: MdMsg, v: ListenerVerdict, route: GatewayRoute, gateway: Gateway): Md {
  const l = v.listener;
  if (v.kind === false) return msg('admits {0}, not {1}', text((listenerKinds(l) ?? []).join(', ') || String(msg('no kinds'))), text(String(route.kind)));
  if (v.kind === 'unknown') return msg('protocol {0} is implementation-specific', text(String(l.protocol ?? md`?`)));
  if (v.namespace === false) {
    if (l.from === 'Same') return msg('only routes from {0} (from: Same)', text(String(gateway.namespace)));
    if (l.from === 'Selector')
      return l.namespaceSelector
        ? msg('namespace {0} does not match {1}', text(String(route.namespace)), text(String(formatSelector(l.namespaceSelector))))
        : msg('from: Selector without a selector');
    return msg('from: {0}', text(String(l.from)));
  }
  if (v.namespace === 'unknown') return msg('namespace {0} has no Namespace manifest, so its labels are unknown', text(String(route.namespace)));
  if (!v.hostname) return msg('hostname {0} meets none of {1}', text(String(l.hostname)), text(String(route.hostnames.map((h) => h.value).join(', '))));
  return l.from === 'All' ? msg('routes from every namespace') : l.from === 'Selector' ? msg('namespace selected') : msg('same namespace');
}

/** A route hostname: the listeners of its Gateways whose hostname it meets (gateway semantics §G4). */
export function routeHostnameHover(analysis: Analysis, route: GatewayRoute, hostname: string): Md {
  const msg = mdMessages(analysis.config.locale);
  const lookup = clusterLookup(analysis.cluster);
  const out: Md[] = [msg('**Hostname** {0} of {1} {2}', code(hostname), text(String(route.kind)), code(route.name)), md``];
  const rows: Md[] = [];
  for (const ref of route.parentRefs) {
    const t = parentTarget(lookup, route, ref);
    if (t.kind !== 'gateway') continue;
    for (const l of t.gateway.listeners) {
      if (ref.sectionName !== undefined && l.name !== ref.sectionName) continue;
      if (ref.port !== undefined && l.port !== ref.port) continue;
      const meets = !l.hostname || hostnamesIntersect(l.hostname, hostname);
      rows.push(md`- ${meets ? md`✓` : md`✖`} ${code(`${t.gateway.name}/${listenerName(l)}`)}${l.hostname ? md`` : msg(' (no hostname: every host)')}`);
    }
  }
  if (!rows.length) out.push(msg("No Gateway listener in the workspace is selected by this route's parentRefs."));
  else
    out.push(
      msg('Listeners selected by the parentRefs, and whether this hostname meets theirs (`*.` matches one or more labels, never the bare domain):'),
      md``,
      ...rows,
    );
  return lines(out);
}

export function backendRefHover(analysis: Analysis, route: GatewayRoute, rule: RouteRule, ref: RouteBackendRef): Md {
  const msg = mdMessages(analysis.config.locale);
  const words = messages(analysis.config.locale);
  const v = backendVerdict(clusterLookup(analysis.cluster), route, ref);
  const share = backendShares(rule)[ref.index];
  const out: Md[] = [
    msg(
      '**backendRef** {0}{1}',
      code(`${ref.kind} ${v.namespace}/${ref.name ?? md`?`}`),
      text(String(ref.port !== undefined ? msg(' port {0}', ref.port) : md``)),
    ),
    md``,
  ];
  out.push(
    msg(
      'Weight {0}: {1} of the {2} matching rule {3}{4}.',
      text(String(ref.weight)),
      text(String(percent(share))),
      text(failureOf(route.kind, words).traffic),
      text(String(rule.index + 1)),
      rule.matches.length ? md` (${escape(rule.matches.join('; '))})` : md``,
    ),
  );
  if (v.status === 'unknown' && !v.service) {
    out.push(md``, msg('Not modelled here (another kind, or a namespace no manifest populates): unknown.'));
    return lines(out);
  }
  if (v.status === 'invalid') {
    const { traffic, fate } = failureOf(route.kind, words);
    out.push(md``, msg('⚠ Invalid ({0}): these {1} {2}.', text(problemsText(v.problems, words)), text(traffic), text(fate)));
  }
  const svc = v.service;
  if (!svc) return lines(out);
  const sp = v.servicePort;
  out.push(md``, msg('→ Service {0}{1}', code(svc.name), sp ? msg(' port {0}', code(portLabel(sp))) : md``));
  if (!sp) return lines(out);
  const groups = analysis.endpointsOf(svc).groups;
  if (!groups.length)
    out.push(
      msg(
        '→ no pods: the Service has no selected endpoints ({0} while none is ready)',
        text(String(route.kind === 'HTTPRoute' ? msg('HTTP 503') : msg('no answer'))),
      ),
    );
  for (const g of groups) {
    const t = g.ports[sp.index];
    if (!t || t.containerPort === undefined)
      out.push(
        msg('→ {0} {1}: ⚠ targetPort {2} does not resolve in its pods', text(String(g.workload.kind)), code(g.workload.name), code(String(sp.targetPort))),
      );
    else
      out.push(
        msg(
          '→ targetPort {0} → container port {1} of {2} {3}{4}',
          code(String(sp.targetPort)),
          text(String(t.containerPort)),
          text(String(g.workload.kind)),
          code(g.workload.name),
          text(String(g.replicas === undefined ? md`` : md` ×${g.replicas}`)),
        ),
      );
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
  const msg = mdMessages(analysis.config.locale);
  const out: Md[] = [
    msg(
      '**Gateway** {0}{1}',
      code(`${gateway.namespace}/${gateway.name}`),
      gateway.gatewayClassName ? msg(' of class {0}', code(gateway.gatewayClassName)) : md``,
    ),
    md``,
  ];
  if (!gateway.listeners.length) {
    out.push(msg('No listeners: nothing can attach to this Gateway.'));
    return lines(out);
  }
  out.push(msg('| listener | admits | routes attached |'), md`|---|---|---|`);
  for (const l of gateway.listeners) {
    const routes = attachedRoutes(analysis, gateway, l);
    const from = l.from === 'All' ? msg('every namespace') : l.from === 'Selector' ? msg('selected namespaces') : msg('its namespace');
    out.push(
      msg(
        '| {0} | {1} from {2} | {3} |',
        inCell(text(listenerName(l))),
        inCell(text((listenerKinds(l) ?? ['implementation-specific kinds']).join(', '))),
        from,
        routes.length ? inCell(text(routes.map((r) => `${r.kind} ${r.namespace}/${r.name}`).join(', '))) : msg('none'),
      ),
    );
  }
  out.push(md``, msg('Gateways add no cluster DNS names: clients reach them at the addresses the controller assigns.'));
  return lines(out);
}

export function listenerHover(analysis: Analysis, gateway: Gateway, listener: GatewayListener): Md {
  const msg = mdMessages(analysis.config.locale);
  const out: Md[] = [msg('**Listener** {0} of Gateway {1}', code(listenerName(listener)), code(gateway.name)), md``];
  const from =
    listener.from === 'Selector' && listener.namespaceSelector
      ? msg('namespaces labelled {0}', code(formatSelector(listener.namespaceSelector)))
      : listener.from === 'All'
        ? msg('every namespace')
        : msg('namespace {0} only', code(gateway.namespace));
  out.push(msg('Admits {0} from {1}.', text(String((listenerKinds(listener) ?? ['implementation-specific kinds']).join(', '))), text(String(from))));
  const routes = attachedRoutes(analysis, gateway, listener);
  if (!routes.length) {
    out.push(md``, msg('No route in the workspace is attached to this listener.'));
    return lines(out);
  }
  out.push(md``, msg('Routes attached:'));
  out.push(
    ...bounded(msg, routes, 12, (r) => {
      const hosts = r.hostnames.length
        ? r.hostnames
            .filter(() => hostnamesMeet(listener, r))
            .map((h) => h.value)
            .join(', ')
        : (listener.hostname ?? '*');
      const paths = r.rules.flatMap((rule) => rule.matches).slice(0, 4);
      return md`- ${text(String(r.kind))} ${code(`${r.namespace}/${r.name}`)}: ${escape(hosts)}${paths.length ? md` · ${escape(paths.join('; '))}` : md``}`;
    }),
  );
  return lines(out);
}
