// Places the Service path left to right with ELK's layered algorithm, one layer band per column.
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { TraceColumn, TraceEdge, TraceGraph, TraceNode } from '../../server/src/protocol';
import { type NodeCard, nodeCard } from './nodeCard';
import { displayText } from './displayText';
import { type Font, fitWidth, textWidth } from './measureText';
import { columnOrder } from './vocabulary';

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface PlacedNode {
  readonly node: TraceNode;
  readonly card: NodeCard;
  readonly x: number;
  readonly y: number;
}

export interface PlacedEdge {
  readonly edge: TraceEdge;
  readonly points: readonly Point[];
  readonly label?: { readonly text: string; readonly x: number; readonly y: number; readonly width: number; readonly height: number };
}

/** `RIGHT`: columns left to right (wide panels); `DOWN`: the same columns as rows, top to bottom (narrow panels). */
export type LayoutDirection = 'RIGHT' | 'DOWN';

export interface ServicePathLayout {
  readonly direction: LayoutDirection;
  /**
   * Across only: the top of the band each column sits in. A wide, short panel (a maximized editor on a 1366×768
   * screen) gets the columns in two or three bands stacked top to bottom, each band left to right.
   */
  readonly bandTop: ReadonlyMap<TraceColumn, number>;
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
  readonly width: number;
  readonly height: number;
}

export const edgeLabelFont: Font = { size: 12, weight: 'normal' };
/** Room above the drawing for the column titles. */
export const headerHeight = 28;

// The bundled build runs ELK on the page's own thread: a worker would need a script URL the CSP does not allow.
const elk = new ELK();
/** The last few placements, by geometry: a live update or a resize back and forth asks ELK nothing new. */
const placements = new Map<string, ElkNode>();

/** ELK's first layout pays for compiling its code; doing it while the first trace is still being computed hides that. */
export async function warmUpLayout(): Promise<void> {
  await elk.layout({ id: 'warm', children: [{ id: 'a', width: 10, height: 10 }, { id: 'b', width: 10, height: 10 }], edges: [{ id: 'e', sources: ['a'], targets: ['b'] }] });
}

export interface LayoutOptions {
  /** Top to bottom only: see below. */
  readonly wrapWidth?: number;
  /** Across: the edges' labels between the columns (default true). */
  readonly edgeLabels?: boolean;
  /** Boxes without their one line of detail (the detail pane and the tooltip keep it): for a panel too small otherwise. */
  readonly compact?: boolean;
}

/**
 * `wrapWidth` (top to bottom only): the width, in drawing units, a row may take; a column with more boxes than fit
 * (the entry points of a Service with a node port and Ingress rules) continues on further rows.
 */
