// The real-editor harness: the packaged extension installed into code-server, driven by Debian's Chromium.
// One editor per test file: `openEditor()` in `before`, `editor.close()` in `after`. Waits are on page state only.

import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Frame, type Locator, type Page } from 'playwright-core';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  ensureCodeServer,
  ensureVsix,
  freePort,
  installExtension,
  prepareProfile,
  root,
  startCodeServer,
  type RunningCodeServer,
} from '../../scripts/codeServer.mjs';

export const screenshotDir = join(root, 'test-results', 'e2e');
/**
 * `npm run screenshots` (KUBE_NETLENS_SCREENSHOTS=1) also writes the screenshots that document the product to
 * docs/screenshots/, which the repository keeps; an ordinary test run leaves that folder alone.
 */
export const documenting = process.env.KUBE_NETLENS_SCREENSHOTS === '1';
export const docsScreenshotDir = join(root, 'docs', 'screenshots');
const chromiumPath = process.env.KUBE_NETLENS_CHROMIUM ?? '/usr/bin/chromium';
/** Long enough for a cold extension host on a slow CI machine; every wait ends as soon as the page is ready. */
export const patience = Number(process.env.KUBE_NETLENS_E2E_TIMEOUT_MS ?? 60_000);

/** Settings that keep the editor predictable under a keyboard-driven test. */
const testSettings = {
  'editor.quickSuggestions': { other: false, comments: false, strings: false },
  'editor.suggestOnTriggerCharacters': false,
  'editor.hover.delay': 300,
  'editor.minimap.enabled': false,
  'files.autoSave': 'off',
  'problems.sortOrder': 'position',
  'workbench.colorTheme': 'Default Dark Modern',
  'window.zoomLevel': 0,
  // the pinned helm scripts/setup-helm.mjs unpacks: the workspace's Helm chart is rendered
  'kubeNetlens.helm.path': join(root, '.tools', 'helm', 'helm'),
};

export interface Editor {
  readonly page: Page;
  /** The copy of examples/ (plus the Helm chart charts/shop), or of `workspaceFrom`, the editor has open; tests may change it. */
  readonly workspace: string;
  readonly codeServer: RunningCodeServer;
  /**
   * Saves a full-page screenshot (or the `clip` of it) as test-results/e2e/<name>.png; with `doc`, and when
   * documenting, also as docs/screenshots/<name>.png.
   */
  screenshot(name: string, options?: { readonly doc?: boolean; readonly clip?: { x: number; y: number; width: number; height: number } }): Promise<string>;
  /** Closes the browser and stops code-server; resolves to the extension's errors in the extension-host log. */
  close(): Promise<{ readonly extensionHostErrors: readonly string[] }>;
}

/**
 * Packages (or reuses a fresh) VSIX, installs it into a new profile, copies examples/ (or `workspaceFrom`) to a temporary workspace,
 * starts code-server on a free loopback port and opens the workbench in Chromium.
 * KUBE_NETLENS_VSIX=path uses that VSIX instead of packaging.
 */
