// Apply scopes (model/project.ts): variants of one install side by side are analysed apart, copies count once.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeTexts, type SourceText } from '../../server/src/features/analyzeTexts';
import { listServices } from '../../server/src/features/serviceList';
import { traceResultFor } from '../../server/src/features/traceResult';
import { parseFixture } from '../helpers/fixture';

const svc = (name: string, port: number) =>
  `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}, namespace: shop}\nspec:\n  selector: {app: ${name}}\n  ports: [{name: http, port: ${port}}]\n`;
const deploy = (name: string, replicas: number) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}, namespace: shop}\nspec:\n  replicas: ${replicas}\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec: {containers: [{name: c, image: c}]}\n`;
const ns = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n';

function analyze(files: Record<string, string>) {
  const sources: SourceText[] = Object.entries(files).map(([path, text]) => ({ uri: `file:///repo/${path}`, text }));
  return analyzeTexts(sources);
}

describe('apply scopes', () => {
  it('sibling folders that define an object differently are variants, each with the shared files above them', () => {
    const a = analyze({
      'deploy/aws/web.yaml': svc('web', 80) + '---\n' + deploy('web', 3),
      'deploy/gcp/web.yaml': svc('web', 8080) + '---\n' + deploy('web', 1),
      'deploy/namespace.yaml': ns,
    });
    const labels = a
      .scopes()
      .map((s) => s.label ?? '(shared)')
      .sort();
    assert.deepEqual(labels, ['(shared)', 'aws', 'gcp']);
    const aws = a.scopeOf('file:///repo/deploy/aws/web.yaml');
    assert.deepEqual(aws.analysis.cluster.files.map((f) => f.uri.replace('file:///repo/', '')).sort(), ['deploy/aws/web.yaml', 'deploy/namespace.yaml']);
    // Endpoints come from the variant's own Deployment, never from the other variant's copy.
    const web = aws.analysis.cluster.service('shop', 'web')!;
    assert.equal(web.uri, 'file:///repo/deploy/aws/web.yaml');
    assert.deepEqual(
      a.endpointsOf(web).groups.map((g) => [g.workload.uri.replace('file:///repo/', ''), g.replicas]),
      [['deploy/aws/web.yaml', 3]],
    );
  });

  it('traces the definition of the variant asked for, and says which variant it is; the Service list tells them apart', () => {
    const a = analyze({
      'deploy/aws/web.yaml': svc('web', 80) + '---\n' + deploy('web', 3),
      'deploy/gcp/web.yaml': svc('web', 8080) + '---\n' + deploy('web', 1),
    });
    const gcp = traceResultFor(a, { namespace: 'shop', name: 'web', uri: 'file:///repo/deploy/gcp/web.yaml' })!;
    assert.equal(gcp.graph.variant, 'gcp');
    assert.equal(gcp.graph.service.source?.uri, 'file:///repo/deploy/gcp/web.yaml');
    assert.deepEqual(
      listServices(a)
        .map((s) => `${s.name} ${s.unit}`)
        .sort(),
      ['web variant aws', 'web variant gcp'],
    );
  });

  it('lists each DNS record once, from the definition in its own scope', () => {
    const a = analyze({
      'deploy/aws/web.yaml': svc('web', 80) + '---\n' + deploy('web', 3),
      'deploy/gcp/web.yaml': svc('web', 8080) + '---\n' + deploy('web', 1),
    });
    const srv = a
      .dnsRecords()
      .filter((r) => r.type === 'SRV' && r.name.startsWith('_http._tcp.web.'))
      .map((r) => [r.answer, r.source.uri.replace('file:///repo/', '')]);
    assert.deepEqual(srv.sort(), [
      ['0 100 80 web.shop.svc.cluster.local.', 'deploy/aws/web.yaml'],
      ['0 100 8080 web.shop.svc.cluster.local.', 'deploy/gcp/web.yaml'],
    ]);
    const a1 = a.dnsRecords().filter((r) => r.type === 'A' && r.name === 'web.shop.svc.cluster.local');
    assert.equal(a1.length, 1, 'the same A record of two variants is listed once');
  });

  it('identical copies (a bundle next to its sources) and Namespace objects make no variants; copies count once', () => {
    const a = analyze({
      'bundle.yaml': ns + '---\n' + svc('web', 80) + '---\n' + deploy('web', 2),
      'parts/web.yaml': '# the same, with a comment\n' + svc('web', 80),
      'parts/deploy.yaml': deploy('web', 2),
      'other/namespace.yaml': ns,
    });
    assert.equal(a.scopes().length, 1);
    assert.equal(a.variants, '');
    const web = a.cluster.service('shop', 'web')!;
    assert.equal(a.endpointsOf(web).groups.length, 1, 'two copies of one Deployment are one workload');
  });

  it('two files in one folder that define an object differently are variants (install.yaml next to install-ha.yaml)', () => {
    const fx = parseFixture(
      `# file: manifests/install.yaml\n${deploy('controller', 1)}# file: manifests/install-ha.yaml\n${deploy('controller', 3)}# file: manifests/service.yaml\n${svc('controller', 80)}`,
      'file:///repo/',
    );
    const a = analyzeTexts(fx.sources);
    const labels = a
      .scopes()
      .map((s) => s.label ?? '(shared)')
      .sort();
    assert.deepEqual(labels, ['(shared)', 'install-ha.yaml', 'install.yaml']);
    // The shared Service sees both definitions as one workload.
    const shared = a.scopeOf('file:///repo/manifests/service.yaml');
    assert.equal(shared.analysis.endpointsOf(shared.analysis.cluster.service('shop', 'controller')!).groups.length, 1);
  });
});
