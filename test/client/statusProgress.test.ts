// The status item's words for work under way (client/src/statusProgress.ts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { progressText } from '../../client/src/statusProgress';

describe('status progress', () => {
  it('says nothing when nothing runs', () => {
    assert.equal(progressText(undefined), undefined);
    assert.equal(progressText({}), undefined);
  });

  it('counts files while indexing, charts rendered and Kustomize roots built, in that order', () => {
    assert.equal(progressText({ files: { done: 400, total: 1117 } }), 'indexing 400/1117 files');
    assert.equal(
      progressText({ kustomizeRoots: { done: 2, total: 5 }, charts: { done: 3, total: 10 } }),
      'rendering 3/10 charts · building 2/5 Kustomize roots',
    );
    assert.equal(progressText({ charts: { done: 0, total: 1 }, kustomizeRoots: { done: 0, total: 1 } }), 'rendering 0/1 chart · building 0/1 Kustomize root');
  });
});
