// The answer to a trace request: the graph of one Service plus its Mermaid and plain-text renderings.

import type { Analysis } from '../analysis/analysis';
import type { TraceParams, TraceResult } from '../protocol';
import { traceToMermaid } from './traceMermaid';
import { traceToText } from './traceText';

export function traceResultFor(analysis: Analysis, params: TraceParams): TraceResult | undefined {
  const service = analysis.cluster.service(params.namespace, params.name);
  if (!service) return undefined;
  const graph = analysis.trace(service);
  return { graph, mermaid: traceToMermaid(graph), text: traceToText(graph) };
}
