// How one run of the real Kustomize that did not build is worded (kustomize/external.ts `unitFromKustomizeExit`):
// the message names the root as a person knows it, never as `.`.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unitFromKustomizeExit, type ExternalRoot } from '../../server/src/kustomize/external';

const noFiles = { read: () => undefined, list: () => undefined };
const timedOut = { status: null, stdout: '', stderr: '', timedOut: true };

function root(label: string, definedBy: string): ExternalRoot {
  return { id: `kustomize:${definedBy}`, label, definedBy, nativeInputs: [definedBy], at: { uri: definedBy, span: { start: 0, end: 9 } } };
}

function said(r: ExternalRoot): string {
  const unit = unitFromKustomizeExit(r, timedOut, 'kubectl kustomize', 10000, noFiles, () => undefined);
  assert.equal(unit.problems.length, 1);
  return unit.problems[0].message;
}

describe('a real Kustomize build stopped at its time limit', () => {
  it('names an overlay by its label', () => {
    assert.equal(
      said(root('overlays/prod', 'file:///w/overlays/prod/kustomization.yaml')),
      'kubectl kustomize did not finish building overlays/prod within 10 s and was stopped; the build is not analysed.',
    );
  });
  it("names a root checked as its own folder (label `.`) by the folder's name", () => {
    assert.match(said(root('.', 'file:///w/shop/kustomization.yaml')), /^kubectl kustomize did not finish building shop within 10 s/);
  });
  it('names it by its kustomization file when the path has no folder (`check .` on the command line)', () => {
    assert.match(said(root('.', 'kustomization.yaml')), /^kubectl kustomize did not finish building kustomization\.yaml within 10 s/);
  });
});