export async function layoutServicePath(graph: TraceGraph, direction: LayoutDirection = 'RIGHT', options: LayoutOptions = {}): Promise<ServicePathLayout> {
  const { wrapWidth = Infinity, edgeLabels = true, compact = false } = options;
  const cards = new Map(graph.nodes.map((n) => [n.id, nodeCard(n, compact)] as const));
  const elkIds = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`] as const));
  const partition = partitions(graph, cards, direction === 'DOWN' ? wrapWidth : Infinity);
  const children: ElkNode[] = graph.nodes.map((n) => ({
    id: elkIds.get(n.id)!,
    width: cards.get(n.id)!.width,
    height: cards.get(n.id)!.height,
    // Partitions pin each node to its column: entry → service → proxy → endpoints → port → policy.
    // Left-aligned within their column, so a column of boxes of different widths reads as one column.
    layoutOptions: { 'elk.partitioning.partition': String(partition.get(n.id)), ...(direction === 'RIGHT' ? { 'elk.alignment': 'LEFT' } : {}) },
  }));
  // Top to bottom, edges stay unlabelled: a label widens its row, and the boxes at both ends already say it
  // (the port box reads `80 → http → 8080`); the edge's tooltip and the detail pane keep the text.
  const labels = graph.edges.map((e) => (e.label && direction === 'RIGHT' && edgeLabels ? fitWidth(displayText(e.label, 200), 180, edgeLabelFont) : undefined));
  const edges: ElkExtendedEdge[] = graph.edges.map((e, i) => ({
    id: `e${i}`,
    sources: [elkIds.get(e.from)!],
    targets: [elkIds.get(e.to)!],
    labels: labels[i] ? [{ text: `l${i}`, width: Math.ceil(textWidth(labels[i]!, edgeLabelFont)) + 8, height: 16 }] : [],
  }));
  const graphIn: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': direction,
      'elk.partitioning.activate': 'true',
      // A band can hold boxes whose edges all lead to another band: laid out as components of their own, they would
      // escape their column.
      'elk.separateConnectedComponents': 'false',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.layered.spacing.nodeNodeBetweenLayers': '50',
      'elk.spacing.nodeNode': '22',
      'elk.spacing.edgeNode': '16',
      'elk.spacing.edgeEdge': '8',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.edgeLabels.placement': 'CENTER',
      // Across rows, the gap between layers also holds each row's title.
      ...(direction === 'DOWN' ? { 'elk.layered.spacing.nodeNodeBetweenLayers': '40', 'elk.spacing.nodeNode': '16', 'elk.spacing.edgeLabel': '2', 'elk.layered.nodePlacement.strategy': 'SIMPLE' } : {}),
      'elk.padding': `[top=${headerHeight + 12},left=16,bottom=16,right=16]`,
    },
    children,
    edges,
  };
  // Live updates mostly change text, not shape: the same geometry gets the same placement without asking ELK again.
  const key = JSON.stringify([direction, compact, graph.nodes.length, children.map((c) => [c.width, c.height, c.layoutOptions]), edges.map((e) => [e.sources, e.targets, e.labels])]);
  const root: ElkNode = placements.get(key) ?? await elk.layout(graphIn);
  placements.delete(key);
  placements.set(key, root);
  if (placements.size > 12) placements.delete(placements.keys().next().value!);
  const byElkId = new Map((root.children ?? []).map((c) => [c.id, c] as const));
  const nodes: PlacedNode[] = graph.nodes.map((n) => {
    const placed = byElkId.get(elkIds.get(n.id)!);
    return { node: n, card: cards.get(n.id)!, x: placed?.x ?? 0, y: placed?.y ?? 0 };
  });
  const laidEdges = new Map((root.edges ?? []).map((x) => [x.id, x as ElkExtendedEdge] as const));
  const placedEdges: PlacedEdge[] = graph.edges.map((e, i) => {
    const laid = laidEdges.get(`e${i}`);
    const section = laid?.sections?.[0];
    const points = section ? [section.startPoint, ...(section.bendPoints ?? []), section.endPoint] : [];
    const l = laid?.labels?.[0];
    const label = labels[i] && l ? { text: labels[i]!, x: l.x ?? 0, y: l.y ?? 0, width: l.width ?? 0, height: l.height ?? 0 } : undefined;
    return { edge: e, points, label };
  });
  return { direction, bandTop: new Map(), nodes, edges: placedEdges, width: Math.ceil(root.width ?? 0), height: Math.ceil(root.height ?? 0) };
}

/** One partition per column, or, when a row would be wider than `wrapWidth`, several consecutive ones per column. */
function partitions(graph: TraceGraph, cards: ReadonlyMap<string, NodeCard>, wrapWidth: number): Map<string, number> {
  const out = new Map<string, number>();
  const gap = 16;
  let next = 0;
  for (const column of columnOrder) {
    const nodes = graph.nodes.filter((n) => n.column === column);
    if (!nodes.length) continue;
    let used = 0;
    for (const n of nodes) {
      const w = cards.get(n.id)!.width;
      if (used > 0 && used + gap + w > wrapWidth) {
        next++;
        used = 0;
      }
      used += (used ? gap : 0) + w;
      out.set(n.id, next);
    }
    next++;
  }
  return out;
}

/** Between two bands: room for the lower band's column titles and the edges that pass from one band to the next. */
const bandGap = 16;
/** Of the bottom padding every ELK layout has (16), what a band keeps above the gap to the next. */
const bandBottomPadding = 8;
const columnGap = 50;

/** The columns (in drawing order) that hold nodes. */
export function drawnColumns(graph: TraceGraph): TraceColumn[] {
  return columnOrder.filter((c) => graph.nodes.some((n) => n.column === c));
}

/**
 * The columns cut into `bands` consecutive groups so that, stacked top to bottom, they fit a `w`×`h` canvas at the
 * largest zoom, estimated from the boxes' sizes alone (ELK then places each band). Undefined when there are fewer columns.
 */
export function bandsFor(graph: TraceGraph, bands: number, w: number, h: number, compact = false): TraceColumn[][] | undefined {
  const columns = drawnColumns(graph).map((column) => {
    const cards = graph.nodes.filter((n) => n.column === column).map((n) => nodeCard(n, compact));
    return {
      column,
      width: Math.max(...cards.map((c) => c.width)),
      height: cards.reduce((sum, c) => sum + c.height, 0) + 22 * (cards.length - 1),
    };
  });
  if (columns.length < bands) return undefined;
  let best: { cuts: number[]; scale: number } | undefined;
  const consider = (cuts: number[]) => {
    const starts = [0, ...cuts];
    const ends = [...cuts, columns.length];
    let width = 0;
    let height = 0;
    starts.forEach((from, i) => {
      const band = columns.slice(from, ends[i]);
      width = Math.max(width, band.reduce((sum, c) => sum + c.width, 0) + columnGap * (band.length - 1) + 32);
      height += Math.max(...band.map((c) => c.height)) + headerHeight + 12 + (i ? bandGap + bandBottomPadding : 16);
    });
    const scale = Math.min(w / width, h / height);
    if (!best || scale > best.scale) best = { cuts, scale };
  };
  const choose = (from: number, left: number, cuts: number[]) => {
    if (left === 0) return consider(cuts);
    for (let c = from; c <= columns.length - left; c++) choose(c + 1, left - 1, [...cuts, c]);
  };
  choose(1, bands - 1, []);
  const starts = [0, ...best!.cuts];
  const ends = [...best!.cuts, columns.length];
  return starts.map((from, i) => columns.slice(from, ends[i]).map((c) => c.column));
}

/**
 * The path left to right in bands stacked top to bottom: each band is laid out by ELK on its own (without edge
 * labels: the boxes at both ends say it, the tooltip and detail pane keep the text); an edge from one band to a later
 * one leaves its box to the right, runs down the gap after the box's column and along the gap between the bands, and
 * enters its target from the left.
 */
export async function layoutBands(graph: TraceGraph, bands: readonly (readonly TraceColumn[])[], compact = false): Promise<ServicePathLayout> {
  const bandOf = new Map<string, number>();
  for (const n of graph.nodes) bandOf.set(n.id, bands.findIndex((b) => b.includes(n.column)));
  const nodes: PlacedNode[] = [];
  const placedEdges = new Map<TraceEdge, PlacedEdge>();
  const bandTop = new Map<TraceColumn, number>();
  const bandBottom: number[] = [];
  let top = 0;
  let width = 0;
  for (let b = 0; b < bands.length; b++) {
    const ids = new Set(graph.nodes.filter((n) => bandOf.get(n.id) === b).map((n) => n.id));
    const sub: TraceGraph = { ...graph, nodes: graph.nodes.filter((n) => ids.has(n.id)), edges: graph.edges.filter((e) => ids.has(e.from) && ids.has(e.to)) };
    const laid = await layoutServicePath(sub, 'RIGHT', { edgeLabels: false, compact });
    for (const p of laid.nodes) nodes.push({ ...p, y: p.y + top });
    for (const e of laid.edges) placedEdges.set(e.edge, { ...e, points: e.points.map((pt) => ({ x: pt.x, y: pt.y + top })) });
    for (const c of bands[b]) bandTop.set(c, top);
    width = Math.max(width, laid.width);
    top += laid.height - (b < bands.length - 1 ? 16 - bandBottomPadding : 0);
    bandBottom.push(top);
    top += bandGap;
  }
  const height = top - bandGap;
  const byId = new Map(nodes.map((p) => [p.node.id, p] as const));
  // The right edge of each column, so an edge leaving a column runs down the gap after it, clear of every box.
  const columnRight = new Map<TraceColumn, number>();
  for (const p of nodes) columnRight.set(p.node.column, Math.max(columnRight.get(p.node.column) ?? 0, p.x + p.card.width));
  const crossing = graph.edges.filter((e) => !placedEdges.has(e));
  crossing.forEach((e, i) => {
    const from = byId.get(e.from);
    const to = byId.get(e.to);
    if (!from || !to) return;
    const y1 = from.y + from.card.height / 2;
    const yt = to.y + to.card.height / 2;
    const xc = (columnRight.get(from.node.column) ?? from.x + from.card.width) + 14 + 4 * (i % 3);
    const b = bandOf.get(e.from)!;
    const yg = bandBottom[b] + bandGap / 2 - 4 + 4 * (i % 3);
    const xl = Math.max(4, to.x - 10 - 2 * (i % 3));
    const points = [{ x: from.x + from.card.width, y: y1 }, { x: xc, y: y1 }, { x: xc, y: yg }, { x: xl, y: yg }, { x: xl, y: yt }, { x: to.x, y: yt }];
    placedEdges.set(e, { edge: e, points });
  });
  const edges = graph.edges.map((e) => placedEdges.get(e) ?? { edge: e, points: [] });
  // An edge leaving the last column of the widest band runs right of it: the drawing includes it.
  for (const e of edges) for (const pt of e.points) width = Math.max(width, pt.x + 8);
  return { direction: 'RIGHT', bandTop, nodes, edges, width: Math.ceil(width), height: Math.ceil(height) };
}
