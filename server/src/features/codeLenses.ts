// codeLensesFor: a line above each Service (endpoints, backing workloads, Trace), each StatefulSet (its pod names), each
// NetworkPolicy (the workloads it selects, the sources it admits, whether it limits egress),
// each Gateway (routes per listener, Trace) and each route (the parents that accept it, its backends), each Istio Gateway
// (VirtualServices per server, Trace) and each VirtualService (the Gateways that serve it, its destinations, Trace), and
// at the top of a root kustomization what its build makes.

import type { Analysis } from '../analysis/analysis';
import { endpointCount } from '../analysis/endpoints';
import { attachToGateway, backendVerdict, parentTarget, clusterLookup } from '../analysis/gatewayRoutes';
import { gatewayRef } from '../analysis/istioHosts';
import { gatewaysOf, serverServes, virtualServicesOn } from '../analysis/istioTrace';
import { isGateway, isRoute, type Gateway, type GatewayRoute } from '../model/gatewayApi';
import { isIstioGateway, isVirtualService, type IstioGateway, type VirtualService } from '../model/istio';
import { isService, isWorkload, type NetworkPolicy, type Workload } from '../model/resources';
import type { Span } from '../model/span';
import type { TraceParams } from '../protocol';
import { attachedRoutes } from './hoverGateway';
import { policyLens } from './hoverReach';
import { messages, type Msg } from '../l10n/l10n';

export interface Lens {
  readonly span: Span;
  readonly title: string;
  /** Set when clicking the lens runs the trace command. */
  readonly trace?: TraceParams;
}

export function codeLensesFor(workspace: Analysis, uri: string): Lens[] {
  // Lookups answer within the scope of the file (model/project.ts).
  const analysis = workspace.scopeOf(uri).analysis;
  const msg = messages(analysis.config.locale);
  const out: Lens[] = [];
  // A root kustomization: what its build makes (the objects are analysed as that build's cluster).
  for (const f of workspace.cluster.files) {
    if (!f.rendered || f.rendered.definedBy !== uri) continue;
    const namespaces = [...new Set(f.resources.map((r) => r.namespace))].sort();
    const n = f.resources.length;
    const objects = n === 1 ? msg('Builds {0} object', n) : msg('Builds {0} objects', n);
    const title = !namespaces.length
      ? objects
      : namespaces.length === 1
        ? msg('{0} in namespace {1}', objects, namespaces[0])
        : msg('{0} in namespaces {1}', objects, namespaces.join(', '));
    out.push({ span: { start: 0, end: 0 }, title });
  }
  // With variants side by side, a lens traces the definition of this file (as the picker does for a variant's object).
  const inFile = workspace.scopeOf(uri).label ? { uri } : {};
  for (const r of analysis.cluster.resources) {
    if (r.uri !== uri) continue;
    const span = { start: r.span.start, end: r.span.start };
    if (isIstioGateway(r)) {
      out.push({ span, title: istioGatewaySummary(analysis, r, msg) });
      // Istio semantics §I4: the trace from its servers through the VirtualServices they apply (the CLI's istio-gateway/…).
      out.push({ span, title: msg('Trace'), trace: { kind: 'IstioGateway', namespace: r.namespace, name: r.name, ...inFile } });
    } else if (isVirtualService(r)) {
      out.push({ span, title: virtualServiceSummary(analysis, r, msg) });
      out.push({ span, title: msg('Trace'), trace: { kind: 'VirtualService', namespace: r.namespace, name: r.name, ...inFile } });
    } else if (isService(r)) {
      out.push({ span, title: serviceSummary(analysis, r, msg) });
      out.push({ span, title: msg('Trace'), trace: { namespace: r.namespace, name: r.name } });
    } else if (isGateway(r)) {
      out.push({ span, title: gatewaySummary(analysis, r, msg) });
      // Gateway semantics §G9: the trace from its listeners through the routes they accept.
      out.push({ span, title: msg('Trace'), trace: { kind: 'Gateway', namespace: r.namespace, name: r.name } });
    } else if (isRoute(r)) {
      out.push({ span, title: routeSummary(analysis, r, msg) });
      // Gateway semantics §G9: the trace of a backend Service starts at the listeners that accept this route.
      const traced = new Set<string>();
      for (const rule of r.rules) {
        for (const b of rule.backendRefs) {
          const svc = backendVerdict(clusterLookup(analysis.cluster), r, b).service;
          const key = svc ? `${svc.namespace}/${svc.name}` : '';
          if (!svc || traced.has(key) || traced.size >= 3) continue;
          traced.add(key);
          out.push({ span, title: msg('Trace {0}', svc.name), trace: { namespace: svc.namespace, name: svc.name } });
        }
      }
    } else if (r.kind === 'NetworkPolicy') {
      out.push({ span, title: policyLens(analysis, r as NetworkPolicy) });
    } else if (isWorkload(r) && r.kind === 'StatefulSet' && r.serviceName) {
      const n = r.replicas ?? 1;
      if (n <= 0) continue;
      const first = `${r.name}-${r.ordinalsStart}`;
      const pods = n === 1 ? first : `${first}…${r.name}-${r.ordinalsStart + n - 1}`;
      out.push({ span, title: statefulPodNames(analysis, r, pods, msg) });
    }
  }
  return out;
}

