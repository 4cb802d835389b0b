// Each hostile input class gives its documented outcome (docs/robustness.md), quickly, with every range inside the
// file, and the whole pipeline (parse, analysis, rules, diagnostics, hovers) runs on it without throwing.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor, maxFindingsPerFile } from '../../server/src/features/diagnostics';
import { hoverAt } from '../../server/src/features/hover';
import { estimateNestingDepth, maxNestingDepth, parseManifest } from '../../server/src/model/parseManifest';
import { deepShapes, hostileInputs } from './hostileInputs';
import { cpuClock } from '../helpers/cpuClock';

const neighbour = {
  uri: 'file:///ws/web.yaml',
  text: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n  ports: [{port: 80}]\n',
};

describe('hostile inputs', () => {
  for (const h of hostileInputs()) {
    it(`${h.name}: ${h.outcome.kind}${'reason' in h.outcome ? ` (${h.outcome.reason})` : ''}`, () => {
      const uri = `file:///ws/${h.file}`;
      const cpuMs = cpuClock();
      const m = parseManifest(uri, h.text, { defaultNamespace: 'default' });
      const o = h.outcome;
      switch (o.kind) {
        case 'skipped':
          assert.equal(m.skipped, o.reason);
          assert.equal(m.resources.length, 0);
          assert.equal(m.problems.length, o.diagnostic ? 1 : 0);
          break;
        case 'syntax-error':
          assert.equal(m.skipped, undefined);
          assert.ok(
            m.problems.some((p) => p.code === 'yaml-syntax'),
            'a yaml-syntax problem',
          );
          break;
        case 'analysed':
          assert.equal(m.skipped, undefined);
          assert.ok(m.resources.length >= o.minResources, `${m.resources.length} resources`);
          break;
        case 'not-a-manifest':
          assert.equal(m.skipped, undefined);
          assert.deepEqual([m.resources.length, m.problems.length, m.manifestDocuments], [0, 0, 0]);
          break;
      }
      for (const p of m.problems)
        assert.ok(p.span.start >= 0 && p.span.start <= p.span.end && p.span.end <= h.text.length, `problem span ${JSON.stringify(p.span)} inside the file`);
      for (const r of m.resources) assert.ok(r.span.start >= 0 && r.span.end <= h.text.length);

      const analysis = analyzeTexts([{ uri, text: h.text }, neighbour]);
      const findings = diagnosticsFor(analysis);
      const here = findings.filter((f) => f.uri === uri);
      assert.ok(here.length <= maxFindingsPerFile + 1, `${here.length} findings for one file`);
      for (const f of here) assert.ok(f.span.start >= 0 && f.span.end <= h.text.length && f.span.start <= f.span.end, `finding ${f.code} inside the file`);
      // a hover at a few places never throws, and the neighbour still answers
      for (const offset of [0, h.text.length >> 1, h.text.length]) hoverAt(analysis, uri, offset);
      assert.ok(hoverAt(analysis, neighbour.uri, neighbour.text.indexOf('web')), 'the other file still hovers');
      assert.ok(cpuMs() < 8000, `took ${cpuMs()} ms`);
    });
  }

  it('folds a diagnostic flood into at most the cap plus one "N more" note', () => {
    const h = hostileInputs().find((x) => x.name === 'diagnostic flood')!;
    const findings = diagnosticsFor(analyzeTexts([{ uri: 'file:///ws/flood.yaml', text: h.text }]));
    assert.equal(findings.length, maxFindingsPerFile + 1);
    assert.match(findings[findings.length - 1].message, /more/);
  });

  it('keeps at most 50 syntax errors of a file that has 20,000', () => {
    const h = hostileInputs().find((x) => x.name === 'syntax-error flood')!;
    assert.equal(parseManifest('file:///ws/e.yaml', h.text, { defaultNamespace: 'default' }).problems.length, 50);
  });

  it('__proto__ and constructor keys pollute nothing and select like any other label', () => {
    const h = hostileInputs().find((x) => x.file === 'proto.yaml')!;
    const a = analyzeTexts([{ uri: 'file:///ws/p.yaml', text: h.text }]);
    diagnosticsFor(a);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf({}), Object.prototype);
    assert.equal(typeof {}.constructor, 'function');
  });

  it('custom and unsafe tags are read as plain data and run nothing', () => {
    const h = hostileInputs().find((x) => x.file === 'tags.yaml')!;
    diagnosticsFor(analyzeTexts([{ uri: 'file:///ws/t.yaml', text: h.text }]));
    assert.equal((globalThis as Record<string, unknown>).pwned, undefined);
  });

  it('every deep shape is refused, just above the limit too, and a legitimately quoted bracket string is not', () => {
    for (const s of deepShapes(maxNestingDepth + 2)) {
      assert.equal(parseManifest('file:///d.yaml', s.text, { defaultNamespace: 'default' }).skipped, 'too-deep', s.name);
    }
    const quoted = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: q}\ndata:\n  re: "${'['.repeat(500)}"\n`;
    assert.equal(parseManifest('file:///q.yaml', quoted, { defaultNamespace: 'default' }).skipped, undefined);
    assert.ok(estimateNestingDepth(quoted) < maxNestingDepth);
  });
});
