// Entry of the trace webview: receives traces from the panel host, draws the Service path and packet path, and sends back intents.
import type { TraceNode, TraceResult } from '../../server/src/protocol';
import { displayText } from './displayText';
import { clear, htmlEl } from './dom';
import { drawPacketPath, packetPathWideWidth } from './drawPacketPath';
import { type ServicePathDrawing, drawServicePath } from './drawServicePath';
import { exportSvg } from './exportSvg';
import { connectHost } from './hostApi';
import type { ViewState } from './messages';
import { directionOf, neighbourOf } from './keyboardNavigation';
import { type ServicePathLayout, layoutBands, layoutServicePath, planBands, warmUpLayout } from './layoutServicePath';
import { showListView } from './listView';
import { useFontFamily } from './measureText';
import { showNodeDetail } from './nodeDetail';
import { type Box, type PanZoom, attachPanZoom, handlePanZoomKey, readableScale } from './panZoom';
import { readTrace } from './readTrace';
import { kindCaption, statusMarker } from './vocabulary';
import { fill, words } from './words';

type Tab = 'path' | 'packet';
type Variant = 'sameNode' | 'crossNode';

const host = connectHost();
const ui = buildShell();

let result: TraceResult | undefined;
let drawing: { layout: ServicePathLayout; svg: ServicePathDrawing; panZoom: PanZoom; key: string } | undefined;
let packetSvg: SVGSVGElement | undefined;
let selectedId: string | undefined;
let renders = 0;
let pending = 0;
let tab: Tab = 'path';
let listMode = false;
let variant: Variant = 'sameNode';

window.addEventListener('message', (ev: MessageEvent<unknown>) => {
  const msg = ev.data;
  if (typeof msg !== 'object' || msg === null) return;
  const m = msg as { type?: unknown; result?: unknown; message?: unknown; target?: unknown };
  if (m.type === 'trace') void showTrace(m.result, m.target);
  else if (m.type === 'error') showError(typeof m.message === 'string' ? m.message : words.state.failed);
  else if (m.type === 'loading') setBanner('status', words.state.tracing);
});
host.post({ type: 'ready' });
void warmUpLayout().then(() => document.body.setAttribute('data-layout-warm', 'true'));

async function showTrace(raw: unknown, target: unknown): Promise<void> {
  const started = performance.now();
  const token = ++pending;
  const next = readTrace(raw);
  if (!next) {
    showError(words.state.unreadable);
    return;
  }
  useFontFamily(getComputedStyle(document.body).fontFamily);
  const { namespace, name, kind } = next.graph.service;
  const title = `${namespace}/${name}`;
  // The title and the banner first: they take room above the canvas, and the layout is chosen for what is left.
  // With variants side by side, the title names the one this trace speaks about (text only, never markup).
  const subject = `${kind || 'Service'} ${title}`;
  ui.title.textContent = displayText(next.graph.variant ? fill(words.title.variant, subject, next.graph.variant) : subject, 300);
  document.title = fill(words.title.documentTitle, displayText(title, 200));
  showBanner(next);
  showClientButton(next);
  const laidFor = canvasSize();
  const layout = await chooseLayout(next);
  const laidOut = performance.now();
  // A newer trace arrived while this one was being laid out: drawing this one would show stale data (the newer
  // one sets its own title and banner).
  if (token !== pending) return;
  result = next;
  host.remember(viewState(target, next));

  const previous = drawing;
  if (selectedId && !next.graph.nodes.some((n) => n.id === selectedId)) selectedId = undefined;
  // Opening a trace with a problem shows that problem's full explanation straight away.
  if (!selectedId && previous?.key !== title) selectedId = brokenNode(next)?.id;
  draw(layout, title, previous?.key === title ? previous.panZoom.view() : undefined);
  // The panel changed size while the layout was being chosen (its resize was handled for the previous trace, or
  // not yet): choose again for the size it has now.
  if (!sameSize(laidFor, canvasSize())) onResize();
  showListView(ui.list, next.graph, openNode);
  showPacketPath();
  renders++;
  document.body.setAttribute('data-render-count', String(renders));
  document.body.setAttribute('data-render-ms', (performance.now() - started).toFixed(1));
  document.body.setAttribute('data-layout-ms', (laidOut - started).toFixed(1));
}

