// The trace for a chosen client in a real VS Code (code-server) at 1366×768, on a workspace of its own
// (test/fixtures/e2e/trace-client): the Client button of the Trace Service view opens a quick pick of the clients the
// server lists; after picking one, the boxes say which pods admit it and which a NetworkPolicy blocks, and the detail
// pane names the deciding rule. Screenshots under test-results/e2e/.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { openEditor, openFile, patience, runCommand, webviewText, type Editor } from './harness';

let editor: Editor;

async function traceFrame(page: Page, text: string): Promise<Frame> {
  const { frame } = await webviewText(page, text);
  await frame.waitForSelector('.trace-svg .node');
  return frame;
}

/** Picks `label` in the open quick pick by typing it, as a person does. */
async function pick(page: Page, label: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor();
  await input.fill(label);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: label }).waitFor();
  await page.keyboard.press('Enter');
}

describe('the trace for a chosen client (code-server, 1366×768)', { timeout: 8 * patience }, () => {
  before(
    async () => {
      editor = await openEditor({ workspaceFrom: join(__dirname, '..', 'fixtures', 'e2e', 'trace-client') });
      await editor.page.setViewportSize({ width: 1366, height: 768 });
    },
    { timeout: 5 * patience },
  );

  after(async () => {
    const closed = await editor?.close();
    assert.deepEqual(closed?.extensionHostErrors ?? [], [], 'the extension logs no errors');
  });

  it('the Client button picks a workload; blocked pods are marked, and the rule that blocks is named', { timeout: 4 * patience }, async () => {
    const page = editor.page;
    try {
      await openFile(page, 'shop.yaml');
      await runCommand(page, 'Kubernetes: Trace Service');
      // The only Service of the file is the one the picker starts on.
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'api' }).waitFor();
      await page.keyboard.press('Enter');
      let frame = await traceFrame(page, 'Service shop/api');
      await frame.locator('.pick-client').click();
      await pick(page, 'shop/batch');
      frame = await traceFrame(page, 'Client: shop/batch (Job)');
      await frame.waitForSelector('[data-node-id="client"]');
      const blocked = frame.locator('.trace-svg [data-node-id="endpoints:Deployment/api"]');
      assert.match((await blocked.textContent()) ?? '', /client blocked by api-in/);
      assert.match((await blocked.getAttribute('class')) ?? '', /status-error/);
      assert.match((await frame.locator('.trace-svg [data-node-id="endpoints:Deployment/api-canary"]').textContent()) ?? '', /client admitted/);
      await frame.locator('.trace-svg [data-node-id="port:Deployment/api:0"]').click();
      assert.match(await frame.locator('.detail').innerText(), /ingress: shop\/api-in admits none of it \(shop\.yaml line 64\)/);
      await editor.screenshot('trace-client-1366-batch');
      // Another client: web's egress and api's ingress both admit it, each by its rule.
      await frame.locator('.pick-client').click();
      await pick(page, 'shop/web');
      frame = await traceFrame(page, 'Client: shop/web (Deployment)');
      await frame.locator('.trace-svg [data-node-id="port:Deployment/api:0"]').click();
      const detail = await frame.locator('.detail').innerText();
      assert.match(detail, /egress: shop\/web-out rule 1 \(shop\.yaml line 80\)/);
      assert.match(detail, /ingress: shop\/api-in rule 1 \(shop\.yaml line 68\)/);
      await editor.screenshot('trace-client-1366-web');
    } catch (e) {
      await editor.screenshot('trace-client-1366-failed').catch(() => undefined);
      throw e;
    }
  });
});
