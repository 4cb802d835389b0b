// Property tests with a fixed seed: any text parses and analyses without throwing, in bounded time, with every range
// inside its document; file order does not change findings; hover Markdown renders any string literally; and no
// message from the webview outside the allow-list is accepted. Plus a time-bounded mutation fuzzer over examples/.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { readTraceIntent } from '../../client/src/traceMessages';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { code, escape } from '../../server/src/features/markdown';
import type { TraceGraph } from '../../server/src/protocol';
import { cpuClock } from '../helpers/cpuClock';

const seed = 20240607;
const examples = join(__dirname, '..', '..', 'examples');
const exampleTexts = readdirSync(examples)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => ({ uri: `file:///ex/${f}`, text: readFileSync(join(examples, f), 'utf8') }));

/** Parse, analyse, check; throws if a finding's range leaves its document or one input takes too long. */
function checkTotal(sources: readonly { uri: string; text: string }[], boundMs = 3000): readonly string[] {
  const cpuMs = cpuClock();
  const findings = diagnosticsFor(analyzeTexts(sources));
  const texts = new Map(sources.map((s) => [s.uri, s.text]));
  for (const f of findings) {
    const t = texts.get(f.uri);
    assert.ok(t !== undefined, `finding for unknown ${f.uri}`);
    assert.ok(
      f.span.start >= 0 && f.span.start <= f.span.end && f.span.end <= t.length,
      `${f.code} ${JSON.stringify(f.span)} outside a ${t.length}-char document`,
    );
    for (const r of f.related ?? []) {
      const rt = texts.get(r.uri);
      if (rt !== undefined) assert.ok(r.span.end <= rt.length, 'related span inside its document');
    }
  }
  assert.ok(cpuMs() < boundMs, `took ${cpuMs()} ms`);
  return findings.map((f) => `${f.uri} ${f.span.start}-${f.span.end} ${f.code} ${f.message}`).sort();
}

const yamlish = fc
  .array(
    fc.constantFrom(
      'apiVersion: v1\n',
      'kind: Service\n',
      'kind: Deployment\n',
      'metadata:\n',
      '  name: a\n',
      'spec:\n',
      '  selector: {app: a}\n',
      '  ports:\n',
      '  - port: 80\n',
      '    targetPort: http\n',
      '---\n',
      '- ',
      '[',
      ']',
      '{',
      '}',
      '&a ',
      '*a',
      '<<: *a\n',
      '"',
      "'",
      '#',
      ': ',
      '\t',
      '\r\n',
      '\u202E',
      '\uFEFF',
      '? ',
      '!!str ',
      '|\n',
      '>-\n',
    ),
    { maxLength: 60 },
  )
  .map((a) => a.join(''));

