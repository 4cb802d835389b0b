// A root whose native render fails, in the language server's workspace: while the real Kustomize will build it, the
// failure is pending (nothing said, its files unknown) until that build answers, so the editor never shows an error
// first and takes it back a moment later (kustomize/external.ts confirmedUnit). Without a real Kustomize the native
// failure is reported at once.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createWorkspace, type Snapshot } from '../../server/src/workspace/workspace';

const root = 'file:///ws';
// the env file is written by a deploy script, so the build fails natively (and with the real Kustomize)
const texts = new Map([
  [`${root}/overlay/kustomization.yaml`, 'resources:\n  - ../base\nconfigMapGenerator:\n  - name: settings\n    envs:\n      - settings.env\n'],
  [`${root}/base/kustomization.yaml`, 'resources:\n  - web.yaml\n'],
  [`${root}/base/web.yaml`, 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n    - port: 80\n'],
]);

function failures(snap: Snapshot): string[] {
  return snap.analysis.cluster.files.flatMap((f) =>
    f.problems.filter((p) => p.code === 'kustomize-render-failed').map((p) => `${f.uri.slice(root.length + 1)}: ${p.message}`),
  );
}

describe('workspace: a native Kustomize failure waits for the real Kustomize', () => {
  it('is reported at once when no real Kustomize runs', () => {
    const ws = createWorkspace();
    ws.replaceDisk(texts, []);
    const found = failures(ws.snapshot());
    assert.equal(found.length, 1);
    assert.match(found[0], /^overlay\/kustomization\.yaml: Kustomize build fails: cannot read the env file 'settings\.env'/);
  });

  it('is pending while the real Kustomize builds it, then reported as that build confirms it', () => {
    const ws = createWorkspace();
    ws.replaceDisk(texts, []);
    ws.setRealKustomize(() => true);
    const pending = ws.snapshot();
    assert.deepEqual(failures(pending), [], 'nothing is said before the real build answers');
    assert.deepEqual(
      pending.kustomizeWanted.map((u) => u.definedBy),
      [`${root}/overlay/kustomization.yaml`],
      'the root is handed to the real Kustomize',
    );
    // the real build failed too: the native failure, with its line, is what the builder hands back (confirmedUnit)
    const native = pending.kustomizeWanted[0];
    ws.setKustomizeBuilds(new Map([[native.definedBy, native]]));
    const found = failures(ws.snapshot());
    assert.equal(found.length, 1);
    assert.match(found[0], /^overlay\/kustomization\.yaml: Kustomize build fails: cannot read the env file/);
  });

  it('is never shown when the real Kustomize builds the root', () => {
    const ws = createWorkspace();
    ws.replaceDisk(texts, []);
    ws.setRealKustomize(() => true);
    const native = ws.snapshot().kustomizeWanted[0];
    // the real build answered with objects (here: the native attempt with a rendered text standing for its output)
    const rendered = {
      ...native,
      problems: [],
      rendered: { text: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n    - port: 80\n', mappings: [] },
    };
    ws.setKustomizeBuilds(new Map([[native.definedBy, rendered]]));
    const snap = ws.snapshot();
    assert.deepEqual(failures(snap), []);
    assert.ok(
      snap.analysis.cluster.files.some((f) => f.rendered?.definedBy === native.definedBy),
      'the real build is analysed',
    );
  });
});
