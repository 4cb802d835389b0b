// Draws the laid-out Service path as SVG: column titles, edges (broken ones dashed), and focusable node boxes.
import type { TraceNode } from '../../server/src/protocol';
import { displayText } from './displayText';
import { svgEl } from './dom';
import { cardPadding } from './nodeCard';
import { type ServicePathLayout, headerHeight } from './layoutServicePath';
import { columnOrder, columnTitle, edgeWord, kindCaption, statusMarker } from './vocabulary';
import { fill, words } from './words';

export interface ServicePathDrawing {
  readonly svg: SVGSVGElement;
  /** The group that zoom and pan transform. */
  readonly viewport: SVGGElement;
  /** Node boxes in reading order (column by column, top to bottom). */
  readonly nodeElements: ReadonlyMap<string, SVGGElement>;
}

export interface NodeHandlers {
  /** Double-click or Enter: open the node's YAML. */
  readonly open: (node: TraceNode) => void;
  /** Space or keyboard focus: show its details. */
  readonly select: (node: TraceNode) => void;
  /** A click: select it, and show the details if they are hidden. */
  readonly click: (node: TraceNode) => void;
}

export function drawServicePath(layout: ServicePathLayout, title: string, handlers: NodeHandlers): ServicePathDrawing {
  const svg = svgEl('svg', {
    class: 'trace-svg',
    xmlns: 'http://www.w3.org/2000/svg',
    role: 'group',
    'aria-label': fill(words.canvas.drawing, title),
    'data-width': layout.width,
    'data-height': layout.height,
  });
  drawArrowHeads(svg);
  const viewport = svgEl('g', { class: 'viewport', 'data-viewport': 'true' }, svg);
  drawColumnTitles(layout, viewport);
  const labelOf = new Map(layout.nodes.map((p) => [p.node.id, p.node.label] as const));
  const edgeGroup = svgEl('g', { class: 'edges' }, viewport);
  for (const placed of layout.edges) {
    if (placed.points.length < 2) continue;
    const { edge } = placed;
    const g = svgEl('g', { class: `edge edge-${edge.status}`, 'data-from': edge.from, 'data-to': edge.to }, edgeGroup);
    svgEl(
      'title',
      {},
      g,
      displayText(`${labelOf.get(edge.from)} → ${labelOf.get(edge.to)}: ${edgeWord[edge.status]}${edge.label ? ` (${edge.label})` : ''}`, 500),
    );
    const d = placed.points.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
    svgEl('path', { class: 'edge-line', d, 'marker-end': `url(#kn-arrow-${edge.status})` }, g);
    if (placed.label) {
      const { x, y, width, height } = placed.label;
      svgEl('rect', { class: 'edge-label-bg', x, y, width, height, rx: 3 }, g);
      svgEl('text', { class: 'edge-label', x: x + width / 2, y: y + height - 4, 'text-anchor': 'middle' }, g, placed.label.text);
    }
  }
  const nodeGroup = svgEl('g', { class: 'nodes' }, viewport);
  const nodeElements = new Map<string, SVGGElement>();
  const reading = [...layout.nodes].sort((a, b) => columnOrder.indexOf(a.node.column) - columnOrder.indexOf(b.node.column) || a.y - b.y);
  for (const placed of reading) {
    const g = drawNode(placed.node, placed.card, placed.x, placed.y, nodeGroup);
    g.addEventListener('click', () => handlers.click(placed.node));
    g.addEventListener('dblclick', () => handlers.open(placed.node));
    g.addEventListener('focus', () => handlers.select(placed.node));
    g.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Enter' && ev.key !== ' ') return;
      ev.preventDefault();
      if (ev.key === 'Enter') handlers.open(placed.node);
      else handlers.select(placed.node);
    });
    nodeElements.set(placed.node.id, g);
  }
  return { svg, viewport, nodeElements };
}

