// What a team meets in a real VS Code (code-server), on a workspace of its own (test/fixtures/e2e/team): the "Ignore
// <code> here…" quick fix that asks for a reason, adds the kube-netlens.io/ignore annotation and turns the warning into a
// faded hint (and, on a workload, "… on the pod template…", which annotates spec.template.metadata); `.kube-netlens.yaml` edits that change the diagnostics as they are typed (and an invalid value that is an
// error on the file); and NetworkPolicy reach in the workload hover and the policy code lens. Screenshots at 1366×768.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { parseAllDocuments } from 'yaml';
import { goTo, hoverAtCursor, openEditor, openFile, patience, pickWithKeyboard, problemsShowing, readWorkspaceFile, squiggles, type Editor } from './harness';

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

/** 1-based line and column of the first occurrence of `text` in a workspace file. */
function find(file: string, text: string): { line: number; column: number } {
  const lines = readWorkspaceFile(editor, file).split('\n');
  const line = lines.findIndex((l) => l.includes(text));
  assert.ok(line >= 0, `${file}: no line holds ${text}`);
  return { line: line + 1, column: lines[line].indexOf(text) + 1 };
}

async function editorText(page: Page, ready: { includes: string; excludes?: string }): Promise<void> {
  await page.waitForFunction(({ includes, excludes }) => {
    const el = document.querySelector('.editor-group-container.active .monaco-editor .view-lines') as HTMLElement | null;
    const text = (el?.innerText ?? '').replace(/\u00a0/g, ' ');
    return text.includes(includes) && (!excludes || !text.includes(excludes));
  }, ready);
}

/**
 * Waits until the text drawn faded in the active editor (an `unnecessary` diagnostic: an ignored finding) includes
 * `includes` and not `excludes`.
 */
async function fadedText(page: Page, ready: { includes?: string; excludes?: string }): Promise<void> {
  await page.waitForFunction(({ includes, excludes }) => {
    const faded = Array.from(document.querySelectorAll('.editor-group-container.active .monaco-editor .view-lines .squiggly-inline-unnecessary'));
    const text = faded
      .map((el) => (el as HTMLElement).innerText)
      .join('\n')
      .replace(/\u00a0/g, ' ');
    return (!includes || text.includes(includes)) && (!excludes || !text.includes(excludes));
  }, ready);
}

/** Replaces line `line` of the active editor with `text`, as a person selecting it and typing. */
async function replaceLine(page: Page, line: number, text: string): Promise<void> {
  await goTo(page, line, 1);
  await page.keyboard.press('Shift+End');
  await page.keyboard.type(text);
}

