// A trace graph as a Mermaid `flowchart LR` a README can embed. Labels come from users' YAML, so every label is
// quoted and characters that could end the quote or open markup are written as entity codes. The column titles are in
// the reader's language (Chinese needs no other quoting: a quoted label takes any Unicode text); ids stay ASCII.

import { type Msg, messages } from '../l10n/l10n';
import type { TraceGraph, TraceNode } from '../protocol';

function columnsOf(msg: Msg): readonly { readonly id: TraceNode['column']; readonly title: string }[] {
  return [
    { id: 'listener', title: msg('Gateway listeners') },
    { id: 'route', title: msg('Route rules') },
    { id: 'entry', title: msg('Callers') },
    { id: 'service', title: msg('Service') },
    { id: 'proxy', title: msg('kube-proxy') },
    { id: 'endpoints', title: msg('Pods') },
    { id: 'port', title: msg('Container ports') },
    { id: 'policy', title: msg('NetworkPolicies') },
  ];
}

export function traceToMermaid(graph: TraceGraph, msg: Msg = messages(undefined)): string {
  const columns = columnsOf(msg);
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  const out = ['flowchart LR'];
  for (const col of columns) {
    const members = graph.nodes.filter((n) => n.column === col.id);
    if (!members.length) continue;
    out.push(`  subgraph ${col.id}["${escapeLabel(col.title)}"]`);
    for (const n of members) out.push(`    ${ids.get(n.id)}${shape(n, escapeLabel(n.label))}`);
    out.push('  end');
  }
  graph.edges.forEach((e) => {
    const from = ids.get(e.from);
    const to = ids.get(e.to);
    if (!from || !to) return;
    const arrow = e.status === 'broken' ? '-.->' : e.status === 'conditional' ? '-.->' : '-->';
    const label = e.status === 'broken' ? `✗ ${e.label ?? msg('broken')}` : e.label;
    out.push(`  ${from} ${arrow}${label ? `|"${escapeLabel(label)}"|` : ''} ${to}`);
  });
  out.push(
    '  classDef error fill:#fde2e1,stroke:#c62828,color:#000;',
    '  classDef warning fill:#fff4d6,stroke:#b26a00,color:#000;',
    '  classDef conditional stroke-dasharray:4 3;',
  );
  for (const status of ['error', 'warning', 'conditional'] as const) {
    const members = graph.nodes.filter((n) => n.status === status).map((n) => ids.get(n.id));
    if (members.length) out.push(`  class ${members.join(',')} ${status};`);
  }
  let brokenIndex = 0;
  const broken: number[] = [];
  for (const e of graph.edges) {
    if (!ids.has(e.from) || !ids.has(e.to)) continue;
    if (e.status === 'broken') broken.push(brokenIndex);
    brokenIndex++;
  }
  if (broken.length) out.push(`  linkStyle ${broken.join(',')} stroke:#c62828,color:#c62828;`);
  return out.join('\n') + '\n';
}

function shape(n: TraceNode, label: string): string {
  switch (n.column) {
    case 'entry':
      return `(["${label}"])`;
    case 'policy':
      return `{{"${label}"}}`;
    case 'service':
      return `[["${label}"]]`;
    default:
      return `["${label}"]`;
  }
}

/** Inside a quoted Mermaid label only entity codes are safe for quotes, brackets, pipes and markup. */
export function escapeLabel(s: string): string {
  return s
    .replace(/[\r\n]+/g, ' ')
    .replace(/#/g, '#35;')
    .replace(/&/g, '#amp;')
    .replace(/"/g, '#quot;')
    .replace(/</g, '#lt;')
    .replace(/>/g, '#gt;')
    .replace(/\|/g, '#124;')
    .replace(/[[\]{}()`]/g, (c) => `#${c.charCodeAt(0)};`);
}
