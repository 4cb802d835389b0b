// The trace view and the Service hover as a person meets them in a real VS Code (code-server), at the sizes people
// use: a side-by-side panel on a 1366×768 and on a 1920×1080 window, and a maximized editor. Every claim is measured
// in the page (the webview's own layout), and each size leaves a screenshot under test-results/e2e/. `npm run
// screenshots` also writes the ones that document the product to docs/screenshots/ (see docs/screenshots/README.md).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { type TraceMeasure, inside, measureScript, overlapArea } from '../helpers/traceMeasure';
import { goTo, hoverAtCursor, pickWithKeyboard, openEditor, openFile, patience, readWorkspaceFile, runCommand, webviewText, type Editor } from './harness';

const scenarioTimeout = 4 * patience;
let editor: Editor;

function scenario(title: string, name: string, body: (page: Page) => Promise<void>): void {
  it(title, { timeout: scenarioTimeout }, async () => {
    try {
      await body(editor.page);
    } catch (e) {
      await editor.screenshot(`${name}-failed`).catch(() => undefined);
      throw e;
    }
  });
}

/** 1-based line and column just inside the value of the first line matching `field` after the line matching `after`. */
function positionOf(file: string, after: RegExp, field: RegExp): { line: number; column: number } {
  const lines = readWorkspaceFile(editor, file).split('\n');
  const from = lines.findIndex((l) => after.test(l));
  const at = lines.findIndex((l, i) => i >= from && field.test(l));
  assert.ok(from >= 0 && at >= 0, `${file}: no ${field} after ${after}`);
  const m = field.exec(lines[at])!;
  return { line: at + 1, column: m.index + m[0].length + 2 };
}

/** The trace webview frame showing `service` (namespace/name), once drawn. */
async function traceFrame(page: Page, service: string): Promise<Frame> {
  const { frame } = await webviewText(page, `Service ${service}`);
  await frame.waitForSelector('.trace-svg .node');
  return frame;
}

async function measure(frame: Frame, nodeId: string | null = null): Promise<TraceMeasure> {
  return (await frame.evaluate(measureScript(nodeId))) as TraceMeasure;
}

/** The trace panel's webview as the workbench lays it out (its iframe's box in the page). */
async function webviewBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  const boxes = await page.locator('iframe.webview.ready').evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
  const shown = boxes.filter((b) => b.width > 0 && b.height > 0);
  assert.equal(shown.length, 1, `one trace webview on screen, got ${JSON.stringify(boxes)}`);
  return shown[0];
}

/**
 * Resizes the window and waits until the trace webview's frame has taken its new size: until then the view is
 * still laid out, and settled, for the old one.
 */
async function resizeWindow(page: Page, frame: Frame, size: { width: number; height: number }): Promise<void> {
  const before = await webviewBox(page);
  await page.setViewportSize(size);
  const deadline = Date.now() + patience;
  for (;;) {
    const box = await webviewBox(page);
    const inner = await frame.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
    const moved = Math.abs(box.width - before.width) > 1 || Math.abs(box.height - before.height) > 1;
    if (moved && Math.abs(inner.width - box.width) <= 1 && Math.abs(inner.height - box.height) <= 1) return;
    assert.ok(
      Date.now() < deadline,
      `the trace webview takes the new window size ${JSON.stringify(size)} (frame ${JSON.stringify(inner)}, box ${JSON.stringify(box)})`,
    );
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the webview has been laid out for its current size (it redraws after a resize settles). */
async function settled(frame: Frame): Promise<void> {
  await frame.waitForFunction(
    () => {
      const svg = document.querySelector('.trace-svg') as SVGSVGElement | null;
      const canvas = document.querySelector('.canvas') as HTMLElement | null;
      if (!svg || !canvas) return false;
      const size = `${canvas.clientWidth}x${canvas.clientHeight}`;
      // The view redraws after a resize settles; until then it still shows the layout for the old size.
      if (document.body.getAttribute('data-view-size') !== size) return false;
      const key = `${size}:${svg.querySelector('[data-viewport]')?.getAttribute('transform')}`;
      const last = (window as unknown as { __lastKey?: string }).__lastKey;
      (window as unknown as { __lastKey?: string }).__lastKey = key;
      return last === key;
    },
    undefined,
    { polling: 300 },
  );
}

/**
 * The checks of every size: text at 10 px or more, the whole path inside the visible canvas (so the broken hop too),
 * nothing cut off.
 */
function assertReadable(m: TraceMeasure, where: string, broken: boolean): void {
  assert.ok(m.minTextPx >= 10, `${where}: the smallest text of the drawing is ${m.minTextPx.toFixed(2)} px`);
  assert.ok(m.canvas.bottom - m.canvas.top >= 200 && m.canvas.right - m.canvas.left >= 200, `${where}: the canvas keeps its room ${JSON.stringify(m.canvas)}`);
  assert.ok(!m.overflowsSideways, `${where}: nothing is wider than the panel`);
  assert.ok(
    m.drawing && m.drawing.left >= m.canvas.left - 1 && m.drawing.right <= m.canvas.right + 1,
    `${where}: the path fits across the panel (${JSON.stringify(m.drawing)} in ${JSON.stringify(m.canvas)})`,
  );
  assert.ok(m.drawing && inside(m.drawing, m.canvas), `${where}: the whole path is in view (${JSON.stringify(m.drawing)} in ${JSON.stringify(m.canvas)})`);
  if (broken)
    assert.ok(
      m.focusNode && inside(m.focusNode, m.canvas),
      `${where}: the broken hop ${JSON.stringify(m.focusNode)} is inside the visible canvas ${JSON.stringify(m.canvas)}`,
    );
}

/** Keyboard focus may be inside a webview, which keeps F1 from the workbench: a click on the side bar's title takes it back. */
async function focusWorkbench(page: Page): Promise<void> {
  await page.locator('.part.sidebar .composite.title').first().click();
}

async function editorTabs(page: Page): Promise<string[]> {
  return (await page.locator('.tabs-container .tab').allInnerTexts()).map((t) => t.trim());
}

async function traceService(page: Page, name: string): Promise<void> {
  await runCommand(page, 'Kubernetes: Trace Service');
  const input = page.locator('.quick-input-widget input');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
  await input.fill(name);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: name }).waitFor();
  await page.keyboard.press('Enter');
}

