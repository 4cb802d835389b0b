// Parallel lanes for edges that would run along the same line: an orthogonal edge router (ELK within a band, the
// band router between bands) lets edges that share an end, or only a channel, share segments too, so a reader cannot
// tell which box leads where (a DNS name's edge seems to lead into a route backend). This pass moves each segment
// that runs on the line of another edge's segment (between a different pair of boxes) to a lane of its own, in an
// order that adds no crossing where it can, never into a box, and keeps each end on its box's side.

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface RoutedEdge {
  readonly from: string;
  readonly to: string;
  readonly points: readonly Point[];
}

/** Between two lanes, in drawing units: wanted, and the least that still reads as two lines. */
export const laneGap = 6;
/** Between two ends on one side of a box, where room allows: their arrowheads stay apart. */
export const endGap = 10;
/** The last run of an edge into its box is at least this long: its arrowhead is drawn on it. */
const arrowRoom = 12;
const minLaneGap = 4;
/** A lane stays this far from a box it passes (a box it leaves or enters: its end stays this far from the corners). */
const boxMargin = 5;
export const cornerMargin = 5;
/** Two segments whose lines overlap by less than this (their ends touching) do not share a line. */
const touch = 1;

type Orient = 'H' | 'V';

interface Segment {
  readonly edge: number;
  readonly index: number;
  readonly orient: Orient;
  /** The coordinate of its line: y for a horizontal segment, x for a vertical one. */
  c: number;
  /** Its extent along the line. */
  lo: number;
  hi: number;
  /** Where its line may move without entering a box or leaving the side of the box it starts or ends on. */
  min: number;
  max: number;
  /** The order of lanes that adds no crossing (see `orderKey`). */
  key: [number, number];
  /** Whether it starts or ends on a box. */
  onBox: boolean;
}

/**
 * The edges' points with every two segments of different edges (between different pairs of boxes) on lines at least
 * `laneGap` apart (`minLaneGap` where the room between boxes is short) wherever their extents overlap. `boxes`: the
 * boxes edges start and end on, by id; `obstacles`: everything a lane must not run through (the boxes, titles).
 * Only horizontal and vertical segments move; an edge with a slanted segment keeps its route.
 */
export function separateEdges(
  edges: readonly RoutedEdge[],
  boxes: ReadonlyMap<string, Box>,
  obstacles: readonly Box[],
  bounds: { minX: number; minY: number },
): Point[][] {
  const routes = edges.map((e) => simplify(e.points));
  const identity = edges.map((e) => `${e.from}\u0000${e.to}`);
  const movable = routes.map((pts) => pts.length >= 2 && pts.every((p, i) => i === 0 || p.x === pts[i - 1].x || p.y === pts[i - 1].y));
  for (let round = 0; round < 8; round++) {
    const segs = segmentsOf(routes, movable, edges, boxes, obstacles, bounds);
    let moved = false;
    for (const orient of ['V', 'H'] as const) {
      const list = segs.filter((s) => s.orient === orient);
      for (const cluster of clusters(list, identity)) if (spread(cluster, identity)) moved = true;
    }
    if (!moved) break;
    applyLines(routes, segs);
  }
  return routes;
}

/** The points without repeats and without a point in the middle of a straight run. */
function simplify(points: readonly Point[]): Point[] {
  const out: Point[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (last && Math.abs(last.x - p.x) < 0.01 && Math.abs(last.y - p.y) < 0.01) continue;
    const prev = out[out.length - 2];
    if (prev && last && ((prev.x === last.x && last.x === p.x) || (prev.y === last.y && last.y === p.y))) out[out.length - 1] = p;
    else out.push({ x: p.x, y: p.y });
  }
  return out;
}

