// The allow-list for messages from the trace webview: anything not shaped exactly like a known intent is dropped.
import type { TraceClient, TraceGraph, TraceNode } from '../../server/src/protocol';

/** An SVG of the largest traces is well under a megabyte; anything far bigger is not ours. */
export const maxSvgLength = 5 * 1024 * 1024;

export type TraceIntent =
  | { readonly type: 'ready' }
  | { readonly type: 'reveal'; readonly node: TraceNode & { readonly source: NonNullable<TraceNode['source']> } }
  | { readonly type: 'copyMermaid' }
  | { readonly type: 'saveSvg'; readonly svg: string }
  /** Choose the client the trace checks NetworkPolicies for: the host offers the clients the server listed. */
  | { readonly type: 'pickClient' };

/**
 * `graph` is the graph the panel shows now: a reveal must name one of its nodes that has a source, so the webview
 * can only ask to open places the server itself reported.
 */
export function readTraceIntent(message: unknown, graph: TraceGraph | undefined): TraceIntent | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const m = message as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'copyMermaid':
      return graph ? { type: 'copyMermaid' } : undefined;
    case 'pickClient':
      return graph ? { type: 'pickClient' } : undefined;
    case 'reveal': {
      if (typeof m.nodeId !== 'string' || !graph) return undefined;
      const node = graph.nodes.find((n) => n.id === m.nodeId);
      return node?.source ? { type: 'reveal', node: { ...node, source: node.source } } : undefined;
    }
    case 'saveSvg': {
      if (typeof m.svg !== 'string' || m.svg.length > maxSvgLength || !/^\s*<svg[\s>]/.test(m.svg)) return undefined;
      return { type: 'saveSvg', svg: m.svg };
    }
    default:
      return undefined;
  }
}

/** The kinds a trace may start from besides a Service (TraceParams.kind). */
const traceKinds = ['Gateway', 'HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute', 'UDPRoute', 'IstioGateway', 'VirtualService'] as const;
type TraceKind = (typeof traceKinds)[number];

/**
 * The Service (or Gateway, Gateway API route, Istio Gateway or VirtualService: `kind`) a command argument names, if it
 * names one: `{namespace, name}` from a code lens, hover link or caller, or the view's saved state after a reload.
 */
export function readTraceTarget(
  arg: unknown,
): { readonly kind?: TraceKind; readonly namespace: string; readonly name: string; readonly uri?: string; readonly client?: TraceClient } | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const a = arg as Record<string, unknown>;
  if (typeof a.namespace !== 'string' || typeof a.name !== 'string' || !a.name) return undefined;
  const named = traceKinds.find((k) => k === a.kind);
  const kind = named ? { kind: named } : {};
  // The client a Service trace was drawn for (kept across reloads).
  const client = named ? undefined : readClient(a.client);
  const withClient = client ? { client } : {};
  // The file of the definition, when variants of the workspace define the Service differently.
  return typeof a.uri === 'string' && a.uri
    ? { ...kind, namespace: a.namespace, name: a.name, uri: a.uri, ...withClient }
    : { ...kind, namespace: a.namespace, name: a.name, ...withClient };
}

/** A trace client, if the value is exactly one (from a command argument or the view's saved state). */
export function readClient(v: unknown): TraceClient | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const c = v as Record<string, unknown>;
  const str = (x: unknown): x is string => typeof x === 'string' && x.length > 0 && x.length <= 253;
  if (c.kind === 'external') return { kind: 'external' };
  if (c.kind === 'namespace' && str(c.namespace)) return { kind: 'namespace', namespace: c.namespace };
  if (c.kind === 'workload' && str(c.namespace) && str(c.workloadKind) && str(c.name))
    return { kind: 'workload', namespace: c.namespace, workloadKind: c.workloadKind, name: c.name };
  return undefined;
}
