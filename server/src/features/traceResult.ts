// The answer to a trace request: the graph of one Service plus its Mermaid and plain-text renderings.

import type { Analysis } from '../analysis/analysis';
import type { TraceParams, TraceResult } from '../protocol';
import { findingsInUnits } from './diagnostics';
import { traceToMermaid } from './traceMermaid';
import { traceToText } from './traceText';

export function traceResultFor(analysis: Analysis, params: TraceParams): TraceResult | undefined {
  const service = analysis.cluster.service(params.namespace, params.name);
  if (!service) return undefined;
  // Findings go on the hop they break; they come from the same memoized evaluation the diagnostics use.
  const graph = analysis.trace(service, findingsInUnits(analysis));
  return { graph, mermaid: traceToMermaid(graph), text: traceToText(graph) };
}
