// A Kustomize base and its overlays as a person meets them in a real VS Code (code-server), in a workspace of their
// own (test/fixtures/kustomize/editor: a base with a Deployment and a Service, overlays/dev and overlays/prod with
// `namespace:` and `namePrefix:`, and a prod-only patch that relabels the pods so the Service selects nothing there).
// The prod finding lands on the base's selector line and names the overlay; the base Service's hover shows its DNS
// name in each overlay. Screenshots under test-results/e2e/.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { root } from '../../scripts/codeServer.mjs';
import { goTo, hoverAtCursor, openEditor, openFile, patience, problemsShowing, readWorkspaceFile, squiggles, type Editor } from './harness';

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

/** 1-based line and column of the value on the first line matching `field` after the line matching `after`. */
function positionOf(file: string, after: RegExp, field: RegExp): { line: number; column: number } {
  const lines = readWorkspaceFile(editor, file).split('\n');
  const from = lines.findIndex((l) => after.test(l));
  const at = lines.findIndex((l, i) => i >= from && field.test(l));
  assert.ok(from >= 0 && at >= 0, `${file}: no ${field} after ${after}`);
  const m = field.exec(lines[at])!;
  return { line: at + 1, column: m.index + m[0].length + 1 };
}

describe('a Kustomize base and its overlays in VS Code (code-server)', { timeout: 8 * patience }, () => {
  before(
    async () => {
      editor = await openEditor({ workspaceFrom: join(root, 'test', 'fixtures', 'kustomize', 'editor') });
    },
    { timeout: 5 * patience },
  );

  after(async () => {
    const closed = await editor?.close();
    assert.deepEqual(closed?.extensionHostErrors ?? [], [], 'the extension logs no errors');
  });

  scenario(
    "the prod overlay's mistake is squiggled on the base line that causes it, and the finding names the overlay",
    'kustomize-01-overlay-finding',
    async (page) => {
      const file = join('base', 'web.yaml');
      const selector = positionOf(file, /^kind: Service/, /^ {4}app: /);
      await openFile(page, 'web.yaml');
      await goTo(page, selector.line, selector.column);
      await squiggles(page, 'warning').first().waitFor();
      // exactly one finding, on the base line, naming overlays/prod (and not overlays/dev, where the selector matches)
      const rows = await problemsShowing(page, 'service-selector-no-match', {
        present: ['web.yaml', 'service-selector-no-match', `[Ln ${selector.line}, Col ${selector.column}]`, 'overlays/prod', 'prod-web'],
        absent: ['overlays/dev', 'duplicate-resource'],
      });
      assert.match(rows, /web-canary/, 'the near miss from the patch is named');
      // nothing else: the two overlays' copies of the base are not duplicates, and dev's Service works
      const all = await problemsShowing(page, '', { present: ['service-selector-no-match'] });
      assert.doesNotMatch(all, /duplicate-resource|dev-web/, all);
      // the same finding is what the editor shows at the cursor on that line
      await goTo(page, selector.line, selector.column);
      const hover = await hoverAtCursor(page, 'overlays/prod');
      assert.match(hover, /matches no pod template in namespace "prod"/);
    },
  );

  scenario('hovering the base Service shows its DNS name in each overlay', 'kustomize-02-hover-per-overlay', async (page) => {
    await page.keyboard.press('Escape');
    const name = positionOf(join('base', 'web.yaml'), /^kind: Service/, /^ {2}name: /);
    await openFile(page, 'web.yaml');
    await goTo(page, name.line, name.column + 1);
    const hover = await hoverAtCursor(page, 'prod-web.prod.svc.cluster.local');
    assert.match(hover, /dev-web\.dev\.svc\.cluster\.local/, "the dev overlay's name");
    assert.match(hover, /overlays\/prod/);
    assert.match(hover, /overlays\/dev/);
    assert.doesNotMatch(hover, /\bweb\.default\.svc/, 'no name the base alone would have: nobody applies the base by itself');
  });
});
