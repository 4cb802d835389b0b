// Places the Service path left to right with ELK's layered algorithm, one layer band per column.
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { TraceEdge, TraceGraph, TraceNode } from '../../server/src/protocol';
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

/**
 * `wrapWidth` (top to bottom only): the width, in drawing units, a row may take; a column with more boxes than fit
 * (the entry points of a Service with a node port and Ingress rules) continues on further rows.
 */
export async function layoutServicePath(graph: TraceGraph, direction: LayoutDirection = 'RIGHT', wrapWidth = Infinity): Promise<ServicePathLayout> {
  const cards = new Map(graph.nodes.map((n) => [n.id, nodeCard(n)] as const));
  const elkIds = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`] as const));
  const partition = partitions(graph, cards, direction === 'DOWN' ? wrapWidth : Infinity);
  const children: ElkNode[] = graph.nodes.map((n) => ({
    id: elkIds.get(n.id)!,
    width: cards.get(n.id)!.width,
    height: cards.get(n.id)!.height,
    // Partitions pin each node to its column: entry → service → proxy → endpoints → port → policy.
    layoutOptions: { 'elk.partitioning.partition': String(partition.get(n.id)) },
  }));
  // Top to bottom, edges stay unlabelled: a label widens its row, and the boxes at both ends already say it
  // (the port box reads `80 → http → 8080`); the edge's tooltip and the detail pane keep the text.
  const labels = graph.edges.map((e) => (e.label && direction === 'RIGHT' ? fitWidth(displayText(e.label, 200), 180, edgeLabelFont) : undefined));
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
  const key = JSON.stringify([direction, children.map((c) => [c.width, c.height, c.layoutOptions]), edges.map((e) => [e.sources, e.targets, e.labels])]);
  const root: ElkNode = placements.get(key) ?? await elk.layout(graphIn);
  placements.delete(key);
  placements.set(key, root);
  if (placements.size > 4) placements.delete(placements.keys().next().value!);
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
  return { direction, nodes, edges: placedEdges, width: Math.ceil(root.width ?? 0), height: Math.ceil(root.height ?? 0) };
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
