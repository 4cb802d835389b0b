// What a person sees after installing the VSIX, in a real VS Code (code-server) on a copy of examples/:
// diagnostics, hovers, a quick fix, cross-file updates, the trace view (from a Service and from a Gateway listener), and a
// language server that survives a crash.
// One editor serves every scenario, in order; scenarios that edit files come after the ones that only look.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import {
  goTo,
  hoverAtCursor,
  languageServers,
  openEditor,
  openFile,
  patience,
  pickWithKeyboard,
  problemsShowing,
  readWorkspaceFile,
  runCommand,
  seededMistakes,
  squiggles,
  webviewText,
  type Editor,
} from './harness';

const scenarioTimeout = 4 * patience;
let editor: Editor;

/** Runs one scenario; on failure leaves `<name>-failed.png` beside the other screenshots. */
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

/** 1-based line and column just inside the value of the first line matching `field` after the line matching `after`. */
function positionOf(file: string, after: RegExp, field: RegExp): { line: number; column: number } {
  const lines = readWorkspaceFile(editor, file).split('\n');
  const from = lines.findIndex((l) => after.test(l));
  assert.ok(from >= 0, `${file}: no line matches ${after}`);
  const at = lines.findIndex((l, i) => i >= from && field.test(l));
  assert.ok(at >= 0, `${file}: no line matches ${field} after ${after}`);
  const m = field.exec(lines[at])!;
  return { line: at + 1, column: m.index + m[0].length + 2 };
}

async function waitForEditorText(page: Page, ready: { includes: string; excludes?: string }): Promise<void> {
  await page.waitForFunction(({ includes, excludes }) => {
    const el = document.querySelector('.editor-group-container.active .monaco-editor .view-lines') as HTMLElement | null;
    const text = (el?.innerText ?? '').replace(/\u00a0/g, ' ');
    return text.includes(includes) && (!excludes || !text.includes(excludes));
  }, ready);
}

async function saveActiveEditor(page: Page): Promise<void> {
  await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
  await page.keyboard.press('Control+S');
  await page.locator('.tab.active.dirty').waitFor({ state: 'detached' });
}

/** Replaces the rest of the line from the cursor with `text`, as a person typing it. */
async function replaceToEndOfLine(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Shift+End');
  await page.keyboard.type(text);
}

