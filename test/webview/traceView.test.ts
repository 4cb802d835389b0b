// The trace webview rendered in headless Chromium from fixture traces: drawing, findings, keyboard, list view,
// packet path, exports, live update, speed on a large Service, and strings from YAML that try to become markup.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { checkSvg } from '../../client/src/svgCheck';
import type { TraceNode, TraceResult } from '../../server/src/protocol';
import { type TraceMeasure, inside, measureScript, overlapArea } from '../helpers/traceMeasure';
import { type Theme, type ViewPage, bundleWebview, launchChromium, loadFixture, openView, resultsDir } from './tracePage';

let browser: Browser;

before(async () => {
  mkdirSync(resultsDir, { recursive: true });
  await bundleWebview();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

async function withView(fixture: TraceResult, body: (v: ViewPage) => Promise<void>, theme: Theme = 'light'): Promise<void> {
  const v = await openView(browser, theme);
  try {
    await v.sendTrace(fixture);
    await body(v);
  } finally {
    await v.close();
  }
}

const nodeSel = (id: string) => `.trace-svg [data-node-id="${id}"]`;
const focusedId = (v: ViewPage) => v.page.evaluate(() => document.activeElement?.getAttribute('data-node-id') ?? null);

describe('trace webview: Service path', () => {
  it('draws every node and edge of a healthy Deployment Service, with its texts and column titles', async () => {
    const fixture = loadFixture('healthy-deployment');
    await withView(fixture, async (v) => {
      const { page } = v;
      assert.equal(await page.locator('.trace-svg .node').count(), fixture.graph.nodes.length);
      assert.equal(await page.locator('.trace-svg .edge').count(), fixture.graph.edges.length);
      for (const n of fixture.graph.nodes) {
        const text = await page.locator(nodeSel(n.id)).textContent();
        assert.ok(text?.includes(n.label), `node ${n.id} shows its label "${n.label}", got ${text}`);
      }
      const titles = await page.locator('.column-title').allTextContents();
      assert.deepEqual(titles, ['How clients reach it', 'Service', 'kube-proxy', 'Endpoints (pods)', 'Container port', 'NetworkPolicy']);
      // Columns run in traffic order, read as text is: left to right in each band, bands top to bottom (one band
      // when they fit across; one row per column when the panel is too narrow for them).
      const at = await page.locator('.column-title').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('y')), Number(e.getAttribute('x'))] as const));
      const reading = [...at].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      assert.deepEqual(reading, at);
      assert.equal(await page.locator('.trace-svg .edge-broken').count(), 0);
      assert.equal(await page.locator('.banner-alert').count(), 0);
      assert.match((await page.locator(nodeSel('endpoints:Deployment/api')).textContent()) ?? '', /3 pods · Ready only/);
      assert.match((await page.locator('.title').textContent()) ?? '', /Service shop\/api/);
      const posted = await v.posted();
      assert.equal(posted[0].type, 'ready');
      assert.deepEqual(await page.evaluate(() => (window as unknown as { __state: unknown }).__state), { namespace: 'shop', name: 'api' });
      await page.screenshot({ path: join(resultsDir, 'healthy-deployment-light.png') });
    });
  });

  it('puts the broken-serviceName finding on the StatefulSet hops, shows stable pod names, and dashes the broken edge red', async () => {
    const fixture = loadFixture('statefulset-broken-servicename');
    await withView(fixture, async (v) => {
      const { page } = v;
      const withFindings = fixture.graph.nodes
        .filter((n) => n.findings.length)
        .map((n) => n.id)
        .sort();
      const marked = (await page.locator('.trace-svg .node:has(.finding-marker)').evaluateAll((els) => els.map((e) => e.getAttribute('data-node-id')))).sort();
      assert.deepEqual(marked, withFindings);
      const sts = page.locator(nodeSel('endpoints:StatefulSet/db'));
      assert.match((await sts.textContent()) ?? '', /3 pods: db-0, db-1, db-2/);
      assert.match((await sts.textContent()) ?? '', /No Service named "db-headles"/);
      assert.match((await sts.locator('.finding-marker title').textContent()) ?? '', /db-headles/);
      const broken = page.locator('.trace-svg .edge-broken[data-from="entry:dns:pods"][data-to="service"]');
      assert.equal(await broken.count(), 1);
      const style = await broken.locator('.edge-line').evaluate((e) => {
        const s = getComputedStyle(e);
        return { dash: s.strokeDasharray, stroke: s.stroke };
      });
      assert.notEqual(style.dash, 'none');
      assert.equal(style.stroke, 'rgb(161, 38, 13)', 'broken edges use the theme error colour');
      // The worst problem is selected on open, so its full message is readable without a click.
      assert.match((await page.locator('.detail').textContent()) ?? '', /never resolves/);
      await page.screenshot({ path: join(resultsDir, 'statefulset-broken-servicename-light.png') });
    });
  });

  it('draws a Service without endpoints as broken, with the selector finding on the endpoints hop', async () => {
    const fixture = loadFixture('no-endpoints');
    await withView(fixture, async (v) => {
      const { page } = v;
      assert.match((await page.locator('.banner-alert').textContent()) ?? '', /No request can reach a pod/);
      assert.equal(await page.locator('.trace-svg .edge-broken[data-from="proxy"][data-to="endpoints:none"]').count(), 1);
      const none = page.locator(nodeSel('endpoints:none'));
      assert.match((await none.getAttribute('class')) ?? '', /status-error/);
      assert.match((await none.textContent()) ?? '', /✖ No endpoints/);
      assert.match((await none.textContent()) ?? '', /app: order matches no pod/);
      assert.match((await none.getAttribute('aria-label')) ?? '', /Status: broken/);
    });
  });

  it('draws an ExternalName Service as DNS entries to a CNAME, without kube-proxy or pods', async () => {
    const fixture = loadFixture('external-name');
    await withView(fixture, async (v) => {
      const { page } = v;
      assert.match((await page.locator(nodeSel('service')).textContent()) ?? '', /ExternalName → payments\.example\.net/);
      assert.equal(await page.locator('.trace-svg .kind-kube-proxy').count(), 0);
      assert.deepEqual(await page.locator('.column-title').allTextContents(), ['How clients reach it', 'Service']);
    });
  });

  it('shows NodePort and Ingress entries, with the unroutable Ingress path marked on its own entry', async () => {
    const fixture = loadFixture('nodeport-ingress');
    await withView(fixture, async (v) => {
      const { page } = v;
      assert.match((await page.locator(nodeSel('entry:nodeport:0')).textContent()) ?? '', /<NodeIP>:30080/);
      const bad = page.locator(nodeSel('entry:ingress:frontend/web:1'));
      assert.match((await bad.textContent()) ?? '', /www\.example\.com\/static/);
      assert.equal(await bad.locator('.finding-marker').count(), 1);
      assert.equal(await page.locator(nodeSel('entry:ingress:frontend/web:0')).locator('.finding-marker').count(), 0);
      assert.equal(await page.locator('.trace-svg .edge-broken[data-from="entry:ingress:frontend/web:1"]').count(), 1);
      await page.screenshot({ path: join(resultsDir, 'nodeport-ingress-light.png') });
    });
  });

  it('renders 200 endpoints across 20 workloads as 20 groups rather than 200 boxes, and reports its render time', async () => {
    const fixture = loadFixture('large-200-endpoints');
    const v = await openView(browser, 'light');
    try {
      await v.page.waitForSelector('body[data-layout-warm]');
      // Best of three full renders, to keep other processes' load out of the figure. Each attempt changes one
      // label's width, so the layout is computed afresh instead of reused from the previous render.
      const times: number[] = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        const variant = structuredClone(fixture) as unknown as { graph: { nodes: { label: string }[] } };
        variant.graph.nodes[4].label += ' '.repeat(attempt) + 'x'.repeat(attempt * 6);
        await v.sendTrace(variant);
        times.push(Number(await v.page.evaluate(() => document.body.getAttribute('data-render-ms'))));
        if (times[times.length - 1] < 1000) break;
      }
      const ms = Math.min(...times);
      console.log(`render time for 200 endpoints / 20 workloads, measured in the page: ${ms} ms (attempts: ${times.join(', ')} ms)`);
      // The one-second target is a benchmark figure (printed here), not an assertion: shared machines are noisy.
      assert.ok(Number.isFinite(ms) && ms > 0, `no render time reported (${times.join(', ')})`);
      assert.equal(await v.page.locator('.trace-svg .kind-workload').count(), 20);
      const pods = await v.page.locator('.trace-svg .kind-workload .line-pods').allTextContents();
      assert.equal(pods.length, 20);
      assert.ok(pods.every((p) => p.startsWith('10 pods')));
      assert.equal(await v.page.locator('.trace-svg .node').count(), fixture.graph.nodes.length);
      await v.page.screenshot({ path: join(resultsDir, 'large-200-endpoints-light.png') });
    } finally {
      await v.close();
    }
  });
});

