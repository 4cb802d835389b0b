// The one place tests call trace, traceToText and traceToMermaid: goldens plus the graph's structural invariants.

import assert from 'node:assert/strict';
import type { Analysis } from '../../server/src/analysis/analysis';
import { traceToMermaid } from '../../server/src/features/traceMermaid';
import { traceGraph } from '../../server/src/features/traceGraph';
import { traceToText } from '../../server/src/features/traceText';
import type { TraceGraph } from '../../server/src/protocol';
import { runRules } from '../../server/src/engine/evaluate';
import { checkGolden } from './checkGolden';

export function traceOf(analysis: Analysis, namespace: string, name: string): TraceGraph {
  const svc = analysis.cluster.service(namespace, name);
  if (!svc) throw new Error(`no Service ${namespace}/${name}`);
  const graph = traceGraph(analysis, svc, runRules(analysis));
  checkInvariants(graph);
  return graph;
}

/** Ids unique and stable strings, edges between existing nodes, sources with positions. */
export function checkInvariants(graph: TraceGraph): void {
  const ids = new Set<string>();
  for (const n of graph.nodes) {
    assert.ok(!ids.has(n.id), `duplicate node id ${n.id}`);
    ids.add(n.id);
    assert.ok(n.label.length > 0 && !n.label.includes('undefined'), `node ${n.id} has a bad label: ${n.label}`);
    for (const d of n.detail) assert.ok(!d.includes('undefined'), `node ${n.id}: ${d}`);
    if (n.source) assert.ok(n.source.line >= 0 && n.source.character >= 0 && n.source.start <= n.source.end, `node ${n.id} has a bad source`);
  }
  for (const e of graph.edges) assert.ok(ids.has(e.from) && ids.has(e.to), `edge ${e.from} → ${e.to} points outside the graph`);
}

/** The graph, its text and its Mermaid rendering against `<golden>`. */
export function checkTraceGolden(analysis: Analysis, services: readonly string[], goldenPath: string): void {
  const out: Record<string, unknown> = {};
  for (const ref of services) {
    const [ns, name] = ref.split('/');
    const graph = traceOf(analysis, ns, name);
    out[ref] = { graph, text: traceToText(graph).split('\n'), mermaid: traceToMermaid(graph).split('\n') };
  }
  checkGolden(goldenPath, out);
}