describe('the packaged extension in VS Code (code-server)', { timeout: 12 * patience }, () => {
  before(
    async () => {
      editor = await openEditor();
    },
    { timeout: 5 * patience },
  );

  after(async () => {
    await editor?.close();
  });

  scenario('opening examples/ shows every seeded mistake as a squiggle and in the Problems panel, closed files included', '01-problems', async (page) => {
    const mistakes = seededMistakes();
    assert.ok(mistakes.length >= 6, 'examples/ should plant at least six mistakes');
    const first = mistakes[0];
    const opened = first.file;
    await openFile(page, opened);
    await goTo(page, first.line, 1);
    await squiggles(page).first().waitFor();
    for (const m of mistakes) {
      const rows = await problemsShowing(page, m.code, { present: [m.file, m.code, `[Ln ${m.line}, Col`] });
      assert.match(rows, new RegExp(`kube-netlens\\s*\\(?${m.code}`), `Problems row for ${m.file}:${m.line} names its source and code`);
    }
    // Every other file was never opened: its findings came from the server reading the workspace.
    const tabs = await page.locator('.tabs-container .tab').allInnerTexts();
    assert.equal(tabs.length, 1, `only ${opened} is open`);
    assert.ok(tabs[0].includes(opened));
    await problemsShowing(page, '', { present: [first.code] });
  });

  scenario('hovering a Service name shows its DNS names and endpoints', '02-hover-service', async (page) => {
    await openFile(page, 'api.yaml');
    const at = positionOf('api.yaml', /^kind: Service/, /^ {2}name: /);
    await goTo(page, at.line, at.column);
    const hover = await hoverAtCursor(page, 'api.shop.svc.cluster.local');
    assert.match(hover, /Deployment/, 'the hover names the workload behind the Service');
    assert.match(hover, /\b3\b/, 'the hover counts the three api replicas');
  });

  scenario(
    'a route finding: the sectionName typo is squiggled, and hovering the parentRef says which listener refuses it',
    '02-route-finding',
    async (page) => {
      await openFile(page, 'gateway.yaml');
      const at = positionOf('gateway.yaml', /^kind: HTTPRoute/, /sectionName: htps/);
      await goTo(page, at.line, at.column - 3);
      await squiggles(page, 'warning').first().waitFor();
      const hover = await hoverAtCursor(page, 'NoMatchingParent');
      assert.match(hover, /shop-gateway/, 'the hover names the Gateway');
      assert.match(hover, /https/, 'the hover lists the listeners, the near miss among them');
      await problemsShowing(page, 'gateway-listener-not-found', { present: ['gateway.yaml', 'htps', `[Ln ${at.line}, Col`] });
    },
  );

  scenario('the quick fix on the serviceName typo edits the file and the squiggle goes away', '03-quick-fix', async (page) => {
    await openFile(page, 'database.yaml');
    const at = positionOf('database.yaml', /^kind: StatefulSet/, /^ {2}serviceName: /);
    await goTo(page, at.line, at.column);
    await squiggles(page, 'warning').first().waitFor();
    await page.keyboard.press('Control+.');
    await pickWithKeyboard(page, page.locator('.action-widget .monaco-list-row'), /postgres\b/);
    await waitForEditorText(page, { includes: 'serviceName: postgres', excludes: 'postgress' });
    await page.waitForFunction(
      () =>
        document.querySelectorAll(
          '.editor-group-container.active .monaco-editor .view-overlays .squiggly-warning, .editor-group-container.active .monaco-editor .view-overlays .squiggly-error',
        ).length === 0,
    );
    await problemsShowing(page, 'statefulset-service-missing', { absent: ['database.yaml'] });
    await saveActiveEditor(page);
    assert.match(readWorkspaceFile(editor, 'database.yaml'), /serviceName: postgres\n/);
  });

  scenario('hovering the fixed StatefulSet serviceName shows the per-pod DNS names', '02-hover-statefulset', async (page) => {
    await openFile(page, 'database.yaml');
    const at = positionOf('database.yaml', /^kind: StatefulSet/, /^ {2}serviceName: /);
    await goTo(page, at.line, at.column);
    await hoverAtCursor(page, 'postgres-0.postgres.shop.svc.cluster.local');
  });

  scenario('editing labels in one file makes a diagnostic in another file appear, then disappear', '04-cross-file', async (page) => {
    await openFile(page, 'api.yaml');
    const label = positionOf('api.yaml', /^ {2}template:/, /^ {8}app: /);
    await problemsShowing(page, 'networkpolicy-selects-nothing', { absent: ['policies.yaml'] });
    await goTo(page, label.line, label.column - 1);
    await replaceToEndOfLine(page, 'apii');
    await waitForEditorText(page, { includes: 'app: apii' });
    // The NetworkPolicy in policies.yaml selects `app: api`: with the pods relabelled by a typo it selects nothing.
    await problemsShowing(page, 'networkpolicy-selects-nothing', { present: ['policies.yaml'] });
    await editor.screenshot('04-cross-file-appeared');
    await goTo(page, label.line, label.column - 1);
    await replaceToEndOfLine(page, 'api');
    await problemsShowing(page, 'networkpolicy-selects-nothing', { absent: ['policies.yaml'] });
    await saveActiveEditor(page);
  });

  scenario('"Kubernetes: Trace Service" draws the path with the broken hop marked', '05-trace', async (page) => {
    // The view gets the whole window, so the screenshot shows it at a readable size.
    await runCommand(page, 'View: Close All Editors');
    await page.locator('.editor-group-container .tab').first().waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+J'); // toggles the panel, open since the Problems checks
    await page.locator('.markers-panel').waitFor({ state: 'hidden' });
    await page.keyboard.press('Control+B'); // toggles the primary side bar
    await page.locator('.explorer-folders-view').waitFor({ state: 'hidden' });
    await runCommand(page, 'Kubernetes: Trace Service');
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'frontend' }).first().waitFor();
    await input.fill('frontend');
    await pickWithKeyboard(page, page.locator('.quick-input-list .monaco-list-row'), 'frontend');
    const { frame, text } = await webviewText(page, 'frontend');
    // The frontend Service selects `release: stabel`: the trace must show that hop as broken.
    await frame.waitForSelector('.finding-marker, .edge-broken, .status-error', { state: 'attached' });
    assert.match(text, /blocked|no request can reach|stabel|no endpoints|matches no/i, 'the trace says the path is broken');
    const fit = frame.getByRole('button', { name: 'Fit' });
    if (await fit.count()) await fit.click();
  });

  scenario('the trace of a Service behind the Gateway starts at the listener and the route rule', '05-trace-gateway', async (page) => {
    await runCommand(page, 'View: Close All Editors');
    await page.locator('.editor-group-container .tab').first().waitFor({ state: 'detached' });
    await runCommand(page, 'Kubernetes: Trace Service');
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'api' }).first().waitFor();
    await input.fill('api');
    await pickWithKeyboard(page, page.locator('.quick-input-list .monaco-list-row'), 'api');
    // Rule 1 of the HTTPRoute (/api) sends to api: only the api trace has it (the frontend one shows rule 2).
    const frame = await webviewWith(page, '[data-node-id="gateway:rule:HTTPRoute/shop/shop/0"]');
    await frame.waitForSelector('[data-node-id="gateway:listener:shop/shop-gateway/http"]', { state: 'attached' });
    await frame.waitForSelector('[data-node-id="gateway:backend:HTTPRoute/shop/shop/0/0"]', { state: 'attached' });
    const fit = frame.getByRole('button', { name: 'Fit' });
    if (await fit.count()) await fit.click();
  });

  scenario('a Helm chart is rendered with helm and its selector typo is a finding on the template line', '07-helm-template-line', async (page) => {
    await problemsShowing(page, 'service-selector-no-match', { present: ['service.yaml', '[Ln 9, Col 10]', 'in release shop, values.yaml'] });
    // the status bar counts the chart as rendered
    await page.waitForFunction(
      () => Array.from(document.querySelectorAll('.statusbar-item'), (e) => e.textContent ?? '').some((t) => t.includes('1/1 chart rendered')),
      undefined,
      { timeout: patience },
    );
    await openFile(page, 'service.yaml');
    await goTo(page, 9, 12);
    await squiggles(page, 'warning').first().waitFor();
  });

  scenario('the client restarts a killed language server and diagnostics come back', '06-server-restarted', async (page) => {
    const before = languageServers(editor);
    assert.ok(before.length > 0, 'no dist/server.js process under this code-server');
    for (const pid of before) process.kill(pid, 'SIGKILL');
    const restarted = await waitForNewServer(before);
    assert.ok(!before.includes(restarted), 'a new language server process runs');
    // The new server indexed the workspace again: a fresh edit is analysed across files.
    await openFile(page, 'api.yaml');
    const label = positionOf('api.yaml', /^ {2}template:/, /^ {8}app: /);
    await goTo(page, label.line, label.column - 1);
    await replaceToEndOfLine(page, 'apj');
    await problemsShowing(page, 'networkpolicy-selects-nothing', { present: ['policies.yaml'] });
    await goTo(page, label.line, label.column - 1);
    await replaceToEndOfLine(page, 'api');
    await problemsShowing(page, 'networkpolicy-selects-nothing', { absent: ['policies.yaml'] });
    // Everything seeded is reported again, except the serviceName typo fixed earlier.
    for (const m of seededMistakes().filter((m) => m.code !== 'statefulset-service-missing')) {
      await problemsShowing(page, m.code, { present: [m.file] });
    }
  });
});

/** The webview frame that holds an element matching `selector`, waiting on frame navigations for it to appear. */
async function webviewWith(page: Page, selector: string): Promise<Frame> {
  const deadline = Date.now() + patience;
  for (;;) {
    for (const frame of page.frames()) {
      if (!frame.url().includes('webview')) continue;
      if (await frame.evaluate((sel) => document.querySelector(sel) !== null, selector).catch(() => false)) return frame;
    }
    if (Date.now() > deadline) throw new Error(`no webview showed ${selector} within ${patience} ms`);
    await page.waitForEvent('framenavigated', { timeout: 1000 }).catch(() => undefined);
  }
}

/** Waits (on the process table, checked every 200 ms) until a language server other than `old` runs. */
async function waitForNewServer(old: readonly number[]): Promise<number> {
  const deadline = Date.now() + patience;
  for (;;) {
    const fresh = languageServers(editor).filter((pid) => !old.includes(pid));
    if (fresh.length) return fresh[0];
    if (Date.now() > deadline) throw new Error(`the language server was not restarted within ${patience} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
