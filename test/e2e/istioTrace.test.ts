// The trace from Istio objects in a real VS Code (code-server) at 1366×768, on a workspace of its own
// (test/fixtures/e2e/istio): with the cursor on an Istio Gateway, "Kubernetes: Trace Service" starts the picker on it;
// the view draws its servers, the VirtualService route blocks they apply and where those send requests (the graph
// `kube-netlens trace istio-gateway/shop/public` prints), with the unexpanded short host as the broken hop; the Trace
// lens above the VirtualService opens its own trace. The Service api, also reached through a Gateway API route and an
// Ingress (routes.yaml), has its trace drawn in the side panel with every edge on a line of its own: no DNS name's
// edge seems to lead into a route backend. Screenshots under test-results/e2e/.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { type EdgeGeometry, edgeGeometryScript, edgeProblems } from '../helpers/edgeGeometry';
import { type TraceMeasure, measureScript } from '../helpers/traceMeasure';
import { goTo, openEditor, openFile, patience, readWorkspaceFile, runCommand, webviewText, type Editor } from './harness';

let editor: Editor;

async function traceFrame(page: Page, text: string | RegExp): Promise<Frame> {
  const { frame } = await webviewText(page, text);
  await frame.waitForSelector('.trace-svg .node');
  return frame;
}

/**
 * The drawn edges, read in the real webview: each is drawn, none shares a line with an edge between other boxes or runs
 * through a box, and each ends on its target.
 */
async function assertEdgesApart(frame: Frame, edges: number, where: string): Promise<EdgeGeometry> {
  const g = (await frame.evaluate(edgeGeometryScript())) as EdgeGeometry;
  assert.equal(g.edges.length, edges, `${where}: every edge is drawn`);
  assert.deepEqual(edgeProblems(g), [], `${where}: every edge can be followed from its source to its target`);
  return g;
}

/** The labels of the drawn boxes, in the order the view lays them out. */
async function boxes(frame: Frame): Promise<string[]> {
  return frame
    .locator('.trace-svg .node')
    .evaluateAll((els) => els.map((e) => (e.getAttribute('aria-label') ?? e.textContent ?? '').replace(/\s+/g, ' ').trim()));
}

