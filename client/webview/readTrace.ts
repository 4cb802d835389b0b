// Checks a trace arriving by postMessage and keeps only well-formed parts, so odd data degrades the drawing instead of breaking it.
import type { PacketHop, PacketPath, TraceClient, TraceEdge, TraceFinding, TraceGraph, TraceNode, TraceReach, TraceResult } from '../../server/src/protocol';
import { isColumn, isStatus, kindCaption, zoneTitle } from './vocabulary';

export function readTrace(raw: unknown): TraceResult | undefined {
  if (!isObject(raw) || !isObject(raw.graph)) return undefined;
  const g = raw.graph;
  const service = isObject(g.service) ? g.service : {};
  const ids = new Set<string>();
  const nodes: TraceNode[] = [];
  for (const n of array(g.nodes)) {
    const node = readNode(n);
    if (!node || ids.has(node.id)) continue;
    ids.add(node.id);
    nodes.push(node);
  }
  const edges: TraceEdge[] = [];
  for (const e of array(g.edges)) {
    if (!isObject(e) || typeof e.from !== 'string' || typeof e.to !== 'string') continue;
    if (!ids.has(e.from) || !ids.has(e.to)) continue;
    const status = e.status === 'broken' || e.status === 'conditional' ? e.status : 'ok';
    edges.push({ from: e.from, to: e.to, status, label: typeof e.label === 'string' ? e.label : undefined });
  }
  const graph: TraceGraph = {
    service: { kind: string(service.kind), namespace: string(service.namespace), name: string(service.name) },
    nodes,
    edges,
    broken: g.broken === true,
    packetPath: readPacketPath(g.packetPath),
    ...(typeof g.variant === 'string' && g.variant ? { variant: g.variant } : {}),
    ...readClientSummary(g.client),
  };
  return { graph, mermaid: string(raw.mermaid), text: string(raw.text) };
}

function readNode(n: unknown): TraceNode | undefined {
  if (!isObject(n) || typeof n.id !== 'string' || !isColumn(n.column)) return undefined;
  const kind = typeof n.kind === 'string' && Object.hasOwn(kindCaption, n.kind) ? (n.kind as TraceNode['kind']) : undefined;
  if (!kind) return undefined;
  const findings: TraceFinding[] = array(n.findings)
    .filter(isObject)
    .map((f) => ({
      code: string(f.code),
      severity: f.severity === 'error' || f.severity === 'information' || f.severity === 'hint' ? f.severity : 'warning',
      message: string(f.message),
    }));
  const pods = isObject(n.pods)
    ? {
        count: typeof n.pods.count === 'number' ? n.pods.count : undefined,
        names: array(n.pods.names).filter(isString),
        readinessGated: n.pods.readinessGated !== false,
      }
    : undefined;
  const source =
    isObject(n.source) && typeof n.source.uri === 'string'
      ? { uri: n.source.uri, start: number(n.source.start), end: number(n.source.end), line: number(n.source.line), character: number(n.source.character) }
      : undefined;
  const reach = readReach(n.reach);
  return {
    id: n.id,
    kind,
    column: n.column,
    label: string(n.label),
    detail: array(n.detail).filter(isString),
    status: isStatus(n.status) ? n.status : 'warning',
    findings,
    source,
    pods,
    ...(reach ? { reach } : {}),
  };
}

function readReach(r: unknown): TraceReach | undefined {
  if (!isObject(r) || (r.verdict !== 'allowed' && r.verdict !== 'denied' && r.verdict !== 'unknown')) return undefined;
  return { verdict: r.verdict, text: string(r.text), because: array(r.because).filter(isString) };
}

/** The client a trace is drawn for: its label and verdict are shown; the client itself is kept for the saved state. */
function readClientSummary(c: unknown): { client?: TraceGraph['client'] } {
  const reach = readReach(c);
  if (!reach || !isObject(c) || !isObject(c.client)) return {};
  const k = c.client;
  const client: TraceClient | undefined =
    k.kind === 'external'
      ? { kind: 'external' }
      : k.kind === 'namespace' && isString(k.namespace)
        ? { kind: 'namespace', namespace: k.namespace }
        : k.kind === 'workload' && isString(k.namespace) && isString(k.workloadKind) && isString(k.name)
          ? { kind: 'workload', namespace: k.namespace, workloadKind: k.workloadKind, name: k.name }
          : undefined;
  return client ? { client: { client, label: string(c.label), ...reach } } : {};
}

function readPacketPath(p: unknown): PacketPath | undefined {
  if (!isObject(p)) return undefined;
  return { cni: string(p.cni), sameNode: readHops(p.sameNode), crossNode: readHops(p.crossNode) };
}

function readHops(hops: unknown): PacketHop[] {
  return array(hops)
    .filter(isObject)
    .flatMap((h) =>
      typeof h.zone === 'string' && Object.hasOwn(zoneTitle, h.zone)
        ? [
            {
              id: string(h.id),
              zone: h.zone as PacketHop['zone'],
              label: string(h.label),
              explanation: string(h.explanation),
              ...(h.stop === true ? { stop: true } : {}),
            },
          ]
        : [],
    );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isString(v: unknown): v is string {
  return typeof v === 'string';
}

function array(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}

function string(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function number(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}
