// The answer to a trace request (the graph of one Service plus its Mermaid and plain-text renderings) and to a
// Service details request.

import type { Analysis } from '../analysis/analysis';
import type { TraceParams, TraceResult } from '../protocol';
import { diagnosticsFor } from './diagnostics';
import { serviceDetails } from './hoverService';
import { traceToMermaid } from './traceMermaid';
import { traceToText } from './traceText';

export function traceResultFor(analysis: Analysis, params: TraceParams): TraceResult | undefined {
  const service = analysis.cluster.service(params.namespace, params.name);
  if (!service) return undefined;
  // Findings go on the hop they break; they come from the same memoized evaluation the diagnostics use.
  const graph = analysis.trace(service, diagnosticsFor(analysis));
  return { graph, mermaid: traceToMermaid(graph), text: traceToText(graph) };
}

/** The Service hover's second level, for the details command. */
export function serviceDetailsFor(analysis: Analysis, params: TraceParams): string | undefined {
  const service = analysis.cluster.service(params.namespace, params.name);
  return service ? serviceDetails(analysis, service) : undefined;
}
