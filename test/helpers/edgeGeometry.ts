// The drawn geometry of the trace view's Service path (every box and every edge's polyline, in drawing units, read
// from the SVG the page shows), and the checks a reader's eye makes of it: two edges between different pairs of boxes
// never run along the same line, no edge runs through a box, and every edge starts on its source box and ends, with
// its arrowhead, on its target box. `readEdgeGeometry` is passed to `page.evaluate`, so it must stay self-contained.

export interface GeometryBox {
  readonly id: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface GeometryEdge {
  readonly from: string;
  readonly to: string;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

export interface EdgeGeometry {
  readonly direction: string | null;
  readonly boxes: readonly GeometryBox[];
  readonly edges: readonly GeometryEdge[];
}

export function readEdgeGeometry(): EdgeGeometry {
  const boxes = Array.from(document.querySelectorAll('.trace-svg .nodes > .node')).map((g) => {
    const m = /translate\(([-\d.e]+)[ ,]+([-\d.e]+)\)/.exec(g.getAttribute('transform') ?? '');
    const box = g.querySelector('.node-box');
    return {
      id: g.getAttribute('data-node-id') ?? '',
      x: m ? Number(m[1]) : NaN,
      y: m ? Number(m[2]) : NaN,
      width: Number(box?.getAttribute('width')),
      height: Number(box?.getAttribute('height')),
    };
  });
  const edges = Array.from(document.querySelectorAll('.trace-svg .edges > .edge')).map((g) => {
    const d = g.querySelector('.edge-line')?.getAttribute('d') ?? '';
    const points = Array.from(d.matchAll(/[ML]\s*([-\d.e]+)[ ,]+([-\d.e]+)/g)).map((p) => ({ x: Number(p[1]), y: Number(p[2]) }));
    return { from: g.getAttribute('data-from') ?? '', to: g.getAttribute('data-to') ?? '', points };
  });
  return { direction: document.querySelector('.canvas')?.getAttribute('data-direction') ?? null, boxes, edges };
}

/** `readEdgeGeometry` as an expression to evaluate in a page (with the stand-in for the test compiler's `__name`). */
export function edgeGeometryScript(): string {
  return `(() => { const __name = (f) => f; return (${readEdgeGeometry.toString()})(); })()`;
}

/** Two edges this close (drawing units) and parallel run along the same line to the eye. */
const sameLineTolerance = 3;
/** ... when they do so for more than this length. */
const overlapTolerance = 4;
/** How far inside a box a line must pass to be seen going through it (its rounded corners and border allowed). */
const boxInset = 2;
/** How far from its box's border an edge's end may be. */
const attachTolerance = 2;

type P = { readonly x: number; readonly y: number };
type Segment = { readonly a: P; readonly b: P };

function segments(e: GeometryEdge): Segment[] {
  const out: Segment[] = [];
  for (let i = 1; i < e.points.length; i++) out.push({ a: e.points[i - 1], b: e.points[i] });
  return out.filter((s) => Math.hypot(s.b.x - s.a.x, s.b.y - s.a.y) > 0.01);
}

/** The length along which two segments run on the same line (parallel, within the tolerance apart), else 0. */
export function sharedLength(s: Segment, t: Segment): number {
  const len = Math.hypot(s.b.x - s.a.x, s.b.y - s.a.y);
  const ux = (s.b.x - s.a.x) / len;
  const uy = (s.b.y - s.a.y) / len;
  const tlen = Math.hypot(t.b.x - t.a.x, t.b.y - t.a.y);
  // Parallel: the cross product of the unit directions is (nearly) zero.
  if (Math.abs((ux * (t.b.y - t.a.y) - uy * (t.b.x - t.a.x)) / tlen) > 0.02) return 0;
  const off = (p: P) => Math.abs(-uy * (p.x - s.a.x) + ux * (p.y - s.a.y));
  if (off(t.a) > sameLineTolerance || off(t.b) > sameLineTolerance) return 0;
  const along = (p: P) => ux * (p.x - s.a.x) + uy * (p.y - s.a.y);
  const [t0, t1] = [along(t.a), along(t.b)].sort((p, q) => p - q);
  return Math.max(0, Math.min(len, t1) - Math.max(0, t0));
}

/** Whether the segment passes through the inside of the box (shrunk by `boxInset`). */
export function crossesBox(s: Segment, b: GeometryBox): boolean {
  const x0 = b.x + boxInset;
  const y0 = b.y + boxInset;
  const x1 = b.x + b.width - boxInset;
  const y1 = b.y + b.height - boxInset;
  // Liang–Barsky clipping of the segment against the rectangle.
  let lo = 0;
  let hi = 1;
  const dx = s.b.x - s.a.x;
  const dy = s.b.y - s.a.y;
  for (const [p, q] of [
    [-dx, s.a.x - x0],
    [dx, x1 - s.a.x],
    [-dy, s.a.y - y0],
    [dy, y1 - s.a.y],
  ]) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) lo = Math.max(lo, r);
    else hi = Math.min(hi, r);
    if (lo > hi) return false;
  }
  return (hi - lo) * Math.hypot(dx, dy) > 0.5;
}

function onBorder(p: P, b: GeometryBox): boolean {
  const inX = p.x >= b.x - attachTolerance && p.x <= b.x + b.width + attachTolerance;
  const inY = p.y >= b.y - attachTolerance && p.y <= b.y + b.height + attachTolerance;
  const nearX = Math.abs(p.x - b.x) <= attachTolerance || Math.abs(p.x - b.x - b.width) <= attachTolerance;
  const nearY = Math.abs(p.y - b.y) <= attachTolerance || Math.abs(p.y - b.y - b.height) <= attachTolerance;
  return inX && inY && (nearX || nearY);
}

/**
 * What a reader would misread in the drawing, one sentence each (none: every edge can be followed from its source to
 * its target): edges with different ends sharing a line, edges through boxes, edges that do not start on their source
 * or end on their target, edges not drawn.
 */
export function edgeProblems(g: EdgeGeometry): string[] {
  const problems: string[] = [];
  const byId = new Map(g.boxes.map((b) => [b.id, b] as const));
  const name = (e: GeometryEdge) => `${e.from} → ${e.to}`;
  for (const e of g.edges) {
    const from = byId.get(e.from);
    const to = byId.get(e.to);
    if (e.points.length < 2 || !from || !to) {
      problems.push(`${name(e)} is not drawn between two boxes`);
      continue;
    }
    const first = e.points[0];
    const last = e.points[e.points.length - 1];
    if (!onBorder(first, from)) problems.push(`${name(e)} starts at ${JSON.stringify(first)}, off its source box ${JSON.stringify(from)}`);
    if (!onBorder(last, to)) problems.push(`${name(e)} ends at ${JSON.stringify(last)}, off its target box ${JSON.stringify(to)}`);
    for (const s of segments(e))
      for (const b of g.boxes)
        if (crossesBox(s, b)) problems.push(`${name(e)} runs through the box ${b.id} (${JSON.stringify(s)} through ${JSON.stringify(b)})`);
  }
  for (let i = 0; i < g.edges.length; i++)
    for (let j = i + 1; j < g.edges.length; j++) {
      const [e, f] = [g.edges[i], g.edges[j]];
      if (e.from === f.from && e.to === f.to) continue;
      let shared = 0;
      for (const s of segments(e)) for (const t of segments(f)) shared = Math.max(shared, sharedLength(s, t));
      if (shared > overlapTolerance) problems.push(`${name(e)} and ${name(f)} run along the same line for ${shared.toFixed(1)} units`);
    }
  return problems;
}
