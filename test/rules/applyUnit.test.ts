// Which two files are applied as one (rules/applyUnit.ts): one file, or two files of one folder, also when the CLI
// names the files of its root folder without a folder (`check .`).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sameApplyUnit } from '../../server/src/rules/applyUnit';

describe('sameApplyUnit', () => {
  it('holds for two files of one folder, absolute or relative', () => {
    assert.equal(sameApplyUnit('/repo/app/a.yaml', '/repo/app/b.yaml'), true);
    assert.equal(sameApplyUnit('a.yaml', 'b.yaml'), true);
    assert.equal(sameApplyUnit('app/a.yaml', 'app/b.yaml'), true);
  });
  it('does not hold for sibling folders, a folder and its subfolder, or a render and a file', () => {
    assert.equal(sameApplyUnit('/repo/a/x.yaml', '/repo/b/x.yaml'), false);
    assert.equal(sameApplyUnit('a.yaml', 'sub/b.yaml'), false);
    assert.equal(sameApplyUnit('/repo/app/#kustomize', '/repo/app/a.yaml'), false);
  });
});