export async function openEditor(
  options: {
    readonly extraFolders?: Readonly<Record<string, string>>;
    readonly workspaceFrom?: string;
    /** The browser window's size (default 1600×1000). */
    readonly viewport?: { readonly width: number; readonly height: number };
    /**
     * VS Code's display language (`zh-cn`): the test's own language pack (test/fixtures/e2e/zh-cn-language-pack, no
     * translations of VS Code itself) makes it available, and code-server starts with `--locale`.
     */
    readonly locale?: 'zh-cn';
  } = {},
): Promise<Editor> {
  ensureCodeServer({ quiet: true });
  const vsix = process.env.KUBE_NETLENS_VSIX ?? (await ensureVsix());
  const dir = mkdtempSync(join(tmpdir(), 'kube-netlens-e2e-'));
  const workspace = join(dir, 'workspace');
  if (options.workspaceFrom) {
    // a scenario's own workspace (so the counts over examples/ stay those of examples/)
    cpSync(options.workspaceFrom, workspace, { recursive: true });
  } else {
    cpSync(join(root, 'examples'), workspace, { recursive: true });
    // a Helm chart beside the plain manifests, with a selector typo in a template
    cpSync(join(root, 'test', 'fixtures', 'helm', 'typo'), join(workspace, 'charts', 'shop'), { recursive: true });
  }
  // More folders a test file asks for: workspace-relative target → project-relative source.
  for (const [to, from] of Object.entries(options.extraFolders ?? {})) cpSync(join(root, from), join(workspace, to), { recursive: true });
  const profile = prepareProfile(join(dir, 'profile'), vsix, testSettings);
  if (options.locale) {
    installExtension(join(dir, 'profile'), profile, languagePack(options.locale, dir));
    registerLanguagePack(profile, options.locale);
  }
  // An empty home: after the run it must still be empty (code-server's config, logs and state stay in the profile).
  const home = join(dir, 'home');
  mkdirSync(home);
  const codeServer = await startCodeServer({
    ...profile,
    folder: workspace,
    port: await freePort(),
    home,
    ...(options.locale ? { locale: options.locale } : {}),
  });

  // Chromium's crash reports, dconf and font caches go to a home of its own in the same folder (removed at close):
  // its profile is a temporary one, but those follow HOME and the XDG folders.
  const browserHome = join(dir, 'browser-home');
  mkdirSync(browserHome);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      env: {
        ...process.env,
        HOME: browserHome,
        XDG_CONFIG_HOME: join(browserHome, '.config'),
        XDG_CACHE_HOME: join(browserHome, '.cache'),
        XDG_DATA_HOME: join(browserHome, '.local', 'share'),
        TMPDIR: dir,
      },
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    });
    const page = await browser.newPage({ viewport: { ...(options.viewport ?? { width: 1600, height: 1000 }) } });
    page.setDefaultTimeout(patience);
    await page.goto(codeServer.url);
    await page.waitForSelector('.monaco-workbench');
    await page.waitForSelector('.explorer-folders-view .monaco-list-row');
    const opened = browser;
    return {
      page,
      workspace,
      codeServer,
      screenshot: async (name, shot = {}) => {
        mkdirSync(screenshotDir, { recursive: true });
        const path = join(screenshotDir, `${name}.png`);
        const image = await page.screenshot({ path, ...(shot.clip ? { clip: shot.clip } : {}) });
        if (shot.doc && documenting) {
          mkdirSync(docsScreenshotDir, { recursive: true });
          writeFileSync(join(docsScreenshotDir, `${name}.png`), image);
        }
        return path;
      },
      close: async () => {
        await opened.close().catch(() => undefined);
        await codeServer.stop();
        const written = readdirSync(home, { recursive: true });
        const extensionHostErrors = extensionErrors(profile.userDataDir);
        rmSync(dir, { recursive: true, force: true });
        if (written.length) throw new Error(`code-server wrote into the user's home: ${written.join(', ')}`);
        return { extensionHostErrors };
      },
    };
  } catch (e) {
    await browser?.close().catch(() => undefined);
    await codeServer.stop();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** The test-only language pack for `locale`, packaged with vsce into `dir`. */
function languagePack(locale: 'zh-cn', dir: string): string {
  const out = join(dir, `language-pack-${locale}.vsix`);
  const vsce = join(root, 'node_modules', '.bin', 'vsce');
  const r = spawnSync(vsce, ['package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '-o', out], {
    cwd: join(root, 'test', 'fixtures', 'e2e', `${locale}-language-pack`),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0 || !existsSync(out)) throw new Error(`packaging the ${locale} language pack failed:\n${r.stdout}\n${r.stderr}`);
  return out;
}

/**
 * VS Code's server resolves `--locale` through languagepacks.json in the user-data folder (the language, a hash and
 * the core translations file of the pack it comes from), which it writes itself only once it is running: too late for
 * the first page. The harness writes it as VS Code would for the pack it installed.
 */
function registerLanguagePack(profile: { userDataDir: string; extensionsDir: string }, locale: 'zh-cn'): void {
  const id = `kube-netlens-test.kube-netlens-test-${locale}-pack`;
  const folder = readdirSync(profile.extensionsDir).find((f) => f.startsWith(`${id}-`));
  if (!folder) throw new Error(`the ${locale} language pack is not in ${profile.extensionsDir}`);
  const pack = join(profile.extensionsDir, folder);
  const { version } = JSON.parse(readFileSync(join(pack, 'package.json'), 'utf8')) as { version: string };
  const entry = {
    hash: createHash('md5').update(`${id}@${version}`).digest('hex'),
    extensions: [{ extensionIdentifier: { id }, version }],
    translations: { vscode: join(pack, 'translations', 'main.i18n.json') },
    label: '中文(简体)',
  };
  writeFileSync(join(profile.userDataDir, 'languagepacks.json'), JSON.stringify({ [locale]: entry }));
}

/** `[error]` entries of the extension-host logs that come from this extension (its name or its files). */
function extensionErrors(userDataDir: string): string[] {
  const logs = join(userDataDir, 'logs');
  const files = existsSync(logs) ? (readdirSync(logs, { recursive: true }) as string[]).filter((f) => /exthost\d*[/\\]remoteexthost\.log$/.test(f)) : [];
  const out: string[] = [];
  for (const f of files) {
    // An entry is its first line plus the stack lines under it.
    const entries = readFileSync(join(logs, f), 'utf8').split(/\n(?=\d{4}-\d\d-\d\d )/);
    out.push(...entries.filter((e) => /\[error\]/.test(e.split('\n')[0]) && /kube-netlens/.test(e)).map((e) => e.slice(0, 600)));
  }
  return out;
}

/** The seeded mistakes of examples/ (1-based lines), as the examples' own test data lists them. */
export interface SeededMistake {
  readonly file: string;
  readonly line: number;
  readonly code: string;
}

export function seededMistakes(): readonly SeededMistake[] {
  const data = JSON.parse(readFileSync(join(root, 'test', 'fixtures', 'cli', 'examples-expected.json'), 'utf8')) as SeededMistake[];
  return data.map((m) => ({ ...m, file: m.file.replace(/^examples\//, '') }));
}

/** The YAML files of the workspace copy, by name. */
export function workspaceFiles(editor: Editor): readonly string[] {
  return readdirSync(editor.workspace)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
}

export function readWorkspaceFile(editor: Editor, name: string): string {
  return readFileSync(join(editor.workspace, name), 'utf8');
}

/** Opens a workspace file by name through Quick Open and waits until its editor tab is active. */
export async function openFile(page: Page, name: string): Promise<void> {
  await focusWorkbench(page);
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(name);
  // Enter opens the focused row: wait until the list has caught up with the typed name.
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: name }).waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: name }).waitFor();
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').waitFor();
}

/** Moves the cursor of the active editor to a 1-based line and column. */
export async function goTo(page: Page, line: number, column: number): Promise<void> {
  await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
  await page.waitForFunction(
    ([l, c]) => {
      const status = document.querySelector('.statusbar-item[id="status.editor.selection"]')?.textContent ?? '';
      return status.includes(`Ln ${l}, Col ${c}`);
    },
    [line, column] as const,
  );
}

/** Shows the hover at the cursor (Ctrl+K Ctrl+I) and waits for it to contain `expected`. */
export async function hoverAtCursor(page: Page, expected: string | RegExp): Promise<string> {
  const hover = page.locator('.monaco-hover-content').filter({ hasText: expected }).first();
  for (let attempt = 0; ; attempt++) {
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    try {
      // The first request may land before the server has indexed the workspace: ask again if the hover is empty.
      await hover.waitFor({ state: 'visible', timeout: attempt < 5 ? patience / 6 : patience });
      return await hover.innerText();
    } catch (e) {
      if (attempt >= 5) throw e;
      await page.keyboard.press('Escape');
    }
  }
}

/** Picks the row of the open menu or quick pick whose text matches `label` with the arrow keys, as a person would. */
export async function pickWithKeyboard(page: Page, rows: Locator, label: string | RegExp): Promise<void> {
  const target = rows.filter({ hasText: label }).first();
  await target.waitFor();
  const count = await rows.count();
  for (let i = 0; i <= count && !(await target.evaluate((el) => el.classList.contains('focused'))); i++) {
    await page.keyboard.press('ArrowDown');
  }
  await page.waitForFunction((el) => el?.classList.contains('focused'), await target.elementHandle());
  await page.keyboard.press('Enter');
}

/** Runs a command by its title through the command palette (F1). */
export async function runCommand(page: Page, title: string): Promise<void> {
  await focusWorkbench(page);
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).waitFor();
  await page.keyboard.press('Enter');
}

/**
 * Filters the Problems panel by `filter` (a code, a file name…) and waits until its rows contain every string of
 * `present` and none of `absent`; returns the rows' text.
 */
export async function problemsShowing(
  page: Page,
  filter: string,
  { present = [], absent = [] }: { present?: readonly string[]; absent?: readonly string[] },
): Promise<string> {
  await openProblems(page);
  const input = page.locator('.markers-panel-action-filter input, .viewpane-filter input').first();
  await input.fill(filter);
  const handle = await page.waitForFunction(
    ({ present, absent }) => {
      const rows = Array.from(document.querySelectorAll('.markers-panel .monaco-list-row'))
        .map((r) => (r as HTMLElement).innerText)
        .join('\n');
      return present.every((p) => rows.includes(p)) && !absent.some((a) => rows.includes(a)) ? rows || ' ' : false;
    },
    { present, absent },
  );
  return (await handle.jsonValue()) as string;
}

export async function openProblems(page: Page): Promise<void> {
  if (await page.locator('.markers-panel').isVisible()) return;
  await focusWorkbench(page);
  await page.keyboard.press('Control+Shift+M');
  await page.locator('.markers-panel').waitFor({ state: 'visible' });
}

/** The squiggles drawn in the active editor (`.squiggly-warning`, `.squiggly-error`, `.squiggly-info`, …). */
export function squiggles(page: Page, severity?: 'error' | 'warning' | 'info' | 'hint'): Locator {
  return page.locator(`.editor-group-container.active .monaco-editor .view-overlays ${severity ? `.squiggly-${severity}` : '[class*="squiggly-"]'}`);
}

/** The text of the webviews on the page (their innermost frames), once one of them contains `expected`. */
export async function webviewText(page: Page, expected: string | RegExp): Promise<{ frame: Frame; text: string }> {
  const deadline = Date.now() + patience;
  for (;;) {
    for (const frame of page.frames()) {
      if (!frame.url().includes('webview')) continue;
      const text = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
      if (typeof expected === 'string' ? text.includes(expected) : expected.test(text)) return { frame, text };
    }
    if (Date.now() > deadline) throw new Error(`no webview showed ${String(expected)} within ${patience} ms`);
    await page.waitForEvent('framenavigated', { timeout: 1000 }).catch(() => undefined);
  }
}

/** The process ids under `pid` (children, grandchildren…), read from /proc. */
export function descendants(pid: number): readonly number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const c of children.get(queue.shift()!) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** The language server processes (`dist/server.js` of the installed extension) under this code-server. */
export function languageServers(editor: Editor): readonly number[] {
  return descendants(editor.codeServer.pid).filter((pid) => /kube-netlens[^ ]*\/dist\/server\.js/.test(commandLine(pid)));
}

async function focusWorkbench(page: Page): Promise<void> {
  // Escape closes whatever widget holds the keyboard (a hover, a quick pick) so shortcuts reach the workbench.
  await page.keyboard.press('Escape');
}
