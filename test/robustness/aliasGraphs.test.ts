// Alias graphs in every collection style (block and flow sequences and mappings, List items, nested Lists, merge
// keys), generated exponential and at random: each file is read in bounded time, never expands an alias into copies,
// and a document whose aliases would expand past the budget is refused with one clear problem.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { hoverAt } from '../../server/src/features/hover';
import { maxAliasExpansion, parseManifest } from '../../server/src/model/parseManifest';
import { aliasGraph, aliasStyles } from './hostileShapes';
import { cpuClock } from '../helpers/cpuClock';

const refused = /expand to more than/;

describe('alias graphs', () => {
  for (const style of aliasStyles) {
    it(`${style}: 10^12 expanded nodes in a few hundred bytes are refused quickly, with one problem`, () => {
      const text = aliasGraph(style, 12, 10);
      assert.ok(text.length < 200_000, `${text.length} characters`);
      const cpuMs = cpuClock();
      const m = parseManifest('file:///a.yaml', text, { defaultNamespace: 'default' });
      assert.equal(m.problems.filter((p) => refused.test(p.message)).length, 1, m.problems.map((p) => p.message).join('\n'));
      assert.equal(m.resources.length, 0);
      const analysis = analyzeTexts([{ uri: 'file:///a.yaml', text }]);
      diagnosticsFor(analysis);
      for (let o = 0; o < text.length; o += 97) hoverAt(analysis, 'file:///a.yaml', o);
      assert.ok(cpuMs() < 3000, `${cpuMs()} ms`);
    });
    it(`${style}: a small graph under the budget is analysed, each shared object once`, () => {
      const text = aliasGraph(style, 3, 3);
      const m = parseManifest('file:///a.yaml', text, { defaultNamespace: 'default' });
      assert.equal(m.problems.filter((p) => refused.test(p.message)).length, 0, m.problems.map((p) => p.message).join('\n'));
      if (style.includes('list')) assert.equal(m.resources.length, 1, 'a List item reached through many aliases is one object');
    });
  }

  it('random alias graphs of mixed styles finish in bounded time and stay within the budget', () => {
    const graph = fc.array(
      fc.record({ style: fc.constantFrom('flow-seq', 'flow-map', 'block-seq', 'merge', 'list'), refs: fc.array(fc.nat(), { minLength: 1, maxLength: 12 }) }),
      { minLength: 1, maxLength: 30 },
    );
    fc.assert(
      fc.property(graph, (nodes) => {
        let t = 'apiVersion: v1\nkind: List\nmetadata:\n  anchors:\n    n0: &n0 {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {k: v}}\n';
        nodes.forEach((n, i) => {
          const id = i + 1;
          const refs = n.refs.map((r) => `*n${r % id}`);
          if (n.style === 'flow-seq') t += `    n${id}: &n${id} [${refs.join(', ')}]\n`;
          else if (n.style === 'flow-map') t += `    n${id}: &n${id} {${refs.map((r, k) => `k${k}: ${r}`).join(', ')}}\n`;
          else if (n.style === 'block-seq') t += `    n${id}: &n${id}\n${refs.map((r) => `      - ${r}\n`).join('')}`;
          else if (n.style === 'merge') t += `    n${id}: &n${id} {<<: [${refs.join(', ')}], own${id}: x}\n`;
          else t += `    n${id}: &n${id} {apiVersion: v1, kind: List, items: [${refs.join(', ')}]}\n`;
        });
        t += `items: [*n${nodes.length}, *n0]\n`;
        const cpuMs = cpuClock();
        const m = parseManifest('file:///r.yaml', t, { defaultNamespace: 'default' });
        diagnosticsFor(analyzeTexts([{ uri: 'file:///r.yaml', text: t }]));
        assert.ok(cpuMs() < 2000, `${cpuMs()} ms`);
        assert.ok(m.resources.length <= maxAliasExpansion);
        if (!m.problems.some((p) => refused.test(p.message))) assert.ok(m.resources.length >= 1, 'the ConfigMap is read');
      }),
      { seed: 20261201, numRuns: 150 },
    );
  });
});
