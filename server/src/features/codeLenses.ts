// codeLensesFor: a line above each Service (endpoints, backing workloads, Trace), each StatefulSet (its pod names), each
// NetworkPolicy (the workloads it selects, the sources it admits, whether it limits egress),
// each Gateway (routes per listener, Trace) and each route (the parents that accept it, its backends), and at the top of a
// root kustomization what its build makes.

import type { Analysis } from '../analysis/analysis';
import { endpointCount } from '../analysis/endpoints';
import { attachToGateway, backendVerdict, parentTarget, clusterLookup } from '../analysis/gatewayRoutes';
import { isGateway, isRoute, type Gateway, type GatewayRoute } from '../model/gatewayApi';
import { isService, isWorkload, type NetworkPolicy, type Workload } from '../model/resources';
import type { Span } from '../model/span';
import type { TraceParams } from '../protocol';
import { attachedRoutes } from './hoverGateway';
import { policyLens } from './hoverReach';

export interface Lens {
  readonly span: Span;
  readonly title: string;
  /** Set when clicking the lens runs the trace command. */
  readonly trace?: TraceParams;
}

export function codeLensesFor(workspace: Analysis, uri: string): Lens[] {
  // Lookups answer within the scope of the file (model/project.ts).
  const analysis = workspace.scopeOf(uri).analysis;
  const out: Lens[] = [];
  // A root kustomization: what its build makes (the objects are analysed as that build's cluster).
  for (const f of workspace.cluster.files) {
    if (!f.rendered || f.rendered.definedBy !== uri) continue;
    const namespaces = [...new Set(f.resources.map((r) => r.namespace))].sort();
    const n = f.resources.length;
    out.push({ span: { start: 0, end: 0 }, title: `Builds ${n} object${n === 1 ? '' : 's'}${namespaces.length ? ` in namespace${namespaces.length === 1 ? '' : 's'} ${namespaces.join(', ')}` : ''}` });
  }
  for (const r of analysis.cluster.resources) {
    if (r.uri !== uri) continue;
    const span = { start: r.span.start, end: r.span.start };
    if (isService(r)) {
      out.push({ span, title: serviceSummary(analysis, r) });
      out.push({ span, title: 'Trace', trace: { namespace: r.namespace, name: r.name } });
    } else if (isGateway(r)) {
      out.push({ span, title: gatewaySummary(analysis, r) });
      // Gateway semantics §G9: the trace from its listeners through the routes they accept.
      out.push({ span, title: 'Trace', trace: { kind: 'Gateway', namespace: r.namespace, name: r.name } });
    } else if (isRoute(r)) {
      out.push({ span, title: routeSummary(analysis, r) });
      // Gateway semantics §G9: the trace of a backend Service starts at the listeners that accept this route.
      const traced = new Set<string>();
      for (const rule of r.rules) {
        for (const b of rule.backendRefs) {
          const svc = backendVerdict(clusterLookup(analysis.cluster), r, b).service;
          const key = svc ? `${svc.namespace}/${svc.name}` : '';
          if (!svc || traced.has(key) || traced.size >= 3) continue;
          traced.add(key);
          out.push({ span, title: `Trace ${svc.name}`, trace: { namespace: svc.namespace, name: svc.name } });
        }
      }
    } else if (r.kind === 'NetworkPolicy') {
      out.push({ span, title: policyLens(analysis, r as NetworkPolicy) });
    } else if (isWorkload(r) && r.kind === 'StatefulSet' && r.serviceName) {
      const n = r.replicas ?? 1;
      if (n <= 0) continue;
      const first = `${r.name}-${r.ordinalsStart}`;
      const pods = n === 1 ? first : `${first}…${r.name}-${r.ordinalsStart + n - 1}`;
      out.push({ span, title: statefulPodNames(analysis, r, pods) });
    }
  }
  return out;
}

