// The one message catalogue (docs/localization.md): every call site's English template has a zh-cn translation with
// the same placeholders, no translation is left without a call site, the glossary's terms are translated as the
// glossary says, and the extension manifest's strings (package.nls.json) are translated too.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { bundleOf, format, messages } from '../../server/src/l10n/l10n';
import { glossary, termsIn } from '../helpers/glossary';
import { viewStrings } from '../../client/webview/viewStrings';

const root = join(__dirname, '..', '..');

interface CallSite {
  readonly file: string;
  readonly line: number;
  /** The English template, or undefined when the first argument is not a plain string literal. */
  readonly template?: string;
  readonly source: string;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sourceFiles(p, out);
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** The value of the string literal starting at `text[i]` ('…', "…" or `…` without `${`), and where it ends. */
function literalAt(text: string, i: number): { value: string; end: number } | undefined {
  const quote = text[i];
  if (quote !== "'" && quote !== '"' && quote !== '`') return undefined;
  let value = '';
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') {
      const n = text[++j];
      value += n === 'n' ? '\n' : n === 't' ? '\t' : n === 'u' ? String.fromCharCode(parseInt(text.slice(j + 1, (j += 4) + 1), 16)) : n;
      continue;
    }
    if (quote === '`' && c === '$' && text[j + 1] === '{') return undefined;
    if (c === quote) return { value, end: j + 1 };
    if (c === '\n' && quote !== '`') return undefined;
    value += c;
  }
  return undefined;
}

