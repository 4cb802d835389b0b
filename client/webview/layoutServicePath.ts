// Places the Service path left to right with ELK's layered algorithm, one layer band per column.
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { TraceColumn, TraceEdge, TraceGraph, TraceNode } from '../../server/src/protocol';
import { type CardDensity, type NodeCard, nodeCard } from './nodeCard';
import { displayText } from './displayText';
import { type Font, fitWidth, textWidth } from './measureText';
import { type Box, cornerMargin, endGap, laneGap, separateEdges } from './separateEdges';
import { columnOrder, columnTitle } from './vocabulary';

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
  /** False in the tightest layouts: each box's caption already names its kind, so the column titles are left out. */
  readonly titles: boolean;
  /** In bands: where each column's title starts (a column that goes on in the next band has it over its first part). */
  readonly titleX?: ReadonlyMap<TraceColumn, number>;
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
  readonly width: number;
  readonly height: number;
}

export const edgeLabelFont: Font = { size: 12, weight: 'normal' };
const columnTitleFont: Font = { size: 12, weight: 'bold' };
/** Room above the drawing for the column titles. */
export const headerHeight = 28;

// The bundled build runs ELK on the page's own thread: a worker would need a script URL the CSP does not allow.
const elk = new ELK();
/** The last few placements, by geometry: a live update or a resize back and forth asks ELK nothing new. */
const placements = new Map<string, ElkNode>();

/** ELK's first layout pays for compiling its code; doing it while the first trace is still being computed hides that. */
export async function warmUpLayout(): Promise<void> {
  await elk.layout({
    id: 'warm',
    children: [
      { id: 'a', width: 10, height: 10 },
      { id: 'b', width: 10, height: 10 },
    ],
    edges: [{ id: 'e', sources: ['a'], targets: ['b'] }],
  });
}

export interface LayoutOptions {
  /** Top to bottom only: see below. */
  readonly wrapWidth?: number;
  /** Across: the edges' labels between the columns (default true). */
  readonly edgeLabels?: boolean;
  /** How much each box shows (see `CardDensity`): less, for a panel too small otherwise. */
  readonly density?: CardDensity;
  /**
   * Across only: a column whose boxes are laid out as a grid of this many sub-columns (box i in sub-column i mod n),
   * so a column of many entries takes the width of a narrow panel rather than its height.
   */
  readonly grid?: ReadonlyMap<TraceColumn, number>;
  /** Room above the drawing for the column titles (default true). */
  readonly titles?: boolean;
  /** Room left of the first column (default 16): in bands, for the lanes of the edges from an earlier band. */
  readonly leftPadding?: number;
  /** The least gap between columns (default: by density): in bands, room for the lanes of edges to other bands. */
  readonly layerGap?: number;
}

/**
 * A node's box, tall enough for each edge of `graph` that leaves it (or enters it) to do so at a place of its own,
 * `endGap` apart: edges that share a place on a box run along the same line. In bands, `graph` is one band's: the
 * edges to other bands are not counted (kube-proxy before twenty endpoint groups in the next band keeps its height,
 * and those edges still share lines).
 */
function cardOf(graph: TraceGraph, node: TraceNode, density: CardDensity): NodeCard {
  const card = nodeCard(node, density);
  const ends = Math.max(graph.edges.filter((e) => e.from === node.id).length, graph.edges.filter((e) => e.to === node.id).length);
  const height = 2 * cornerMargin + endGap * (ends - 1);
  return height > card.height ? { ...card, height } : card;
}

/** The gaps ELK keeps, in drawing units: between columns (layers), and between boxes of one column. */
function spacing(density: CardDensity): { layer: number; node: number } {
  return density === 'tight' ? { layer: 30, node: 14 } : { layer: 50, node: 22 };
}

/**
 * `wrapWidth` (top to bottom only): the width, in drawing units, a row may take; a column with more boxes than fit
 * (the entry points of a Service with a node port and Ingress rules) continues on further rows.
 */