describe('trace webview: readable where it opens', () => {
  // Side panels of 450 px and more, the two side-by-side sizes people use, and maximized editors.
  const sizes = [
    [320, 600],
    [450, 600],
    [683, 680],
    [960, 990],
    [1366, 700],
    [1920, 990],
  ] as const;
  for (const [width, height] of sizes) {
    it(`at ${width}×${height}: the whole path in view, text at 10 px or more, the broken hop in view, nothing collapsed`, async () => {
      for (const name of ['no-endpoints', 'healthy-deployment', 'nodeport-ingress', 'examples-api', 'examples-frontend']) {
        const v = await openView(browser, 'dark', { width, height });
        try {
          await v.sendTrace(loadFixture(name));
          const m = (await v.page.evaluate(measureScript())) as TraceMeasure;
          const where = `${name} at ${width}×${height} (${m.direction})`;
          assert.ok(
            m.canvas.bottom - m.canvas.top >= 200 && m.canvas.right - m.canvas.left >= 200,
            `${where}: the canvas keeps its room: ${JSON.stringify(m.canvas)}`,
          );
          assert.ok(!m.overflowsSideways, `${where}: nothing is wider than the panel`);
          assert.ok(m.minTextPx >= 10, `${where}: smallest text ${m.minTextPx.toFixed(2)} px`);
          assert.ok(
            m.drawing && m.drawing.left >= m.canvas.left - 1 && m.drawing.right <= m.canvas.right + 1,
            `${where}: the path fits across: ${JSON.stringify(m.drawing)} in ${JSON.stringify(m.canvas)}`,
          );
          if (name === 'no-endpoints') {
            assert.ok(
              m.focusNode && inside(m.focusNode, m.canvas),
              `${where}: the broken hop is on screen: ${JSON.stringify(m.focusNode)} in ${JSON.stringify(m.canvas)}`,
            );
          }
          // The longest paths (the demo's api: twelve boxes) in the smallest side panel (450×600) too: in bands that
          // fill the width, a column of entries as a grid, boxes as wide as their text. In the narrowest split (three
          // editor groups, 320 px) a long path at a readable size is taller than the panel: it fits across, the view
          // starts on the broken hop (or the first box), and the rest is a vertical pan away.
          if (width >= 450)
            assert.ok(
              m.drawing && inside(m.drawing, m.canvas),
              `${where}: the whole path is in view: ${JSON.stringify(m.drawing)} in ${JSON.stringify(m.canvas)}`,
            );
          else
            assert.ok(
              m.focusNode ? inside(m.focusNode, m.canvas) : m.drawing && m.drawing.top >= m.canvas.top - 1,
              `${where}: the view starts on the broken hop or the first box: ${JSON.stringify(m)}`,
            );
          await v.page.screenshot({ path: join(resultsDir, `readable-${name}-${width}x${height}.png`) });
          await v.page.getByRole('tab', { name: 'Packet path' }).click();
          const packet = await v.page
            .locator('.packet-svg')
            .evaluate((e) => ({ right: e.getBoundingClientRect().right, page: document.documentElement.clientWidth }));
          assert.ok(packet.right <= packet.page, `${where}: the packet path fits the panel (${packet.right} of ${packet.page} px)`);
          if (name === 'no-endpoints') {
            assert.equal(await v.page.locator('.packet-svg .hop-stop').count(), 1, `${where}: the packet path ends where the Service path does`);
            assert.equal(await v.page.locator('.packet-svg [data-hop-id="container-port"]').count(), 0, `${where}: no delivery to a pod`);
          }
        } finally {
          await v.close();
        }
      }
    });
  }

  it('keeps the drawing on screen after Fit and zooming in twice, and after dragging it far away', async () => {
    for (const [width, height] of [
      [450, 600],
      [1366, 700],
    ] as const) {
      const v = await openView(browser, 'dark', { width, height });
      try {
        await v.sendTrace(loadFixture('healthy-deployment'));
        const { page } = v;
        await page.getByRole('button', { name: 'Fit to window' }).click();
        const fitted = (await page.evaluate(measureScript())) as TraceMeasure;
        assert.ok(fitted.drawing && inside(fitted.drawing, fitted.canvas), `Fit shows the whole drawing at ${width}×${height}`);
        await page.getByRole('button', { name: 'Zoom in' }).click();
        await page.getByRole('button', { name: 'Zoom in' }).click();
        const zoomed = (await page.evaluate(measureScript())) as TraceMeasure;
        const visible = overlapArea(zoomed.drawing!, zoomed.canvas);
        const canvasArea = (zoomed.canvas.right - zoomed.canvas.left) * (zoomed.canvas.bottom - zoomed.canvas.top);
        const fittedArea = overlapArea(fitted.drawing!, fitted.canvas);
        assert.ok(
          visible >= Math.min(canvasArea, fittedArea) * 0.9,
          `after Fit and + + the drawing still fills the view (${visible} of ${canvasArea} px²) at ${width}×${height}`,
        );
        const box = (await page.locator('.canvas').boundingBox())!;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x - 3000, box.y - 3000, { steps: 6 });
        await page.mouse.up();
        const dragged = (await page.evaluate(measureScript())) as TraceMeasure;
        assert.ok(overlapArea(dragged.drawing!, dragged.canvas) > 60 * 60, 'panning cannot push the drawing out of view');
      } finally {
        await v.close();
      }
    }
  });

  it("the banner's Show button brings the broken hop back into view and selects it", async () => {
    const v = await openView(browser, 'dark', { width: 683, height: 680 });
    try {
      await v.sendTrace(loadFixture('no-endpoints'));
      const { page } = v;
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.getByRole('button', { name: 'Zoom in' }).click();
      const box = (await page.locator('.canvas').boundingBox())!;
      await page.mouse.move(box.x + 20, box.y + 20);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 20, box.y + box.height - 20, { steps: 4 });
      await page.mouse.up();
      await page.locator('.banner .show-broken').click();
      const m = (await page.evaluate(measureScript())) as TraceMeasure;
      assert.ok(m.focusNode && inside(m.focusNode, m.canvas), `the broken hop is in view again: ${JSON.stringify(m.focusNode)} in ${JSON.stringify(m.canvas)}`);
      assert.equal(await page.locator('.trace-svg .node.selected.status-error').count(), 1);
    } finally {
      await v.close();
    }
  });

  it("after a large resize chooses the view that suits the new size; after a small one keeps the person's zoom", async () => {
    const v = await openView(browser, 'dark', { width: 1570, height: 980 });
    try {
      await v.sendTrace(loadFixture('no-endpoints'));
      const { page } = v;
      const scale = () => page.locator('.trace-svg').getAttribute('data-scale');
      // The view records the canvas size it last fitted itself to; after a resize, wait until that is the new size.
      const canvasWidth = () => page.locator('.canvas').evaluate((c) => c.clientWidth);
      const settled = (before: number) =>
        page.waitForFunction(
          (w) => {
            const c = document.querySelector('.canvas') as HTMLElement;
            return c.clientWidth !== w && document.body.getAttribute('data-view-size') === `${c.clientWidth}x${c.clientHeight}`;
          },
          before,
          { polling: 100 },
        );
      await page.getByRole('button', { name: 'Zoom in' }).click();
      const zoomed = await scale();
      let before = await canvasWidth();
      await page.setViewportSize({ width: 1530, height: 960 });
      await settled(before);
      assert.equal(await scale(), zoomed, 'a small resize keeps the zoom');
      before = await canvasWidth();
      await page.setViewportSize({ width: 1018, height: 676 });
      await settled(before);
      const m = (await page.evaluate(measureScript())) as TraceMeasure;
      assert.ok(
        m.drawing && m.drawing.right <= m.canvas.right + 1 && m.minTextPx >= 10,
        `after a large resize the path fits across, readable: ${JSON.stringify(m)}`,
      );
      // down to the narrowest split: refitted, nothing cut off on either side
      before = await canvasWidth();
      await page.setViewportSize({ width: 320, height: 676 });
      await settled(before);
      const narrow = (await page.evaluate(measureScript())) as TraceMeasure;
      assert.ok(
        narrow.drawing && narrow.drawing.left >= narrow.canvas.left - 1 && narrow.drawing.right <= narrow.canvas.right + 1 && narrow.minTextPx >= 10,
        `after a resize to 320 px the path fits across, readable: ${JSON.stringify(narrow)}`,
      );
      await page.screenshot({ path: join(resultsDir, 'resized-to-320.png') });
    } finally {
      await v.close();
    }
  });

  it('puts the details under the drawing in a narrow panel, and the toggle hides and shows them', async () => {
    const v = await openView(browser, 'dark', { width: 683, height: 680 });
    try {
      await v.sendTrace(loadFixture('no-endpoints'));
      const { page } = v;
      const toggle = page.locator('.detail-toggle');
      assert.equal(await toggle.textContent(), 'Show details', 'a short narrow panel starts with the details hidden');
      await page.locator(nodeSel('endpoints:none')).click();
      assert.equal(await toggle.textContent(), 'Hide details', 'clicking a box shows its details');
      const canvas = (await page.locator('.canvas').boundingBox())!;
      const detail = (await page.locator('.detail').boundingBox())!;
      assert.ok(detail.y >= canvas.y + canvas.height - 1, 'the detail pane is below the drawing');
      assert.match(await page.locator('.detail-body').innerText(), /No endpoints/);
      await toggle.click();
      assert.equal(await page.locator('.detail-body').isVisible(), false);
    } finally {
      await v.close();
    }
  });
});