/** Every `msg(…)` and `phrase(…)` of the server and CLI, and every `l10n.t(…)` of the client and the trace webview. */
function callSites(): CallSite[] {
  const sites: CallSite[] = [];
  // The trace webview's own words are declared in client/webview/viewStrings.ts as `l10n.t` calls, filled by the host.
  const files = [...sourceFiles(join(root, 'server', 'src')), ...sourceFiles(join(root, 'client', 'src')), ...sourceFiles(join(root, 'client', 'webview'))];
  for (const file of files) {
    if (file.endsWith(join('l10n', 'l10n.ts'))) continue;
    const text = readFileSync(file, 'utf8');
    const call =
      file.includes(`${join('client', 'src')}`) || file.includes(`${join('client', 'webview')}`) ? /\bl10n\.t\(\s*/g : /(?<![.\w])(?:msg|phrase)\(\s*/g;
    for (const m of text.matchAll(call)) {
      const start = m.index! + m[0].length;
      const line = text.slice(0, m.index).split('\n').length;
      const lit = literalAt(text, start);
      const rel = relative(root, file);
      const source = text.slice(m.index, text.indexOf('\n', m.index)).trim();
      // a call site that passes the formatter on (`(msg) => …`, `msg: Msg`) is no message
      if (!lit && /^(?:msg|phrase)\(\s*\)/.test(text.slice(m.index))) continue;
      sites.push({ file: rel, line, ...(lit && { template: lit.value }), source });
    }
  }
  return sites;
}

function placeholders(s: string): string[] {
  return [...new Set([...s.matchAll(/\{(\d+)\}/g)].map((m) => m[1]))].sort();
}

const zh = bundleOf('zh-cn');
const sites = callSites();

describe('message catalogue', () => {
  it('has call sites (the scan finds the server, CLI and client messages)', () => {
    assert.ok(sites.length > 50, `only ${sites.length} call sites found`);
  });

  it('takes a plain string literal as every template (the catalogue key)', () => {
    const bad = sites.filter((s) => s.template === undefined);
    assert.deepEqual(
      bad.map((s) => `${s.file}:${s.line}: ${s.source}`),
      [],
    );
  });

  it('translates every template into zh-cn', () => {
    const missing = [
      ...new Set(sites.filter((s) => s.template !== undefined && !zh.has(s.template)).map((s) => `${s.file}:${s.line}: ${JSON.stringify(s.template)}`)),
    ];
    assert.deepEqual(missing, []);
  });

  it("keeps each translation's placeholders those of its English template", () => {
    const wrong = [...zh]
      .filter(([en, t]) => placeholders(en).join() !== placeholders(t).join())
      .map(([en, t]) => `${JSON.stringify(en)} → ${JSON.stringify(t)}`);
    assert.deepEqual(wrong, []);
  });

  it('has no translation without a call site (a changed English text leaves none behind)', () => {
    const used = new Set(sites.map((s) => s.template));
    assert.deepEqual(
      [...zh.keys()].filter((k) => !used.has(k)),
      [],
    );
  });

  it('writes every glossary term as the glossary translates it', () => {
    const wrong: string[] = [];
    for (const [en, t] of zh) {
      for (const term of termsIn(en))
        if (!t.includes(term.translation)) wrong.push(`${JSON.stringify(en)}: "${term.term}" must read "${term.translation}" in ${JSON.stringify(t)}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('writes Chinese punctuation in Chinese sentences, never a half-width comma or full stop after a Chinese character', () => {
    const wrong = [...zh.values()].filter((t) => /[\u4e00-\u9fff][,.;:?!](\s|$)/.test(t));
    assert.deepEqual(wrong, []);
  });

  it('translates every word of the trace webview (client/webview/viewStrings.ts) into zh-cn', () => {
    const leaves = (o: unknown): string[] => (typeof o === 'string' ? [o] : Object.values(o as object).flatMap(leaves));
    const english = leaves(viewStrings({ t: (m) => m }));
    assert.ok(english.length > 100, `only ${english.length} webview strings`);
    assert.ok(
      sites.some((s) => s.file === join('client', 'webview', 'viewStrings.ts')),
      'the scan reads the webview strings',
    );
    assert.deepEqual(
      english.filter((t) => !zh.has(t)),
      [],
    );
    // The host fills them with vscode.l10n; its Chinese is the bundle's (placeholders kept for the view to fill).
    const chinese = leaves(viewStrings({ t: (m) => zh.get(m) ?? m }));
    assert.equal(chinese.filter((t, i) => t === english[i] && /[a-z]{3}/.test(t) && !/^[\w-]+$/.test(t)).length, 0);
  });

  it('takes exactly one argument per placeholder (checked by the compiler: `npx tsc` fails on a wrong count)', () => {
    const en = messages(undefined);
    // @ts-expect-error one placeholder, no argument
    assert.equal(en('Service to trace {0}'), 'Service to trace {0}');
    // @ts-expect-error no placeholder, one argument
    assert.equal(en('Service to trace', 'x'), 'Service to trace');
    assert.equal(en('{1}: {0} ({}) {0}', 'a', 'b'), 'b: a ({}) a');
  });

  it('formats positional placeholders, English without a bundle', () => {
    assert.equal(format('{1} then {0}, {0} again', ['a', 2]), '2 then a, a again');
    assert.equal(messages(undefined)('Trace Service'), 'Trace Service');
  });

  it('names a source on kubernetes.io/zh-cn for each glossary term', () => {
    assert.deepEqual(
      glossary.filter((t) => !t.source.startsWith('https://kubernetes.io/zh-cn/')).map((t) => t.term),
      [],
    );
  });
});

describe('extension manifest strings (package.nls)', () => {
  const pkgText = readFileSync(join(root, 'package.json'), 'utf8');
  const en = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const zhNls = JSON.parse(readFileSync(join(root, 'package.nls.zh-cn.json'), 'utf8')) as Record<string, string>;
  const keys = [...new Set([...pkgText.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]))];

  it('declares every %key% of package.json in package.nls.json', () => {
    assert.ok(keys.length > 10);
    assert.deepEqual(
      keys.filter((k) => !(k in en)),
      [],
    );
    assert.deepEqual(
      Object.keys(en).filter((k) => !keys.includes(k)),
      [],
    );
  });

  it('translates every key into package.nls.zh-cn.json with the same placeholders and glossary terms', () => {
    assert.deepEqual(
      Object.keys(en).filter((k) => !(k in zhNls)),
      [],
    );
    assert.deepEqual(
      Object.keys(zhNls).filter((k) => !(k in en)),
      [],
    );
    const wrong: string[] = [];
    for (const [k, text] of Object.entries(en)) {
      const t = zhNls[k];
      if (placeholders(text).join() !== placeholders(t).join()) wrong.push(`${k}: placeholders`);
      for (const term of termsIn(text)) if (!t.includes(term.translation)) wrong.push(`${k}: "${term.term}" must read "${term.translation}"`);
    }
    assert.deepEqual(wrong, []);
  });

  it('leaves no user-facing title or description of package.json untranslated', () => {
    const pkg = JSON.parse(pkgText) as {
      contributes: { commands: { title: string }[]; configuration: { properties: Record<string, Record<string, unknown>> } };
    };
    const literal: string[] = [];
    for (const c of pkg.contributes.commands) if (!c.title.startsWith('%')) literal.push(c.title);
    for (const [name, p] of Object.entries(pkg.contributes.configuration.properties)) {
      for (const field of ['markdownDescription', 'description'] as const) {
        const v = p[field];
        if (typeof v === 'string' && !v.startsWith('%')) literal.push(`${name}.${field}`);
      }
      const enums = p.enumDescriptions;
      if (Array.isArray(enums)) for (const e of enums) if (typeof e === 'string' && !e.startsWith('%')) literal.push(`${name}.enumDescriptions`);
    }
    assert.deepEqual(literal, []);
  });
});