/** Puts a layout on the canvas, keeping the selection, keyboard focus and (for the same Service) the view. */
function draw(layout: ServicePathLayout, key: string, view: ReturnType<PanZoom['view']> | undefined): void {
  if (!result) return;
  const svg = drawServicePath(layout, key, {
    open: openNode,
    select: (n) => selectNode(n.id),
    click: (n) => {
      selectNode(n.id);
      if (selectedId === n.id) toggleDetail(false);
    },
  });
  const hadFocus = document.activeElement instanceof SVGGElement ? document.activeElement.getAttribute('data-node-id') : null;
  clear(ui.canvas);
  ui.canvas.appendChild(svg.svg);
  ui.canvas.setAttribute('data-direction', layout.direction);
  const panZoom = attachPanZoom(svg.svg, svg.viewport, layout);
  drawing = { layout, svg, panZoom, key };
  if (view && !view.auto) panZoom.restore(view);
  else panZoom.start(focusBox());
  markViewSize();
  wireNodeKeys();
  selectNode(selectedId);
  if (hadFocus) svg.nodeElements.get(hadFocus)?.focus();
}

/** The box the first view must show: the selected one (at first, the broken hop), else the broken hop. */
function focusBox(): Box | undefined {
  if (!drawing || !result) return undefined;
  const id = selectedId ?? brokenNode(result)?.id;
  const p = drawing.layout.nodes.find((n) => n.node.id === id);
  return p ? { x: p.x, y: p.y, width: p.card.width, height: p.card.height } : undefined;
}

/**
 * The layout that shows the whole path at a readable zoom (text at 10 px or more): columns left to right when they
 * fit; else the columns in two or three bands stacked top to bottom (a wide, short panel: a maximized editor on a
 * 1366×768 screen), or the columns as rows top to bottom (a narrow side panel), whichever shows it larger. When
 * none fits whole: one whose width fits, with the least panning.
 */
async function chooseLayout(trace: TraceResult): Promise<ServicePathLayout> {
  const { w, h } = canvasSize();
  const fitScale = (l: ServicePathLayout) => Math.min(1, w / Math.max(1, l.width), h / Math.max(1, l.height));
  const across = await layoutServicePath(trace.graph, 'RIGHT');
  if (fitScale(across) >= readableScale) return across;
  const tried = [across];
  // Full boxes first; boxes without their line of detail, then as wide as their text with findings on one line,
  // only when nothing else shows the whole path.
  for (const density of ['full', 'compact', 'tight'] as const) {
    const candidates: ServicePathLayout[] = [];
    // The best few cuts into bands by the estimate (ELK places each; the estimate cannot see its edge routing). Cuts
    // the estimate puts well below a readable zoom are not laid out, but for the best one (if nothing fits at all).
    const plans = planBands(trace.graph, w, h, density, readableScale);
    const likely = plans.filter((p) => p.scale >= readableScale * 0.95).slice(0, 3);
    for (const plan of likely.length ? likely : plans.slice(0, 1)) candidates.push(await layoutBands(trace.graph, plan));
    // Rows wrap to the width the panel shows at a readable zoom (less the layout's own padding).
    if (density !== 'tight') candidates.push(await layoutServicePath(trace.graph, 'DOWN', { wrapWidth: Math.max(200, w / readableScale - 40), density }));
    const fitting = candidates.filter((l) => fitScale(l) >= readableScale);
    // The largest view; a tie goes to the simpler drawing (tried first).
    if (fitting.length) return fitting.reduce((best, l) => (fitScale(l) > fitScale(best) + 0.02 ? l : best));
    tried.push(...candidates);
  }
  const widthFits = (l: ServicePathLayout) => w / Math.max(1, l.width) >= readableScale;
  const area = (l: ServicePathLayout) => Math.max(1, (l.width * readableScale) / w) * Math.max(1, (l.height * readableScale) / h);
  return tried.reduce((best, l) => (widthFits(l) !== widthFits(best) ? (widthFits(l) ? l : best) : area(l) < area(best) ? l : best));
}

/** The canvas size the drawing was last fitted to: tests wait for it to match the panel after a resize. */
function markViewSize(): void {
  document.body.setAttribute('data-view-size', `${ui.canvas.clientWidth}x${ui.canvas.clientHeight}`);
}

