// The Mermaid export of a trace in zh-cn (`kube-netlens trace --format mermaid --lang zh-cn`, the view's "copy as
// Mermaid"): its column titles and the broken-edge word are Chinese, every label stays quoted (a quoted Mermaid label
// takes any Unicode text), ids stay ASCII, and English is unchanged.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { traceResultFor } from '../../server/src/features/traceResult';
import { traceToMermaid } from '../../server/src/features/traceMermaid';
import { messages } from '../../server/src/l10n/l10n';

const dir = join(__dirname, '..', '..', 'examples');
const sources = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => ({ uri: `file:///examples/${f}`, text: readFileSync(join(dir, f), 'utf8') }));
const english = analyzeTexts(sources);
const chinese = analyzeTexts(sources, { locale: 'zh-cn' });

/** Each line a statement of the flowchart subset traceToMermaid writes, every label in quotes with no quote inside. */
function checkSyntax(mermaid: string): void {
  const lines = mermaid.trimEnd().split('\n');
  assert.equal(lines[0], 'flowchart LR');
  const label = '"[^"\\n]*"';
  const statement = new RegExp(
    [
      `^  subgraph [a-z]+\\[${label}\\]$`,
      '^  end$',
      `^    n\\d+(?:\\(\\[${label}\\]\\)|\\{\\{${label}\\}\\}|\\[\\[${label}\\]\\]|\\[${label}\\])$`,
      `^  n\\d+ (?:-->|-\\.->)(?:\\|${label}\\|)? n\\d+$`,
      '^  classDef [a-z]+ [^;]+;$',
      '^  class [n\\d,]+ [a-z]+;$',
      '^  linkStyle [\\d,]+ [^;]+;$',
    ].join('|'),
  );
  for (const line of lines.slice(1)) assert.match(line, statement, `not a statement of the flowchart: ${line}`);
}

describe('trace Mermaid export in zh-cn', () => {
  it('titles the columns in Chinese and keeps every label quoted', () => {
    const r = traceResultFor(chinese, { namespace: 'shop', name: 'frontend' });
    assert.ok(r);
    assert.match(r.mermaid, /^ {2}subgraph entry\["调用方"\]$/m);
    assert.match(r.mermaid, /^ {2}subgraph endpoints\["Pod"\]$/m);
    assert.match(r.mermaid, /^ {2}subgraph listener\["Gateway 侦听器"\]$/m);
    assert.doesNotMatch(r.mermaid, /"(Callers|Pods|Route rules|Gateway listeners|Container ports)"/);
    checkSyntax(r.mermaid);
  });

  it('writes the broken edge of a path without a label as 中断', () => {
    const r = traceResultFor(chinese, { namespace: 'shop', name: 'frontend' });
    assert.ok(r);
    const graph = { ...r.graph, edges: r.graph.edges.map((e, i) => (i === 0 ? { ...e, status: 'broken' as const, label: undefined } : e)) };
    const zh = traceToMermaid(graph, messages('zh-cn'));
    assert.match(zh, /-\.->\|"✗ 中断"\|/);
    assert.match(traceToMermaid(graph), /-\.->\|"✗ broken"\|/);
    checkSyntax(zh);
  });

  it('leaves English as it was: the same text with the English formatter or none', () => {
    for (const name of ['frontend', 'api', 'postgres', 'legacy-db']) {
      const r = traceResultFor(english, { namespace: 'shop', name });
      assert.ok(r, name);
      assert.equal(traceToMermaid(r.graph, messages('en')), r.mermaid);
      assert.equal(traceToMermaid(r.graph), r.mermaid);
      assert.match(r.mermaid, /subgraph service\["Service"\]/);
      checkSyntax(r.mermaid);
    }
  });
});
