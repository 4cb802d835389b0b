// The trace webview in Simplified Chinese (issue #29): the host's words (viewStrings.ts filled from the zh-cn bundle,
// as vscode.l10n does) and a trace the server made in zh-cn, drawn in headless Chromium. No English word is left in
// what the view shows or says to a screen reader, but the names from the manifests, codes, kinds and field paths;
// the boxes and the side panel hold their Chinese text without clipping.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { viewStrings } from '../../client/webview/viewStrings';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { traceResultFor } from '../../server/src/features/traceResult';
import { bundleOf } from '../../server/src/l10n/l10n';
import type { TraceResult } from '../../server/src/protocol';
import { type ViewPage, bundleWebview, launchChromium, openView, resultsDir } from './tracePage';

const zh = bundleOf('zh-cn');
const words = { language: 'zh-cn', strings: viewStrings({ t: (m) => zh.get(m) ?? m }) };

const dir = join(__dirname, '..', '..', 'examples');
const sources = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => ({ uri: `file:///examples/${f}`, text: readFileSync(join(dir, f), 'utf8') }));
const analysis = analyzeTexts(sources, { locale: 'zh-cn' });

function zhTrace(name: string): TraceResult {
  const r = traceResultFor(analysis, { namespace: 'shop', name });
  assert.ok(r, `no trace for shop/${name}`);
  return r;
}

/**
 * English words a Chinese reader may see: every word of the manifests (names, labels, images, keys), the kinds and
 * the technical names the Chinese documentation keeps (kube-proxy, iptables, CoreDNS), keys on the keyboard.
 */
const kept = new Set(
  [
    ...sources.flatMap((s) => s.text.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []),
    ...['Service', 'Pod', 'Pods', 'Deployment', 'StatefulSet', 'DaemonSet', 'NetworkPolicy', 'Ingress', 'Endpoints', 'EndpointSlice'],
    ...[
      'ClusterIP',
      'NodePort',
      'LoadBalancer',
      'ExternalName',
      'Gateway',
      'HTTPRoute',
      'GRPCRoute',
      'TLSRoute',
      'TCPRoute',
      'UDPRoute',
      'ndots',
      'kube',
      'proxy',
      'iptables',
      'ipvs',
      'IPVS',
      'nftables',
    ],
    ...['CoreDNS', 'DNS', 'YAML', 'Mermaid', 'SVG', 'TCP', 'UDP', 'HTTP', 'HTTPS', 'IP', 'eth0', 'veth', 'Tab', 'Enter', 'NAT', 'DNAT', 'SNAT'],
    ...['conntrack', 'bridge', 'cni0', 'publishNotReadyAddresses', 'Corefile', 'svc', 'cluster', 'local', 'calico', 'cilium', 'flannel'],
  ].map((w) => w.toLowerCase()),
);

/**
 * The English words of a text, leaving out codes, field paths, DNS names and file names (they hold `-`, `.`, `/`); a
 * word a box cut short (`fr…`) is the start of a kept word. Quoted text is a name or what a program prints
 * (`"connection refused"`), kept as written.
 */
