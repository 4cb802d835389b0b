// The answer to a trace request (the graph of one Service or Gateway plus its Mermaid and plain-text renderings)
// and to a Service details request.

import type { Analysis } from '../analysis/analysis';
import { isGateway, type Gateway } from '../model/gatewayApi';
import type { Service } from '../model/resources';
import type { TraceParams, TraceResult } from '../protocol';
import { findingsInUnits } from './diagnostics';
import { serviceDetails } from './hoverService';
import { gatewayTraceGraph, traceGraph } from './traceGraph';
import { traceToMermaid } from './traceMermaid';
import { traceToText } from './traceText';

/** With variants side by side, the definition in the given file (a hover's or a picker's); otherwise the first. */
function serviceFor(analysis: Analysis, params: TraceParams): Service | undefined {
  const defs = analysis.cluster.get('Service', params.namespace, params.name) as readonly Service[];
  return defs.find((s) => s.uri === params.uri) ?? defs[0];
}

function gatewayFor(analysis: Analysis, params: TraceParams): Gateway | undefined {
  const defs = analysis.cluster.get('Gateway', params.namespace, params.name).filter(isGateway);
  return defs.find((g) => g.uri === params.uri) ?? defs[0];
}

export function traceResultFor(analysis: Analysis, params: TraceParams): TraceResult | undefined {
  const target = params.kind === 'Gateway' ? gatewayFor(analysis, params) : serviceFor(analysis, params);
  if (!target) return undefined;
  // Findings go on the hop they break; they come from the same memoized evaluation the diagnostics use.
  const variant = analysis.scopeOf(target.uri).label;
  const findings = findingsInUnits(analysis);
  const traced = isGateway(target) ? gatewayTraceGraph(analysis, target, findings) : traceGraph(analysis, target, findings);
  const graph = variant ? { ...traced, variant } : traced;
  return { graph, mermaid: traceToMermaid(graph), text: traceToText(graph) };
}

/** The Service hover's second level, for the details command. */
export function serviceDetailsFor(analysis: Analysis, params: TraceParams): string | undefined {
  if (params.kind === 'Gateway') return undefined;
  const service = serviceFor(analysis, params);
  return service ? serviceDetails(analysis.scopeOf(service.uri).analysis, service) : undefined;
}
