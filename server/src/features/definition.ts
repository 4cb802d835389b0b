// definitionAt: from a reference to what it names: selector → selected pod labels, serviceName/subdomain → Service,
// Ingress backend → Service port, a host name in free text → the Service it resolves to.

import type { Analysis } from '../analysis/analysis';
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
    if (keys.length !== 3 || keys[0] !== 'spec' || keys[1] !== 'selector' || !r.selector) return [];
    return analysis.endpointsOf(r).groups.map((g) => {
      const spans = g.workload.template.labelSpans.get(keys[2]);
      return { uri: g.workload.uri, span: spans ? { start: spans.key.start, end: spans.value.end } : g.workload.template.labelsSpan ?? g.workload.nameSpan };
    });
  }
  if (isWorkload(r)) {
    if (r.kind === 'StatefulSet' && r.serviceNameSpan && spanContains(r.serviceNameSpan, offset)) return serviceLocation(analysis.cluster.service(r.namespace, r.serviceName ?? ''));
    if (r.template.subdomainSpan && spanContains(r.template.subdomainSpan, offset)) return serviceLocation(analysis.cluster.service(r.namespace, r.template.subdomain ?? ''));
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
  const source = analysis.cluster.files.find((f) => f.uri === uri)?.text;
  if (source === undefined) return [];
  return serviceLocation(nameAt(analysis, r, source, offset)?.resolution.service);
}

function serviceLocation(s: Service | undefined): Location[] {
  return s ? [{ uri: s.uri, span: s.nameSpan }] : [];
}