function sameSize(a: { w: number; h: number }, b: { w: number; h: number }): boolean {
  return a.w === b.w && a.h === b.h;
}

/** Whether the drawing's canvas is on screen, with a size of its own. */
function canvasShown(): boolean {
  return !ui.canvas.hidden && !ui.pathPanel.hidden && ui.canvas.clientWidth > 0 && ui.canvas.clientHeight > 0;
}

function canvasSize(): { w: number; h: number } {
  return { w: ui.canvas.clientWidth || window.innerWidth, h: ui.canvas.clientHeight || window.innerHeight / 2 };
}

/** The hop the trace is broken at: the node with an error finding, else the target of the first blocked edge. */
function brokenNode(trace: TraceResult): TraceNode | undefined {
  const { nodes, edges } = trace.graph;
  return (
    nodes.find((n) => n.status === 'error' && n.findings.length) ??
    nodes.find((n) => n.id === edges.find((e) => e.status === 'broken')?.to) ??
    nodes.find((n) => n.findings.length)
  );
}

/**
 * What a reload traces again: the target the host says it traced (its kind tells an Istio Gateway from a Gateway API
 * one, its file one variant from another), else the graph's subject; with the client the trace is drawn for.
 */
function viewState(target: unknown, trace: TraceResult): ViewState {
  const t = typeof target === 'object' && target !== null ? (target as Record<string, unknown>) : {};
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 && v.length <= 2048 ? v : undefined);
  const { namespace, name } = trace.graph.service;
  const kind = str(t.kind) as ViewState['kind'];
  const uri = str(t.uri);
  const client = trace.graph.client?.client;
  const same = str(t.namespace) === namespace && str(t.name) === name;
  return { ...(same && kind ? { kind } : {}), namespace, name, ...(same && uri ? { uri } : {}), ...(client ? { client } : {}) };
}

/** A Service's trace may be drawn for a client: the button names the one chosen, and asks the host to pick another. */
function showClientButton(trace: TraceResult): void {
  const forService = trace.graph.service.kind === 'Service';
  ui.clientButton.hidden = !forService;
  const c = trace.graph.client;
  ui.clientButton.textContent = displayText(c ? fill(words.toolbar.client, c.label) : words.toolbar.chooseClient, 120);
  ui.clientButton.setAttribute('aria-label', c ? fill(words.toolbar.clientLabel, displayText(c.label, 200)) : words.toolbar.chooseClientLabel);
}

/** The banner says that the path is broken and where, and offers to show that hop; the boxes say the rest. */
function showBanner(trace: TraceResult): void {
  const client = trace.graph.client;
  if (!trace.graph.broken && client && client.verdict !== 'allowed') {
    // The chosen client's answer: blocked at every pod, or not known from the manifests.
    setBanner(client.verdict === 'denied' ? 'alert' : 'status', displayText(client.text, 400));
    return;
  }
  if (!trace.graph.broken) {
    setBanner('none', '');
    return;
  }
  const at = brokenNode(trace);
  // "It stops at No endpoints" is no sentence: a Service without endpoints says so.
  const sentence = !at
    ? words.banner.broken
    : at.kind === 'no-endpoints'
      ? words.banner.noEndpoints
      : fill(words.banner.stopsAt, kindCaption[at.kind] === at.label ? at.label : `${kindCaption[at.kind]} ${at.label}`);
  setBanner('alert', displayText(sentence, 400));
  if (at) {
    const show = htmlEl('button', { type: 'button', class: 'show-broken' }, ui.banner, words.banner.show);
    show.addEventListener('click', () => {
      if (listMode) toggleList();
      switchTab('path');
      selectNode(at.id);
      const p = drawing?.layout.nodes.find((n) => n.node.id === at.id);
      if (p) drawing?.panZoom.reveal({ x: p.x, y: p.y, width: p.card.width, height: p.card.height });
      drawing?.svg.nodeElements.get(at.id)?.focus();
    });
  }
}

