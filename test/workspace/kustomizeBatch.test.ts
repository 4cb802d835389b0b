// Real Kustomize builds made together, a few at a time (workspace/kustomizeBinary.ts buildAllWithKustomizeSync, the
// command line's path): the same units as building each root alone, whether it builds, fails or is refused.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diskReader } from '../../server/src/workspace/diskReader';
import { buildAllWithKustomizeSync, buildWithKustomizeSync, kustomizeForSettings, type KustomizeTool } from '../../server/src/workspace/kustomizeBinary';
import { fileUri } from '../../server/src/workspace/uri';
import { findKubectl } from '../helpers/kubectlKustomize';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'netlens-kbatch-'));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

function sources(dir: string): { uri: string; text: string }[] {
  const out: { uri: string; text: string }[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push({ uri: fileUri(p), text: readFileSync(p, 'utf8') });
    }
  };
  walk(dir);
  return out;
}

const web =
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: wbe\n  ports:\n    - port: 80\n';
// a label selector in a replacement is not evaluated natively: each overlay is built by the real Kustomize
const overlay = (ns: string) =>
  `namespace: ${ns}\nresources:\n  - ../../base\nreplacements:\n  - source: { kind: Service, name: web, fieldPath: metadata.name }\n    targets:\n      - select: { kind: Deployment }\n        reject: [{ labelSelector: example.org/none=none }]\n        fieldPaths: [spec.template.metadata.labels.svc]\n        options: { create: true }\n`;

describe('real Kustomize builds several at a time', () => {
  it('gives the units and findings building each root alone gives: built, failing and refused roots', () => {
    const k = findKubectl();
    assert.ok(k.path, `this test needs real Kustomize: ${k.why}. node scripts/setup-kubectl.mjs unpacks the pinned kubectl.`);
    const tool: KustomizeTool | undefined = kustomizeForSettings(
      { roots: [], folders: [], path: k.path, timeoutMs: 20_000, allowed: true, loadRestrictor: 'rootOnly' },
      {},
    );
    assert.ok(tool);
    const dir = workspace({
      'base/kustomization.yaml': 'resources:\n  - web.yaml\n',
      'base/web.yaml': web,
      'overlays/dev/kustomization.yaml': overlay('dev'),
      'overlays/prod/kustomization.yaml': overlay('prod'),
      'overlays/staging/kustomization.yaml': overlay('staging'),
      // kustomize refuses it: the replacement's source does not exist
      'overlays/broken/kustomization.yaml':
        'resources:\n  - ../../base\nreplacements:\n  - source: { kind: Service, name: missing, fieldPath: metadata.name }\n    targets:\n      - select: { kind: Deployment }\n        reject: [{ labelSelector: example.org/none=none }]\n        fieldPaths: [metadata.name]\n',
      // never handed over: a remote resource
      'overlays/remote/kustomization.yaml': 'resources:\n  - ../../base\n  - https://example.invalid/app.yaml\nreplacements: []\n',
    });
    let batches = 0;
    const alone = analyzeTexts(
      sources(dir),
      {},
      { readOther: diskReader, kustomize: { external: (native, parsed) => buildWithKustomizeSync(tool, native, diskReader, parsed) } },
    );
    const together = analyzeTexts(
      sources(dir),
      {},
      {
        readOther: diskReader,
        kustomize: {
          external: () => assert.fail('every root is built in the batch'),
          externalAll: (natives, parsed) => {
            batches++;
            assert.equal(natives.length, 5, 'every root that needs the real Kustomize, at once');
            return buildAllWithKustomizeSync(tool, natives, diskReader, parsed, 3);
          },
        },
      },
    );
    assert.equal(batches, 1);
    const rendered = (a: typeof alone) => a.cluster.files.filter((f) => f.rendered).map((f) => [f.uri, f.text, f.rendered!.text.mappings.length]);
    assert.equal(rendered(together).length, 3, 'three overlays built');
    assert.deepEqual(rendered(together), rendered(alone));
    const findings = diagnosticsFor(together);
    assert.deepEqual(findings, diagnosticsFor(alone));
    assert.ok(
      findings.some((f) => f.code === 'kustomize-render-failed' && /missing/.test(f.message)),
      findings.map((f) => `${f.code}: ${f.message}`).join('\n'),
    );
    assert.ok(findings.some((f) => /never fetched/.test(f.message)));
    assert.equal(findings.filter((f) => f.code === 'service-selector-no-match').length, 1, 'one finding on the base line, merged over the overlays');
  });
});