/**
 * The per-pod names only when they will resolve (semantics §2.3, §8): a governing Service that exists, selects the
 * pods and is headless. Otherwise the lens says why there are none, rather than showing a name that never resolves.
 */
function statefulPodNames(analysis: Analysis, sts: Workload, pods: string): string {
  const name = sts.serviceName!;
  const perPod = analysis.dnsRecordsFor(sts).filter((rec) => rec.name.startsWith(`${sts.name}-`) && (rec.type === 'A' || rec.type === 'AAAA'));
  if (perPod.some((rec) => rec.condition === 'while-ready' || rec.condition === 'always')) return `${pods}.${name}`;
  const svc = analysis.cluster.service(sts.namespace, name);
  if (!svc) return `no per-pod DNS names: no Service "${name}"`;
  if (perPod.length) return `${pods}.${name} (CoreDNS only: Service "${name}" is not headless)`;
  return `no per-pod DNS names: Service "${name}" does not select these pods`;
}

/** Gateway semantics §G3: how many routes each listener accepts. */
function gatewaySummary(analysis: Analysis, g: Gateway): string {
  if (!g.listeners.length) return 'no listeners';
  return g.listeners.slice(0, 4).map((l) => {
    const n = attachedRoutes(analysis, g, l).length;
    return `${l.name ?? '?'} ${l.port ?? '?'}/${l.protocol ?? '?'}: ${n} ${n === 1 ? 'route' : 'routes'}`;
  }).join(' · ') + (g.listeners.length > 4 ? ` · +${g.listeners.length - 4} more` : '');
}

/** Gateway semantics §G2, §G7: which parents accept the route, and how many of its backends are valid. */
function routeSummary(analysis: Analysis, route: GatewayRoute): string {
  const parts: string[] = [];
  for (const ref of route.parentRefs.slice(0, 3)) {
    const t = parentTarget(clusterLookup(analysis.cluster), route, ref);
    const name = `${ref.name ?? '?'}${ref.sectionName ? `/${ref.sectionName}` : ''}`;
    if (t.kind === 'gateway') {
      const a = attachToGateway(clusterLookup(analysis.cluster), route, ref, t);
      parts.push(a.outcome === 'attached' ? `accepted by ${name}` : a.outcome === 'unknown' ? `${name}: acceptance unknown` : `not accepted by ${name}`);
    } else if (t.kind === 'service') parts.push(`mesh route for Service ${t.service.name}`);
    else if (t.kind === 'missing') parts.push(`no parent ${name}`);
  }
  let total = 0;
  let invalid = 0;
  for (const rule of route.rules) {
    for (const b of rule.backendRefs) {
      total++;
      if (backendVerdict(clusterLookup(analysis.cluster), route, b).status === 'invalid') invalid++;
    }
  }
  parts.push(`${total} ${total === 1 ? 'backend' : 'backends'}${invalid ? ` (${invalid} invalid)` : ''}`);
  return parts.join(' · ');
}

function serviceSummary(analysis: Analysis, s: Parameters<Analysis['endpointsOf']>[0]): string {
  if (s.type === 'ExternalName') return `alias of ${s.externalName ?? '(no externalName)'}`;
  const eps = analysis.endpointsOf(s);
  if (eps.source === 'manual') {
    const n = endpointCount(eps) ?? 0;
    return `${n} ${n === 1 ? 'endpoint' : 'endpoints'} · manual`;
  }
  if (!eps.groups.length) return s.selector ? 'no endpoints: selector matches no pods' : 'no endpoints: no selector';
  const n = endpointCount(eps);
  const count = n === undefined ? 'one endpoint per node' : `${n} ${n === 1 ? 'endpoint' : 'endpoints'}`;
  const groups = eps.groups.slice(0, 3).map((g) => `${g.workload.kind} ${g.workload.name}${g.replicas === undefined ? '' : ` ×${g.replicas}`}`);
  if (eps.groups.length > 3) groups.push(`+${eps.groups.length - 3} more`);
  return [count, ...groups].join(' · ');
}