let resizeTimer: ReturnType<typeof setTimeout> | undefined;
/** Set when the person showed or hid the details: the resize that follows keeps the view they chose. */
let ownResize = false;
/** A panel resized (split, maximized, window resized) gets the layout and first view that suit its new size. */
/** Counts the resizes handled: a layout chosen for a size the panel has since left is dropped for the newer one. */
let resizes = 0;
function onResize(): void {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    void (async () => {
      // A hidden canvas (the list view, the packet path tab) has no size to fit to: laying out for it and keeping
      // that view when it shows again left the drawing off to one side. It is laid out when it shows again (the
      // observer sees its size come back).
      if (!result || !drawing || !canvasShown()) return;
      const shown = result;
      const mine = ++resizes;
      const laidFor = canvasSize();
      const layout = await chooseLayout(shown);
      // Another resize came while this one was being laid out: the newer one draws (its timer is already set).
      if (mine !== resizes || shown !== result || !drawing || !canvasShown() || !sameSize(laidFor, canvasSize())) return;
      const old = drawing.layout;
      if (layout.direction !== old.direction || layout.width !== old.width || layout.height !== old.height) draw(layout, drawing.key, undefined);
      else drawing.panZoom.resized(focusBox(), ownResize);
      ownResize = false;
      markViewSize();
      if (tab === 'packet' || ui.packet.childElementCount) showPacketPath();
    })();
  }, 120);
}

function showError(message: string): void {
  pending++;
  result = undefined;
  drawing = undefined;
  clear(ui.canvas);
  clear(ui.list);
  clear(ui.packet);
  showNodeDetail(ui.detailBody, { service: { kind: '', namespace: '', name: '' }, nodes: [], edges: [], broken: false }, undefined, openNode);
  setBanner('alert', displayText(message, 2000));
}

/** Double-click, Enter or "Open in editor": the node's YAML. A single click only selects. */
function openNode(node: TraceNode): void {
  selectNode(node.id);
  host.post({ type: 'reveal', nodeId: node.id });
}

function selectNode(id: string | undefined): void {
  if (drawing?.panZoom.wasDrag()) return;
  selectedId = id;
  if (!result || !drawing) return;
  for (const [nodeId, el] of drawing.svg.nodeElements) el.classList.toggle('selected', nodeId === id);
  showNodeDetail(
    ui.detailBody,
    result.graph,
    result.graph.nodes.find((n) => n.id === id),
    openNode,
  );
}

function wireNodeKeys(): void {
  if (!drawing) return;
  const { layout, svg, panZoom } = drawing;
  for (const [id, el] of svg.nodeElements) {
    el.addEventListener('keydown', (ev) => {
      const dir = directionOf(ev.key);
      if (!dir) return;
      ev.preventDefault();
      ev.stopPropagation();
      const target = neighbourOf(layout, id, dir);
      if (target) focusNode(target);
    });
    el.addEventListener('focus', () => {
      const p = layout.nodes.find((n) => n.node.id === id);
      if (p) panZoom.reveal({ x: p.x, y: p.y, width: p.card.width, height: p.card.height });
    });
  }
}

function focusNode(id: string): void {
  drawing?.svg.nodeElements.get(id)?.focus();
}

function showPacketPath(): void {
  clear(ui.packet);
  packetSvg = undefined;
  const path = result?.graph.packetPath;
  if (!path) {
    const kind = result?.graph.service.kind;
    // A Gateway's or a route's trace ends at the Services it leads to; the packet path is drawn per Service.
    const why = kind && kind !== 'Service' && kind !== 'ExternalName' ? fill(words.packet.notService, kind) : words.packet.none;
    htmlEl('p', { class: 'hint' }, ui.packet, why);
    return;
  }
  htmlEl('p', { class: 'packet-intro' }, ui.packet, displayText(path.cni ? fill(words.packet.intro, path.cni) : words.packet.introGeneric, 400));
  const switcher = htmlEl('div', { class: 'variant-switch', role: 'group', 'aria-label': words.packet.where }, ui.packet);
  const choices: readonly [Variant, string][] = [
    ['sameNode', words.packet.sameNode],
    ['crossNode', words.packet.crossNode],
  ];
  for (const [v, label] of choices) {
    const b = htmlEl('button', { type: 'button', 'aria-pressed': String(v === variant), 'data-variant': v }, switcher, label);
    b.addEventListener('click', () => {
      variant = v;
      showPacketPath();
    });
  }
  const hops = variant === 'sameNode' ? path.sameNode : path.crossNode;
  const title = choices.find(([v]) => v === variant)![1];
  // The room the packet path's own box leaves (less a scrollbar's width): zero while its tab is hidden.
  const available = (ui.packet.clientWidth || document.body.clientWidth - 24) - 16;
  packetSvg = drawPacketPath(hops, fill(words.packet.drawing, title), Math.min(packetPathWideWidth, available));
  htmlEl('div', { class: 'packet-drawing' }, ui.packet).appendChild(packetSvg);
}

