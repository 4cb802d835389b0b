// Where arrow keys move focus in the Service path: along the traffic (left/right) or within a column (up/down).
import type { PlacedNode, ServicePathLayout } from './layoutServicePath';
import { columnOrder } from './vocabulary';

export type Direction = 'left' | 'right' | 'up' | 'down';

/** In a top-to-bottom drawing the traffic runs down: the keys turn with it, so "along" is always the arrow the edges point. */
const turned: Readonly<Record<Direction, Direction>> = { down: 'right', up: 'left', right: 'down', left: 'up' };

export function neighbourOf(layout: ServicePathLayout, fromId: string, pressed: Direction): string | undefined {
  const from = layout.nodes.find((p) => p.node.id === fromId);
  if (!from) return undefined;
  const down = layout.direction === 'DOWN';
  const direction = down ? turned[pressed] : pressed;
  const col = columnOrder.indexOf(from.node.column);
  const across = (p: PlacedNode) => (down ? p.x + p.card.width / 2 : p.y + p.card.height / 2);
  const nearest = (candidates: readonly PlacedNode[]) =>
    [...candidates].sort((a, b) => Math.abs(across(a) - across(from)) - Math.abs(across(b) - across(from)))[0]?.node.id;
  if (direction === 'up' || direction === 'down') {
    const same = layout.nodes.filter((p) => p.node.column === from.node.column).sort((a, b) => (down ? a.x - b.x : a.y - b.y));
    const i = same.indexOf(from) + (direction === 'down' ? 1 : -1);
    return same[i]?.node.id;
  }
  // Following an edge first keeps focus on the path the traffic takes; otherwise the nearest box in the next column.
  const linked = layout.edges
    .filter((e) => (direction === 'right' ? e.edge.from === fromId : e.edge.to === fromId))
    .map((e) => (direction === 'right' ? e.edge.to : e.edge.from));
  const viaEdge = layout.nodes.filter((p) => linked.includes(p.node.id) && p.node.id !== fromId);
  if (viaEdge.length) return nearest(viaEdge);
  const step = direction === 'right' ? 1 : -1;
  for (let c = col + step; c >= 0 && c < columnOrder.length; c += step) {
    const inColumn = layout.nodes.filter((p) => columnOrder.indexOf(p.node.column) === c);
    if (inColumn.length) return nearest(inColumn);
  }
  return undefined;
}

export function directionOf(key: string): Direction | undefined {
  switch (key) {
    case 'ArrowLeft':
      return 'left';
    case 'ArrowRight':
      return 'right';
    case 'ArrowUp':
      return 'up';
    case 'ArrowDown':
      return 'down';
    default:
      return undefined;
  }
}
