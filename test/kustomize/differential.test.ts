// The native Kustomize renderer against real Kustomize (`kubectl kustomize`), as data: every kustomization fixture,
// and a few hundred random layouts (bases, components, prefixes, suffixes, namespaces, labels, annotations, patches of
// each kind, replicas, images, generators) written to a temporary folder. Both must build the same list of objects
// (map key order ignored), or both must refuse.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { diskReader } from '../../server/src/workspace/diskReader';
import { discoverKustomizations } from '../../server/src/kustomize/roots';
import { findKubectl, firstDifference, kubectlBuildAll, nativeBuild } from '../helpers/kubectlKustomize';
import { writeRandomCase } from '../helpers/randomOverlays';

const fixtures = join(__dirname, '..', 'fixtures', 'kustomize');
const randomCases = 200;

function allFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) allFiles(p, out);
    else out.push(p);
  }
  return out;
}

/** Every kustomization under `dir` that can be built on its own (roots and the bases they include, not components). */
function buildableUnder(dir: string): string[] {
  const uris = allFiles(dir).map((f) => pathToFileURL(f).href);
  const layout = discoverKustomizations(uris, diskReader);
  return layout.folders.filter((f) => !layout.components.includes(f)).map((f) => fileURLToPath(f));
}

interface Comparison {
  readonly dir: string;
  readonly problem?: string;
  readonly built: boolean;
  /** The native renderer says it does not evaluate what the kustomization uses (nothing to compare). */
  readonly notEvaluated?: boolean;
}

async function compare(dirs: readonly string[], base: string): Promise<Comparison[]> {
  const real = await kubectlBuildAll(dirs, 3);
  return dirs.map((dir, i) => {
    const mine = nativeBuild(dir);
    const theirs = real[i];
    const name = relative(base, dir);
    if (!mine.ok && mine.messages.every((m) => m.startsWith('Not analysed as a Kustomize build'))) return { dir: name, built: false, notEvaluated: true };
    if (!theirs.ok && !mine.ok) return { dir: name, built: false };
    if (theirs.ok !== mine.ok)
      return {
        dir: name,
        built: false,
        problem: `kubectl kustomize ${theirs.ok ? 'builds it' : `fails (${firstLine(theirs.error)})`}, the native renderer ${mine.ok ? 'builds it' : `fails (${mine.error})`}`,
      };
    const diff = firstDifference(mine.objects, theirs.objects);
    return { dir: name, built: true, problem: diff && `native vs kubectl differ at ${diff}` };
  });
}

function firstLine(text: string | undefined): string {
  return (
    (text ?? '')
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'))[0]
      ?.slice(0, 300) ?? ''
  );
}

function requireKubectl(): void {
  const k = findKubectl();
  // Never passes silently: without kubectl this test cannot compare anything, so it fails and says why.
  assert.ok(k.path, `the differential test needs real Kustomize: ${k.why}. ./scripts/test.sh unpacks the pinned kubectl (node scripts/setup-kubectl.mjs).`);
}

describe('native Kustomize rendering equals kubectl kustomize', () => {
  const temp = mkdtempSync(join(tmpdir(), 'kube-netlens-kustomize-'));
  after(() => rmSync(temp, { recursive: true, force: true }));

  it('on every kustomization fixture', async () => {
    requireKubectl();
    const roots = buildableUnder(fixtures).filter((d) => !d.includes(join('kustomize', 'problems')));
    assert.ok(roots.length >= 17, `fixture kustomizations found: ${roots.length}`);
    const results = await compare(roots, fixtures);
    const bad = results.filter((r) => r.problem);
    assert.deepEqual(bad, [], bad.map((b) => `${b.dir}: ${b.problem}`).join('\n'));
    // Every fixture is one Kustomize builds (a fixture both refuse would compare nothing), except the one that uses
    // what the renderer says it does not evaluate.
    assert.deepEqual(
      results.filter((r) => !r.built && !r.notEvaluated).map((r) => r.dir),
      [],
    );
    assert.deepEqual(
      results.filter((r) => r.notEvaluated).map((r) => r.dir),
      [join('project', 'overlays', 'experimental')],
    );
  });

  it('refuses what Kustomize refuses: each problem fixture that kubectl fails (or builds) is said to', async () => {
    requireKubectl();
    const expected = JSON.parse(readFileSync(join(fixtures, 'problems', 'expected.json'), 'utf8')) as Record<string, { kubectl: 'fails' | 'builds' | 'any' }>;
    const named = Object.entries(expected).filter(([, e]) => e.kubectl !== 'any');
    const real = await kubectlBuildAll(
      named.map(([name]) => join(fixtures, 'problems', name)),
      3,
    );
    const wrong = named.filter(([, e], i) => (e.kubectl === 'fails') === real[i].ok).map(([name, e]) => `${name}: expected kubectl to say it ${e.kubectl}`);
    assert.deepEqual(wrong, []);
    assert.ok(named.filter(([, e]) => e.kubectl === 'fails').length >= 6);
  });

  it('on a Component folder built directly (Kustomize builds it as a kustomization)', async () => {
    requireKubectl();
    const dir = join(fixtures, 'fidelity', 'component-root');
    const results = await compare([dir], fixtures);
    assert.deepEqual(results, [{ dir: join('fidelity', 'component-root'), built: true, problem: undefined }]);
  });

  it(`on ${randomCases} random layouts of bases, components and overlays`, async () => {
    requireKubectl();
    const dirs: string[] = [];
    for (let seed = 1; seed <= randomCases; seed++) dirs.push(...writeRandomCase(join(temp, `case${seed}`), seed));
    const started = Date.now();
    const results = await compare(dirs, temp);
    const bad = results.filter((r) => r.problem);
    assert.deepEqual(
      bad.slice(0, 10),
      [],
      `${bad.length} of ${results.length} builds differ (seed = case number):\n` +
        bad
          .slice(0, 10)
          .map((b) => `${b.dir}: ${b.problem}`)
          .join('\n'),
    );
    assert.deepEqual(
      results.filter((r) => r.notEvaluated).map((r) => r.dir),
      [],
      'the random layouts use only what is evaluated',
    );
    const built = results.filter((r) => r.built).length;
    // The generator aims at layouts Kustomize accepts; most must build, or the comparison says little.
    assert.ok(built >= results.length * 0.9, `only ${built} of ${results.length} random layouts built`);
    // No wall-clock assertion: on a busy machine it fails for the load, not for the renderer (the runner bounds the
    // test at 5 minutes). Speed is the benchmark's business (bench/README.md); the time is shown for the reader.
    console.log(`differential: ${results.length} builds compared in ${Date.now() - started} ms`);
  });
});