describe('trace webview: interaction', () => {
  it('moves keyboard focus between nodes with Tab and arrow keys, with a visible focus ring', async () => {
    await withView(loadFixture('healthy-deployment'), async (v) => {
      const { page } = v;
      await page.focus('.canvas');
      await page.keyboard.press('Tab');
      assert.equal(await focusedId(v), 'entry:dns:short');
      assert.equal(await page.locator(`${nodeSel('entry:dns:short')} .focus-ring`).evaluate((e) => getComputedStyle(e).display), 'inline');
      // The arrows follow the drawing: along the traffic is right when columns run across, down when they run down.
      const down = (await page.locator('.canvas').getAttribute('data-direction')) === 'DOWN';
      const [along, back, within] = down ? ['ArrowDown', 'ArrowUp', 'ArrowRight'] : ['ArrowRight', 'ArrowLeft', 'ArrowDown'];
      await page.keyboard.press(within);
      assert.equal(await focusedId(v), 'entry:dns:fqdn');
      await page.keyboard.press(along);
      assert.equal(await focusedId(v), 'service');
      await page.keyboard.press(along);
      assert.equal(await focusedId(v), 'proxy');
      await page.keyboard.press(back);
      assert.equal(await focusedId(v), 'service');
      await page.keyboard.press('Tab');
      assert.equal(await focusedId(v), 'proxy');
      assert.match((await page.locator('.detail').textContent()) ?? '', /kube-proxy \(iptables\)/);
      await page.keyboard.press('Enter');
      const posted = await v.posted();
      assert.deepEqual(posted[posted.length - 1], { type: 'reveal', nodeId: 'proxy' });
      await page.screenshot({ path: join(resultsDir, 'keyboard-focus-light.png') });
    });
  });

  it('selects a node on click without opening anything, and posts reveal on double-click', async () => {
    await withView(loadFixture('healthy-deployment'), async (v) => {
      const node = v.page.locator(nodeSel('endpoints:Deployment/api'));
      await node.click();
      assert.ok(!(await v.posted()).some((m) => m.type === 'reveal'), 'a click only selects');
      assert.match((await node.getAttribute('class')) ?? '', /\bselected\b/);
      assert.match((await v.page.locator('.detail').textContent()) ?? '', /Deployment api ×3/);
      await node.dblclick();
      const posted = await v.posted();
      assert.deepEqual(posted[posted.length - 1], { type: 'reveal', nodeId: 'endpoints:Deployment/api' });
    });
  });

  it('zooms with buttons, wheel and keys, and pans by dragging', async () => {
    await withView(loadFixture('healthy-deployment'), async (v) => {
      const { page } = v;
      const transform = () => page.locator('.trace-svg [data-viewport]').getAttribute('transform');
      const scaleOf = async () => Number(/scale\(([\d.]+)\)/.exec((await transform()) ?? '')?.[1]);
      const s0 = await scaleOf();
      await page.getByRole('button', { name: 'Zoom in' }).click();
      const s1 = await scaleOf();
      assert.ok(s1 > s0, `zoom in: ${s0} → ${s1}`);
      await page.getByRole('button', { name: 'Zoom out' }).click();
      assert.ok(Math.abs((await scaleOf()) - s0) < 0.01);
      const box = (await page.locator('.canvas').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height - 40);
      await page.mouse.wheel(0, -300);
      assert.ok((await scaleOf()) > s0, 'wheel up zooms in');
      await page.focus('.canvas');
      await page.keyboard.press('-');
      await page.keyboard.press('-');
      const sKeys = await scaleOf();
      await page.keyboard.press('+');
      assert.ok((await scaleOf()) > sKeys, 'the + key zooms in');
      const before = await transform();
      await page.mouse.move(box.x + box.width - 30, box.y + box.height - 30);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 130, box.y + box.height - 80, { steps: 5 });
      await page.mouse.up();
      assert.notEqual(await transform(), before, 'dragging pans');
    });
  });

  it('offers a list view with the same path, column by column, for screen readers', async () => {
    const fixture = loadFixture('no-endpoints');
    await withView(fixture, async (v) => {
      const { page } = v;
      const toggle = page.getByRole('button', { name: 'List view' });
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
      assert.equal(await page.locator('.canvas').isVisible(), false);
      const items = page.locator('.list-view .list-node');
      assert.equal(await items.count(), fixture.graph.nodes.length);
      const text = (await page.locator('.list-view').textContent()) ?? '';
      for (const n of fixture.graph.nodes) assert.ok(text.includes(n.label), `list shows ${n.label}`);
      // The banner above says the path is broken; the list does not say it again.
      assert.doesNotMatch(text, /No request can reach a pod|red markers/);
      assert.match((await page.locator('.banner-alert').textContent()) ?? '', /No request can reach a pod: no endpoints\./);
      assert.match(text, /→ No endpoints: blocked/);
      assert.deepEqual(await page.locator('.list-view h2').allTextContents(), [
        '1. How clients reach it',
        '2. Service',
        '3. kube-proxy',
        '4. Endpoints (pods)',
      ]);
      await page.screenshot({ path: join(resultsDir, 'list-view-light.png') });
    });
  });

  it('draws the packet path in a second tab, same-node and cross-node, hops grouped by zone with explanations', async () => {
    const fixture = loadFixture('healthy-deployment');
    const path = fixture.graph.packetPath!;
    await withView(fixture, async (v) => {
      const { page } = v;
      await page.getByRole('tab', { name: 'Packet path' }).click();
      assert.equal(await page.locator('#panel-packet').isVisible(), true);
      assert.equal(await page.locator('.packet-svg .hop').count(), path.sameNode.length);
      const first = page.locator('.packet-svg .hop').first();
      assert.match((await first.getAttribute('aria-label')) ?? '', /DNS lookup/);
      const bands = path.sameNode.filter((h, i, a) => i === 0 || a[i - 1].zone !== h.zone).length;
      assert.equal(await page.locator('.packet-svg .zone-title').count(), bands);
      await page.getByRole('button', { name: 'Target pod on another node' }).click();
      assert.equal(await page.locator('.packet-svg .hop').count(), path.crossNode.length);
      const zones = await page.locator('.packet-svg .zone-title').allTextContents();
      assert.deepEqual(zones, ['Client pod', 'Client node', 'Node network', 'Target node', 'Target pod']);
      assert.match((await page.locator('.packet-svg').textContent()) ?? '', /BGP/);
      await page.screenshot({ path: join(resultsDir, 'packet-path-cross-node-light.png') });
    });
  });

  it('posts copyMermaid and a standalone saveSvg from the toolbar', async () => {
    await withView(loadFixture('healthy-deployment'), async (v) => {
      const { page } = v;
      await page.getByRole('button', { name: 'Copy as Mermaid' }).click();
      await page.getByRole('button', { name: 'Save as SVG' }).click();
      const posted = await v.posted();
      assert.ok(posted.some((m) => m.type === 'copyMermaid'));
      const save = posted.find((m) => m.type === 'saveSvg') as { svg: string } | undefined;
      assert.ok(save);
      assert.match(save.svg, /^<svg[\s>]/);
      assert.ok(save.svg.includes('api.shop.svc.cluster.local'));
      assert.ok(!save.svg.includes('var(--'), 'theme colours are resolved into the file');
      assert.match(save.svg, /viewBox="0 0 \d+ \d+"/);
    });
  });

  it('saves an SVG the host accepts (well-formed XML, drawing only) when names hold characters XML forbids', async () => {
    // every name and label of the fixture gains NUL, ESC, an ANSI sequence, a C1 control, a lone surrogate and markup
    const hostile = JSON.parse(
      JSON.stringify(loadFixture('healthy-deployment')).replace(/"api/g, '"a\\u0000\\u001b[31m\\u0085\\ud800<script>&amp;\\u202epi'),
    ) as TraceResult;
    await withView(hostile, async (v) => {
      await v.page.getByRole('button', { name: 'Save as SVG' }).click();
      const save = (await v.posted()).find((m) => m.type === 'saveSvg') as { svg: string } | undefined;
      assert.ok(save);
      assert.equal(checkSvg(save.svg), undefined);
      // eslint-disable-next-line no-control-regex -- control characters are what this matches
      assert.ok(!/[\u0000\u001b]/.test(save.svg), 'characters XML forbids are never written raw');
      assert.ok(save.svg.includes('⟨U+0000⟩'));
    });
  });

  it('redraws when a second trace arrives (live update), keeping the view of the same Service', async () => {
    const first = loadFixture('healthy-deployment');
    await withView(first, async (v) => {
      const { page } = v;
      const changed = structuredClone(first) as unknown as { graph: { nodes: TraceNode[]; edges: TraceResult['graph']['edges'][number][] } };
      const workload = changed.graph.nodes.find((n) => n.id === 'endpoints:Deployment/api')!;
      Object.assign(workload, { label: 'Deployment api ×5', pods: { count: 5, names: [], readinessGated: true } });
      changed.graph.nodes = changed.graph.nodes.filter((n) => n.column !== 'policy');
      changed.graph.edges = changed.graph.edges.filter((e) => !e.to.startsWith('policy:'));
      await v.sendTrace(changed);
      assert.match((await page.locator(nodeSel('endpoints:Deployment/api')).textContent()) ?? '', /Deployment api ×5/);
      assert.equal(await page.locator('.trace-svg .kind-network-policy').count(), 0);
      assert.equal(await page.locator('.trace-svg .node').count(), first.graph.nodes.length - 1);
    });
  });

  it('replaces the drawing with the message when the host reports an error', async () => {
    await withView(loadFixture('healthy-deployment'), async (v) => {
      await v.page.evaluate(() => window.postMessage({ type: 'error', message: 'The Service shop/api is no longer in the workspace.' }, '*'));
      await v.page.waitForSelector('.banner-alert');
      assert.match((await v.page.locator('.banner').textContent()) ?? '', /no longer in the workspace/);
      assert.equal(await v.page.locator('.trace-svg').count(), 0);
    });
  });
});

describe('trace webview: a trace for a chosen client', () => {
  it('names the client on its button, marks the pods the policy blocks for it, and asks the host to pick another', async () => {
    const fixture = loadFixture('client-blocked');
    await withView(fixture, async (v) => {
      const { page } = v;
      assert.equal(await page.locator('.pick-client').textContent(), 'Client: shop/batch (Job) ▾');
      assert.equal(await page.locator('.pick-client').isVisible(), true);
      // The client comes first among the callers, with its short verdict on the box.
      assert.match((await page.locator(nodeSel('client')).textContent()) ?? '', /From shop\/batch \(Job\).*✓ reaches some pods/);
      const blocked = page.locator(nodeSel('endpoints:Deployment/api'));
      assert.match((await blocked.getAttribute('class')) ?? '', /\bstatus-error\b/);
      assert.match((await blocked.textContent()) ?? '', /✖ client blocked by api-in/);
      assert.match((await page.locator(nodeSel('port:Deployment/api:0')).textContent()) ?? '', /✖ client blocked/);
      assert.match((await page.locator(nodeSel('endpoints:Deployment/api-canary')).textContent()) ?? '', /✓ client admitted/);
      assert.equal(await page.locator(`${nodeSel('endpoints:Deployment/api')} .line-reach-denied`).count(), 1);
      // Some pods admit the client: no alert.
      assert.equal(await page.locator('.banner').isHidden(), true);
      await page.locator(nodeSel('port:Deployment/api:0')).click();
      assert.match((await page.locator('.detail').textContent()) ?? '', /ingress: shop\/api-in admits none of it \(client\.yaml line 64\)/);
      await page.locator('.pick-client').click();
      const posted = await v.posted();
      assert.deepEqual(posted[posted.length - 1], { type: 'pickClient' });
      await page.screenshot({ path: join(resultsDir, 'client-blocked-light.png') });
    });
  });

  it('says so in the banner when the client is blocked at every pod; no client button on a Gateway trace', async () => {
    const fixture = loadFixture('client-blocked');
    const denied: TraceResult = {
      ...fixture,
      graph: {
        ...fixture.graph,
        client: { ...fixture.graph.client!, verdict: 'denied', text: '✖ From shop/batch (Job): NetworkPolicies block the connection to every pod.' },
      },
    };
    await withView(denied, async (v) => {
      assert.equal(await v.page.locator('.banner').textContent(), '✖ From shop/batch (Job): NetworkPolicies block the connection to every pod.');
    });
    await withView(loadFixture('healthy-deployment'), async (v) => {
      assert.equal(await v.page.locator('.pick-client').textContent(), 'Choose client… ▾');
    });
    const gateway: TraceResult = {
      ...loadFixture('healthy-deployment'),
      graph: { ...loadFixture('healthy-deployment').graph, service: { kind: 'Gateway', namespace: 'shop', name: 'gw' } },
    };
    await withView(gateway, async (v) => {
      assert.equal(await v.page.locator('.pick-client').isHidden(), true);
    });
  });
});

describe('trace webview: hostile strings from YAML', () => {
  const payloads = [
    '<img src=x onerror=window.__pwned=1>',
    '"><svg/onload=window.__pwned=1>',
    '</script><script>window.__pwned=1</script>',
    'javascript:window.__pwned=1',
    'web\u202Egnp.exe',
  ];
  const huge = 'x'.repeat(100 * 1024);

  function hostile(): TraceResult {
    const base = loadFixture('statefulset-broken-servicename');
    const p = (i: number) => payloads[i % payloads.length];
    return {
      ...base,
      mermaid: p(0),
      text: p(2),
      graph: {
        ...base.graph,
        service: { ...base.graph.service, name: p(1) },
        nodes: base.graph.nodes.map((n, i) => ({
          ...n,
          label: i === 0 ? huge : p(i),
          detail: [p(i + 1), huge],
          findings: [...n.findings, { code: p(i + 2), severity: 'error', message: p(i + 3) }],
          pods: n.pods ? { ...n.pods, names: payloads } : undefined,
          source: n.source ? { ...n.source, uri: p(3) } : undefined,
        })),
        edges: base.graph.edges.map((e, i) => ({ ...e, label: p(i) })),
        packetPath: base.graph.packetPath && {
          ...base.graph.packetPath,
          cni: p(0),
          sameNode: base.graph.packetPath.sameNode.map((h, i) => ({ ...h, label: p(i), explanation: p(i + 1) })),
        },
      },
    };
  }

  for (const theme of ['light', 'dark'] as const) {
    it(`renders payloads as literal text and runs none of them (${theme})`, async () => {
      const v = await openView(browser, theme);
      try {
        const { page } = v;
        const scriptsBefore = await page.locator('script').count();
        await v.sendTrace(hostile());
        await page.locator('.trace-svg .node').first().click();
        await page.getByRole('button', { name: 'List view' }).click();
        await page.getByRole('tab', { name: 'Packet path' }).click();
        await page.getByRole('tab', { name: 'Service path' }).click();
        await page.waitForTimeout(100);
        assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
        assert.equal(await page.locator('img').count(), 0);
        assert.equal(await page.locator('script').count(), scriptsBefore);
        assert.equal(await page.locator('a, iframe, object, embed, foreignObject').count(), 0);
        const foreignSvgs = await page
          .locator('svg')
          .evaluateAll((els) => els.filter((e) => !e.classList.contains('trace-svg') && !e.classList.contains('packet-svg')).length);
        assert.equal(foreignSvgs, 0);
        const handlers = await page.evaluate(() =>
          Array.from(document.querySelectorAll('*')).flatMap((e) =>
            Array.from(e.attributes)
              .filter((a) => a.name.startsWith('on'))
              .map((a) => a.name),
          ),
        );
        assert.deepEqual(handlers, []);
        const text = await page.evaluate(() => document.body.textContent ?? '');
        for (const s of payloads.slice(0, 4)) assert.ok(text.includes(s), `shows ${s} literally`);
        assert.ok(text.includes('web⟨U+202E⟩gnp.exe'), 'bidi overrides are shown, not obeyed');
        assert.ok(!text.includes('\u202E'));
        assert.ok(text.includes('more characters'), '100 KB strings are cut with a note');
        await page.screenshot({ path: join(resultsDir, `hostile-strings-${theme}.png`) });
      } finally {
        await v.close();
      }
    });
  }

  it('ignores malformed messages without breaking', async () => {
    await withView(loadFixture('healthy-deployment'), async (v) => {
      await v.page.evaluate(() => {
        window.postMessage(null, '*');
        window.postMessage('trace', '*');
        window.postMessage(
          { type: 'trace', result: { graph: { nodes: [{ id: 1 }, { id: 'x', column: 'nowhere', kind: 'dns' }], edges: [{ from: 'a', to: 'b' }] } } },
          '*',
        );
      });
      await v.page.waitForFunction(() => document.body.getAttribute('data-render-count') === '2');
      assert.equal(await v.page.locator('.trace-svg .node').count(), 0);
    });
  });
});

describe('trace webview: themes', () => {
  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    it(`is readable in the ${theme} theme (screenshots)`, async () => {
      const v = await openView(browser, theme);
      try {
        for (const name of ['statefulset-broken-servicename', 'nodeport-ingress']) {
          await v.page.getByRole('tab', { name: 'Service path' }).click();
          await v.sendTrace(loadFixture(name));
          const colours = await v.page.evaluate(() => {
            const body = getComputedStyle(document.body);
            const label = document.querySelector('.trace-svg .line-label');
            return { bg: body.backgroundColor, fg: label ? getComputedStyle(label).fill : '' };
          });
          assert.notEqual(colours.bg, colours.fg);
          await v.page.screenshot({ path: join(resultsDir, `${name}-${theme}.png`) });
          await v.page.getByRole('tab', { name: 'Packet path' }).click();
          await v.page.getByRole('button', { name: 'Target pod on another node' }).click();
          await v.page.screenshot({ path: join(resultsDir, `${name}-packet-${theme}.png`) });
        }
      } finally {
        await v.close();
      }
    });
  }
});