/**
 * The per-pod names only when they will resolve (semantics §2.3, §8): a governing Service that exists, selects the
 * pods and is headless. Otherwise the lens says why there are none, rather than showing a name that never resolves.
 */
function statefulPodNames(analysis: Analysis, sts: Workload, pods: string, msg: Msg): string {
  const name = sts.serviceName!;
  const perPod = analysis.dnsRecordsFor(sts).filter((rec) => rec.name.startsWith(`${sts.name}-`) && (rec.type === 'A' || rec.type === 'AAAA'));
  if (perPod.some((rec) => rec.condition === 'while-ready' || rec.condition === 'always')) return `${pods}.${name}`;
  const svc = analysis.cluster.service(sts.namespace, name);
  if (!svc) return msg('no per-pod DNS names: no Service "{0}"', name);
  if (perPod.length) return msg('{0}.{1} (CoreDNS only: Service "{1}" is not headless)', pods, name);
  return msg('no per-pod DNS names: Service "{0}" does not select these pods', name);
}

/** Gateway semantics §G3: how many routes each listener accepts. */
function gatewaySummary(analysis: Analysis, g: Gateway, msg: Msg): string {
  if (!g.listeners.length) return msg('no listeners');
  return (
    g.listeners
      .slice(0, 4)
      .map((l) => {
        const n = attachedRoutes(analysis, g, l).length;
        return `${l.name ?? '?'} ${l.port ?? '?'}/${l.protocol ?? '?'}: ${n === 1 ? msg('{0} route', n) : msg('{0} routes', n)}`;
      })
      .join(' · ') + (g.listeners.length > 4 ? ` · ${msg('+{0} more', g.listeners.length - 4)}` : '')
  );
}

/** Istio semantics §I4: how many VirtualServices of the workspace each server applies. */
function istioGatewaySummary(analysis: Analysis, gw: IstioGateway, msg: Msg): string {
  if (!gw.servers.length) return msg('no servers');
  const bound = virtualServicesOn(analysis.cluster, gw);
  return (
    gw.servers
      .slice(0, 4)
      .map((s) => {
        const n = bound.filter((vs) => serverServes(gw, s, vs)).length;
        return `${s.portName ?? '?'} ${s.port ?? '?'}/${s.protocol ?? '?'}: ${n === 1 ? msg('{0} VirtualService', n) : msg('{0} VirtualServices', n)}`;
      })
      .join(' · ') + (gw.servers.length > 4 ? ` · ${msg('+{0} more', gw.servers.length - 4)}` : '')
  );
}

/**
 * Istio semantics §I4, §I1: for each Gateway it names, whether a server of it serves one of its hosts (or the mesh's
 * sidecars), and how many destinations it sends to.
 */
