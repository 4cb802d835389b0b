// The edges of the trace webview's Service path, measured in the drawing headless Chromium shows at the sizes people
// use (the narrowest split, side panels, half the screen, a maximized editor): two edges between different pairs of
// boxes never run along the same line (a DNS name must not seem to lead into a route backend), no edge runs through a
// box, and each starts on its source and ends, with its arrowhead, on its target.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { traceResultFor } from '../../server/src/features/traceResult';
import type { TraceResult } from '../../server/src/protocol';
import { analysisOf } from '../helpers/checkDns';
import { type EdgeGeometry, edgeGeometryScript, edgeProblems } from '../helpers/edgeGeometry';
import { bundleWebview, launchChromium, loadFixture, openView, resultsDir } from './tracePage';

let browser: Browser;

before(async () => {
  mkdirSync(resultsDir, { recursive: true });
  await bundleWebview();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

const fixtures = join(__dirname, '..', 'fixtures');

/** A Service reached by its DNS names, an Ingress rule and an HTTPRoute of a Gateway with two listeners. */
function serviceWithRoutes(): TraceResult {
  const result = traceResultFor(analysisOf(join(fixtures, 'analysis', 'trace', 'gateway.yaml')), { kind: 'Service', namespace: 'shop', name: 'web' });
  assert.ok(result);
  return result;
}

/** An Istio Gateway: two servers, the VirtualService route blocks they apply, their destinations and Services. */
function istioGateway(): TraceResult {
  const dir = join(fixtures, 'e2e', 'istio');
  const sources = ['gateway.yaml', 'shop.yaml', 'ingressgateway.yaml'].map((f) => ({ uri: `file:///w/${f}`, text: readFileSync(join(dir, f), 'utf8') }));
  const result = traceResultFor(analyzeTexts(sources), { kind: 'IstioGateway', namespace: 'shop', name: 'public' });
  assert.ok(result);
  return result;
}

const traces: [string, () => TraceResult][] = [
  ['service-routes', serviceWithRoutes],
  ['istio-gateway', istioGateway],
  ['examples-frontend', () => loadFixture('examples-frontend')],
  ['examples-api', () => loadFixture('examples-api')],
  ['nodeport-ingress', () => loadFixture('nodeport-ingress')],
];

describe('trace webview: edges that can be told apart', () => {
  // The narrowest split (three editor groups), side panels, half a 1366×768 screen, and wide editors.
  for (const [width, height] of [
    [320, 600],
    [380, 600],
    [450, 600],
    [520, 640],
    [600, 600],
    [683, 680],
    [800, 700],
    [960, 990],
    [1400, 800],
  ] as const) {
    it(`at ${width}×${height}: no two edges with different ends share a line, none runs through a box, each ends on its target`, async () => {
      for (const [name, trace] of traces) {
        const result = trace();
        const v = await openView(browser, 'dark', { width, height });
        try {
          await v.sendTrace(result);
          const g = (await v.page.evaluate(edgeGeometryScript())) as EdgeGeometry;
          const where = `${name} at ${width}×${height} (${g.direction})`;
          assert.equal(g.edges.length, result.graph.edges.length, `${where}: every edge is drawn`);
          await v.page.screenshot({ path: join(resultsDir, `edges-${name}-${width}x${height}.png`) });
          assert.deepEqual(edgeProblems(g), [], where);
        } finally {
          await v.close();
        }
      }
    });
  }
});
