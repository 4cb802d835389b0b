// A trace graph as a readable indented tree: for the CLI, exports and screen readers.

import { messages, type Msg } from '../l10n/l10n';
import type { TraceEdge, TraceGraph, TraceNode } from '../protocol';

function statusMark(status: TraceNode['status'], msg: Msg): string {
  return status === 'conditional' ? ` ${msg('(conditional)')}` : status === 'warning' ? ` ${msg('[warning]')}` : status === 'error' ? ` ${msg('[error]')}` : '';
}
/** Node labels name the object; in plain text, the kinds a name alone does not tell are said before it. */
const kindWord: Partial<Record<TraceNode['kind'], string>> = {
  service: 'Service ',
  'external-name': 'ExternalName Service ',
  'network-policy': 'NetworkPolicy ',
};

export function traceToText(graph: TraceGraph, msg: Msg = messages(undefined)): string {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const head = `${graph.service.kind} ${graph.service.namespace}/${graph.service.name}`;
  const out: string[] = [graph.broken ? msg('{0}: no request can reach a pod', head) : head];
  // A trace for a chosen client says first whether its connections get through, and the rules that decide.
  if (graph.client) out.push(msg('Client: {0}', graph.client.text), ...graph.client.because.map((b) => `  ${b}`));
  // A Service's graph has its own path below; a Gateway's goes from each backendRef on to the Service it names.
  const start = byId.get('service');
  const outgoing = new Map<string, TraceEdge[]>();
  for (const e of graph.edges) outgoing.set(e.from, [...(outgoing.get(e.from) ?? []), e]);
  const entries = graph.nodes.filter((n) => n.column === 'entry' && n.kind !== 'backend-ref');
  if (entries.length) {
    out.push('', msg('Callers:'));
    for (const n of entries) writeNode(out, n, '  ', msg);
  }
  // Gateway semantics §G9: listener → route rule → backendRef, then the Service path below.
  const heads = graph.nodes.filter((n) => n.column === 'listener' || (n.column === 'route' && !graph.edges.some((e) => e.to === n.id)));
  if (heads.length) {
    out.push('', graph.service.kind === 'Gateway' ? msg('Listeners:') : msg('Through Gateways:'));
    const shown = new Set<string>();
    const walkEntry = (n: TraceNode, indent: string, via?: TraceEdge) => {
      if (shown.has(n.id)) {
        out.push(`${indent}${arrowOf(via)}${msg('{0} (as above)', n.label)}`);
        return;
      }
      shown.add(n.id);
      writeNode(out, n, indent, msg, via);
      if (n.kind === 'backend-ref' && start) return;
      for (const e of outgoing.get(n.id) ?? []) {
        const next = byId.get(e.to);
        if (next) walkEntry(next, `${indent}  `, e);
      }
    };
    for (const n of heads) walkEntry(n, '  ');
  }
  if (start) {
    out.push('', msg('Path:'));
    const seen = new Set<string>();
    const walk = (n: TraceNode, indent: string, via?: TraceEdge) => {
      writeNode(out, n, indent, msg, via);
      if (seen.has(n.id)) return;
      seen.add(n.id);
      for (const e of outgoing.get(n.id) ?? []) {
        const next = byId.get(e.to);
        if (next) walk(next, `${indent}  `, e);
      }
    };
    walk(start, '  ');
  }
  if (graph.packetPath) {
    const { cni } = graph.packetPath;
    for (const [title, hops] of [
      [msg('Packet path, same node ({0}):', cni), graph.packetPath.sameNode],
      [msg('Packet path, across nodes ({0}):', cni), graph.packetPath.crossNode],
    ] as const) {
      out.push('', title);
      hops.forEach((h, i) => out.push(`  ${i + 1}. ${msg('{0}: {1}', h.label, h.explanation)}`));
    }
  }
  return out.join('\n') + '\n';
}

function writeNode(out: string[], n: TraceNode, indent: string, msg: Msg, via?: TraceEdge): void {
  out.push(`${indent}${arrowOf(via)}${kindWord[n.kind] ?? ''}${n.label}${statusMark(n.status, msg)}`);
  for (const d of n.detail) out.push(`${indent}    ${d}`);
  for (const f of n.findings) out.push(`${indent}    ${f.severity} ${f.code}: ${f.message}`);
}

function arrowOf(via: TraceEdge | undefined): string {
  return via ? `${via.status === 'broken' ? '-x->' : via.status === 'conditional' ? '-?->' : '-->'}${via.label ? ` [${via.label}]` : ''} ` : '';
}
