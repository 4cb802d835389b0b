// Opens the built trace webview in headless Chromium, with the panel host's real HTML and CSP, a stand-in for
// acquireVsCodeApi that records posted messages, and VS Code theme variables for light, dark and high contrast.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { type Browser, type Page, chromium } from 'playwright-core';
import { renderTraceHtml } from '../../client/src/traceHtml';
import type { TraceResult } from '../../server/src/protocol';
import type { ViewStrings } from '../../client/webview/viewStrings';
import { tempDir } from '../helpers/tempDirs';

export type Theme = 'light' | 'dark' | 'high-contrast';

export const resultsDir = join('test-results', 'webview');
const bundleDir = join(resultsDir, 'bundle');
const origin = 'https://webview.test';

/** Bundles the webview the way scripts/build.mjs does, into the ignored results folder, so the test does not depend on a prior build. */
export async function bundleWebview(): Promise<void> {
  mkdirSync(bundleDir, { recursive: true });
  await esbuild.build({
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    logLevel: 'warning',
    entryPoints: ['client/webview/main.ts'],
    outfile: join(bundleDir, 'trace.js'),
  });
}

/**
 * Chromium with a home folder of its own (its crash reports, dconf and font caches follow HOME and the XDG folders,
 * not the temporary profile), removed with the test file's other temporary folders.
 */
export function launchChromium(): Promise<Browser> {
  const home = tempDir('kube-netlens-chromium-home-');
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    env: {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
    },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export function loadFixture(name: string): TraceResult {
  return JSON.parse(readFileSync(join('test', 'fixtures', 'trace', `${name}.json`), 'utf8')) as TraceResult;
}

/** VS Code's default Light+, Dark+ and High Contrast colours for the variables the view reads. */
const themes: Record<Theme, Record<string, string>> = {
  light: {
    'editor-foreground': '#000000',
    'editor-background': '#ffffff',
    errorForeground: '#a1260d',
    'editorWarning-foreground': '#bf8803',
    focusBorder: '#0090f1',
    'charts-green': '#388a34',
    'charts-blue': '#1a85ff',
    descriptionForeground: '#717171',
    'panel-border': '#80808059',
    'editorWidget-background': '#f3f3f3',
    'button-background': '#007acc',
    'button-foreground': '#ffffff',
    'button-secondaryBackground': '#e5e5e5',
    'button-secondaryForeground': '#000000',
    'editor-inactiveSelectionBackground': '#e5ebf1',
    'editorLineNumber-foreground': '#6e7681',
    'font-family': 'sans-serif',
    'font-size': '13px',
  },
  dark: {
    'editor-foreground': '#d4d4d4',
    'editor-background': '#1e1e1e',
    errorForeground: '#f48771',
    'editorWarning-foreground': '#cca700',
    focusBorder: '#007fd4',
    'charts-green': '#89d185',
    'charts-blue': '#3794ff',
    descriptionForeground: '#a8a8a8',
    'panel-border': '#80808059',
    'editorWidget-background': '#252526',
    'button-background': '#0e639c',
    'button-foreground': '#ffffff',
    'button-secondaryBackground': '#3a3d41',
    'button-secondaryForeground': '#ffffff',
    'editor-inactiveSelectionBackground': '#3a3d41',
    'editorLineNumber-foreground': '#858585',
    'font-family': 'sans-serif',
    'font-size': '13px',
  },
  'high-contrast': {
    'editor-foreground': '#ffffff',
    'editor-background': '#000000',
    errorForeground: '#f48771',
    'editorWarning-foreground': '#ffd370',
    focusBorder: '#f38518',
    'charts-green': '#89d185',
    'charts-blue': '#3794ff',
    descriptionForeground: '#ffffff',
    contrastBorder: '#6fc3df',
    'editorWidget-background': '#0c141f',
    'button-background': '#000000',
    'button-foreground': '#ffffff',
    'button-border': '#6fc3df',
    'editor-inactiveSelectionBackground': '#000000',
    'editorLineNumber-foreground': '#ffffff',
    'font-family': 'sans-serif',
    'font-size': '13px',
  },
};

export interface ViewPage {
  readonly page: Page;
  /** Messages the view posted to the host, oldest first. */
  posted(): Promise<{ type: string; [k: string]: unknown }[]>;
  /** Posts a trace as the host would and waits until it is drawn. */
  sendTrace(result: unknown): Promise<void>;
  close(): Promise<void>;
}

/** `words`: the view's words and language as the host puts them into the page (English templates without). */
export async function openView(
  browser: Browser,
  theme: Theme = 'light',
  size = { width: 1400, height: 800 },
  words?: { readonly language: string; readonly strings: ViewStrings },
): Promise<ViewPage> {
  const page = await browser.newPage({ viewport: size });
  const nonce = 'testnonce0123456789abcdef';
  const html = renderTraceHtml({ cspSource: origin, scriptUri: `${origin}/trace.js`, styleUri: `${origin}/trace.css`, nonce, ...words });
  const bodyClass = theme === 'high-contrast' ? 'vscode-high-contrast' : `vscode-${theme}`;
  // VS Code sets these itself before the page's scripts run; the stand-in does the same, through the CSSOM (allowed by the CSP).
  const stub = `<script nonce="${nonce}">
    window.__posted = []; window.__state = undefined;
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
      getState: () => window.__state,
      setState: (s) => { window.__state = s; },
    });
    const vars = ${JSON.stringify(themes[theme])};
    for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty('--vscode-' + k, v);
    document.body.classList.add(${JSON.stringify(bodyClass)});
  </script>`;
  const page0 = html.replace('<body>\n', `<body>\n${stub}\n`);
  await page.route(`${origin}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/index.html') return route.fulfill({ contentType: 'text/html', body: page0 });
    if (path === '/trace.js') return route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(bundleDir, 'trace.js')) });
    if (path === '/trace.css') return route.fulfill({ contentType: 'text/css', body: readFileSync('client/webview/trace.css') });
    return route.fulfill({ status: 404, body: '' });
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(`${origin}/index.html`);
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'));
  return {
    page,
    posted: () => page.evaluate(() => (window as unknown as { __posted: { type: string }[] }).__posted),
    async sendTrace(result) {
      const before = Number(await page.evaluate(() => document.body.getAttribute('data-render-count') ?? '0'));
      await page.evaluate((r) => window.postMessage({ type: 'trace', result: r }, '*'), result);
      await page.waitForFunction((n) => Number(document.body.getAttribute('data-render-count') ?? '0') > n, before);
      if (errors.length) throw new Error(`The page reported errors: ${errors.join('\n')}`);
    },
    close: () => page.close(),
  };
}