export async function layoutServicePath(graph: TraceGraph, direction: LayoutDirection = 'RIGHT', options: LayoutOptions = {}): Promise<ServicePathLayout> {
  const { wrapWidth = Infinity, edgeLabels = true, density = 'full', grid, titles = true, leftPadding = 16 } = options;
  const gaps = { ...spacing(density), ...(options.layerGap ? { layer: Math.max(options.layerGap, spacing(density).layer) } : {}) };
  const cards = new Map(graph.nodes.map((n) => [n.id, cardOf(graph, n, density)] as const));
  const elkIds = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`] as const));
  const partition = partitions(graph, cards, direction === 'DOWN' ? wrapWidth : Infinity, direction === 'RIGHT' ? grid : undefined);
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
      'elk.layered.spacing.nodeNodeBetweenLayers': String(gaps.layer),
      'elk.spacing.nodeNode': String(gaps.node),
      'elk.spacing.edgeNode': '16',
      'elk.spacing.edgeEdge': '8',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.edgeLabels.placement': 'CENTER',
      // Across rows, the gap between layers also holds each row's title.
      ...(direction === 'DOWN'
        ? {
            'elk.layered.spacing.nodeNodeBetweenLayers': '40',
            'elk.spacing.nodeNode': '16',
            'elk.spacing.edgeLabel': '2',
            'elk.layered.nodePlacement.strategy': 'SIMPLE',
          }
        : {}),
      'elk.padding': `[top=${bandTopPadding(titles)},left=${leftPadding},bottom=16,right=16]`,
    },
    children,
    edges,
  };
  // Live updates mostly change text, not shape: the same geometry gets the same placement without asking ELK again.
  const key = JSON.stringify([
    direction,
    density,
    titles,
    leftPadding,
    gaps.layer,
    graph.nodes.length,
    children.map((c) => [c.width, c.height, c.layoutOptions]),
    edges.map((e) => [e.sources, e.targets, e.labels]),
  ]);
  const root: ElkNode = placements.get(key) ?? (await elk.layout(graphIn));
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
  const edgesApart = apart(placedEdges, nodes, [], 2);
  return { direction, bandTop: new Map(), titles, nodes, edges: edgesApart, width: Math.ceil(root.width ?? 0), height: Math.ceil(root.height ?? 0) };
}

/** The edges with those that would run along the same line as another edge's (between other boxes) on lanes of their own. */
function apart(edges: readonly PlacedEdge[], nodes: readonly PlacedNode[], obstacles: readonly Box[], minX: number): PlacedEdge[] {
  const boxes = new Map<string, Box>(nodes.map((p) => [p.node.id, { x: p.x, y: p.y, width: p.card.width, height: p.card.height }] as const));
  const routed = separateEdges(
    edges.map((e) => ({ from: e.edge.from, to: e.edge.to, points: e.points })),
    boxes,
    [...boxes.values(), ...obstacles],
    { minX, minY: 2 },
  );
  return edges.map((e, i) => (e.points.length ? { ...e, points: routed[i] } : e));
}

/**
 * One partition per column, or several consecutive ones per column: when a row would be wider than `wrapWidth`
 * (top to bottom), or as many as `grid` says for the column (across).
 */
function partitions(graph: TraceGraph, cards: ReadonlyMap<string, NodeCard>, wrapWidth: number, grid?: ReadonlyMap<TraceColumn, number>): Map<string, number> {
  const out = new Map<string, number>();
  const gap = 16;
  let next = 0;
  for (const column of columnOrder) {
    const nodes = graph.nodes.filter((n) => n.column === column);
    if (!nodes.length) continue;
    const across = Math.min(nodes.length, grid?.get(column) ?? 1);
    if (across > 1) {
      nodes.forEach((n, i) => out.set(n.id, next + (i % across)));
      next += across;
      continue;
    }
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
/** Right of a band's last column: room for the edges that leave it for a later band. */
const edgeRoom = 24;

/** The columns (in drawing order) that hold nodes. */
export function drawnColumns(graph: TraceGraph): TraceColumn[] {
  return columnOrder.filter((c) => graph.nodes.some((n) => n.column === c));
}

/** How the path is cut into bands stacked top to bottom, which columns are grids, and what each box shows. */
export interface BandPlan {
  /**
   * The node ids of each band, in drawing order: consecutive columns, and a column with more boxes than fit may go
   * on in the next band (its boxes stay in order).
   */
  readonly bands: readonly (readonly string[])[];
  /** Per band: the column laid out as a grid, and its number of sub-columns (a band of one column only). */
  readonly grid: readonly (readonly [TraceColumn, number][])[];
  readonly density: CardDensity;
  readonly titles: boolean;
  /** The zoom at which the drawing would fit the canvas, estimated from the boxes' sizes alone (ELK then places them). */
  readonly scale: number;
}

/** The most sub-columns a column's grid is given. */
const maxGrid = 4;
/** A column that goes on in the next band reads less easily: the plan counts it as this much more height. */
const splitCost = 40;

/**
 * Cuts of the path into bands that show it largest in a `w`×`h` canvas, estimated from the boxes' sizes alone; best
 * first. For each width the drawing may take (down to the one that still fits at `minScale`, the readable zoom), the
 * boxes in drawing order are cut into consecutive bands of the least total height whose every band fits that width
 * (dynamic programming over the cut points). A band of one column can be a grid of up to 4 sub-columns, the one of
 * least height that fits (only alone: ELK would route the edges to and from a grid's inner sub-columns through the
 * others). Titles are left out with `tight` boxes (each box's caption names its kind).
 */
export function planBands(graph: TraceGraph, w: number, h: number, density: CardDensity, minScale: number): BandPlan[] {
  const titles = density !== 'tight';
  const gaps = spacing(density);
  const boxes = columnOrder.flatMap((column) => graph.nodes.filter((n) => n.column === column)).map((node) => ({ node, card: cardOf(graph, node, density) }));
  const n = boxes.length;
  if (!n) return [];
  const top = bandTopPadding(titles);
  /** Boxes [from, to) of one column as a grid of `k` sub-columns: its width and height. */
  const gridSize = (from: number, to: number, k: number) => {
    let width = 0;
    let height = 0;
    for (let j = 0; j < k; j++) {
      const sub = boxes
        .slice(from, to)
        .filter((_, i) => i % k === j)
        .map((b) => b.card);
      width += Math.max(...sub.map((c) => c.width)) + (j ? gaps.layer : 0);
      height = Math.max(height, sub.reduce((sum, c) => sum + c.height, 0) + gaps.node * (sub.length - 1));
    }
    return { width, height };
  };
  type Band = { width: number; height: number; grid: [TraceColumn, number][] };
  /** Boxes [from, to) as one band: the grids of least height whose width fits `maxWidth`, else the narrowest. */
  const band = (from: number, to: number, maxWidth: number): Band => {
    const groups: [number, number][] = [];
    for (let i = from; i < to; i++) {
      if (i > from && boxes[i].node.column === boxes[i - 1].node.column) groups[groups.length - 1][1] = i + 1;
      else groups.push([i, i + 1]);
    }
    let best: Band | undefined;
    const fits = (b: Band) => b.width <= maxWidth;
    const pick = (g: number, chosen: number[], width: number, height: number) => {
      if (g === groups.length) {
        const b = {
          width: width + 16 + edgeRoom + gaps.layer * (groups.length - 1),
          height: height + top + 16,
          grid: chosen.map((k, i) => [boxes[groups[i][0]].node.column, k] as [TraceColumn, number]),
        };
        if (!best || (fits(b) !== fits(best) ? fits(b) : fits(b) ? b.height < best.height : b.width < best.width)) best = b;
        return;
      }
      const [a, z] = groups[g];
      for (let k = 1; k <= (groups.length === 1 ? Math.min(z - a, maxGrid) : 1); k++) {
        const size = gridSize(a, z, k);
        pick(g + 1, [...chosen, k], width + size.width, Math.max(height, size.height));
      }
    };
    pick(0, [], 0, 0);
    return best!;
  };
  const between = bandGap - (16 - bandBottomPadding);
  const plans = new Map<string, BandPlan>();
  // Cuts only between columns first; a column that goes on in the next band only when those cannot be read.
  for (const splits of [false, true]) {
    if (splits && [...plans.values()].some((p) => p.scale >= minScale)) break;
    for (const scale of [1, 0.95, 0.9, minScale]) {
      const maxWidth = w / scale;
      const bandAt = new Map<string, Band>();
      const bandOf = (a: number, z: number) => {
        const key = `${a}-${z}`;
        if (!bandAt.has(key)) bandAt.set(key, band(a, z, maxWidth));
        return bandAt.get(key)!;
      };
      // cost[i]: the least height of boxes [0, i) cut into bands that fit (Infinity when none does); from[i]: the last cut.
      const cost: number[] = [0];
      const from: number[] = [0];
      for (let i = 1; i <= n; i++) {
        cost[i] = Infinity;
        for (let j = 0; j < i; j++) {
          if (!Number.isFinite(cost[j])) continue;
          const b = bandOf(j, i);
          if (b.width > maxWidth) continue;
          const splitsColumn = j > 0 && boxes[j].node.column === boxes[j - 1].node.column;
          if (splitsColumn && !splits) continue;
          const split = splitsColumn ? splitCost : 0;
          const c = cost[j] + b.height + (j ? between : 0) + split;
          if (c < cost[i]) {
            cost[i] = c;
            from[i] = j;
          }
        }
      }
      if (!Number.isFinite(cost[n])) continue;
      const cuts: [number, number][] = [];
      for (let i = n; i > 0; i = from[i]) cuts.unshift([from[i], i]);
      const parts = cuts.map(([a, z]) => bandOf(a, z));
      const width = Math.max(...parts.map((p) => p.width));
      const height = parts.reduce((sum, p) => sum + p.height, 0) + between * (parts.length - 1);
      const bands = cuts.map(([a, z]) => boxes.slice(a, z).map((b) => b.node.id));
      const grid = parts.map((p) => p.grid.filter(([, k]) => k > 1));
      const key = JSON.stringify([bands, grid]);
      if (!plans.has(key)) plans.set(key, { bands, grid, density, titles, scale: Math.min(1, w / width, h / height) });
    }
  }
  return [...plans.values()].sort((a, b) => b.scale - a.scale);
}

/** Room above a band's boxes: for the column titles, or a little without them. */
function bandTopPadding(titles: boolean): number {
  return titles ? headerHeight + 12 : 8;
}

/**
 * The path left to right in bands stacked top to bottom: each band is laid out by ELK on its own (without edge
 * labels: the boxes at both ends say it, the tooltip and detail pane keep the text); an edge from one band to a later
 * one leaves its box to the right, runs down the gap after the box's (sub-)column and along the gap below its band,
 * then down the gap before its target (the left margin, for a band's first column) and enters it from the left.
 */
export async function layoutBands(graph: TraceGraph, plan: Omit<BandPlan, 'scale'>): Promise<ServicePathLayout> {
  const { bands, grid, density, titles } = plan;
  const bandOf = new Map<string, number>();
  bands.forEach((ids, b) => ids.forEach((id) => bandOf.set(id, b)));
  const crossing = graph.edges.filter((e) => bandOf.has(e.from) && bandOf.has(e.to) && bandOf.get(e.from) !== bandOf.get(e.to));
  const columnOf = new Map(graph.nodes.map((n) => [n.id, n.column] as const));
  const firstColumn = bands.map((ids) => columnOf.get(ids[0]));
  // Each edge from an earlier band into a band's first column comes down the band's left margin on a lane of its own,
  // and each edge that passes the gap below a band runs along it on a lane of its own: both are made wide enough.
  const intoMargin = bands.map((_, b) => crossing.filter((e) => bandOf.get(e.to) === b && columnOf.get(e.to) === firstColumn[b]).length);
  const throughGap = bands.map(
    (_, b) => crossing.filter((e) => Math.min(bandOf.get(e.from)!, bandOf.get(e.to)!) <= b && Math.max(bandOf.get(e.from)!, bandOf.get(e.to)!) > b).length,
  );
  const nodes: PlacedNode[] = [];
  const placedEdges = new Map<TraceEdge, PlacedEdge>();
  const bandTop = new Map<TraceColumn, number>();
  const titleX = new Map<TraceColumn, number>();
  const bandStart: number[] = [];
  const bandBottom: number[] = [];
  // Between two bands' boxes: the bottom padding, the gap and the next band's top padding less its titles.
  const lanesBetween = Math.floor((bandBottomPadding + bandGap + bandTopPadding(titles) - (titles ? 16 : 0) - 10) / laneGap) + 1;
  const gapAfter = throughGap.map((n) => bandGap + laneGap * Math.max(0, n - lanesBetween));
  let top = 0;
  let width = 0;
  for (let b = 0; b < bands.length; b++) {
    const ids = new Set(bands[b]);
    const sub: TraceGraph = { ...graph, nodes: graph.nodes.filter((n) => ids.has(n.id)), edges: graph.edges.filter((e) => ids.has(e.from) && ids.has(e.to)) };
    const leftPadding = Math.max(16, 14 + laneGap * (intoMargin[b] - 1));
    // The edges to and from other bands run down the gaps between the band's (sub-)columns, each on a lane: the gap
    // after a (sub-)column holds those that leave it and those that enter the next.
    const partition = partitions(sub, new Map(sub.nodes.map((n) => [n.id, cardOf(sub, n, density)] as const)), Infinity, new Map(grid[b] ?? []));
    const lanesAfter = new Map<number, number>();
    for (const e of crossing) {
      if (ids.has(e.from)) lanesAfter.set(partition.get(e.from)!, (lanesAfter.get(partition.get(e.from)!) ?? 0) + 1);
      if (ids.has(e.to) && partition.get(e.to)! > 0) lanesAfter.set(partition.get(e.to)! - 1, (lanesAfter.get(partition.get(e.to)! - 1) ?? 0) + 1);
    }
    const lanes = Math.max(0, ...lanesAfter.values());
    const layerGap = 2 * 5 + 12 + laneGap * Math.max(0, lanes - 1);
    const laid = await layoutServicePath(sub, 'RIGHT', { edgeLabels: false, density, grid: new Map(grid[b] ?? []), titles, leftPadding, layerGap });
    bandStart.push(top);
    for (const p of laid.nodes) nodes.push({ ...p, y: p.y + top });
    for (const e of laid.edges) placedEdges.set(e.edge, { ...e, points: e.points.map((pt) => ({ x: pt.x, y: pt.y + top })) });
    // A column that goes on in the next band has its title in the first.
    for (const p of laid.nodes) {
      if (bandTop.get(p.node.column) === undefined) bandTop.set(p.node.column, top);
      if (bandTop.get(p.node.column) === top) titleX.set(p.node.column, Math.min(titleX.get(p.node.column) ?? Infinity, p.x));
    }
    width = Math.max(width, laid.width);
    top += laid.height - (b < bands.length - 1 ? 16 - bandBottomPadding : 0);
    bandBottom.push(top);
    top += gapAfter[b];
  }
  const height = top - gapAfter[bands.length - 1];
  const byId = new Map(nodes.map((p) => [p.node.id, p] as const));
  // The right edge of the (sub-)column a box stands in, so an edge leaving it runs down the gap after it, clear of
  // every box (a column laid out as a grid has a gap after each of its sub-columns).
  const laneRight = (from: PlacedNode) =>
    Math.max(
      ...nodes
        .filter(
          (p) =>
            p.node.column === from.node.column &&
            bandOf.get(p.node.id) === bandOf.get(from.node.id) &&
            p.x < from.x + from.card.width &&
            from.x < p.x + p.card.width,
        )
        .map((p) => p.x + p.card.width),
    );
  // All edges of one channel start on one line: the pass below puts each on a lane of its own, in an order that adds
  // no crossing (separateEdges.ts).
  for (const e of crossing) {
    const from = byId.get(e.from);
    const to = byId.get(e.to);
    if (!from || !to) continue;
    const b = bandOf.get(e.from)!;
    const c = bandOf.get(e.to)!;
    const y1 = from.y + from.card.height / 2;
    const yt = to.y + to.card.height / 2;
    const xc = laneRight(from) + 12;
    const xl = to.x - 14;
    let points: Point[];
    if (c > b) {
      const yg = bandBottom[b] + gapAfter[b] / 2;
      // Past a band in between: along the right of every band, down to the gap above the target's.
      const yg2 = bandStart[c] - gapAfter[c - 1] / 2;
      const xr = width + 8;
      const around =
        c > b + 1
          ? [
              { x: xc, y: yg },
              { x: xr, y: yg },
              { x: xr, y: yg2 },
              { x: xl, y: yg2 },
            ]
          : [
              { x: xc, y: yg },
              { x: xl, y: yg },
            ];
      points = [{ x: from.x + from.card.width, y: y1 }, { x: xc, y: y1 }, ...around, { x: xl, y: yt }, { x: to.x, y: yt }];
    } else {
      // Back to an earlier band (a policy that points back): up the right of every band, into the target from the right.
      const xr = width + 8;
      const yg = bandStart[c] - (c ? gapAfter[c - 1] / 2 : 4);
      const xt = to.x + to.card.width;
      points = [
        { x: from.x + from.card.width, y: y1 },
        { x: xr, y: y1 },
        { x: xr, y: yg },
        { x: xt + 14, y: yg },
        { x: xt + 14, y: yt },
        { x: xt, y: yt },
      ];
    }
    placedEdges.set(e, { edge: e, points });
  }
  const titleBoxes: Box[] = titles
    ? [...titleX].map(([column, x]) => ({
        x,
        y: bandTop.get(column)! + headerHeight - 12,
        width: textWidth(columnTitle[column], columnTitleFont) * 1.1,
        height: 16,
      }))
    : [];
  const edges = apart(
    graph.edges.map((e) => placedEdges.get(e) ?? { edge: e, points: [] }),
    nodes,
    titleBoxes,
    2,
  );
  // An edge leaving the last column of the widest band runs right of it: the drawing includes it.
  for (const e of edges) for (const pt of e.points) width = Math.max(width, pt.x + 6);
  return { direction: 'RIGHT', bandTop, titles, titleX, nodes, edges, width: Math.ceil(width), height: Math.ceil(height) };
}
