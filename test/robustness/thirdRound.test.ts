// The third round of hostile inputs (docs/robustness.md, "Third round"), the parts that need no server: quadratic
// "did you mean" searches and texts made of template braces. Each must end with its documented outcome well within a
// generous bound (the speed itself is the benchmark's: bench/generate.ts `orphan-slices`).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { orphanSlices } from '../../bench/generate';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { parseManifest, parseManifestAsync } from '../../server/src/model/parseManifest';

const root = join(import.meta.dirname, '..', '..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sourcesUnder(full) : name.endsWith('.ts') ? [full] : [];
  });
}

describe('hostile inputs, third round: did-you-mean searches', () => {
  it('2,000 Services and 100 orphan EndpointSlices with 56-character names: analysed within 20 s, each slice reported', () => {
    const started = Date.now();
    const text = orphanSlices(2000, 100).join('---\n');
    const findings = diagnosticsFor(analyzeTexts([{ uri: 'file:///ws/orphans.yaml', text }]));
    const ms = Date.now() - started;
    console.log(`2,000 Services, 100 orphan slices: ${ms} ms`);
    assert.ok(ms < 20000, `${ms} ms`);
    // nothing else is wrong in the file, so every slice's finding is there
    const orphans = findings.filter((f) => f.code === 'endpoints-orphan');
    assert.equal(orphans.length, 100);
    assert.ok(
      orphans.every((f) => !f.message.includes('Did you mean')),
      'no Service is a near miss of "missing…"',
    );
  });

  it('an orphan slice one edit from a Service among 2,000 still gets its suggestion and a fix', () => {
    const docs = orphanSlices(2000, 0);
    const target = 'backend'.repeat(7) + '-000123';
    docs.push(
      `apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: typo\n  namespace: orphans\n  labels: {kubernetes.io/service-name: ${target.replace('-000123', '-00123')}}\naddressType: IPv4\nendpoints: [{addresses: [10.0.0.1]}]\nports: [{port: 80}]\n`,
    );
    const findings = diagnosticsFor(analyzeTexts([{ uri: 'file:///ws/orphans.yaml', text: docs.join('---\n') }]));
    const f = findings.find((x) => x.code === 'endpoints-orphan');
    assert.ok(f, 'the orphan is reported');
    assert.ok(f.message.includes(`Did you mean "${target}"?`), f.message);
    assert.equal(f.fixes?.[0]?.edits[0]?.newText, target);
  });

  it('no module of server/src computes an edit distance but analysis/closestName.ts', () => {
    const offenders = sourcesUnder(join(root, 'server', 'src'))
      .filter((file) => !file.endsWith(join('analysis', 'closestName.ts')))
      // the recurrence of an edit table, or a function that says it measures one
      .filter((file) => /function\s+\w*(editDistance|levenshtein|damerau)\w*\s*\(|Math\.min\([^)]*\+ 1,[^)]*\+ 1,/i.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    assert.deepEqual(offenders, []);
  });
});

/** Texts made of template braces: Go template syntax whose brace count a YAML depth scan reads as deep nesting. */
export function templateBraces(): { name: string; text: string }[] {
  return [
    { name: "'x{{' 300 times", text: 'x{{'.repeat(300) },
    { name: "'{{' 5,000 times", text: '{{'.repeat(5000) },
    { name: "'{{x' lines, 1,000 of them", text: '{{x\n'.repeat(1000) },
    { name: 'a mapping whose value opens 1,000 actions', text: 'a: ' + '{{ x '.repeat(1000) + '\n' },
    { name: 'deep brackets inside a template action', text: 'kind: {{ ' + '['.repeat(1000) + ' }}\n' },
    { name: 'template braces after a deep block sequence', text: '- '.repeat(1000) + '{{ .Values.x }}\n' },
  ];
}

describe('hostile inputs, third round: texts made of template braces', () => {
  for (const t of templateBraces()) {
    it(`${t.name}: skipped quietly as a template, in both parsers`, async () => {
      for (const m of [
        parseManifest('file:///ws/t.yaml', t.text, { defaultNamespace: 'default' }),
        await parseManifestAsync('file:///ws/t.yaml', t.text, { defaultNamespace: 'default' }, () => undefined),
      ]) {
        assert.equal(m.skipped, 'template');
        assert.deepEqual(m.problems, []);
        assert.equal(m.resources.length, 0);
      }
      assert.deepEqual(diagnosticsFor(analyzeTexts([{ uri: 'file:///ws/t.yaml', text: t.text }])), []);
    });
  }

  it('deep nesting without template braces still gets its diagnostic', () => {
    const m = parseManifest('file:///ws/deep.yaml', 'a: ' + '{a: '.repeat(1000) + 'b' + '}'.repeat(1000) + '\n', { defaultNamespace: 'default' });
    assert.equal(m.skipped, 'too-deep');
    assert.match(m.problems[0].message, /nests more than 200 levels deep/);
  });
});
