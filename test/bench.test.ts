// The benchmark's workspace generator: the same seed gives the same bytes, and every planted mistake is found.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findingOfMistake, generateWorkspace, hostileKustomizeForest, hostileShapes, withShape, type MistakeKind } from '../bench/generate';
import { analyzeTexts } from '../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../server/src/features/diagnostics';
import { cpuClock } from './helpers/cpuClock';

const size = 200;
const uriOf = (path: string) => `file:///bench/${path}`;

describe('bench workspace generator', () => {
  const ws = generateWorkspace({ resources: size, seed: 7 });
  const analysis = analyzeTexts(ws.files.map((f) => ({ uri: uriOf(f.path), text: f.text })));

  it('is deterministic: the same seed gives the same files, byte for byte; another seed does not', () => {
    const again = generateWorkspace({ resources: size, seed: 7 });
    assert.deepEqual(again.files, ws.files);
    assert.deepEqual(again.mistakes, ws.mistakes);
    const other = generateWorkspace({ resources: size, seed: 8 });
    assert.notDeepEqual(
      other.files.map((f) => f.text),
      ws.files.map((f) => f.text),
    );
  });

  it('produces exactly the requested number of resources, in files of one to several documents', () => {
    assert.equal(ws.resources, size);
    assert.equal(
      analysis.cluster.files.reduce((n, f) => n + f.resources.length, 0),
      size,
    );
    const docs = ws.files.map((f) => f.documents);
    assert.equal(Math.min(...docs), 1);
    assert.ok(Math.max(...docs) >= 5, `largest file has ${Math.max(...docs)} documents`);
  });

  it('plants every kind of mistake, and the rules find each one in the file it was planted in', () => {
    const findings = diagnosticsFor(analysis);
    const kinds = new Set<MistakeKind>(ws.mistakes.map((m) => m.kind));
    assert.deepEqual([...kinds].sort(), Object.keys(findingOfMistake).sort());
    for (const m of ws.mistakes) {
      const code = findingOfMistake[m.kind];
      assert.ok(
        findings.some((f) => f.uri === uriOf(m.file) && f.code === code),
        `${m.kind} in ${m.file} (${m.namespace}/${m.resource}) gives no ${code}`,
      );
    }
  });

  it("is clean apart from the planted mistakes: every finding is one a planted mistake explains (1,000 resources, the benchmark's seed)", () => {
    const big = generateWorkspace({ resources: 1000 });
    const planted = new Set(big.mistakes.map((m) => `${uriOf(m.file)} ${findingOfMistake[m.kind]}`));
    const findings = diagnosticsFor(analyzeTexts(big.files.map((f) => ({ uri: uriOf(f.path), text: f.text }))));
    const extra = findings.filter((f) => !planted.has(`${f.uri} ${f.code}`));
    assert.deepEqual(
      extra.map((f) => `${f.code} ${f.uri}: ${f.message}`),
      [],
    );
  });

  it('reports Service name positions that point at the name', () => {
    assert.ok(ws.busyServices.length > 0);
    for (const s of ws.busyServices) {
      const line = ws.files.find((f) => f.path === s.file)!.text.split('\n')[s.line];
      assert.equal(line.slice(s.character), s.name, `${s.file}:${s.line}`);
    }
  });

  it("reports the name positions of the busy apps' workloads, each selected by a NetworkPolicy (the reach hover)", () => {
    assert.deepEqual(ws.busyWorkloads.map((w) => `${w.namespace}/${w.name}`).sort(), ws.busyServices.map((s) => `${s.namespace}/${s.name}`).sort());
    const a = analysis;
    for (const w of ws.busyWorkloads) {
      const text = ws.files.find((f) => f.path === w.file)!.text;
      assert.equal(text.split('\n')[w.line].slice(w.character), w.name, `${w.file}:${w.line}`);
      const workload = a.cluster.workloadsIn(w.namespace).find((x) => x.name === w.name)!;
      assert.ok(a.policiesSelecting(workload).length > 0, `${w.namespace}/${w.name} is selected by a policy`);
    }
  });

  it('adds each hostile shape of the asked count, whose findings stay capped', () => {
    for (const shape of hostileShapes) {
      const shaped = withShape(ws, shape, 1500);
      // the Kustomize tree is a base and its overlays (1,500 / 4), the hostile trees a forest of kustomizations; every
      // other shape is one file of the asked count
      const file = shaped.files[ws.files.length];
      if (shape === 'kustomize-overlays') assert.equal(shaped.files.length, ws.files.length + 2 + 375);
      else if (shape === 'kustomize-tree') assert.equal(shaped.files.length, ws.files.length + hostileKustomizeForest(1500).length);
      else {
        assert.equal(shaped.files.length, ws.files.length + 1);
        assert.ok(file.documents >= 1500, `${shape}: ${file.documents} documents`);
      }
      const cpuMs = cpuClock();
      const findings = diagnosticsFor(analyzeTexts(shaped.files.map((f) => ({ uri: uriOf(f.path), text: f.text }))));
      const inShape = findings.filter((f) => (shape === 'kustomize-tree' ? f.uri.startsWith(uriOf('hostile/tree/')) : f.uri === uriOf(file.path)));
      assert.ok(inShape.length > 0 && inShape.length <= 201, `${shape}: ${inShape.length} findings`);
      assert.ok(findings.every((f) => (f.related?.length ?? 0) <= 20));
      assert.ok(cpuMs() < 10000, `${shape}: ${cpuMs()} ms`);
    }
  });
});
