// Hostile Kustomize trees for the native renderer (docs/robustness.md, "Third round"): each ends with its documented
// outcome, a clear diagnostic where the build cannot be evaluated, within a generous bound. Inputs are generated here;
// the 50 MB generator file is a sparse file in a temporary folder, never written out in full.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { hostileKustomizeTree } from '../../bench/generate';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { maxPatchesPerKustomization } from '../../server/src/kustomize/render';
import { diskReader } from '../../server/src/workspace/diskReader';

const boundMs = 60_000;
const dep = (n: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${n}}\nspec:\n  selector: {matchLabels: {app: ${n}}}\n  template:\n    metadata: {labels: {app: ${n}}}\n    spec: {containers: [{name: a, image: a}]}\n`;
const component = (body: string) => `apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n${body}`;

function checked(what: string, files: { uri: string; text: string }[], readOther = diskReader) {
  const started = Date.now();
  const findings = diagnosticsFor(analyzeTexts(files, undefined, { readOther }));
  const ms = Date.now() - started;
  console.log(`${what}: ${ms} ms, ${findings.length} findings`);
  assert.ok(ms < boundMs, `${what} took ${ms} ms`);
  return findings;
}

describe('hostile Kustomize trees', () => {
  it("a base included through 1,000 overlays: every build made, the base's mistake reported once, merged", () => {
    const tree = hostileKustomizeTree(1000);
    const findings = checked(
      '1,000 overlays',
      tree.map((f) => ({ uri: `file:///ws/${f.path}`, text: f.text })),
    );
    const onBase = findings.filter((f) => f.uri === 'file:///ws/hostile/kustomize-overlays.yaml');
    assert.ok(
      onBase.some((f) => f.code === 'service-selector-no-match'),
      onBase.map((f) => f.code).join(', '),
    );
    // one finding for the 1,000 builds, with at most 20 related places and a message naming 10 builds and counting the rest
    assert.ok(
      findings.every((f) => (f.related?.length ?? 0) <= 20),
      findings.map((f) => f.related?.length).join(', '),
    );
    assert.ok(
      onBase.some((f) => f.message.endsWith('and 990 more)') && f.message.length < 2000),
      onBase.map((f) => f.message.slice(-200)).join('\n'),
    );
    assert.ok(!findings.some((f) => f.code?.startsWith('kustomize-')), 'no build fails');
  });

  it('a chain of kustomizations 500 deep: "nest too deeply" on the root', () => {
    const files = [
      { uri: 'file:///ws/k500/kustomization.yaml', text: 'resources: [dep.yaml]\n' },
      { uri: 'file:///ws/k500/dep.yaml', text: dep('web') },
    ];
    for (let i = 0; i < 500; i++) files.push({ uri: `file:///ws/k${i}/kustomization.yaml`, text: `resources: [../k${i + 1}]\n` });
    const findings = checked('a chain 500 deep', files);
    const failed = findings.filter((f) => f.code === 'kustomize-render-failed');
    assert.equal(failed.length, 1, failed.map((f) => f.message).join('\n'));
    assert.match(failed[0].message, /nest too deeply/);
  });

  it(`10,000 patches in one kustomization: not evaluated, the diagnostic says how many (at most ${maxPatchesPerKustomization})`, () => {
    const patches = Array.from(
      { length: 10_000 },
      (_, i) => `- patch: '{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "labels": {"l${i}": "v"}}}'\n`,
    ).join('');
    const findings = checked('10,000 patches', [
      { uri: 'file:///ws/p/kustomization.yaml', text: `resources: [dep.yaml]\npatches:\n${patches}` },
      { uri: 'file:///ws/p/dep.yaml', text: dep('web') },
    ]);
    const f = findings.find((x) => x.code === 'kustomize-not-rendered');
    assert.ok(f, findings.map((x) => x.code).join(', '));
    assert.match(f.message, /lists 10,000 patches; at most 1,000 are evaluated here/);
  });

  it('1,000 patches are still evaluated', () => {
    const patches = Array.from(
      { length: 1000 },
      (_, i) => `- patch: '{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "labels": {"l${i}": "v"}}}'\n`,
    ).join('');
    const findings = checked('1,000 patches', [
      { uri: 'file:///ws/p/kustomization.yaml', text: `resources: [dep.yaml]\npatches:\n${patches}` },
      { uri: 'file:///ws/p/dep.yaml', text: dep('web') },
    ]);
    assert.deepEqual(
      findings.filter((x) => x.code?.startsWith('kustomize-')),
      [],
    );
  });

  it('a generator file of 50 MB: refused by the size cap without being read, and the diagnostic names it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'netlens-kustomize-big-'));
    try {
      mkdirSync(join(dir, 'app'));
      writeFileSync(join(dir, 'app', 'big.txt'), '');
      truncateSync(join(dir, 'app', 'big.txt'), 50 * 1024 * 1024); // sparse: no 50 MB is ever written or read
      const base = pathToFileURL(dir).href;
      const kust = 'resources: [dep.yaml]\nconfigMapGenerator:\n- name: big\n  files: [big.txt]\n';
      assert.equal(diskReader.read(`${base}/app/big.txt`), undefined);
      const before = process.memoryUsage().rss;
      const findings = checked('a 50 MB generator file', [
        { uri: `${base}/app/kustomization.yaml`, text: kust },
        { uri: `${base}/app/dep.yaml`, text: dep('web') },
      ]);
      assert.ok(process.memoryUsage().rss - before < 40 * 1024 * 1024, 'the file was not read into memory');
      const f = findings.find((x) => x.code?.startsWith('kustomize-'));
      assert.ok(f, findings.map((x) => x.code).join(', '));
      assert.match(f.message, /big\.txt is not read \(too large/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a kustomization that includes the workspace root, which includes it: a cycle, though neither is a root', () => {
    const findings = checked('the workspace root included', [
      { uri: 'file:///ws/kustomization.yaml', text: 'resources: [dep.yaml, overlay]\n' },
      { uri: 'file:///ws/dep.yaml', text: dep('web') },
      { uri: 'file:///ws/overlay/kustomization.yaml', text: 'resources: [..]\n' },
    ]);
    const f = findings.find((x) => x.code === 'kustomize-render-failed');
    assert.ok(f, findings.map((x) => x.code).join(', '));
    assert.match(f.message, /cycle: .* includes this kustomization again/);
  });

  it('a kustomization that includes the workspace root, which has no kustomization: said so', () => {
    const findings = checked('the workspace root without a kustomization', [
      { uri: 'file:///ws/dep.yaml', text: dep('web') },
      { uri: 'file:///ws/overlay/kustomization.yaml', text: 'resources: [../]\n' },
    ]);
    const f = findings.find((x) => x.code === 'kustomize-render-failed');
    assert.ok(f, findings.map((x) => x.code).join(', '));
    assert.match(f.message, /no kustomization\.yaml, kustomization\.yml or Kustomization in file:\/\/\/ws/);
  });

  it('components that include each other: a cycle, on the component entry', () => {
    const findings = checked('components in a cycle', [
      { uri: 'file:///ws/app/kustomization.yaml', text: 'resources: [dep.yaml]\ncomponents: [../a]\n' },
      { uri: 'file:///ws/app/dep.yaml', text: dep('web') },
      { uri: 'file:///ws/a/kustomization.yaml', text: component('components: [../b]\n') },
      { uri: 'file:///ws/b/kustomization.yaml', text: component('components: [../a]\n') },
    ]);
    const f = findings.find((x) => x.code === 'kustomize-render-failed');
    assert.ok(f, findings.map((x) => x.code).join(', '));
    assert.match(f.message, /cycle: \.\.\/a includes this kustomization again/);
  });

  it('a component that includes itself: a cycle', () => {
    const findings = checked('a component including itself', [
      { uri: 'file:///ws/app/kustomization.yaml', text: 'resources: [dep.yaml]\ncomponents: [../a]\n' },
      { uri: 'file:///ws/app/dep.yaml', text: dep('web') },
      { uri: 'file:///ws/a/kustomization.yaml', text: component('components: [.]\n') },
    ]);
    assert.ok(
      findings.some((x) => x.code === 'kustomize-render-failed' && /cycle/.test(x.message)),
      findings.map((x) => `${x.code}: ${x.message}`).join('\n'),
    );
  });
});
