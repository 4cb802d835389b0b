// referencesAt: pod template labels → the Services, NetworkPolicies and workload selectors that select them;
// a Service → everything that names it (StatefulSets, pod subdomains, Ingress backends, route backendRefs and parentRefs,
// host names in text, Endpoints); a Gateway → the parentRefs of the routes that name it.

import type { Analysis } from '../analysis/analysis';
import { backendVerdict, clusterLookup, parentTarget } from '../analysis/gatewayRoutes';
import { isGateway, isRoute, type Gateway } from '../model/gatewayApi';
import { isService, isWorkload, type Ingress, type Service, type Workload } from '../model/resources';
import { selectsPods } from '../model/podLabels';
import { selectorMatches } from '../model/selector';
import { spanContains, type Location } from '../model/span';
import { keysOf, placeAt } from './cursor';
import { nameTokens, textValuesOf } from './nameToken';

export function referencesAt(workspace: Analysis, uri: string, offset: number, includeDeclaration: boolean): Location[] {
  // Lookups answer within the scope of the file (model/project.ts).
  const analysis = workspace.scopeOf(uri).analysis;
  const place = placeAt(analysis, uri, offset);
  if (!place) return [];
  const r = place.resource;
  if (isService(r)) {
    const keys = keysOf(place.path);
    const onService = spanContains(r.nameSpan, offset) || spanContains(r.kindSpan, offset) || keys.length <= 1;
    return onService ? serviceReferences(analysis, r, includeDeclaration) : [];
  }
  if (isGateway(r) && (spanContains(r.nameSpan, offset) || spanContains(r.kindSpan, offset))) return gatewayReferences(analysis, r, includeDeclaration);
  if (isWorkload(r)) {
    const labels = r.template.labelsSpan;
    if (labels && spanContains(labels, offset)) return labelReferences(analysis, r, includeDeclaration);
  }
  return [];
}

export function serviceReferences(analysis: Analysis, s: Service, includeDeclaration: boolean): Location[] {
  const out: Location[] = includeDeclaration ? [{ uri: s.uri, span: s.nameSpan }] : [];
  const files = new Map(analysis.cluster.files.map((f) => [f.uri, f.text]));
  for (const w of analysis.cluster.workloadsIn(s.namespace)) {
    if (w.kind === 'StatefulSet' && w.serviceName === s.name && w.serviceNameSpan) out.push({ uri: w.uri, span: w.serviceNameSpan });
    if (w.template.subdomain === s.name && w.template.subdomainSpan) out.push({ uri: w.uri, span: w.template.subdomainSpan });
  }
  for (const ing of analysis.cluster.ingresses as readonly Ingress[]) {
    if (ing.namespace !== s.namespace) continue;
    for (const b of [...ing.paths.map((p) => p.backend), ...(ing.defaultBackend ? [ing.defaultBackend] : [])]) {
      if (b.serviceName === s.name && b.serviceNameSpan) out.push({ uri: ing.uri, span: b.serviceNameSpan });
    }
  }
  // Host names in free text: only tokens whose first label is the Service name can land on it.
  const first = s.name.toLowerCase();
  for (const res of [...analysis.cluster.workloads, ...analysis.cluster.configMaps]) {
    const text = files.get(res.uri);
    if (text === undefined) continue;
    for (const v of textValuesOf(res)) {
      if (!v.value.toLowerCase().includes(first)) continue;
      for (const t of nameTokens(text, v.span)) {
        if (t.text.toLowerCase().split(/[.:]/)[0] !== first) continue;
        if (analysis.resolveName(t.text, res.namespace, res.uri).service === s) out.push({ uri: res.uri, span: t.span });
      }
    }
  }
  for (const m of analysis.endpointsOf(s).manual) out.push({ uri: m.resource.uri, span: m.resource.nameSpan });
  // Gateway API backendRefs and Service parentRefs that resolve to it (gateway semantics §G5, §G8).
  const lookup = clusterLookup(analysis.cluster);
  for (const route of analysis.cluster.resources) {
    if (!isRoute(route)) continue;
    for (const ref of route.parentRefs) {
      const t = parentTarget(lookup, route, ref);
      if (t.kind === 'service' && t.service === s && ref.nameSpan) out.push({ uri: route.uri, span: ref.nameSpan });
    }
    for (const rule of route.rules) {
      for (const b of rule.backendRefs) if (b.nameSpan && backendVerdict(lookup, route, b).service === s) out.push({ uri: route.uri, span: b.nameSpan });
    }
  }
  return out;
}

/** A Gateway → the parentRefs of the routes that name it (gateway semantics §G2). */
function gatewayReferences(analysis: Analysis, g: Gateway, includeDeclaration: boolean): Location[] {
  const out: Location[] = includeDeclaration ? [{ uri: g.uri, span: g.nameSpan }] : [];
  const lookup = clusterLookup(analysis.cluster);
  for (const route of analysis.cluster.resources) {
    if (!isRoute(route)) continue;
    for (const ref of route.parentRefs) {
      const t = parentTarget(lookup, route, ref);
      if (t.kind === 'gateway' && t.gateway === g && ref.nameSpan) out.push({ uri: route.uri, span: ref.nameSpan });
    }
  }
  return out;
}

function labelReferences(analysis: Analysis, w: Workload, includeDeclaration: boolean): Location[] {
  const labels = w.template.labels;
  const out: Location[] = includeDeclaration && w.template.labelsSpan ? [{ uri: w.uri, span: w.template.labelsSpan }] : [];
  for (const s of analysis.cluster.servicesIn(w.namespace)) {
    if (s.selector && selectsPods(w, s.selector)) out.push({ uri: s.uri, span: s.selectorSpan ?? s.nameSpan });
  }
  for (const p of analysis.policiesSelecting(w)) out.push({ uri: p.uri, span: p.podSelectorSpan ?? p.nameSpan });
  for (const other of analysis.cluster.workloadsIn(w.namespace)) {
    if (other.selector && other.selectorSpan && selectorMatches(other.selector, labels)) out.push({ uri: other.uri, span: other.selectorSpan });
  }
  return out;
}