describe('the trace view and the Service hover at the sizes people use (code-server)', { timeout: 14 * patience }, () => {
  before(
    async () => {
      // Two Kustomize overlays of one base: the picker lists its Service once per build root.
      editor = await openEditor({ extraFolders: { builds: 'test/fixtures/lsp/kustomize-builds' } });
      await editor.page.setViewportSize({ width: 1366, height: 768 });
    },
    { timeout: 5 * patience },
  );

  after(async () => {
    const closed = await editor?.close();
    // Stopping the editor with the extension busy (traces open, hovers asked) leaves no errors behind.
    assert.deepEqual(closed?.extensionHostErrors ?? [], [], 'the extension logs no errors while the editor shuts down');
  });

  scenario(
    'from a Service in the editor, the picker starts on that Service and the trace opens beside it, readable at 1366×768',
    'trace-1366-side',
    async (page) => {
      await openFile(page, 'frontend.yaml');
      const at = positionOf('frontend.yaml', /^kind: Service/, /^ {2}name: /);
      await goTo(page, at.line, at.column);
      await runCommand(page, 'Kubernetes: Trace Service');
      const focused = page.locator('.quick-input-list .monaco-list-row.focused');
      await focused.filter({ hasText: 'frontend' }).waitFor();
      assert.match(await focused.innerText(), /at the cursor/, 'the Service under the cursor is preselected and says so');
      await page.keyboard.press('Enter');
      const frame = await traceFrame(page, 'shop/frontend');
      await settled(frame);
      const box = await webviewBox(page);
      assert.ok(box.x > 300, `the trace opened beside the YAML, not over it (x=${box.x})`);
      const m = await measure(frame);
      assertReadable(m, `side-by-side at 1366×768 (${Math.round(box.width)} px panel)`, true);
      await editor.screenshot('trace-1366-side-broken', { doc: true });
      await frame.getByRole('tab', { name: 'Packet path' }).click();
      const packet = await frame.locator('.packet').innerText();
      assert.match(packet, /no endpoint to DNAT to/, 'the packet path stops where the Service path does');
      assert.match(packet, /connection refused/);
      assert.doesNotMatch(packet, /eth0 \(target pod\)|container port/, 'no delivery to a pod is drawn');
      await editor.screenshot('trace-1366-side-broken-packet', { doc: true });
      await frame.getByRole('tab', { name: 'Service path' }).click();
    },
  );

  scenario(
    'Fit then zoom in twice keeps the drawing in view; a click selects and opens nothing; double-click opens the YAML and the trace keeps its width',
    'trace-interaction',
    async (page) => {
      const frame = await traceFrame(page, 'shop/frontend');
      await frame.getByRole('button', { name: 'Fit to window' }).click();
      const fitted = await measure(frame);
      assert.ok(fitted.drawing && inside(fitted.drawing, fitted.canvas), 'Fit shows the whole drawing');
      await frame.getByRole('button', { name: 'Zoom in' }).click();
      await frame.getByRole('button', { name: 'Zoom in' }).click();
      const zoomed = await measure(frame);
      const canvasArea = (zoomed.canvas.right - zoomed.canvas.left) * (zoomed.canvas.bottom - zoomed.canvas.top);
      const needed = Math.min(canvasArea, overlapArea(fitted.drawing!, fitted.canvas)) * 0.9;
      assert.ok(overlapArea(zoomed.drawing!, zoomed.canvas) >= needed, 'after Fit, +, + the drawing still fills the view');

      // Back to a view where every box can be clicked.
      await frame.getByRole('button', { name: 'Fit to window' }).click();
      const tabs = await editorTabs(page);
      const ingressNode = frame.locator('.trace-svg .node.kind-ingress').first();
      await ingressNode.click();
      await frame.locator('.trace-svg .node.kind-ingress.selected').waitFor();
      await frame.locator('.detail-body', { hasText: 'Ingress rule' }).waitFor();
      // A reveal the click might have sent would arrive before the one the double-click below sends.
      await frame.locator('.trace-svg .node.kind-dns').first().dblclick();
      const name = positionOf('frontend.yaml', /^kind: Service/, /^ {2}name: /);
      await page.waitForFunction(
        (line) => (document.querySelector('.statusbar-item[id="status.editor.selection"]')?.textContent ?? '').includes(`Ln ${line},`),
        name.line,
      );
      assert.deepEqual(await editorTabs(page), tabs, 'a single click opened no editor');

      const before = await webviewBox(page);
      await ingressNode.dblclick();
      await page.locator('.tab', { hasText: 'ingress.yaml' }).waitFor();
      const after = await webviewBox(page);
      assert.ok(after.width >= before.width * 0.9, `opening the YAML keeps the trace's width (${before.width} → ${after.width})`);
      await editor.screenshot('trace-1366-yaml-opened', { doc: true });
    },
  );

  scenario('a second trace opens in the trace group as a tab; healthy Service readable at 1366×768', 'trace-1366-healthy', async (page) => {
    const groups = await page.locator('.editor-group-container').count();
    await traceService(page, 'api');
    const frame = await traceFrame(page, 'shop/api');
    await settled(frame);
    assert.equal(await page.locator('.editor-group-container').count(), groups, 'no new editor group for the second trace');
    assert.ok(
      (await editorTabs(page)).some((t) => t.includes('Trace: shop/frontend')),
      'the first trace is a tab of the same group',
    );
    // The demo's longest path (twelve boxes: Gateway, Ingress, two ports, a policy) in a 508×~570 px canvas.
    assertReadable(await measure(frame), 'healthy side-by-side at 1366×768', false);
    await editor.screenshot('trace-1366-side-healthy', { doc: true });
  });

  scenario('side by side on a 1920×1080 window: healthy and broken', 'trace-1920-side', async (page) => {
    let frame = await traceFrame(page, 'shop/api');
    await resizeWindow(page, frame, { width: 1920, height: 1080 });
    await settled(frame);
    assertReadable(await measure(frame), 'healthy side-by-side at 1920×1080', false);
    await editor.screenshot('trace-1920-side-healthy', { doc: true });
    await page.locator('.tab', { hasText: 'Trace: shop/frontend' }).click();
    frame = await traceFrame(page, 'shop/frontend');
    await settled(frame);
    assertReadable(await measure(frame), 'broken side-by-side at 1920×1080', true);
    await editor.screenshot('trace-1920-side-broken', { doc: true });
  });

  scenario('maximized on 1920×1080 and on 1366×768: healthy and broken', 'trace-maximized', async (page) => {
    await focusWorkbench(page);
    await runCommand(page, 'View: Toggle Maximize Editor Group');
    let frame = await traceFrame(page, 'shop/frontend');
    await settled(frame);
    const box = await webviewBox(page);
    assert.ok(box.width > 1400, `the trace has the editor area (${box.width} px)`);
    assertReadable(await measure(frame), 'broken maximized at 1920×1080', true);
    await editor.screenshot('trace-1920-maximized-broken', { doc: true });
    await resizeWindow(page, frame, { width: 1366, height: 768 });
    await settled(frame);
    assertReadable(await measure(frame), 'broken maximized at 1366×768', true);
    await editor.screenshot('trace-1366-maximized-broken', { doc: true });
    await page.locator('.tab', { hasText: 'Trace: shop/api' }).click();
    frame = await traceFrame(page, 'shop/api');
    await settled(frame);
    assertReadable(await measure(frame), 'healthy maximized at 1366×768', false);
    await editor.screenshot('trace-1366-maximized-healthy', { doc: true });
    await resizeWindow(page, frame, { width: 1920, height: 1080 });
    await settled(frame);
    assertReadable(await measure(frame), 'healthy maximized at 1920×1080', false);
    await editor.screenshot('trace-1920-maximized-healthy', { doc: true });
    await focusWorkbench(page);
    await runCommand(page, 'View: Toggle Maximize Editor Group');
  });

  scenario('the Service hover is short: what it is, whether it works, the name, the ports, the trace link', 'hover-service', async (page) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await focusWorkbench(page);
    await runCommand(page, 'View: Close All Editors');
    await page.locator('.editor-group-container .tab').first().waitFor({ state: 'detached' });
    await openFile(page, 'api.yaml');
    const at = positionOf('api.yaml', /^kind: Service/, /^ {2}name: /);
    await goTo(page, at.line, at.column);
    const text = await hoverAtCursor(page, 'Trace this Service');
    const lines = text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    assert.ok(lines.length <= 15, `the default hover fits in 15 lines, got ${lines.length}:\n${text}`);
    assert.match(lines[0], /Service.*api/, 'first line: what it is');
    assert.match(text, /Deployment[\s\S]*×3/, 'whether it works: the workload and its replicas');
    assert.match(text, /api\.shop\.svc\.cluster\.local/, 'the name clients use');
    assert.doesNotMatch(text, /_tcp|in-addr\.arpa|API_SERVICE_HOST/, 'SRV, PTR and environment variables wait behind "more"');
    // The hover fades in: the screenshot waits until it is fully drawn.
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('.monaco-hover')).some((e) => (e as HTMLElement).offsetParent !== null && getComputedStyle(e).opacity === '1'),
    );
    await editor.screenshot('hover-service-api', { doc: true });
    await page.locator('.monaco-hover-content a', { hasText: 'All DNS records' }).click();
    const { text: details } = await webviewText(page, '_http._tcp.api.shop.svc.cluster.local');
    assert.match(details, /API_SERVICE_HOST/, 'the second level lists the environment variables');
    await page.keyboard.press('Escape');
    await page
      .locator('.monaco-hover-content')
      .first()
      .waitFor({ state: 'hidden' })
      .catch(() => undefined);
    await editor.screenshot('hover-service-details', { doc: true });
  });
  scenario(
    'targetPort: the hover says which container port each workload resolves it to, and the quick fix offers the near-miss name',
    'target-port',
    async (page) => {
      await focusWorkbench(page);
      await runCommand(page, 'View: Close All Editors');
      await openFile(page, 'api.yaml');
      const at = positionOf('api.yaml', /^ {4}- name: metrics$/, /targetPort: /);
      await goTo(page, at.line, at.column);
      const text = await hoverAtCursor(page, /http-metrics/);
      assert.match(text, /Deployment/, 'the hover names the selected workload');
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll('.monaco-hover')).some((e) => (e as HTMLElement).offsetParent !== null && getComputedStyle(e).opacity === '1'),
      );
      await editor.screenshot('hover-target-port', { doc: true });
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+.');
      const rows = page.locator('.action-widget .monaco-list-row');
      await rows.filter({ hasText: 'Change targetPort to "metrics"' }).waitFor();
      await editor.screenshot('quick-fix-target-port', { doc: true });
      await pickWithKeyboard(page, rows, 'Change targetPort to "metrics"');
      await page.waitForFunction(() =>
        ((document.querySelector('.editor-group-container.active .monaco-editor .view-lines') as HTMLElement | null)?.innerText ?? '')
          .replace(/\u00a0/g, ' ')
          .includes('targetPort: metrics'),
      );
    },
  );

  scenario('a pod subdomain without its Service: the quick fix offers to create the headless Service', 'quick-fix-subdomain', async (page) => {
    await openFile(page, 'debug.yaml');
    const at = positionOf('debug.yaml', /^kind: Pod/, /^ {2}subdomain: /);
    await goTo(page, at.line, at.column);
    await page.keyboard.press('Control+.');
    await page.locator('.action-widget .monaco-list-row', { hasText: 'Create headless Service "debug"' }).waitFor();
    await editor.screenshot('quick-fix-subdomain', { doc: true });
    await page.keyboard.press('Escape');
  });

  scenario('the picker lists a Service of a Kustomize base once per build root; the trace follows that build; the list view', 'picker-builds', async (page) => {
    await runCommand(page, 'Kubernetes: Trace Service');
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'api' }).first().waitFor();
    await input.fill('web');
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: /build \S*overlays\/prod/ }).waitFor();
    await rows.filter({ hasText: /build \S*overlays\/staging/ }).waitFor();
    await editor.screenshot('picker-same-name-builds', { doc: true });
    await pickWithKeyboard(page, rows, /build \S*overlays\/prod/);
    // prod patches the Deployment to four replicas; staging keeps one.
    const { frame } = await webviewText(page, 'Deployment web ×4');
    await frame.getByRole('button', { name: 'List view' }).click();
    const list = await frame.locator('.list-view').innerText();
    assert.match(list, /Deployment web ×4/);
    assert.doesNotMatch(list, /red markers|No request can reach a pod/, 'the list does not repeat the banner');
    await editor.screenshot('trace-list-view', { doc: true });
  });
});
