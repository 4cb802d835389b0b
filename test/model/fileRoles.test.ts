import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileRoles } from '../../server/src/model/fileRoles';

const service = 'apiVersion: v1\nkind: Service\nmetadata: {name: api}\nspec: {ports: [{port: 80}]}\n';

describe('file roles: Go test data and vendored Go modules', () => {
  it('a Go module copied into vendor/ is test data, a vendor folder of manifests is read', () => {
    const uris = [
      'file:///w/deploy/api.yaml',
      'file:///w/pkg/testdata/svc.yaml',
      // go mod vendor: a module path begins with a domain name
      'file:///w/vendor/k8s.io/apimachinery/pkg/util/managedfields/endpoints.yaml',
      'file:///w/vendor/sigs.k8s.io/kustomize/api/svc.yaml',
      // a folder of third-party manifests a team keeps under the name vendor
      'file:///w/vendor/cert-manager/cert-manager.yaml',
      'file:///w/vendor/svc.yaml',
    ];
    const roles = fileRoles(uris, () => service);
    assert.deepEqual(
      uris.map((u) => roles.get(u) ?? 'manifest'),
      ['manifest', 'test-suite', 'test-suite', 'test-suite', 'manifest', 'manifest'],
    );
  });
});
