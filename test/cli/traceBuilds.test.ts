// A trace is about one Kustomize build: the Service of a base that three overlays build is traced in one of them, and
// its hops carry that build's findings only (before, each build's copy of the same warning was printed).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { traceResultFor } from '../../server/src/features/traceResult';
import { runCli, workspaceFrom } from './builtCli';

const base = [
  'apiVersion: v1',
  'kind: Service',
  'metadata:',
  '  name: web',
  'spec:',
  '  selector:',
  '    app: wbe',
  '  ports:',
  '    - port: 80',
  '---',
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata:',
  '  name: web',
  'spec:',
  '  selector:',
  '    matchLabels:',
  '      app: web',
  '  template:',
  '    metadata:',
  '      labels:',
  '        app: web',
  '    spec:',
  '      containers:',
  '        - name: web',
  '          image: web:1',
].join('\n');
const overlay = (tier: string) => `namespace: shop\nresources:\n  - ../../base\nlabels:\n  - pairs:\n      tier: ${tier}\n`;
const files: Record<string, string> = {
  'base/kustomization.yaml': 'resources:\n  - web.yaml\n',
  'base/web.yaml': `${base}\n`,
  'overlays/a/kustomization.yaml': overlay('a'),
  'overlays/b/kustomization.yaml': overlay('b'),
  'overlays/c/kustomization.yaml': overlay('c'),
};

describe('the trace of a Service three Kustomize builds make', () => {
  it('kube-netlens trace prints the warning once', () => {
    const dir = workspaceFrom(
      Object.entries(files)
        .map(([name, text]) => `# file: ${name}\n${text}`)
        .join('\n'),
    );
    const run = runCli(['trace', 'shop/web', dir]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.match(/warning service-selector-no-match/g)?.length, 1, run.stdout);
  });

  it('kube-netlens trace --format json puts the boxes on the base lines, as the editor does', () => {
    const dir = workspaceFrom(
      Object.entries(files)
        .map(([name, text]) => `# file: ${name}\n${text}`)
        .join('\n'),
    );
    const run = runCli(['trace', 'shop/web', dir, '--format', 'json']);
    assert.equal(run.status, 0, run.stderr);
    const graph = JSON.parse(run.stdout) as {
      service: { source?: { uri: string; line: number } };
      nodes: { kind: string; source?: { uri: string; line: number } }[];
    };
    const places = [graph.service.source, ...graph.nodes.map((n) => n.source)].filter((p) => p !== undefined);
    assert.ok(places.length > 2);
    assert.deepEqual(
      places.filter((p) => p.uri.includes('#')),
      [],
      'no place in a rendered build',
    );
    assert.match(graph.service.source!.uri, /base\/web\.yaml$/);
    assert.equal(graph.service.source!.line, base.split('\n').indexOf('  name: web'));
  });

  it("one build's trace carries that build's findings only", () => {
    const analysis = analyzeTexts(Object.entries(files).map(([name, text]) => ({ uri: `file:///w/${name}`, text })));
    for (const build of ['a', 'b', 'c']) {
      const uri = `file:///w/overlays/${build}/kustomization.yaml#rendered`;
      const graph = traceResultFor(analysis, { namespace: 'shop', name: 'web', uri })!.graph;
      const findings = graph.nodes.flatMap((n) => n.findings.map((f) => f.code));
      assert.deepEqual(findings, ['service-selector-no-match'], `build ${build}`);
    }
  });
});
