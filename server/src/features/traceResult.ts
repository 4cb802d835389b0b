// The answer to a trace request (the graph of one Service, Gateway or route plus its Mermaid and plain-text renderings)
// and to a Service details request.

import type { Analysis } from '../analysis/analysis';
import { isGateway, isRoute, type Gateway, type GatewayRoute } from '../model/gatewayApi';
import type { Service } from '../model/resources';
import type { TraceParams, TraceResult } from '../protocol';
import { findingsInUnits } from './diagnostics';
import { serviceDetails } from './hoverService';
import { clientChoices, readTraceClient } from './traceClient';
import { gatewayTraceGraph, routeTraceGraph, traceGraph } from './traceGraph';
import { istioGatewayTraceGraph, virtualServiceTraceGraph } from './istioTraceGraph';
import { isIstioGateway, isVirtualService, type IstioGateway, type VirtualService } from '../model/istio';
import { traceToMermaid } from './traceMermaid';
import { traceToText } from './traceText';
import { messages } from '../l10n/l10n';

/** With variants side by side, the definition in the given file (a hover's or a picker's); otherwise the first. */
function serviceFor(analysis: Analysis, params: TraceParams): Service | undefined {
  const defs = analysis.cluster.get('Service', params.namespace, params.name) as readonly Service[];
  return defs.find((s) => s.uri === params.uri) ?? defs[0];
}

/** A Gateway or a route, by kind, namespace and name (the definition in the given file when there are several). */
function gatewayObjectFor(analysis: Analysis, params: TraceParams): Gateway | GatewayRoute | undefined {
  const defs = analysis.cluster.get(params.kind ?? '', params.namespace, params.name).filter((r): r is Gateway | GatewayRoute => isGateway(r) || isRoute(r));
  return defs.find((g) => g.uri === params.uri) ?? defs[0];
}

/** An Istio Gateway or a VirtualService, by namespace and name (the definition in the given file when there are several). */
function istioObjectFor(analysis: Analysis, params: TraceParams): IstioGateway | VirtualService | undefined {
  const kind = params.kind === 'IstioGateway' ? 'Gateway' : 'VirtualService';
  const defs = analysis.cluster
    .get(kind, params.namespace, params.name)
    .filter((r): r is IstioGateway | VirtualService => isIstioGateway(r) || isVirtualService(r));
  return defs.find((g) => g.uri === params.uri) ?? defs[0];
}

export function traceResultFor(analysis: Analysis, params: TraceParams): TraceResult | undefined {
  const target =
    params.kind === undefined || params.kind === 'Service'
      ? serviceFor(analysis, params)
      : params.kind === 'IstioGateway' || params.kind === 'VirtualService'
        ? istioObjectFor(analysis, params)
        : gatewayObjectFor(analysis, params);
  if (!target) return undefined;
  if (isIstioGateway(target) || isVirtualService(target)) {
    const variant = analysis.scopeOf(target.uri).label;
    const findings = findingsInUnits(analysis);
    const traced = isIstioGateway(target) ? istioGatewayTraceGraph(analysis, target, findings) : virtualServiceTraceGraph(analysis, target, findings);
    const graph = variant ? { ...traced, variant } : traced;
    const msg = messages(analysis.config.locale);
    return { graph, mermaid: traceToMermaid(graph, msg), text: traceToText(graph, msg) };
  }
  // Findings go on the hop they break; they come from the same memoized evaluation the diagnostics use.
  const variant = analysis.scopeOf(target.uri).label;
  const findings = findingsInUnits(analysis);
  const client = readTraceClient(params.client);
  const traced = isGateway(target)
    ? gatewayTraceGraph(analysis, target, findings)
    : isRoute(target)
      ? routeTraceGraph(analysis, target, findings)
      : traceGraph(analysis, target, findings, client);
  const graph = variant ? { ...traced, variant } : traced;
  const msg = messages(analysis.config.locale);
  const result = { graph, mermaid: traceToMermaid(graph, msg), text: traceToText(graph, msg) };
  // A Service's trace may be drawn for a client: the picker offers the workloads of its scope (netpol §1).
  return isGateway(target) || isRoute(target) ? result : { ...result, clients: clientChoices(analysis.scopeOf(target.uri).analysis) };
}

/** The Service hover's second level, for the details command. */
export function serviceDetailsFor(analysis: Analysis, params: TraceParams): string | undefined {
  if (params.kind !== undefined && params.kind !== 'Service') return undefined;
  const service = serviceFor(analysis, params);
  return service ? serviceDetails(analysis.scopeOf(service.uri).analysis, service) : undefined;
}