/** Below the drawing (narrow panels), the details start hidden, so the drawing keeps its room; a click shows them. */
function narrow(): boolean {
  return window.innerWidth <= 1100;
}

function toggleDetail(collapsed = !ui.detail.classList.contains('collapsed')): void {
  if (collapsed === ui.detail.classList.contains('collapsed')) return;
  ui.detail.classList.toggle('collapsed', collapsed);
  ui.detailToggle.textContent = collapsed ? words.legend.showDetails : words.legend.hideDetails;
  ui.detailToggle.setAttribute('aria-expanded', String(!collapsed));
  ownResize = true;
  onResize();
}

function setBanner(kind: 'alert' | 'status' | 'none', text: string): void {
  ui.banner.className = `banner banner-${kind}`;
  ui.banner.textContent = text;
  ui.banner.hidden = kind === 'none';
}

function switchTab(next: Tab): void {
  tab = next;
  ui.pathTab.setAttribute('aria-selected', String(tab === 'path'));
  ui.packetTab.setAttribute('aria-selected', String(tab === 'packet'));
  ui.pathTab.tabIndex = tab === 'path' ? 0 : -1;
  ui.packetTab.tabIndex = tab === 'packet' ? 0 : -1;
  ui.pathPanel.hidden = tab !== 'path';
  ui.packetPanel.hidden = tab !== 'packet';
  // Drawn while hidden, it was sized for the whole page: now it can take its panel's real width.
  if (tab === 'packet' && result) showPacketPath();
  for (const b of ui.pathOnly) b.disabled = tab !== 'path' || listMode;
}

function toggleList(): void {
  listMode = !listMode;
  ui.listToggle.setAttribute('aria-pressed', String(listMode));
  ui.canvas.hidden = listMode;
  ui.list.hidden = !listMode;
  for (const b of ui.pathOnly) b.disabled = listMode;
}

function saveSvg(): void {
  const background = getComputedStyle(document.body).backgroundColor;
  if (tab === 'packet' && packetSvg) {
    host.post({ type: 'saveSvg', svg: exportSvg(packetSvg, Number(packetSvg.getAttribute('width')), Number(packetSvg.getAttribute('height')), background) });
  } else if (drawing) {
    host.post({ type: 'saveSvg', svg: exportSvg(drawing.svg.svg, drawing.layout.width, drawing.layout.height, background) });
  }
}

