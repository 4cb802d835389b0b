// Every hover kind as data: test/fixtures/hover/<kind>.yaml with a `$0` cursor, and <kind>.md as the expected Markdown.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { code, escape } from '../../server/src/features/markdown';
import { serviceDetailsFor } from '../../server/src/features/traceResult';
import { cursorIn, parseFixture } from '../helpers/fixture';
import { checkHover } from './checkHover';

const dir = join(__dirname, '..', 'fixtures', 'hover');

describe('hover', () => {
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.yaml'))
    .sort()) {
    it(f.replace(/\.yaml$/, ''), () => {
      const md = checkHover(join(dir, f), join(dir, f.replace(/\.yaml$/, '.md')));
      // The only link a hover may contain is the trace command it builds itself.
      // Code spans render literally, so only text outside them can form links or HTML.
      const prose = md.replace(/(`+)[\s\S]*?\1/g, '');
      for (const m of prose.matchAll(/\]\(([^)\s]+)/g)) assert.match(m[1], /^command:kubeNetlens\.(traceService|serviceDetails)\?/);
      assert.ok(!/<[a-z]/i.test(prose), `raw HTML in ${f}`);
    });
  }
});

describe('hover markdown escaping', () => {
  it('a label value cannot form a link, an image or HTML', () => {
    const hostile = '[click](command:workbench.action.terminal.new) <img src=x onerror=alert(1)> & ![i](http://x)';
    const e = escape(hostile);
    assert.ok(!/\]\(/.test(e.replace(/\\\]\\\(/g, '')), e);
    assert.ok(!e.includes('<'), e);
    assert.ok(e.includes('&amp;'), e);
  });
  it('code spans survive backticks in names', () => {
    assert.equal(code('a`b'), '``a`b``');
    assert.equal(code('`x'), '`` `x ``');
  });
});

describe('Service hover levels', () => {
  const raw = parseFixture(readFileSync(join(dir, 'service-clusterip.yaml'), 'utf8'), 'file:///fixture/', 'service-clusterip.yaml');
  const sources = raw.sources.map((s) => ({ uri: s.uri, text: cursorIn(s.text.includes('$0') ? s.text : `${s.text}$0`).text }));
  const analysis = analyzeTexts(sources);

  it('keeps SRV records and environment variables out of the default hover and puts them in the details', () => {
    const details = serviceDetailsFor(analysis, { namespace: 'shop', name: 'api' }) ?? '';
    assert.match(details, /_http\._tcp\.api\.shop\.svc\.cluster\.local/);
    assert.match(details, /API_SERVICE_HOST=/);
    const short = readFileSync(join(dir, 'service-clusterip.md'), 'utf8');
    assert.doesNotMatch(short, /_tcp|API_SERVICE_HOST/);
    assert.match(short, /command:kubeNetlens\.serviceDetails\?/);
    assert.ok(
      short
        .trim()
        .split('\n')
        .filter((l) => l.trim()).length <= 15,
      'the default hover fits in 15 lines',
    );
  });

  it('answers no details for a Service that does not exist', () => {
    assert.equal(serviceDetailsFor(analysis, { namespace: 'shop', name: 'nope' }), undefined);
  });
});
