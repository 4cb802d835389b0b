// The product in Simplified Chinese in the real editor (issue #29): code-server with the display language zh-cn
// (`--locale zh-cn` and a test-only language pack, so vscode.env.language is zh-cn), at 1366×768. The Problems panel,
// a Service hover, the quick-fix menu and the trace view speak Chinese, and their text fits: screenshots in
// test-results/e2e/zh-cn-*.png. VS Code's own chrome stays English (the pack translates none of it).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import {
  goTo,
  hoverAtCursor,
  openEditor,
  openFile,
  patience,
  problemsShowing,
  readWorkspaceFile,
  runCommand,
  squiggles,
  webviewText,
  type Editor,
} from './harness';

let editor: Editor;

function scenario(title: string, name: string, body: (page: Page) => Promise<void>): void {
  it(title, { timeout: 4 * patience }, async () => {
    try {
      await body(editor.page);
      await editor.screenshot(name);
    } catch (e) {
      await editor.screenshot(`${name}-failed`).catch(() => undefined);
      throw e;
    }
  });
}

function positionOf(file: string, after: RegExp, field: RegExp): { line: number; column: number } {
  const lines = readWorkspaceFile(editor, file).split('\n');
  const from = lines.findIndex((l) => after.test(l));
  const at = lines.findIndex((l, i) => i >= from && field.test(l));
  assert.ok(from >= 0 && at >= 0, `${file}: no ${field} after ${after}`);
  const m = field.exec(lines[at])!;
  return { line: at + 1, column: m.index + m[0].length + 2 };
}

const chinese = /[\u4e00-\u9fff]/;

