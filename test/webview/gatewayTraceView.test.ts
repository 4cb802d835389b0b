// The trace webview in headless Chromium, drawing the trace of a Gateway (its listeners, the routes they accept,
// their backendRefs and the Services these lead to), straight from the server's answer.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { traceResultFor } from '../../server/src/features/traceResult';
import { analysisOf } from '../helpers/checkDns';
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
    const result = traceResultFor(analysisOf(join(__dirname, '..', 'fixtures', 'analysis', 'trace', 'gatewayStart.yaml')), { kind: 'Gateway', namespace: 'edge', name: 'front' });
    assert.ok(result);
    const v = await openView(browser);
    try {
      await v.sendTrace(result);
      const { page } = v;
      for (const n of result.graph.nodes) assert.equal(await page.locator(nodeSel(n.id)).count(), 1, `node ${n.id} is drawn`);
      assert.match(await page.locator(nodeSel('gateway:listener:edge/front/web')).textContent() ?? '', /web 80\/HTTP/);
      assert.match(await page.locator(nodeSel('service:edge/pg')).getAttribute('class') ?? '', /status-error/);
      assert.equal(await page.locator('.trace-svg .edge-broken[data-from="gateway:backend:HTTPRoute/edge/store/0/1"]').count(), 0, 'a backendRef to no Service leads nowhere');
      assert.equal(await page.locator('.banner-alert').count(), 0, 'not broken: the store Service is reached');
      await page.screenshot({ path: join(resultsDir, 'gateway-trace.png') });
      await page.getByRole('tab', { name: 'Packet path' }).click();
      assert.match(await page.locator('.hint').first().textContent() ?? '', /This Gateway hands requests to Services; the packet path .* is drawn in the trace of each of those Services/, 'the packet tab says where the packet path is, not that the Gateway is an ExternalName Service');
    } finally {
      await v.close();
    }
  });
});
