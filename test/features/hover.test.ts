// Every hover kind as data: test/fixtures/hover/<kind>.yaml with a `$0` cursor, and <kind>.md as the expected Markdown.

import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { code, escape } from '../../server/src/features/markdown';
import { checkHover } from './checkHover';

const dir = join(__dirname, '..', 'fixtures', 'hover');

describe('hover', () => {
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.yaml')).sort()) {
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
