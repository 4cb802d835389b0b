// The trace webview in headless Chromium, drawing the trace of a Gateway (its listeners, the routes they accept,
// their backendRefs and the Services these lead to), and of an Istio Gateway, straight from the server's answer.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { traceResultFor } from '../../server/src/features/traceResult';
import { analysisOf } from '../helpers/checkDns';
import { type TraceMeasure, measureScript } from '../helpers/traceMeasure';
import { bundleWebview, launchChromium, openView, resultsDir } from './tracePage';

let browser: Browser;

before(async () => {
  mkdirSync(resultsDir, { recursive: true });
  await bundleWebview();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

const nodeSel = (id: string) => `.trace-svg [data-node-id="${id}"]`;

describe('trace webview: Gateway', () => {
  it('draws the listeners, route rules, backendRefs and Services of a Gateway, with no packet path', async () => {
    const result = traceResultFor(analysisOf(join(__dirname, '..', 'fixtures', 'analysis', 'trace', 'gatewayStart.yaml')), {
      kind: 'Gateway',
      namespace: 'edge',
      name: 'front',
    });
    assert.ok(result);
    const v = await openView(browser);
    try {
      await v.sendTrace(result);
      const { page } = v;
      for (const n of result.graph.nodes) assert.equal(await page.locator(nodeSel(n.id)).count(), 1, `node ${n.id} is drawn`);
      assert.match((await page.locator(nodeSel('gateway:listener:edge/front/web')).textContent()) ?? '', /web 80\/HTTP/);
      assert.match((await page.locator(nodeSel('service:edge/pg')).getAttribute('class')) ?? '', /status-error/);
      assert.equal(
        await page.locator('.trace-svg .edge-broken[data-from="gateway:backend:HTTPRoute/edge/store/0/1"]').count(),
        0,
        'a backendRef to no Service leads nowhere',
      );
      assert.equal(await page.locator('.banner-alert').count(), 0, 'not broken: the store Service is reached');
      await page.screenshot({ path: join(resultsDir, 'gateway-trace.png') });
      await page.getByRole('tab', { name: 'Packet path' }).click();
      assert.match(
        (await page.locator('.hint').first().textContent()) ?? '',
        /This Gateway hands requests to Services; the packet path .* is drawn in the trace of each of those Services/,
        'the packet tab says where the packet path is, not that the Gateway is an ExternalName Service',
      );
    } finally {
      await v.close();
    }
  });
});

describe('trace webview: Istio Gateway', () => {
  it("draws an Istio Gateway's servers, route blocks and destinations, and keeps what was traced as its state", async () => {
    const dir = join(__dirname, '..', 'fixtures', 'e2e', 'istio');
    const sources = ['gateway.yaml', 'shop.yaml', 'ingressgateway.yaml'].map((f) => ({ uri: `file:///w/${f}`, text: readFileSync(join(dir, f), 'utf8') }));
    const result = traceResultFor(analyzeTexts(sources), { kind: 'IstioGateway', namespace: 'shop', name: 'public' });
    assert.ok(result);
    const v = await openView(browser);
    try {
      const { page } = v;
      const before = Number(await page.evaluate(() => document.body.getAttribute('data-render-count') ?? '0'));
      // The host sends what it traced with the trace (tracePanel.ts): a reload must trace the Istio Gateway again, not a Service.
      const target = { kind: 'IstioGateway', namespace: 'shop', name: 'public', uri: 'file:///w/gateway.yaml' };
      await page.evaluate(([r, t]) => window.postMessage({ type: 'trace', result: r, target: t }, '*'), [result, target] as const);
      await page.waitForFunction((n) => Number(document.body.getAttribute('data-render-count') ?? '0') > n, before);
      for (const n of result.graph.nodes) assert.equal(await page.locator(nodeSel(n.id)).count(), 1, `node ${n.id} is drawn`);
      assert.match((await page.locator('.title').textContent()) ?? '', /^Gateway shop\/public/);
      assert.equal((await page.locator('.trace-svg .node.status-error').count()) > 0, true, 'the unexpanded short host is a broken hop');
      assert.deepEqual(await page.evaluate(() => (window as unknown as { __state: unknown }).__state), target);
      // A target that is not this graph's subject is not kept: the state names what is drawn.
      const again = Number(await page.evaluate(() => document.body.getAttribute('data-render-count') ?? '0'));
      await page.evaluate(([r]) => window.postMessage({ type: 'trace', result: r, target: { kind: 'VirtualService', namespace: 'x', name: 'y' } }, '*'), [
        result,
      ] as const);
      await page.waitForFunction((n) => Number(document.body.getAttribute('data-render-count') ?? '0') > n, again);
      assert.deepEqual(await page.evaluate(() => (window as unknown as { __state: unknown }).__state), { namespace: 'shop', name: 'public' });
      await page.screenshot({ path: join(resultsDir, 'istio-gateway-trace.png') });
    } finally {
      await v.close();
    }
  });

  // Side panels (the narrowest split, a side panel, half the screen): the drawing of an Istio Gateway and of a
  // Gateway API Gateway fits across, at a readable size, as the Service path does (traceView.test.ts).
  for (const [width, height] of [
    [320, 600],
    [450, 600],
    [683, 680],
  ] as const) {
    it(`at ${width}×${height}: an Istio Gateway's and a Gateway's traces fit across the panel, readable`, async () => {
      const istio = ['gateway.yaml', 'shop.yaml', 'ingressgateway.yaml'].map((f) => ({
        uri: `file:///w/${f}`,
        text: readFileSync(join(__dirname, '..', 'fixtures', 'e2e', 'istio', f), 'utf8'),
      }));
      const traces = [['istio-gateway', traceResultFor(analyzeTexts(istio), { kind: 'IstioGateway', namespace: 'shop', name: 'public' })]] as const;
      for (const [name, result] of traces) {
        assert.ok(result, name);
        const v = await openView(browser, 'dark', { width, height });
        try {
          await v.sendTrace(result);
          const m = (await v.page.evaluate(measureScript())) as TraceMeasure;
          const where = `${name} at ${width}×${height} (${m.direction})`;
          assert.ok(!m.overflowsSideways, `${where}: nothing is wider than the panel`);
          assert.ok(m.minTextPx >= 10, `${where}: smallest text ${m.minTextPx.toFixed(2)} px`);
          assert.ok(
            m.drawing && m.drawing.left >= m.canvas.left - 1 && m.drawing.right <= m.canvas.right + 1,
            `${where}: the drawing fits across: ${JSON.stringify(m.drawing)} in ${JSON.stringify(m.canvas)}`,
          );
          await v.page.screenshot({ path: join(resultsDir, `${name}-${width}x${height}.png`) });
        } finally {
          await v.close();
        }
      }
    });
  }
});
