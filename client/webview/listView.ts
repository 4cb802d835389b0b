// The text alternative to the drawing: the same path as headed lists, column by column, for screen readers and keyboard users.
import type { TraceGraph, TraceNode } from '../../server/src/protocol';
import { clear, htmlEl } from './dom';
import { writeNodeFacts } from './nodeDetail';
import { columnOrder, columnTitle } from './vocabulary';
import { words } from './words';

export function showListView(container: HTMLElement, graph: TraceGraph, reveal: (node: TraceNode) => void): void {
  clear(container);
  let shown = 0;
  for (const column of columnOrder) {
    const nodes = graph.nodes.filter((n) => n.column === column);
    if (!nodes.length) continue;
    const section = htmlEl('section', { class: 'list-column', 'data-column': column }, container);
    htmlEl('h2', {}, section, `${++shown}. ${columnTitle[column]}`);
    const ol = htmlEl('ol', {}, section);
    for (const node of nodes) {
      const li = htmlEl('li', { class: `list-node status-${node.status}`, 'data-node-id': node.id }, ol);
      writeNodeFacts(li, graph, node, 'h3');
      if (node.source) {
        const button = htmlEl('button', { type: 'button', class: 'reveal' }, li, words.detail.open);
        button.addEventListener('click', () => reveal(node));
      }
    }
  }
}