describe('the trace from an Istio Gateway and a VirtualService (code-server, 1366×768)', { timeout: 8 * patience }, () => {
  before(
    async () => {
      editor = await openEditor({ workspaceFrom: join(__dirname, '..', 'fixtures', 'e2e', 'istio') });
      await editor.page.setViewportSize({ width: 1366, height: 768 });
    },
    { timeout: 5 * patience },
  );

  after(async () => {
    const closed = await editor?.close();
    assert.deepEqual(closed?.extensionHostErrors ?? [], [], 'the extension logs no errors');
  });

  it(
    'the picker starts on the Istio Gateway under the cursor; the view draws servers → route blocks → destinations → Services',
    { timeout: 4 * patience },
    async () => {
      const page = editor.page;
      try {
        await openFile(page, 'gateway.yaml');
        const lines = readWorkspaceFile(editor, 'gateway.yaml').split('\n');
        await goTo(page, lines.indexOf('  name: public') + 1, 9);
        await runCommand(page, 'Kubernetes: Trace Service');
        const focused = page.locator('.quick-input-list .monaco-list-row.focused');
        await focused.filter({ hasText: 'Istio Gateway shop/public' }).waitFor();
        const row = await focused.innerText();
        assert.match(row, /http 8080\/HTTP: 1 VirtualService · https 8443\/HTTPS: 0 VirtualServices/, 'the row names its servers and what each applies');
        assert.match(row, /at the cursor/);
        // The VirtualService is offered as a start of its own, with the Services it sends to.
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'VirtualService shop/shop → api, web.shop' }).waitFor();
        await editor.screenshot('istio-trace-1366-picker');
        await page.keyboard.press('Enter');
        const frame = await traceFrame(page, 'Gateway shop/public');
        await page.locator('.tab', { hasText: 'Trace: Istio Gateway shop/public' }).waitFor();
        const drawn = await boxes(frame);
        for (const label of [
          'public · http 8080/HTTP',
          'public · https 8443/HTTPS',
          'VirtualService shop · http[0]',
          'VirtualService shop · http[1]',
          'api:80',
          'web.shop:80',
          'Service api',
        ]) {
          assert.ok(
            drawn.some((b) => b.includes(label)),
            `a box says "${label}": ${JSON.stringify(drawn)}`,
          );
        }
        // The short form Istio does not expand is the broken hop, with its finding; the working route reaches the pods.
        const broken = frame.locator('.trace-svg .node.status-error', { hasText: 'web.shop:80' });
        await broken.waitFor();
        assert.equal(await frame.locator('.trace-svg .node.status-error', { hasText: 'api:80' }).count(), 0);
        await broken.click();
        assert.match(await frame.locator('.detail').innerText(), /istio-host-unresolved[\s\S]*web\.shop\.svc\.cluster\.local/);
        await frame.getByRole('button', { name: 'List view' }).click();
        const list = await frame.locator('.list-view').innerText();
        assert.match(
          list,
          /Gateway listener: public · http 8080\/HTTP[\s\S]*Route rule: VirtualService shop · http\[0\][\s\S]*Route backend: api:80[\s\S]*Service: api/,
          'the list reads in traffic order',
        );
        await frame.getByRole('button', { name: 'List view' }).click();
        await frame.locator('.trace-svg').waitFor();
        // In the side panel the drawing fits across: no box runs off the right edge.
        const m = (await frame.evaluate(measureScript(null))) as TraceMeasure;
        assert.ok(
          !m.overflowsSideways && m.drawing && m.drawing.left >= m.canvas.left - 1 && m.drawing.right <= m.canvas.right + 1 && m.minTextPx >= 10,
          `the Istio Gateway's trace fits the side panel, readable: ${JSON.stringify(m)}`,
        );
        // The HTTP server to both route blocks, each to its destination, one of those to its Service: five edges, none
        // on another's line (the dashed one from http[1] no longer runs along the solid ones).
        await assertEdgesApart(frame, 5, "the Istio Gateway's trace in the side panel");
        await editor.screenshot('istio-trace-1366-gateway', { doc: true });
      } catch (e) {
        await editor.screenshot('istio-trace-1366-gateway-failed').catch(() => undefined);
        throw e;
      }
    },
  );

  it('the Trace lens above the VirtualService opens its trace from the servers that serve its hosts', { timeout: 4 * patience }, async () => {
    const page = editor.page;
    try {
      await page.locator('.tab', { hasText: 'gateway.yaml' }).click();
      const lens = page.locator('.editor-group-container .monaco-editor .codelens-decoration', { hasText: /served by public · 2 destinations/ });
      await lens.first().waitFor();
      await lens
        .first()
        .locator('a', { hasText: /^Trace$/ })
        .click();
      const frame = await traceFrame(page, 'VirtualService shop/shop');
      await page.locator('.tab', { hasText: 'Trace: VirtualService shop/shop' }).waitFor();
      const drawn = await boxes(frame);
      assert.ok(
        drawn.some((b) => b.includes('public · http 8080/HTTP')),
        `the server that serves shop.example.com: ${JSON.stringify(drawn)}`,
      );
      assert.ok(!drawn.some((b) => b.includes('8443')), 'not the HTTPS server, which serves another host');
      await editor.screenshot('istio-trace-1366-virtualservice');
    } catch (e) {
      await editor.screenshot('istio-trace-1366-virtualservice-failed').catch(() => undefined);
      throw e;
    }
  });

  it(
    'a Service reached by DNS names, an Ingress rule and a Gateway API route: in the side panel each edge has a line of its own',
    { timeout: 4 * patience },
    async () => {
      const page = editor.page;
      try {
        await openFile(page, 'shop.yaml');
        const lines = readWorkspaceFile(editor, 'shop.yaml').split('\n');
        const service = lines.indexOf('kind: Service');
        await goTo(page, lines.indexOf('  name: api', service) + 1, 9);
        await runCommand(page, 'Kubernetes: Trace Service');
        const focused = page.locator('.quick-input-list .monaco-list-row.focused');
        await focused.filter({ hasText: 'api' }).waitFor();
        assert.match(await focused.innerText(), /at the cursor/);
        await page.keyboard.press('Enter');
        const frame = await traceFrame(page, 'Service shop/api');
        const drawn = await boxes(frame);
        for (const label of [
          'DNS name api',
          'api.shop.svc.cluster.local',
          'api.example.org/',
          'HTTPRoute api · rule 1',
          'HTTPRoute api · rule 2',
          'Service api port 80',
        ]) {
          assert.ok(
            drawn.some((b) => b.includes(label)),
            `a box says "${label}": ${JSON.stringify(drawn)}`,
          );
        }
        const m = (await frame.evaluate(measureScript(null))) as TraceMeasure;
        assert.ok(
          !m.overflowsSideways && m.drawing && m.drawing.left >= m.canvas.left - 1 && m.drawing.right <= m.canvas.right + 1 && m.minTextPx >= 10,
          `the Service's trace fits the side panel, readable: ${JSON.stringify(m)}`,
        );
        const width = m.canvas.right - m.canvas.left;
        assert.ok(width < 700, `a side panel (${width} px), where the drawing goes in bands`);
        // DNS names, the Ingress rule and both route backends to the Service, the listeners to the rules, the rules
        // to their backends, then the Service to its pods: fourteen edges, none on another's line.
        const g = await assertEdgesApart(frame, 14, `the Service's trace in a ${Math.round(width)} px side panel`);
        const into = g.edges.filter((e) => e.to === 'service').map((e) => e.points[e.points.length - 1].y);
        assert.equal(new Set(into.map((y) => Math.round(y))).size, into.length, `each edge into the Service ends at a place of its own: ${into}`);
        await editor.screenshot('istio-trace-1366-service-edges', { doc: true });
      } catch (e) {
        await editor.screenshot('istio-trace-1366-service-edges-failed').catch(() => undefined);
        throw e;
      }
    },
  );
});