function segmentsOf(
  routes: readonly Point[][],
  movable: readonly boolean[],
  edges: readonly RoutedEdge[],
  boxes: ReadonlyMap<string, Box>,
  allBoxes: readonly Box[],
  bounds: { minX: number; minY: number },
): Segment[] {
  const out: Segment[] = [];
  routes.forEach((pts, e) => {
    if (!movable[e]) return;
    for (let i = 1; i < pts.length; i++) {
      const a = pts[i - 1];
      const b = pts[i];
      const orient: Orient = a.y === b.y ? 'H' : 'V';
      const c = orient === 'H' ? a.y : a.x;
      const [lo, hi] = orient === 'H' ? [Math.min(a.x, b.x), Math.max(a.x, b.x)] : [Math.min(a.y, b.y), Math.max(a.y, b.y)];
      let [min, max] = free(orient, c, lo, hi, allBoxes);
      min = Math.max(min, orient === 'H' ? bounds.minY : bounds.minX);
      // A segment that starts or ends on a box moves along that box's side, or not at all.
      const ends: [Point, Box | undefined][] = [];
      if (i === 1) ends.push([a, boxes.get(edges[e].from)]);
      if (i === pts.length - 1) ends.push([b, boxes.get(edges[e].to)]);
      for (const [p, box] of ends) {
        const along = box ? sideRange(orient, p, box) : undefined;
        if (!along) [min, max] = [c, c];
        else [min, max] = [Math.max(min, along[0]), Math.min(max, along[1])];
      }
      // The run before the last one keeps room for the arrowhead on the last.
      if (i === pts.length - 2) {
        const to = boxes.get(edges[e].to);
        const end = pts[pts.length - 1];
        if (to && sideRange(orient === 'H' ? 'V' : 'H', end, to)) {
          if (orient === 'V') [min, max] = end.x <= to.x + 1.5 ? [min, Math.min(max, to.x - arrowRoom)] : [Math.max(min, to.x + to.width + arrowRoom), max];
          else [min, max] = end.y <= to.y + 1.5 ? [min, Math.min(max, to.y - arrowRoom)] : [Math.max(min, to.y + to.height + arrowRoom), max];
        }
      }
      if (min > c || max < c) [min, max] = [c, c];
      out.push({ edge: e, index: i, orient, c, lo, hi, min, max, key: orderKey(pts, i, orient), onBox: ends.length > 0 });
    }
  });
  return out;
}

/** How far the line of a segment may move either way without running into a box its extent passes. */
function free(orient: Orient, c: number, lo: number, hi: number, boxes: readonly Box[]): [number, number] {
  let min = -Infinity;
  let max = Infinity;
  for (const b of boxes) {
    const [bLo, bHi, cLo, cHi] = orient === 'H' ? [b.x, b.x + b.width, b.y, b.y + b.height] : [b.y, b.y + b.height, b.x, b.x + b.width];
    if (bHi <= lo + touch || bLo >= hi - touch) continue;
    if (cHi <= c + 0.5) min = Math.max(min, cHi + boxMargin);
    else if (cLo >= c - 0.5) max = Math.min(max, cLo - boxMargin);
  }
  return [min, max];
}

/** Where on the box's side the end `p` may slide to, if `p` is on a side the segment leaves at a right angle. */
function sideRange(orient: Orient, p: Point, box: Box): [number, number] | undefined {
  const near = (u: number, v: number) => Math.abs(u - v) <= 1.5;
  if (orient === 'H' && (near(p.x, box.x) || near(p.x, box.x + box.width))) return [box.y + cornerMargin, box.y + box.height - cornerMargin];
  if (orient === 'V' && (near(p.y, box.y) || near(p.y, box.y + box.height))) return [box.x + cornerMargin, box.x + box.width - cornerMargin];
  return undefined;
}

/**
 * For a vertical segment: lanes ordered left to right by this key add no crossing where the edges turn. At its upper
 * end, of two edges that turn to the left there, the one that turns higher takes the lane further right (it passes
 * over the other's lane before that one begins); turning right, further left. At its lower end the other way round.
 * A horizontal segment is the same with x and y swapped (lanes top to bottom). An end on a box counts as no turn.
 */
function orderKey(pts: readonly Point[], i: number, orient: Orient): [number, number] {
  const a = pts[i - 1];
  const b = pts[i];
  const along = (p: Point) => (orient === 'V' ? p.y : p.x);
  const across = (p: Point) => (orient === 'V' ? p.x : p.y);
  const [first, last, before, after] = along(a) <= along(b) ? [a, b, pts[i - 2], pts[i + 1]] : [b, a, pts[i + 1], pts[i - 2]];
  const turn = (end: Point, other: Point | undefined) => (other ? Math.sign(across(other) - across(end)) : 0);
  return [turn(first, before) * along(first), -turn(last, after) * along(last)];
}

