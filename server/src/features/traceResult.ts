// The answer to a trace request: the graph of one Service plus its Mermaid and plain-text renderings.

import type { Analysis } from '../analysis/analysis';
import type { Service } from '../model/resources';
import type { TraceParams, TraceResult } from '../protocol';
import { diagnosticsFor } from './diagnostics';
import { traceToMermaid } from './traceMermaid';
import { traceToText } from './traceText';

export function traceResultFor(analysis: Analysis, params: TraceParams): TraceResult | undefined {
  // With variants side by side, the definition in the given file (a hover's or a picker's); otherwise the first.
  const defs = analysis.cluster.get('Service', params.namespace, params.name) as readonly Service[];
  const service = defs.find((s) => s.uri === params.uri) ?? defs[0];
  if (!service) return undefined;
  // Findings go on the hop they break; they come from the same memoized evaluation the diagnostics use.
  const variant = analysis.scopeOf(service.uri).label;
  const traced = analysis.trace(service, diagnosticsFor(analysis));
  const graph = variant ? { ...traced, variant } : traced;
  return { graph, mermaid: traceToMermaid(graph), text: traceToText(graph) };
}
