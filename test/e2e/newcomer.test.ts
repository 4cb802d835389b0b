// What a newcomer meets in a real VS Code (code-server) at 1366×768, on a Kustomize base that three overlays build
// (test/fixtures/e2e/three-builds: a Service selector typo in the base; overlays a, b and c, each starting with a
// licence comment): the finding is one, on the base line, with one short note per build on the line of each
// kustomization that includes the base; one build's trace carries that build's finding only; the status item's
// tooltip says what the files not analysed on their own are. Screenshots under test-results/e2e/.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { root } from '../../scripts/codeServer.mjs';
import { goTo, openEditor, openFile, patience, pickWithKeyboard, problemsShowing, runCommand, squiggles, webviewText, type Editor } from './harness';

const scenarioTimeout = 4 * patience;
let editor: Editor;

function scenario(title: string, name: string, body: (page: Page) => Promise<void>): void {
  it(title, { timeout: scenarioTimeout }, async () => {
    try {
      await body(editor.page);
      await editor.screenshot(name);
    } catch (e) {
      await editor.screenshot(`${name}-failed`).catch(() => undefined);
      throw e;
    }
  });
}

describe('a Kustomize base of three builds, at 1366×768', { timeout: 8 * patience }, () => {
  before(
    async () => {
      editor = await openEditor({ workspaceFrom: join(root, 'test', 'fixtures', 'e2e', 'three-builds'), viewport: { width: 1366, height: 768 } });
    },
    { timeout: 5 * patience },
  );

  after(async () => {
    const closed = await editor?.close();
    assert.deepEqual(closed?.extensionHostErrors ?? [], [], 'the extension logs no errors');
  });

  scenario(
    "the base finding names the three builds once, with one short note on each kustomization's include line",
    'newcomer-1366-kustomize-three-builds',
    async (page) => {
      await openFile(page, 'web.yaml');
      await goTo(page, 7, 10);
      await squiggles(page, 'warning').first().waitFor();
      const rows = await problemsShowing(page, '', {
        present: [
          '(in the builds of overlays/a, overlays/b, overlays/c)',
          'Included here in the build of overlays/a',
          'Included here in the build of overlays/b',
          'Included here in the build of overlays/c',
        ],
        absent: ['In the build of overlays/a:'],
      });
      assert.equal(rows.match(/matches no pod template/g)?.length, 1, `the message once, not again per build:\n${rows}`);
      // each note is on the `- ../../base` line (line 5), not on the licence comment of line 1
      assert.equal(rows.match(/\[Ln 5, Col 5\]/g)?.length, 3, rows);
      assert.doesNotMatch(rows, /\[Ln 1, Col 1\]/, rows);
    },
  );

  scenario("one build's trace carries that build's finding only", 'newcomer-1366-trace-one-build', async (page) => {
    await page.keyboard.press('Escape');
    await runCommand(page, 'Kubernetes: Trace Service');
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: /build \S*overlays\/b/ }).waitFor();
    await pickWithKeyboard(page, rows, /build \S*overlays\/b/);
    const { frame } = await webviewText(page, 'No endpoints');
    await frame.getByRole('button', { name: 'List view' }).click();
    const list = await frame.locator('.list-view').innerText();
    assert.match(list, /No endpoints/);
    assert.ok((list.match(/app: wbe matches no pod template/g)?.length ?? 0) <= 1, `the warning at most once:\n${list}`);
  });

  scenario("the status item's tooltip says what the files not analysed on their own are", 'newcomer-1366-status-tooltip', async (page) => {
    await page.keyboard.press('Escape');
    const item = page.locator('.statusbar-item', { hasText: /resources? ·/ }).first();
    await item.hover();
    const handle = await page.waitForFunction(() => {
      const text = document.body.innerText;
      return text.includes('Not analysed on their own:') ? text : false;
    });
    const text = (await handle.jsonValue()) as string;
    assert.match(text, /5 files: Kustomize build inputs \(kustomizations, the bases, patches and files they read\), checked in each build they are part of/);
    assert.doesNotMatch(text, /skipped as too large/);
  });
});

describe('a Helm template with two Deployments, at 1366×768', { timeout: 6 * patience }, () => {
  before(
    async () => {
      // test/fixtures/helm/sorted: one template writes Deployment cartservice, Deployment redis-cart and a Service whose
      // selector has a typo of redis-cart's label (helm prints the Service first, sorted by kind)
      editor = await openEditor({ workspaceFrom: join(root, 'test', 'fixtures', 'helm', 'sorted'), viewport: { width: 1366, height: 768 } });
    },
    { timeout: 5 * patience },
  );

  after(async () => {
    const closed = await editor?.close();
    assert.deepEqual(closed?.extensionHostErrors ?? [], [], 'the extension logs no errors');
  });

  scenario('the related place of a finding on a Helm render is the labels of the Deployment it names', 'newcomer-1366-helm-related-place', async (page) => {
    await openFile(page, 'cartservice.yaml');
    await goTo(page, 29, 14);
    const rows = await problemsShowing(page, 'service-selector-no-match', {
      // the finding on the Service's selector (line 41), its note on redis-cart's pod labels (line 29)
      present: ['cartservice.yaml', '[Ln 41, Col 10]', 'in release cart, values.yaml', 'Deployment "redis-cart" has app: redis-cart', '[Ln 29, Col 14]'],
    });
    // not on the labels of the Deployment written above it (cartservice's, line 12)
    assert.doesNotMatch(rows, /\[Ln 12,/, rows);
    // the screenshot shows the note's line (29) in the editor, above the Problems panel
  });
});