/** Groups of segments (one orientation) that share lines with segments of other edges, directly or in a chain. */
function clusters(list: readonly Segment[], identity: readonly string[]): Segment[][] {
  const parent = list.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
  const sorted = list.map((_, i) => i).sort((p, q) => list[p].c - list[q].c);
  const conflicting = new Set<number>();
  for (let p = 0; p < sorted.length; p++) {
    const s = list[sorted[p]];
    for (let q = p + 1; q < sorted.length; q++) {
      const t = list[sorted[q]];
      if (t.c - s.c >= laneGap - 0.01) break;
      if (identity[s.edge] === identity[t.edge]) continue;
      if (Math.min(s.hi, t.hi) - Math.max(s.lo, t.lo) <= touch) continue;
      // Lanes already apart by what the room allows are left as they are.
      if (t.c - s.c >= minLaneGap - 0.01 && !roomFor(s, t)) continue;
      parent[root(sorted[p])] = root(sorted[q]);
      conflicting.add(sorted[p]).add(sorted[q]);
    }
  }
  const groups = new Map<number, Segment[]>();
  for (const i of conflicting) groups.set(root(i), [...(groups.get(root(i)) ?? []), list[i]]);
  return [...groups.values()];
}

/** Whether two segments' lines could be `laneGap` apart within where each may move. */
function roomFor(s: Segment, t: Segment): boolean {
  const [low, high] = s.c <= t.c ? [s, t] : [t, s];
  return high.max - low.min >= laneGap;
}

/**
 * Puts the edges of a cluster on lanes `laneGap` apart (`endGap` for ends on a box; less when the room is short),
 * centred where they were, each
 * edge's segments of the cluster on one lane, ordered by their lines and then by `orderKey`. False when nothing moved.
 */
function spread(cluster: readonly Segment[], identity: readonly string[]): boolean {
  const byEdge = new Map<string, Segment[]>();
  for (const s of cluster) byEdge.set(identity[s.edge], [...(byEdge.get(identity[s.edge]) ?? []), s]);
  const lanes = [...byEdge.values()].map((segs) => ({
    segs,
    c: segs.reduce((sum, s) => sum + s.c, 0) / segs.length,
    min: Math.max(...segs.map((s) => s.min)),
    max: Math.min(...segs.map((s) => s.max)),
    key: segs[0].key,
  }));
  if (lanes.length < 2) return false;
  lanes.sort((a, b) => (Math.abs(a.c - b.c) >= minLaneGap ? a.c - b.c : a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.c - b.c));
  const centre = lanes.reduce((sum, l) => sum + l.c, 0) / lanes.length;
  for (let gap = cluster.some((s) => s.onBox) ? endGap : laneGap; gap >= minLaneGap - 0.01; gap -= 0.5) {
    const at = place(lanes, centre, gap);
    if (!at) continue;
    let moved = false;
    lanes.forEach((l, k) => {
      for (const s of l.segs) {
        if (Math.abs(s.c - at[k]) > 0.01) moved = true;
        s.c = at[k];
      }
    });
    return moved;
  }
  return false;
}

/** Lane positions in order, `gap` apart, each within its lane's room, as near `centre` as that allows; else undefined. */
function place(lanes: readonly { min: number; max: number }[], centre: number, gap: number): number[] | undefined {
  const n = lanes.length;
  const at = lanes.map((_, k) => centre + (k - (n - 1) / 2) * gap);
  for (let k = 0; k < n; k++) at[k] = Math.max(at[k], lanes[k].min, k ? at[k - 1] + gap : -Infinity);
  for (let k = n - 1; k >= 0; k--) at[k] = Math.min(at[k], lanes[k].max, k < n - 1 ? at[k + 1] - gap : Infinity);
  for (let k = 0; k < n; k++) if (at[k] < lanes[k].min - 0.01 || (k && at[k] - at[k - 1] < gap - 0.01)) return undefined;
  return at;
}

/** Moves each route's points to its segments' (possibly new) lines. */
function applyLines(routes: Point[][], segs: readonly Segment[]): void {
  for (const s of segs) {
    const pts = routes[s.edge];
    for (const i of [s.index - 1, s.index]) {
      const p = pts[i];
      pts[i] = s.orient === 'H' ? { x: p.x, y: s.c } : { x: s.c, y: p.y };
    }
  }
}
