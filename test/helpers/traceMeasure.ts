// Measures the trace view from inside its page (the webview test page or the real editor's webview frame):
// what is on screen, at what size, in CSS pixels. Passed to `page.evaluate`, so it must stay self-contained.

export interface Rect {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

export interface TraceMeasure {
  readonly viewport: { readonly width: number; readonly height: number };
  /** The drawing area (the canvas element). */
  readonly canvas: Rect;
  /** The drawn Service path (every box, edge and title), as it sits on screen now. */
  readonly drawing: Rect | null;
  /** The on-screen height of the smallest and of the largest text of the drawing: font size times zoom. */
  readonly minTextPx: number;
  readonly direction: string | null;
  /** The box of the node the banner names as broken (or of `nodeId`), on screen. */
  readonly focusNode: Rect | null;
  /** True when the page itself scrolls sideways (something is wider than the panel). */
  readonly overflowsSideways: boolean;
}

export function measureTrace(nodeId: string | null): TraceMeasure {
  const rect = (r: DOMRect): Rect => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
  const canvas = document.querySelector('.canvas') as HTMLElement;
  const viewportGroup = document.querySelector('.trace-svg [data-viewport]') as SVGGElement | null;
  const texts = Array.from(document.querySelectorAll('.trace-svg [data-viewport] text')) as SVGTextElement[];
  const sizes = texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * (t.getScreenCTM()?.a ?? 1));
  let target: Element | null = null;
  if (nodeId) target = document.querySelector(`.trace-svg [data-node-id="${CSS.escape(nodeId)}"] .node-box`);
  else {
    const broken = document.querySelector('.trace-svg .node.status-error .node-box');
    target = broken;
  }
  return {
    viewport: { width: window.innerWidth, height: window.innerHeight },
    canvas: rect(canvas.getBoundingClientRect()),
    drawing: viewportGroup ? rect(viewportGroup.getBoundingClientRect()) : null,
    minTextPx: sizes.length ? Math.min(...sizes) : 0,
    direction: canvas.getAttribute('data-direction'),
    focusNode: target ? rect(target.getBoundingClientRect()) : null,
    overflowsSideways: document.documentElement.scrollWidth > window.innerWidth + 1,
  };
}

/** `inner` lies wholly inside `outer` (a pixel of rounding allowed). */
export function inside(inner: Rect, outer: Rect): boolean {
  return inner.left >= outer.left - 1 && inner.top >= outer.top - 1 && inner.right <= outer.right + 1 && inner.bottom <= outer.bottom + 1;
}

/** The area of `a` that is inside `b`, in square CSS pixels. */
export function overlapArea(a: Rect, b: Rect): number {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * `measureTrace` as an expression to evaluate in a page. The test runner's compiler wraps inner functions in a
 * `__name` helper that the page does not have, so the expression brings a stand-in.
 */
export function measureScript(nodeId: string | null = null): string {
  return `(() => { const __name = (f) => f; return (${measureTrace.toString()})(${JSON.stringify(nodeId)}); })()`;
}