/** Elements of `selector` whose text is wider than their box (clipped or overflowing), in the page or a frame. */
async function overflowing(where: Page | Frame, selector: string): Promise<string[]> {
  return where.evaluate(
    (sel) =>
      Array.from(document.querySelectorAll(sel))
        .filter((el) => (el as HTMLElement).offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
        .map((el) => `${el.className}: ${(el.textContent ?? '').slice(0, 80)}`),
    selector,
  );
}

describe('Kubernetes Network Lens in Simplified Chinese (code-server, display language zh-cn)', { timeout: 12 * patience }, () => {
  before(
    async () => {
      editor = await openEditor({ locale: 'zh-cn', viewport: { width: 1366, height: 768 } });
    },
    { timeout: 5 * patience },
  );

  after(async () => {
    const closed = await editor?.close();
    assert.deepEqual(closed?.extensionHostErrors ?? [], [], 'the extension logs no errors');
  });

  scenario('the Problems panel lists the findings in Chinese', 'zh-cn-problems', async (page) => {
    await openFile(page, 'frontend.yaml');
    const at = positionOf('frontend.yaml', /^kind: Service/, /^ {4}release: /);
    await goTo(page, at.line, at.column);
    await squiggles(page).first().waitFor();
    const rows = await problemsShowing(page, 'service-selector-no-match', { present: ['frontend.yaml', 'service-selector-no-match', '选择算符'] });
    assert.match(rows, /与名字空间 "shop" 中的任何 Pod 模板都不匹配/);
    assert.doesNotMatch(rows, /matches no pod/, 'no English message');
    // The filter stays on the Service's finding for the screenshot; its message is wrapped or cut with an ellipsis by
    // VS Code's list, never drawn over the next column.
    assert.deepEqual(await overflowing(page, '.markers-panel .monaco-list-row .marker-message-line'), []);
  });

  scenario('hovering a Service name shows its DNS names and endpoints in Chinese', 'zh-cn-hover', async (page) => {
    await openFile(page, 'api.yaml');
    const at = positionOf('api.yaml', /^kind: Service/, /^ {2}name: /);
    await goTo(page, at.line, at.column);
    const hover = await hoverAtCursor(page, 'api.shop.svc.cluster.local');
    assert.match(hover, /Service api，名字空间 shop：/);
    assert.match(hover, /3 个 Pod/);
    assert.match(hover, /只有就绪的 Pod 获得流量/);
    assert.doesNotMatch(hover, /in namespace|only ready pods|from other namespaces/);
    assert.deepEqual(await overflowing(page, '.monaco-hover .hover-contents'), []);
  });

  scenario('the quick-fix menu offers its fixes in Chinese', 'zh-cn-quick-fix', async (page) => {
    await page.keyboard.press('Escape');
    await openFile(page, 'database.yaml');
    const at = positionOf('database.yaml', /^kind: StatefulSet/, /^ {2}serviceName: /);
    await goTo(page, at.line, at.column);
    await squiggles(page, 'warning').first().waitFor();
    await page.keyboard.press('Control+.');
    const rows = page.locator('.action-widget .monaco-list-row');
    await rows.filter({ hasText: '将 serviceName 改为 "postgres"' }).first().waitFor();
    const titles = (await rows.allInnerTexts()).join('\n');
    assert.match(titles, /在此处忽略 statefulset-service-missing/);
    assert.doesNotMatch(titles, /Change serviceName|Ignore statefulset/);
    assert.deepEqual(await overflowing(page, '.action-widget .monaco-list-row .title'), []);
  });

  scenario('the trace view draws the path with Chinese words, its boxes and side panel holding their text', 'zh-cn-trace', async (page) => {
    await page.keyboard.press('Escape');
    await openFile(page, 'frontend.yaml');
    // The Problems panel of the scenarios before is hidden: the trace gets the editor area's full height.
    if (await page.locator('.markers-panel').isVisible()) {
      await page.keyboard.press('Control+J');
      await page.locator('.markers-panel').waitFor({ state: 'hidden' });
    }
    const at = positionOf('frontend.yaml', /^kind: Service/, /^ {2}name: /);
    await goTo(page, at.line, at.column);
    // The command's title is Chinese too (package.nls.zh-cn.json); the picker starts on the Service at the cursor.
    await runCommand(page, 'Kubernetes: 追踪 Service');
    const focused = page.locator('.quick-input-list .monaco-list-row.focused');
    await focused.filter({ hasText: 'frontend' }).waitFor();
    assert.match(await focused.innerText(), /光标所在处/);
    await page.keyboard.press('Enter');
    const { frame } = await webviewText(page, 'Service shop/frontend');
    await frame.waitForSelector('.trace-svg .node');
    await frame.waitForFunction(() => document.body.getAttribute('data-render-count') !== null);
    assert.equal(await frame.evaluate(() => document.documentElement.lang), 'zh-CN');
    // In a side panel the details start hidden: the legend's button shows them.
    const toggle = frame.locator('.detail-toggle');
    if ((await toggle.getAttribute('aria-expanded')) === 'false') {
      assert.equal(await toggle.textContent(), '显示详细信息');
      await toggle.click();
      await frame.locator('.detail:not(.collapsed)').waitFor();
    }
    await frame.locator('.detail-body .source').waitFor();
    const text = await frame.evaluate(() => document.body.textContent ?? '');
    for (const word of ['列表视图', '复制为 Mermaid', '没有任何请求能到达 Pod', '流量被阻止', '隐藏详细信息', '定义于 frontend.yaml', '没有端点']) {
      assert.ok(text.includes(word), `the trace view shows ${word}`);
    }
    assert.doesNotMatch(text, /List view|Copy as Mermaid|No request can reach|How clients reach it|traffic blocked/);
    const box = await frame.locator('.trace-svg [data-node-id^="no-endpoints"], .trace-svg .node.status-error').first().textContent();
    assert.match(box ?? '', chinese, 'the broken box speaks Chinese');
    // Every line of every box ends inside its box; the side panel and the toolbar do not overflow.
    const clipped = await frame.evaluate(() => {
      const bad: string[] = [];
      for (const node of Array.from(document.querySelectorAll('.trace-svg .node'))) {
        const b = node.querySelector('.node-box')!.getBoundingClientRect();
        for (const line of Array.from(node.querySelectorAll('text.line'))) {
          const r = line.getBoundingClientRect();
          if (r.right > b.right + 0.5) bad.push(`${node.getAttribute('data-node-id')}: ${line.textContent}`);
        }
      }
      for (const sel of ['.detail', '.toolbar', '.legend'])
        for (const el of Array.from(document.querySelectorAll(sel))) if (el.scrollWidth > el.clientWidth + 1) bad.push(`${sel} overflows`);
      // the side panel's text ends above the legend, which stays on screen
      const legend = document.querySelector('.legend')!.getBoundingClientRect();
      const detail = document.querySelector('.detail')!.getBoundingClientRect();
      if (detail.bottom > legend.top + 1) bad.push(`the details (bottom ${detail.bottom}) run under the legend (top ${legend.top})`);
      if (legend.bottom > window.innerHeight + 1) bad.push('the legend is below the view');
      return bad;
    });
    assert.deepEqual(clipped, []);
  });
});