describe('a team in VS Code (code-server): suppressions, the config file, NetworkPolicy reach', { timeout: 8 * patience }, () => {
  before(
    async () => {
      editor = await openEditor({ workspaceFrom: join(__dirname, '..', 'fixtures', 'e2e', 'team') });
      await editor.page.setViewportSize({ width: 1366, height: 768 });
    },
    { timeout: 5 * patience },
  );

  after(async () => {
    await editor?.close();
  });

  scenario(
    '"Ignore service-selector-no-match here…" asks for a reason, adds the annotation and leaves a faded hint with it',
    '10-ignore-quick-fix',
    async (page) => {
      await openFile(page, 'payments.yaml');
      const at = find('payments.yaml', 'paymnts');
      await goTo(page, at.line, at.column + 1);
      await squiggles(page, 'warning').first().waitFor();
      await page.keyboard.press('Control+.');
      await pickWithKeyboard(page, page.locator('.action-widget .monaco-list-row'), /Ignore service-selector-no-match here/);
      // The reason is required: the input box says so for an empty one, and Escape would leave the file as it is.
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible' });
      await page.locator('.quick-input-widget', { hasText: 'Why is this finding intended?' }).waitFor();
      await input.fill('the payments pods of this test namespace are made by the load tester');
      await page.keyboard.press('Enter');
      await editorText(page, {
        includes: 'kube-netlens.io/ignore: "service-selector-no-match: the payments pods of this test namespace are made by the load tester"',
      });
      // The warning is gone from the Problems panel and the editor; a hint stays, faded, and its hover gives the reason.
      await problemsShowing(page, 'service-selector-no-match', { absent: ['payments.yaml'] });
      await page.waitForFunction(
        () => document.querySelectorAll('.editor-group-container.active .monaco-editor .view-overlays .squiggly-warning').length === 0,
      );
      await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
      await page.keyboard.press('Control+S');
      await page.locator('.tab.active.dirty').waitFor({ state: 'detached' });
      // saved, so the file on disk gives the lines as the editor shows them
      const now = find('payments.yaml', 'paymnts');
      await goTo(page, now.line, now.column + 1);
      // in view again (the Problems panel took the lower half of the editor): the typo is drawn faded
      await fadedText(page, { includes: 'paymnts' });
      const hover = await hoverAtCursor(page, 'made by the load tester');
      assert.match(hover, /ignored/i, 'the hover says the finding is ignored');
      assert.match(readWorkspaceFile(editor, 'payments.yaml'), /annotations:\n\s+kube-netlens\.io\/ignore: "service-selector-no-match: the payments pods/);
    },
  );

  scenario(
    '"Ignore hostnetwork-dns-policy on the pod template…" puts the annotation with the reason under spec.template.metadata and leaves a faded hint',
    '13-ignore-on-pod-template',
    async (page) => {
      const reason = "the nodes' resolver forwards cluster.local to CoreDNS";
      await openFile(page, 'node-agent.yaml');
      const at = find('node-agent.yaml', 'hostNetwork: true');
      await goTo(page, at.line, at.column + 'hostNetwork: '.length + 1);
      await squiggles(page, 'warning').first().waitFor();
      await fadedText(page, { excludes: 'true' });
      await page.keyboard.press('Control+.');
      const rows = page.locator('.action-widget .monaco-list-row');
      // A workload offers both places: its own metadata and its pod template's.
      await rows.filter({ hasText: 'Ignore hostnetwork-dns-policy on the pod template…' }).first().waitFor();
      const offered = await rows.allInnerTexts();
      assert.ok(
        offered.some((t) => t.includes('Ignore hostnetwork-dns-policy here…')),
        offered.join(' | '),
      );
      await pickWithKeyboard(page, rows, /Ignore hostnetwork-dns-policy on the pod template/);
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible' });
      await page.locator('.quick-input-widget', { hasText: 'Ignore hostnetwork-dns-policy on the pod template' }).waitFor();
      // An empty reason is refused with the input box's message, and the file is left as it is.
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget', { hasText: 'A reason is required' }).waitFor();
      assert.equal(await page.locator('.tab.active.dirty').count(), 0, 'no edit without a reason');
      await input.fill(reason);
      await page.keyboard.press('Enter');
      await input.waitFor({ state: 'hidden' });
      await editorText(page, { includes: `kube-netlens.io/ignore: "hostnetwork-dns-policy: ${reason}"` });
      // The warning is gone from the Problems panel and the editor; `true` stays marked, faded (a hint tagged unnecessary).
      await problemsShowing(page, 'hostnetwork-dns-policy', { absent: ['node-agent.yaml'] });
      await page.waitForFunction(
        () => document.querySelectorAll('.editor-group-container.active .monaco-editor .view-overlays .squiggly-warning').length === 0,
      );
      await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
      await page.keyboard.press('Control+S');
      await page.locator('.tab.active.dirty').waitFor({ state: 'detached' });
      // On disk: the pod template's metadata holds the annotation, the DaemonSet's own metadata does not.
      interface Saved {
        kind?: string;
        metadata?: unknown;
        spec?: { template?: { metadata?: unknown } };
      }
      const saved = parseAllDocuments(readWorkspaceFile(editor, 'node-agent.yaml')).map((d) => d.toJS() as Saved);
      const daemonSet = saved.find((d) => d.kind === 'DaemonSet');
      assert.ok(daemonSet?.spec?.template, 'the DaemonSet and its pod template are still there');
      assert.deepEqual(daemonSet.spec.template.metadata, {
        labels: { app: 'node-agent' },
        annotations: { 'kube-netlens.io/ignore': `hostnetwork-dns-policy: ${reason}` },
      });
      assert.deepEqual(daemonSet.metadata, { name: 'node-agent', namespace: 'shop' });
      assert.equal(saved.length, 3, 'the other objects of the file are still there');
      // The hint's hover says by what and why.
      const now = find('node-agent.yaml', 'hostNetwork: true');
      await goTo(page, now.line, now.column + 'hostNetwork: '.length + 1);
      await fadedText(page, { includes: 'true' });
      await editor.screenshot('13-ignore-on-pod-template-annotation');
      const hover = await hoverAtCursor(page, reason);
      assert.match(hover, /Ignored \(annotation on the pod template of DaemonSet shop\/node-agent: /);
    },
  );

  scenario('typing in .kube-netlens.yaml switches a rule off at once, and an invalid value is an error on the file', '11-config-file-live', async (page) => {
    await problemsShowing(page, 'statefulset-service-missing', { present: ['checkout.yaml'] });
    await openFile(page, '.kube-netlens.yaml');
    const line = find('.kube-netlens.yaml', 'dns-name-unresolved').line;
    await replaceLine(page, line, '  statefulset-service-missing: "off"');
    await editorText(page, { includes: 'statefulset-service-missing: "off"' });
    // Unsaved: the server reads the open document.
    await problemsShowing(page, 'statefulset-service-missing', { absent: ['checkout.yaml'] });
    await editor.screenshot('11-config-file-rule-off');
    await replaceLine(page, line, '  statefulset-service-missing: loud');
    await problemsShowing(page, 'config-invalid', { present: ['.kube-netlens.yaml'] });
    // None of an invalid file's values apply: the rule is on again.
    await problemsShowing(page, 'statefulset-service-missing', { present: ['checkout.yaml'] });
  });

  scenario('hovering a workload shows which NetworkPolicy admits whom, and the policy has a code lens', '12-reach-hover', async (page) => {
    await openFile(page, 'payments.yaml');
    const at = find('payments.yaml', 'name: payments');
    await goTo(page, at.line, at.column + 7);
    const hover = await hoverAtCursor(page, 'payments-from-checkout');
    assert.match(hover, /checkout/, 'the hover names the client the policy admits');
    assert.match(hover, /8080/, 'the hover gives the port');
    await editor.screenshot('12-reach-hover-shown');
    await page.keyboard.press('Escape');
    await openFile(page, 'policies.yaml');
    const lens = page.locator('.editor-group-container.active .monaco-editor .codelens-decoration', { hasText: /selects 1 workload/ });
    await lens.first().waitFor();
    assert.match(await lens.first().innerText(), /admits/);
  });
});