function buildShell() {
  const body = document.body;
  const toolbar = htmlEl('header', { class: 'toolbar' }, body);
  const title = htmlEl('h1', { class: 'title' }, toolbar, words.page.title);
  const tabs = htmlEl('div', { class: 'tabs', role: 'tablist', 'aria-label': words.toolbar.views }, toolbar);
  const pathTab = htmlEl(
    'button',
    { type: 'button', role: 'tab', id: 'tab-path', 'aria-controls': 'panel-path', 'aria-selected': 'true' },
    tabs,
    words.toolbar.servicePath,
  );
  const packetTab = htmlEl(
    'button',
    { type: 'button', role: 'tab', id: 'tab-packet', 'aria-controls': 'panel-packet', 'aria-selected': 'false', tabindex: -1 },
    tabs,
    words.toolbar.packetPath,
  );
  const actions = htmlEl('div', { class: 'actions' }, toolbar);
  const listToggle = htmlEl('button', { type: 'button', 'aria-pressed': 'false', class: 'list-toggle' }, actions, words.toolbar.listView);
  const zoomOut = htmlEl('button', { type: 'button', 'aria-label': words.toolbar.zoomOut, title: words.toolbar.zoomOutKey }, actions, '−');
  const zoomIn = htmlEl('button', { type: 'button', 'aria-label': words.toolbar.zoomIn, title: words.toolbar.zoomInKey }, actions, '+');
  const fit = htmlEl('button', { type: 'button', 'aria-label': words.toolbar.fitLabel, title: words.toolbar.fitKey }, actions, words.toolbar.fit);
  const clientButton = htmlEl('button', { type: 'button', class: 'pick-client' }, actions, words.toolbar.chooseClient);
  clientButton.hidden = true;
  const copy = htmlEl('button', { type: 'button', class: 'copy-mermaid' }, actions, words.toolbar.copyMermaid);
  const save = htmlEl('button', { type: 'button', class: 'save-svg' }, actions, words.toolbar.saveSvg);
  const banner = htmlEl('div', { class: 'banner', role: 'status', 'aria-live': 'polite' }, body);
  banner.hidden = true;

  const pathPanel = htmlEl('main', { class: 'panel path-panel', id: 'panel-path', role: 'tabpanel', 'aria-labelledby': 'tab-path' }, body);
  const canvas = htmlEl(
    'div',
    {
      class: 'canvas',
      tabindex: 0,
      'aria-label': words.canvas.label,
    },
    pathPanel,
  );
  const list = htmlEl('div', { class: 'list-view', 'aria-label': words.canvas.list }, pathPanel);
  list.hidden = true;
  const detail = htmlEl('aside', { class: 'detail', id: 'detail', 'aria-label': words.canvas.details }, pathPanel);
  const detailBody = htmlEl('div', { class: 'detail-body', 'aria-live': 'polite' }, detail);
  const packetPanel = htmlEl('section', { class: 'panel packet-panel', id: 'panel-packet', role: 'tabpanel', 'aria-labelledby': 'tab-packet' }, body);
  packetPanel.hidden = true;
  const packet = htmlEl('div', { class: 'packet' }, packetPanel);

  const legend = htmlEl('footer', { class: 'legend', 'aria-label': words.legend.label }, body);
  for (const status of ['ok', 'conditional', 'warning', 'error'] as const) {
    htmlEl('span', { class: `legend-item status-${status}` }, legend, `${statusMarker[status].symbol} ${statusMarker[status].word}`);
  }
  htmlEl('span', { class: 'legend-item legend-broken' }, legend, `╌╌▶ ${words.legend.blocked}`);
  // Below the drawing (narrow panels) the details can be hidden; the toggle sits in the legend so it costs no row of its own.
  const detailToggle = htmlEl(
    'button',
    { type: 'button', class: 'detail-toggle', 'aria-expanded': 'true', 'aria-controls': 'detail' },
    legend,
    words.legend.hideDetails,
  );
  htmlEl('span', { class: 'legend-hint' }, legend, words.legend.hint);

  pathTab.addEventListener('click', () => switchTab('path'));
  packetTab.addEventListener('click', () => switchTab('packet'));
  tabs.addEventListener('keydown', (ev) => {
    if (ev.key !== 'ArrowLeft' && ev.key !== 'ArrowRight') return;
    switchTab(tab === 'path' ? 'packet' : 'path');
    (tab === 'path' ? pathTab : packetTab).focus();
  });
  listToggle.addEventListener('click', () => toggleList());
  zoomOut.addEventListener('click', () => drawing?.panZoom.zoomBy(1 / 1.2));
  zoomIn.addEventListener('click', () => drawing?.panZoom.zoomBy(1.2));
  fit.addEventListener('click', () => drawing?.panZoom.fit());
  copy.addEventListener('click', () => host.post({ type: 'copyMermaid' }));
  clientButton.addEventListener('click', () => host.post({ type: 'pickClient' }));
  save.addEventListener('click', () => saveSvg());
  canvas.addEventListener('keydown', (ev) => {
    if (drawing && handlePanZoomKey(drawing.panZoom, ev)) ev.preventDefault();
  });
  detailToggle.addEventListener('click', () => toggleDetail());
  if (narrow()) {
    detail.classList.add('collapsed');
    detailToggle.textContent = words.legend.showDetails;
    detailToggle.setAttribute('aria-expanded', 'false');
  }
  new ResizeObserver(() => onResize()).observe(canvas);
  showNodeDetail(detailBody, { service: { kind: '', namespace: '', name: '' }, nodes: [], edges: [], broken: false }, undefined, () => undefined);
  return {
    title,
    pathTab,
    packetTab,
    listToggle,
    clientButton,
    banner,
    pathPanel,
    packetPanel,
    canvas,
    list,
    detail,
    detailToggle,
    detailBody,
    packet,
    pathOnly: [zoomOut, zoomIn, fit],
  };
}
