// Zoom (wheel, buttons, keys) and pan (drag, keys) of a drawing by transforming one SVG group.

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface PanZoom {
  zoomBy(factor: number): void;
  panBy(dx: number, dy: number): void;
  fit(): void;
  /** The first view of a drawing: fitted, but never so small that its text cannot be read (then it pans instead). */
  start(): void;
  /** Pans just enough that a box of the drawing is on screen (keyboard focus must never land off-screen). */
  reveal(box: Box): void;
  /** True right after a drag, so the click that ends it does not count as a click on a node. */
  wasDrag(): boolean;
  readonly scale: () => number;
  /** The current view, to carry over when a live update redraws the same Service. */
  view(): View;
  restore(view: View): void;
}

export interface View {
  readonly k: number;
  readonly tx: number;
  readonly ty: number;
}

const minScale = 0.15;
const maxScale = 3;
const readableScale = 0.85;

export function attachPanZoom(svg: SVGSVGElement, viewport: SVGGElement, content: { width: number; height: number }): PanZoom {
  let k = 1;
  let tx = 0;
  let ty = 0;
  let drag: { x: number; y: number; tx: number; ty: number; moved: boolean } | undefined;
  let dragged = false;

  const apply = () => viewport.setAttribute('transform', `translate(${tx.toFixed(1)} ${ty.toFixed(1)}) scale(${k.toFixed(4)})`);
  const size = () => ({ w: svg.clientWidth || 800, h: svg.clientHeight || 500 });
  const zoomAt = (factor: number, cx: number, cy: number) => {
    const next = Math.min(maxScale, Math.max(minScale, k * factor));
    tx = cx - ((cx - tx) * next) / k;
    ty = cy - ((cy - ty) * next) / k;
    k = next;
    apply();
  };

  svg.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const r = svg.getBoundingClientRect();
    zoomAt(Math.exp(-ev.deltaY * 0.0015), ev.clientX - r.left, ev.clientY - r.top);
  }, { passive: false });
  svg.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, tx, ty, moved: false };
    dragged = false;
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    if (!drag.moved) svg.setPointerCapture(ev.pointerId);
    drag.moved = true;
    svg.classList.add('panning');
    tx = drag.tx + dx;
    ty = drag.ty + dy;
    apply();
  });
  const endDrag = () => {
    dragged = drag?.moved ?? false;
    drag = undefined;
    svg.classList.remove('panning');
  };
  svg.addEventListener('pointerup', endDrag);
  svg.addEventListener('pointercancel', endDrag);

  const api: PanZoom = {
    zoomBy(factor) {
      const { w, h } = size();
      zoomAt(factor, w / 2, h / 2);
    },
    start() {
      const { w, h } = size();
      k = Math.max(readableScale, Math.min(1, w / Math.max(1, content.width), h / Math.max(1, content.height)));
      tx = Math.max(0, (w - content.width * k) / 2);
      ty = 0;
      apply();
    },
    panBy(dx, dy) {
      tx += dx;
      ty += dy;
      apply();
    },
    fit() {
      const { w, h } = size();
      k = Math.max(minScale, Math.min(1, w / Math.max(1, content.width), h / Math.max(1, content.height)));
      tx = Math.max(0, (w - content.width * k) / 2);
      ty = 0;
      apply();
    },
    reveal(box) {
      const { w, h } = size();
      const left = tx + box.x * k;
      const top = ty + box.y * k;
      const right = left + box.width * k;
      const bottom = top + box.height * k;
      const margin = 24;
      if (left < margin) tx += margin - left;
      else if (right > w - margin) tx -= Math.min(right - (w - margin), left - margin);
      if (top < margin) ty += margin - top;
      else if (bottom > h - margin) ty -= Math.min(bottom - (h - margin), top - margin);
      apply();
    },
    wasDrag() {
      const was = dragged;
      dragged = false;
      return was;
    },
    scale: () => k,
    view: () => ({ k, tx, ty }),
    restore(view) {
      ({ k, tx, ty } = view);
      apply();
    },
  };
  return api;
}

/** Keys on the drawing itself (not on a node): + and - zoom, 0 fits, arrows pan. */
export function handlePanZoomKey(pz: PanZoom, ev: KeyboardEvent): boolean {
  if (ev.key === '+' || ev.key === '=') pz.zoomBy(1.2);
  else if (ev.key === '-' || ev.key === '_') pz.zoomBy(1 / 1.2);
  else if (ev.key === '0') pz.fit();
  else if (ev.key === 'ArrowLeft') pz.panBy(40, 0);
  else if (ev.key === 'ArrowRight') pz.panBy(-40, 0);
  else if (ev.key === 'ArrowUp') pz.panBy(0, 40);
  else if (ev.key === 'ArrowDown') pz.panBy(0, -40);
  else return false;
  return true;
}
