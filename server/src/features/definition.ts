// definitionAt: from a reference to what it names: selector → selected pod labels, a Service port's targetPort or
// name → the container ports it resolves to, serviceName/subdomain → Service, Ingress backend → Service port, a host
// name in free text → the Service it resolves to; a route's parentRef → Gateway or listener, backendRef → Service
// port, a listener's certificateRef → Secret.

import type { Analysis } from '../analysis/analysis';
import { backendVerdict, parentTarget, clusterLookup } from '../analysis/gatewayRoutes';
import { isGateway, isRoute, type GatewayRoute } from '../model/gatewayApi';
import { isService, isWorkload, type Ingress, type Service } from '../model/resources';
import { spanContains, type Location } from '../model/span';
import { keysOf, placeAt } from './cursor';
import { nameAt } from './nameToken';

export function definitionAt(workspace: Analysis, uri: string, offset: number): Location[] {
  // Lookups answer within the scope of the file (model/project.ts).
  const analysis = workspace.scopeOf(uri).analysis;
  const place = placeAt(analysis, uri, offset);
  if (!place) return [];
  const r = place.resource;
  const keys = keysOf(place.path);
  if (isService(r)) {
    // A port's targetPort or name → the container port each selected workload resolves it to (one target per workload).
    if (keys.length === 3 && keys[0] === 'spec' && keys[1] === 'ports' && (keys[2] === 'targetPort' || keys[2] === 'name')) {
      const port = r.ports.find((p) => spanContains(p.span, offset));
      if (!port) return [];
      return analysis.endpointsOf(r).groups.flatMap((g) => {
        const declared = g.ports[port.index]?.declared;
        return declared ? [{ uri: g.workload.uri, span: declared.nameSpan ?? declared.containerPortSpan ?? declared.span }] : [];
      });
    }
    if (keys.length !== 3 || keys[0] !== 'spec' || keys[1] !== 'selector' || !r.selector) return [];
    return analysis.endpointsOf(r).groups.map((g) => {
      const spans = g.workload.template.labelSpans.get(keys[2]);
      return { uri: g.workload.uri, span: spans ? { start: spans.key.start, end: spans.value.end } : (g.workload.template.labelsSpan ?? g.workload.nameSpan) };
    });
  }
  if (isWorkload(r)) {
    if (r.kind === 'StatefulSet' && r.serviceNameSpan && spanContains(r.serviceNameSpan, offset))
      return serviceLocation(analysis.cluster.service(r.namespace, r.serviceName ?? ''));
    if (r.template.subdomainSpan && spanContains(r.template.subdomainSpan, offset))
      return serviceLocation(analysis.cluster.service(r.namespace, r.template.subdomain ?? ''));
  }
  if (r.kind === 'Ingress') {
    const ing = r as Ingress;
    const backends = [...ing.paths.map((p) => p.backend), ...(ing.defaultBackend ? [ing.defaultBackend] : [])].filter((b) => spanContains(b.span, offset));
    const b = backends[backends.length - 1];
    if (!b?.serviceName) return [];
    const svc = analysis.cluster.service(ing.namespace, b.serviceName);
    if (!svc) return [];
    if (b.portSpan && spanContains(b.portSpan, offset)) {
      const port = svc.ports.find((p) => (b.portNumber !== undefined && p.port === b.portNumber) || (b.portName !== undefined && p.name === b.portName));
      if (port) return [{ uri: svc.uri, span: port.span }];
    }
    return serviceLocation(svc);
  }
  if (isRoute(r)) return routeDefinition(analysis, r, offset);
  if (isGateway(r)) {
    const ref = r.listeners.flatMap((l) => l.tls?.certificateRefs ?? []).find((c) => spanContains(c.span, offset));
    if (!ref?.name || ref.kind !== 'Secret') return [];
    return analysis.cluster.get('Secret', ref.namespace ?? r.namespace, ref.name).map((s) => ({ uri: s.uri, span: s.nameSpan }));
  }
  const source = analysis.cluster.files.find((f) => f.uri === uri)?.text;
  if (source === undefined) return [];
  return serviceLocation(nameAt(analysis, r, source, offset)?.resolution.service);
}

/** parentRef → the Gateway (its listener when on sectionName) or Service; backendRef → the Service (its port when on port). */
function routeDefinition(analysis: Analysis, route: GatewayRoute, offset: number): Location[] {
  const parent = route.parentRefs.find((p) => spanContains(p.span, offset));
  if (parent) {
    const t = parentTarget(clusterLookup(analysis.cluster), route, parent);
    if (t.kind === 'gateway') {
      const l =
        parent.sectionNameSpan && spanContains(parent.sectionNameSpan, offset) ? t.gateway.listeners.find((x) => x.name === parent.sectionName) : undefined;
      return [{ uri: t.gateway.uri, span: l ? l.span : t.gateway.nameSpan }];
    }
    return t.kind === 'service' ? serviceLocation(t.service) : [];
  }
  for (const rule of route.rules) {
    const b = rule.backendRefs.find((x) => spanContains(x.span, offset));
    if (!b) continue;
    const v = backendVerdict(clusterLookup(analysis.cluster), route, b);
    if (!v.service) return [];
    if (v.servicePort && b.portSpan && spanContains(b.portSpan, offset)) return [{ uri: v.service.uri, span: v.servicePort.span }];
    return serviceLocation(v.service);
  }
  return [];
}

function serviceLocation(s: Service | undefined): Location[] {
  return s ? [{ uri: s.uri, span: s.nameSpan }] : [];
}