function englishWords(text: string): string[] {
  return text
    .replace(/"[^"\n]*"/g, ' ')
    .split(/[\s\u3000-\u303f\uff00-\uffef"'“”‘’·•,;:()（）【】[\]{}<>→▾✓✖⚠◐╌▶!?+=|]+/)
    .filter((t) => /[A-Za-z]/.test(t) && !/[-./_#@0-9]/.test(t.replace(/…$/, '')))
    .filter((t) => (t.endsWith('…') ? ![...kept].some((k) => k.startsWith(t.slice(0, -1).toLowerCase())) : !kept.has(t.toLowerCase())));
}

/** What the page shows and says: its text (SVG text too), every aria-label and title, the document title. */
async function pageWords(v: ViewPage): Promise<{ visible: string; accessible: string }> {
  return v.page.evaluate(() => {
    const texts = Array.from(document.querySelectorAll('body *'))
      // hidden panels are not read
      .filter((el) => !el.closest('[hidden]') && el.tagName !== 'SCRIPT' && el.tagName !== 'NOSCRIPT' && el.tagName !== 'title' && el.tagName !== 'STYLE')
      .flatMap((el) =>
        Array.from(el.childNodes)
          .filter((n) => n.nodeType === Node.TEXT_NODE)
          .map((n) => n.textContent ?? ''),
      );
    const accessible = [
      document.title,
      ...Array.from(document.querySelectorAll('[aria-label]')).map((el) => el.getAttribute('aria-label') ?? ''),
      ...Array.from(document.querySelectorAll('[title]')).map((el) => el.getAttribute('title') ?? ''),
      ...Array.from(document.querySelectorAll('svg title')).map((el) => el.textContent ?? ''),
    ];
    return { visible: texts.join('\n'), accessible: accessible.join('\n') };
  });
}

let browser: Browser;

before(async () => {
  mkdirSync(resultsDir, { recursive: true });
  await bundleWebview();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

describe('trace webview in zh-cn', () => {
  it('writes the page in Chinese: lang, title, toolbar, legend, boxes, detail pane; no English word left', async () => {
    const v = await openView(browser, 'light', { width: 1366, height: 768 }, words);
    try {
      await v.sendTrace(zhTrace('frontend'));
      const { page } = v;
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
      assert.equal(await page.locator('.list-toggle').textContent(), '列表视图');
      assert.equal(await page.locator('#tab-path').textContent(), 'Service 路径');
      assert.equal(await page.locator('.save-svg').textContent(), '另存为 SVG');
      assert.match((await page.locator('.legend').textContent()) ?? '', /流量被阻止/);
      assert.match((await page.locator('.banner-alert').textContent()) ?? '', /没有任何请求能到达 Pod/);
      assert.match((await page.locator('.detail-body').textContent()) ?? '', /定义于 frontend\.yaml 第 \d+ 行/);
      const { visible, accessible } = await pageWords(v);
      assert.deepEqual([...new Set(englishWords(visible))], [], `English in the visible text`);
      assert.deepEqual([...new Set(englishWords(accessible))], [], `English in the accessible text`);
      await noClipping(v);
      await page.screenshot({ path: join(resultsDir, 'zh-cn-frontend.png') });

      // The text alternative (list view) and the packet path speak Chinese too.
      await page.locator('.list-toggle').click();
      const list = await pageWords(v);
      assert.match(list.visible, /1\. /);
      assert.deepEqual([...new Set(englishWords(list.visible))], [], `English in the list view:\n${list.visible}`);
      await page.locator('.list-toggle').click();
      await page.locator('#tab-packet').click();
      await page.waitForSelector('.packet-svg');
      const packet = await pageWords(v);
      assert.match(packet.visible, /目标 Pod 在同一节点上/);
      assert.deepEqual([...new Set(englishWords(packet.visible))], [], `English in the packet path:\n${packet.visible}`);
      assert.deepEqual([...new Set(englishWords(packet.accessible))], [], `English in the packet path's accessible text:\n${packet.accessible}`);
      await page.screenshot({ path: join(resultsDir, 'zh-cn-packet.png') });
    } finally {
      await v.close();
    }
  });

  it('keeps the English view when the host gives no words, and English templates for words it gives wrong', async () => {
    const broken = { ...words.strings, toolbar: { ...words.strings.toolbar, client: '客户端 ▾', listView: 42 } };
    const v = await openView(browser, 'light', { width: 1366, height: 768 }, { language: 'zh-cn', strings: broken as unknown as typeof words.strings });
    try {
      await v.sendTrace(zhTrace('api'));
      // a translation that drops the placeholder, or is no string, is not used: the English template is
      assert.equal(await v.page.locator('.list-toggle').textContent(), 'List view');
      assert.equal(await v.page.locator('.save-svg').textContent(), '另存为 SVG');
    } finally {
      await v.close();
    }
    const en = await openView(browser, 'light', { width: 1366, height: 768 });
    try {
      await en.sendTrace(zhTrace('api'));
      assert.equal(await en.page.evaluate(() => document.documentElement.lang), 'en');
      assert.equal(await en.page.locator('.list-toggle').textContent(), 'List view');
    } finally {
      await en.close();
    }
  });
});

/** Every box's text lines end inside the box, and the side panel's text stays within the panel. */
async function noClipping(v: ViewPage): Promise<void> {
  const out = await v.page.evaluate(() => {
    const bad: string[] = [];
    for (const node of Array.from(document.querySelectorAll('.trace-svg .node'))) {
      const box = node.querySelector('.node-box')!.getBoundingClientRect();
      for (const line of Array.from(node.querySelectorAll('text.line'))) {
        const r = line.getBoundingClientRect();
        if (r.right > box.right + 0.5 || r.left < box.left - 0.5) bad.push(`${node.getAttribute('data-node-id')}: ${line.textContent}`);
      }
    }
    const detail = document.querySelector('.detail')!;
    if (detail.scrollWidth > detail.clientWidth + 1) bad.push(`detail pane overflows: ${detail.scrollWidth} > ${detail.clientWidth}`);
    const toolbar = document.querySelector('.toolbar')!;
    if (toolbar.scrollWidth > toolbar.clientWidth + 1) bad.push(`toolbar overflows: ${toolbar.scrollWidth} > ${toolbar.clientWidth}`);
    return bad;
  });
  assert.deepEqual(out, []);
}