function virtualServiceSummary(analysis: Analysis, vs: VirtualService, msg: Msg): string {
  const parts: string[] = [];
  const bound = gatewaysOf(analysis.cluster, vs);
  const written = vs.gateways.length ? vs.gateways.map((g) => g.value) : ['mesh'];
  for (const g of written.slice(0, 3)) {
    const ref = gatewayRef(g, vs.namespace);
    if (!ref) {
      parts.push(g === 'mesh' ? msg('mesh sidecars') : g);
      continue;
    }
    const name = ref.namespace === vs.namespace ? ref.name : `${ref.namespace}/${ref.name}`;
    const gw = bound.find((b) => b.namespace === ref.namespace && b.name === ref.name);
    // A Gateway the workspace does not hold may be installed with Istio (istio-system/ingressgateway): not "missing".
    if (!gw) parts.push(msg('{0}: not in the workspace', name));
    else parts.push(gw.servers.some((s) => serverServes(gw, s, vs)) ? msg('served by {0}', name) : msg('no server of {0} serves its hosts', name));
  }
  if (written.length > 3) parts.push(msg('+{0} more', written.length - 3));
  const n = vs.destinations.length;
  parts.push(n === 1 ? msg('{0} destination', n) : msg('{0} destinations', n));
  return parts.join(' · ');
}

/** Gateway semantics §G2, §G7: which parents accept the route, and how many of its backends are valid. */
function routeSummary(analysis: Analysis, route: GatewayRoute, msg: Msg): string {
  const parts: string[] = [];
  for (const ref of route.parentRefs.slice(0, 3)) {
    const t = parentTarget(clusterLookup(analysis.cluster), route, ref);
    const name = `${ref.name ?? '?'}${ref.sectionName ? `/${ref.sectionName}` : ''}`;
    if (t.kind === 'gateway') {
      const a = attachToGateway(clusterLookup(analysis.cluster), route, ref, t);
      parts.push(
        a.outcome === 'attached'
          ? msg('accepted by {0}', name)
          : a.outcome === 'unknown'
            ? msg('{0}: acceptance unknown', name)
            : msg('not accepted by {0}', name),
      );
    } else if (t.kind === 'service') parts.push(msg('mesh route for Service {0}', t.service.name));
    else if (t.kind === 'missing') parts.push(msg('no parent {0}', name));
  }
  let total = 0;
  let invalid = 0;
  for (const rule of route.rules) {
    for (const b of rule.backendRefs) {
      total++;
      if (backendVerdict(clusterLookup(analysis.cluster), route, b).status === 'invalid') invalid++;
    }
  }
  const backends = total === 1 ? msg('{0} backend', total) : msg('{0} backends', total);
  parts.push(invalid ? msg('{0} ({1} invalid)', backends, invalid) : backends);
  return parts.join(' · ');
}

function serviceSummary(analysis: Analysis, s: Parameters<Analysis['endpointsOf']>[0], msg: Msg): string {
  if (s.type === 'ExternalName') return msg('alias of {0}', s.externalName ?? msg('(no externalName)'));
  const eps = analysis.endpointsOf(s);
  if (eps.source === 'manual') {
    const n = endpointCount(eps) ?? 0;
    return `${n === 1 ? msg('{0} endpoint', n) : msg('{0} endpoints', n)} · ${msg('manual')}`;
  }
  if (!eps.groups.length) return s.selector ? msg('no endpoints: selector matches no pods') : msg('no endpoints: no selector');
  const n = endpointCount(eps);
  const count = n === undefined ? msg('one endpoint per node') : n === 1 ? msg('{0} endpoint', n) : msg('{0} endpoints', n);
  const groups = eps.groups.slice(0, 3).map((g) => `${g.workload.kind} ${g.workload.name}${g.replicas === undefined ? '' : ` ×${g.replicas}`}`);
  if (eps.groups.length > 3) groups.push(msg('+{0} more', eps.groups.length - 3));
  return [count, ...groups].join(' · ');
}