describe('properties', () => {
  it('any text gives a result without throwing, within a time bound, ranges inside the document', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 400 }), fc.string({ unit: 'binary', maxLength: 200 }), yamlish), (text) => {
        checkTotal([{ uri: 'file:///p/a.yaml', text }]);
      }),
      { seed, numRuns: 400 },
    );
  });

  it('file order does not change the findings', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(exampleTexts, { minLength: 2 }), yamlish, (files, extra) => {
        const sources = [...files, { uri: 'file:///p/extra.yaml', text: extra }];
        assert.deepEqual(checkTotal([...sources].reverse()), checkTotal(sources));
      }),
      { seed, numRuns: 25 },
    );
  });

  it('hover Markdown renders any string as exactly that text, never a link, image or HTML', () => {
    const md = new MarkdownIt({ html: false, linkify: true });
    const textOf = (html: string) =>
      html
        .replace(/<\/?(p|code)>/g, '')
        .replace(/\n$/, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
    const payload = fc.constantFrom(
      '[x](command:workbench.action.terminal.new)',
      '[a](javascript:alert(1))',
      '<img src=x onerror=alert(1)>',
      '</script><script>alert(1)</script>',
      '![i](http://e/x.png)',
      'http://example.com',
      '*em* __b__ `c`',
      '\u202Egnp.exe',
      '&amp; &lt;',
      '\\',
      '| a |',
      '<http://x>',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 80 }),
          payload,
          fc.array(payload).map((a) => a.join(' ')),
        ),
        (s) => {
          const want = s.replace(/[\r\n]+/g, ' ');
          const escaped = md.renderInline(escape(s));
          assert.ok(!/<(a|img|script)\b/i.test(escaped), `no link, image or script: ${escaped}`);
          assert.equal(textOf(escaped), want);
          const spanned = md.renderInline(code(s));
          assert.ok(spanned.startsWith('<code>') && !/<(a|img|script)\b/i.test(spanned), `one code span: ${spanned}`);
          // a code span trims one space at each end (and an all-space span renders as is): compare without edge spaces
          if (want.trim()) assert.equal(textOf(spanned).trim(), want.trim());
        },
      ),
      { seed, numRuns: 1000 },
    );
  });

  it('a fuzzed stream of webview messages yields only allow-listed intents', () => {
    const graph = { nodes: [{ id: 'svc', source: { uri: 'file:///a.yaml', span: { start: 0, end: 1 } } }, { id: 'pod' }], edges: [] } as unknown as TraceGraph;
    const anyMessage = fc.oneof(
      fc.anything(),
      fc.record(
        {
          type: fc.constantFrom('ready', 'reveal', 'copyMermaid', 'saveSvg', 'open', 'command', 'writeFile', 'openExternal', '__proto__'),
          nodeId: fc.oneof(fc.string(), fc.constantFrom('svc', 'pod')),
          svg: fc.oneof(fc.string(), fc.constant('<svg></svg>')),
          command: fc.string(),
          uri: fc.string(),
        },
        { requiredKeys: ['type'] },
      ),
    );
    fc.assert(
      fc.property(fc.array(anyMessage, { maxLength: 30 }), (stream) => {
        for (const m of stream) {
          const intent = readTraceIntent(m, graph);
          if (!intent) continue;
          assert.ok(['ready', 'reveal', 'copyMermaid', 'saveSvg'].includes(intent.type));
          if (intent.type === 'reveal') assert.equal(intent.node.id, 'svc', 'only a node of the graph with a source');
          if (intent.type === 'saveSvg') assert.match(intent.svg, /^\s*<svg[\s>]/);
          assert.deepEqual(
            Object.keys(intent).sort(),
            intent.type === 'reveal' ? ['node', 'type'] : intent.type === 'saveSvg' ? ['svg', 'type'] : ['type'],
            'no extra fields pass',
          );
        }
      }),
      { seed, numRuns: 500 },
    );
  });
});

describe('mutation fuzzer over examples/*.yaml', () => {
  const seconds = Number(process.env.FUZZ_SECONDS ?? 10);
  it(`mutates the examples for ${seconds} s with no crash, hang or range outside its document`, () => {
    let state = seed;
    const rnd = (n: number) => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state % n;
    };
    const inserts = ['{{', '- - - ', '&a ', '*a', '<<: *a', '[', '}', '"', '\t', '\u0000', '\uFFFF', '\u202E', '😀', '\r', ': ', '---\n', '\\', '!!binary '];
    const mutate = (text: string): string => {
      const lines = text.split('\n');
      const i = rnd(lines.length);
      const j = rnd(lines.length);
      switch (rnd(7)) {
        case 0:
          lines.splice(i, 1);
          break;
        case 1:
          lines.splice(i, 0, lines[j]);
          break;
        case 2:
          [lines[i], lines[j]] = [lines[j], lines[i]];
          break;
        case 3: {
          const at = rnd(text.length + 1);
          return text.slice(0, at) + inserts[rnd(inserts.length)] + text.slice(at);
        }
        case 4: {
          const at = rnd(text.length + 1);
          return text.slice(0, at) + text.slice(at + 1 + rnd(20));
        }
        case 5: {
          const at = rnd(text.length + 1);
          return text.slice(0, at) + String.fromCodePoint(rnd(0x10ffff + 1 - 0x800) + (rnd(2) ? 0 : 0x800)).replace(/[\uD800-\uDFFF]/g, 'x') + text.slice(at);
        }
        default:
          lines[i] = ' '.repeat(rnd(8)) + lines[i].trimStart();
      }
      return lines.join('\n');
    };
    const deadline = Date.now() + seconds * 1000;
    let runs = 0;
    while (Date.now() < deadline) {
      const files = exampleTexts.map((f) => ({ ...f }));
      const k = rnd(files.length);
      let t = files[k].text;
      for (let m = 1 + rnd(6); m > 0; m--) t = mutate(t);
      files[k] = { ...files[k], text: t };
      try {
        checkTotal(files, 5000);
      } catch (err) {
        assert.fail(`mutation ${runs} of ${files[k].uri} failed: ${String(err)}\n--- text ---\n${t.slice(0, 2000)}`);
      }
      runs++;
    }
    assert.ok(runs > 10, `only ${runs} runs`);
  });
});
