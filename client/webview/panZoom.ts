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
  /**
   * The first view of a drawing: fitted, but never so small that its text cannot be read; when it does not fit at a
   * readable size it shows `focus` (the broken hop) and the rest is a pan away.
   */
  start(focus?: Box): void;
  /** Pans just enough that a box of the drawing is on screen (keyboard focus must never land off-screen). */
  reveal(box: Box): void;
  /**
   * After the panel changed size: the first view again, unless the person zoomed or panned and the size changed
   * only a little (dragging a sash), when their view is kept, clamped.
   */
  resized(focus?: Box, keepPersonView?: boolean): void;
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
  /** Chosen by the view rather than by the person (a resize may choose again). */
  readonly auto?: boolean;
}

const minScale = 0.15;
const maxScale = 3;
/** The drawing's smallest text is 12 px: at this zoom it is 10.2 px on screen. */
export const readableScale = 0.85;
/** How much of the drawing (px on screen) always stays in view, so panning or zooming can never lose it. */
const keepVisible = 80;

export function attachPanZoom(svg: SVGSVGElement, viewport: SVGGElement, content: { width: number; height: number }): PanZoom {
  let k = 1;
  let tx = 0;
  let ty = 0;
  let drag: { x: number; y: number; tx: number; ty: number; moved: boolean } | undefined;
  let dragged = false;
  /** False once the person zoomed or panned: a resize then keeps their view instead of choosing a new one. */
  let automatic = true;
  /** The view size the current view was chosen or last adjusted for. */
  let chosenFor = { w: 0, h: 0 };

  const size = () => ({ w: svg.clientWidth || 800, h: svg.clientHeight || 500 });
  const clamp = () => {
    const { w, h } = size();
    const cw = content.width * k;
    const ch = content.height * k;
    const mx = Math.min(keepVisible, cw, w);
    const my = Math.min(keepVisible, ch, h);
    tx = Math.min(w - mx, Math.max(mx - cw, tx));
    ty = Math.min(h - my, Math.max(my - ch, ty));
  };
  const apply = () => {
    clamp();
    chosenFor = size();
    viewport.setAttribute('transform', `translate(${tx.toFixed(1)} ${ty.toFixed(1)}) scale(${k.toFixed(4)})`);
    svg.setAttribute('data-scale', k.toFixed(4));
  };
  const zoomAt = (factor: number, cx: number, cy: number) => {
    const next = Math.min(maxScale, Math.max(minScale, k * factor));
    tx = cx - ((cx - tx) * next) / k;
    ty = cy - ((cy - ty) * next) / k;
    k = next;
    automatic = false;
    apply();
  };
  /** The centre of the part of the drawing that is on screen: zooming there keeps what the person sees in view. */
  const visibleCentre = () => {
    const { w, h } = size();
    const left = Math.max(0, tx);
    const right = Math.min(w, tx + content.width * k);
    const top = Math.max(0, ty);
    const bottom = Math.min(h, ty + content.height * k);
    return right > left && bottom > top ? { x: (left + right) / 2, y: (top + bottom) / 2 } : { x: w / 2, y: h / 2 };
  };
  /** Centres `box` (drawing units) when the drawing is larger than the view, without showing more empty space than needed. */
  const centreOn = (box: Box | undefined) => {
    const { w, h } = size();
    const cw = content.width * k;
    const ch = content.height * k;
    if (cw <= w) tx = (w - cw) / 2;
    else tx = box ? Math.min(0, Math.max(w - cw, w / 2 - (box.x + box.width / 2) * k)) : 0;
    if (ch <= h) ty = 0;
    else ty = box ? Math.min(0, Math.max(h - ch, h / 2 - (box.y + box.height / 2) * k)) : 0;
  };
  const first = (focus?: Box) => {
    const { w, h } = size();
    const fitScale = Math.min(w / Math.max(1, content.width), h / Math.max(1, content.height));
    k = Math.max(readableScale, Math.min(1, fitScale));
    centreOn(focus);
    automatic = true;
    apply();
  };

  svg.addEventListener(
    'wheel',
    (ev) => {
      ev.preventDefault();
      const r = svg.getBoundingClientRect();
      zoomAt(Math.exp(-ev.deltaY * 0.0015), ev.clientX - r.left, ev.clientY - r.top);
    },
    { passive: false },
  );
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
    automatic = false;
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
      const c = visibleCentre();
      zoomAt(factor, c.x, c.y);
    },
    start: first,
    panBy(dx, dy) {
      tx += dx;
      ty += dy;
      automatic = false;
      apply();
    },
    fit() {
      const { w, h } = size();
      k = Math.max(minScale, Math.min(1, w / Math.max(1, content.width), h / Math.max(1, content.height)));
      tx = (w - content.width * k) / 2;
      ty = Math.max(0, (h - content.height * k) / 2);
      automatic = false;
      apply();
    },
    resized(focus, keepPersonView = false) {
      const { w, h } = size();
      const small = Math.abs(w - chosenFor.w) <= chosenFor.w * 0.15 && Math.abs(h - chosenFor.h) <= chosenFor.h * 0.15;
      if (automatic || (!small && !keepPersonView)) first(focus);
      else apply();
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
    view: () => ({ k, tx, ty, auto: automatic }),
    restore(view) {
      ({ k, tx, ty } = view);
      automatic = view.auto ?? false;
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