/** A sentence a screen reader speaks for a node: what it is, whether traffic passes, and what is wrong. */
export function describeNode(node: TraceNode): string {
  const findings = node.findings.map((f) => fill(words.detail.title, words.severity[f.severity], f.message)).join('; ');
  const status = statusMarker[node.status].word;
  // A label that already says what the node is ("No endpoints") is not prefixed with its kind again.
  const name = kindCaption[node.kind] === node.label ? node.label : `${kindCaption[node.kind]} ${node.label}`;
  const said = node.pods ? fill(words.describe.nodeWithPods, name, node.pods.count ?? node.pods.names.length, status) : fill(words.describe.node, name, status);
  return displayText(`${said}${findings ? ` ${/[.。!?！？]$/.test(findings) ? findings : `${findings}.`}` : ''}`, 600);
}

function drawNode(node: TraceNode, card: ServicePathLayout['nodes'][number]['card'], x: number, y: number, parent: SVGGElement): SVGGElement {
  const g = svgEl(
    'g',
    {
      class: `node status-${node.status} kind-${node.kind}${node.source ? ' has-source' : ''}`,
      transform: `translate(${x} ${y})`,
      tabindex: 0,
      role: 'button',
      'aria-label': describeNode(node),
      'data-node-id': node.id,
    },
    parent,
  );
  const tooltip = [node.label, ...node.detail, ...node.findings.map((f) => `${f.severity === 'error' ? '✖' : '⚠'} ${f.message}`)].join('\n');
  svgEl('title', {}, g, displayText(tooltip, 2000));
  svgEl('rect', { class: 'focus-ring', x: -4, y: -4, width: card.width + 8, height: card.height + 8, rx: 9 }, g);
  svgEl('rect', { class: 'node-box', width: card.width, height: card.height, rx: 6 }, g);
  // A coloured bar on the left repeats the status for a quick scan; the caption symbol says it without colour.
  svgEl('rect', { class: 'status-bar', width: 5, height: card.height, rx: 2 }, g);
  let lineY = cardPadding - 2;
  for (const line of card.lines) {
    lineY += line.height;
    svgEl('text', { class: `line line-${line.role}`, x: cardPadding, y: lineY - 4 }, g, line.text);
  }
  if (node.findings.length) {
    const worst = node.findings.some((f) => f.severity === 'error') ? 'error' : 'warning';
    const marker = svgEl('g', { class: `finding-marker finding-${worst}`, transform: `translate(${card.width} 0)` }, g);
    svgEl('title', {}, marker, displayText(node.findings.map((f) => f.message).join('\n'), 2000));
    svgEl('circle', { r: 10 }, marker);
    svgEl('text', { 'text-anchor': 'middle', y: 4 }, marker, node.findings.length > 1 ? String(node.findings.length) : '!');
  }
  return g;
}

/** Across: each column's title above it (above its band's top, in bands). Down: each row's title just above its first box. */
function drawColumnTitles(layout: ServicePathLayout, parent: SVGGElement): void {
  const group = svgEl('g', { class: 'column-titles', 'aria-hidden': 'true' }, parent);
  if (!layout.titles) return;
  for (const column of columnOrder) {
    const placed = layout.nodes.filter((p) => p.node.column === column);
    if (!placed.length) continue;
    const x = layout.titleX?.get(column) ?? Math.min(...placed.map((p) => p.x));
    const y = layout.direction === 'DOWN' ? Math.min(...placed.map((p) => p.y)) - 8 : (layout.bandTop.get(column) ?? 0) + headerHeight;
    svgEl('text', { class: 'column-title', x, y }, group, columnTitle[column]);
  }
}

function drawArrowHeads(svg: SVGSVGElement): void {
  const defs = svgEl('defs', {}, svg);
  for (const status of ['ok', 'conditional', 'broken'] as const) {
    const marker = svgEl(
      'marker',
      {
        id: `kn-arrow-${status}`,
        class: `arrow arrow-${status}`,
        viewBox: '0 0 10 10',
        refX: 9,
        refY: 5,
        markerWidth: 7,
        markerHeight: 7,
        orient: 'auto-start-reverse',
      },
      defs,
    );
    svgEl('path', { d: 'M0 0 L10 5 L0 10 z' }, marker);
  }
}
