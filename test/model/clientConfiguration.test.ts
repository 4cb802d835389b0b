// Documents of client-side tools' configuration (semantics §9.5) have an apiVersion and a kind but are not API
// objects: they never enter the cluster model, while an object beside them in the same file does.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseManifest } from '../../server/src/model/parseManifest';
import { parseFixture } from '../helpers/fixture';

const fixture = parseFixture(readFileSync(join(__dirname, '..', 'fixtures', 'cli', 'client-config.yaml'), 'utf8'), 'file:///ws/');

describe('client-side configuration documents', () => {
  for (const source of fixture.sources.filter((s) => !s.uri.includes('deploy/'))) {
    it(`${source.uri.slice('file:///ws/'.length)} holds no object and no problem`, () => {
      for (const fastPath of [true, false]) {
        const file = parseManifest(source.uri, source.text, { defaultNamespace: 'default', fastPath });
        assert.deepEqual(
          file.resources.map((r) => `${r.kind}/${r.name}`),
          [],
        );
        assert.deepEqual(file.problems, []);
        assert.equal(file.manifestDocuments, 0);
      }
    });
  }

  it('leave an object beside them in the same file in the model', () => {
    const text = 'apiVersion: skaffold/v4beta11\nkind: Config\nmetadata: {name: web}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n';
    const file = parseManifest('file:///ws/mixed.yaml', text, { defaultNamespace: 'default' });
    assert.deepEqual(
      file.resources.map((r) => `${r.kind}/${r.name}`),
      ['ConfigMap/web'],
    );
  });

  it("pass a v1 Config over only on a kubeconfig's evidence (clusters, contexts, users)", () => {
    const file = parseManifest('file:///ws/config.yaml', 'apiVersion: v1\nkind: Config\nmetadata: {name: app}\n', { defaultNamespace: 'default' });
    assert.deepEqual(
      file.resources.map((r) => `${r.kind}/${r.name}`),
      ['Config/app'],
    );
  });
});
