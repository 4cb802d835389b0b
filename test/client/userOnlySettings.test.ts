// kubeNetlens.kustomize.loadRestrictor reaches the server only from the user's own settings (docs/robustness.md,
// third round): package.json declares it machine-scoped and restricted, the client replaces whatever VS Code merged
// with the user's global value, and the server ignores it in an untrusted workspace.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { userOnlyKeys, withUserOnlySettings } from '../../client/src/userOnlySettings';
import { readSettings } from '../../server/src/workspace/settings';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { scope?: string }> } };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
};

describe('user-only settings', () => {
  for (const key of userOnlyKeys) {
    it(`kubeNetlens.${key} is machine-scoped and restricted in package.json`, () => {
      assert.equal(manifest.contributes.configuration.properties[`kubeNetlens.${key}`]?.scope, 'machine');
      assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes(`kubeNetlens.${key}`));
    });
  }
  it("the client answers the server with the user's value, not the workspace's", () => {
    const merged = { kustomize: { loadRestrictor: 'none', roots: ['a'] }, clusterDomain: 'x' };
    assert.deepEqual(
      withUserOnlySettings(merged, () => undefined),
      { kustomize: { roots: ['a'] }, clusterDomain: 'x' },
    );
    assert.deepEqual(
      withUserOnlySettings({ clusterDomain: 'x' }, (k) => (k === 'kustomize.loadRestrictor' ? 'none' : undefined)),
      { clusterDomain: 'x', kustomize: { loadRestrictor: 'none' } },
    );
    assert.equal(
      withUserOnlySettings(null, () => 'none'),
      null,
    );
  });
  it('the server reads none only in a trusted workspace; anything else is rootOnly', () => {
    assert.equal(readSettings({ kustomize: { loadRestrictor: 'none' } }, true).kustomize.loadRestrictor, 'none');
    assert.equal(readSettings({ kustomize: { loadRestrictor: 'none' } }, false).kustomize.loadRestrictor, 'rootOnly');
    assert.equal(readSettings({ kustomize: { loadRestrictor: 'LoadRestrictionsNone' } }, true).kustomize.loadRestrictor, 'rootOnly');
    assert.equal(readSettings({}, true).kustomize.loadRestrictor, 'rootOnly');
  });
});
