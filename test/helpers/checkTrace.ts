// The one place tests draw trace graphs (of Services, Gateways and routes), traceToText and traceToMermaid: goldens plus the graph's structural invariants.

import assert from 'node:assert/strict';
import type { Analysis } from '../../server/src/analysis/analysis';
import { traceToMermaid } from '../../server/src/features/traceMermaid';
import { gatewayTraceGraph, routeTraceGraph, traceGraph } from '../../server/src/features/traceGraph';
import { isGateway, isRoute } from '../../server/src/model/gatewayApi';
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

export function gatewayTraceOf(analysis: Analysis, namespace: string, name: string): TraceGraph {
  const gateway = analysis.cluster.get('Gateway', namespace, name).find(isGateway);
  if (!gateway) throw new Error(`no Gateway ${namespace}/${name}`);
  const graph = gatewayTraceGraph(analysis, gateway, runRules(analysis));
  checkInvariants(graph);
  return graph;
}

export function routeTraceOf(analysis: Analysis, kind: string, namespace: string, name: string): TraceGraph {
  const route = analysis.cluster.get(kind, namespace, name).find(isRoute);
  if (!route) throw new Error(`no ${kind} ${namespace}/${name}`);
  const graph = routeTraceGraph(analysis, route, runRules(analysis));
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

/** The graph, its text and its Mermaid rendering against `<golden>`; `KIND/NAMESPACE/NAME` traces a Gateway or a route. */
export function checkTraceGolden(analysis: Analysis, services: readonly string[], goldenPath: string): void {
  const out: Record<string, unknown> = {};
  for (const ref of services) {
    const parts = ref.split('/');
    const graph =
      parts.length === 2
        ? traceOf(analysis, parts[0], parts[1])
        : parts[0] === 'Gateway'
          ? gatewayTraceOf(analysis, parts[1], parts[2])
          : routeTraceOf(analysis, parts[0], parts[1], parts[2]);
    out[ref] = { graph, text: traceToText(graph).split('\n'), mermaid: traceToMermaid(graph).split('\n') };
  }
  checkGolden(goldenPath, out);
}
