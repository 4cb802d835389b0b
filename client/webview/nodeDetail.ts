// The detail pane: everything known about the selected node, in full sentences, with a way to open its YAML.
import type { TraceGraph, TraceNode } from '../../server/src/protocol';
import { displayText } from './displayText';
import { clear, htmlEl } from './dom';
import { edgeWord, kindCaption, statusMarker } from './vocabulary';
import { fill, words } from './words';

export function showNodeDetail(pane: HTMLElement, graph: TraceGraph, node: TraceNode | undefined, reveal: (node: TraceNode) => void): void {
  clear(pane);
  if (!node) {
    htmlEl('p', { class: 'hint' }, pane, words.detail.hint);
    return;
  }
  writeNodeFacts(pane, graph, node, 'h2');
  if (node.source) {
    const button = htmlEl('button', { type: 'button', class: 'reveal' }, pane, words.detail.open);
    button.addEventListener('click', () => reveal(node));
  }
}

/** Shared by the detail pane and the list view, so both say the same thing about a node. */
export function writeNodeFacts(parent: HTMLElement, graph: TraceGraph, node: TraceNode, heading: 'h2' | 'h3'): void {
  const mark = statusMarker[node.status];
  // A label that already says what the node is ("No endpoints") is not prefixed with its kind again.
  const caption = kindCaption[node.kind];
  const title = node.label.toLowerCase().startsWith(caption.toLowerCase()) ? node.label : fill(words.detail.title, caption, node.label);
  htmlEl(heading, { class: 'node-title' }, parent, displayText(title, 300));
  htmlEl('p', { class: `status-line status-${node.status}` }, parent, `${mark.symbol} ${words.statusLine[node.status]}`);
  if (node.findings.length) {
    const ul = htmlEl('ul', { class: 'findings', 'aria-label': words.detail.findings }, parent);
    for (const f of node.findings) {
      const li = htmlEl('li', { class: `finding finding-${f.severity === 'error' ? 'error' : 'warning'}` }, ul);
      htmlEl('span', { class: 'finding-mark' }, li, f.severity === 'error' ? words.detail.error : words.detail.warning);
      htmlEl('span', {}, li, ` ${displayText(f.message)} `);
      if (f.code) htmlEl('code', {}, li, displayText(f.code, 100));
    }
  }
  if (node.pods) {
    const n = node.pods.count ?? node.pods.names.length;
    const gate = node.pods.readinessGated ? words.detail.readyOnly : words.detail.notReadyToo;
    htmlEl('p', { class: 'pods' }, parent, fill(n === 1 ? words.detail.pod : words.detail.pods, n, gate));
    if (node.pods.names.length) {
      const shown = node.pods.names.slice(0, 50).map((s) => displayText(s, 100));
      const rest = node.pods.names.length - shown.length;
      htmlEl(
        'p',
        { class: 'pod-names' },
        parent,
        rest > 0 ? fill(words.detail.stableNamesMore, shown.join(', '), rest) : fill(words.detail.stableNames, shown.join(', ')),
      );
    }
  }
  if (node.detail.length) {
    const ul = htmlEl('ul', { class: 'details' }, parent);
    for (const d of node.detail) htmlEl('li', {}, ul, displayText(d, 1000));
  }
  const labelOf = new Map(graph.nodes.map((n) => [n.id, n.label] as const));
  const out = graph.edges.filter((e) => e.from === node.id);
  if (out.length) {
    const ul = htmlEl('ul', { class: 'leads-to', 'aria-label': words.detail.leadsTo }, parent);
    for (const e of out) {
      const li = htmlEl('li', { class: `edge-${e.status}` }, ul);
      li.textContent = displayText(`→ ${labelOf.get(e.to)}${e.label ? ` (${e.label})` : ''}: ${edgeWord[e.status]}`, 1000);
    }
  }
  if (node.source) {
    const file = node.source.uri.split('/').pop() ?? node.source.uri;
    htmlEl('p', { class: 'source' }, parent, fill(words.detail.definedIn, displayText(decodeSafely(file), 300), node.source.line + 1));
  }
}

function decodeSafely(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
