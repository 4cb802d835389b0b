// A base mistake that several Kustomize builds share is one finding on the base line, naming the builds in its
// message; each build adds one short related note on the entry of its kustomization that includes the file (through
// the kustomizations in between), never on the kustomization's first line (often a licence comment) and never with
// the whole message again.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeTexts, type SourceText } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../../server/src/features/diagnostics';

const licence = '# Copyright the shop authors.\n# SPDX-License-Identifier: Apache-2.0\n';
const sources: SourceText[] = [
  { uri: 'file:///w/base/kustomization.yaml', text: `${licence}resources:\n  - web.yaml\n` },
  {
    uri: 'file:///w/base/web.yaml',
    text: [
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
      '',
    ].join('\n'),
  },
  { uri: 'file:///w/shared/kustomization.yaml', text: `${licence}resources:\n  - ../base\n` },
  { uri: 'file:///w/overlays/dev/kustomization.yaml', text: `${licence}namespace: dev\nresources:\n  - namespace.yaml\n  - ../../base\n` },
  { uri: 'file:///w/overlays/dev/namespace.yaml', text: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: dev\n' },
  { uri: 'file:///w/overlays/prod/kustomization.yaml', text: `${licence}namespace: prod\nnamePrefix: prod-\nresources:\n  - ../../shared/\n` },
  { uri: 'file:///w/overlays/staging/kustomization.yaml', text: `${licence}namespace: staging\nbases:\n  - ../../base\n` },
];

function lineAt(uri: string, offset: number): string {
  const text = sources.find((s) => s.uri === uri)!.text;
  return text.slice(text.lastIndexOf('\n', offset - 1) + 1, text.indexOf('\n', offset)).trim();
}

describe('a base finding of several Kustomize builds', () => {
  const findings = diagnosticsFor(analyzeTexts(sources)).filter((f) => f.code === 'service-selector-no-match');

  it('is one finding on the base line, naming the builds once', () => {
    assert.equal(findings.length, 1);
    const [f] = findings;
    assert.equal(f.uri, 'file:///w/base/web.yaml');
    assert.equal(lineAt(f.uri, f.span.start), 'app: wbe');
    assert.match(f.message, /\(in the builds of overlays\/dev, overlays\/prod, overlays\/staging\)$/);
  });

  it('has one short note per build, on the entry that includes the base, through the kustomizations between', () => {
    const notes = (findings[0].related ?? []).filter((r) => r.uri.endsWith('/kustomization.yaml'));
    assert.deepEqual(
      notes.map((r) => `${r.uri.slice('file:///w/'.length)}: ${lineAt(r.uri, r.span.start)}: ${r.message}`),
      [
        'overlays/dev/kustomization.yaml: - ../../base: Included here in the build of overlays/dev',
        'overlays/prod/kustomization.yaml: - ../../shared/: Included here in the build of overlays/prod',
        'overlays/staging/kustomization.yaml: - ../../base: Included here in the build of overlays/staging',
      ],
    );
    for (const r of notes) {
      assert.ok(!r.message.includes('matches no pod template'), 'the message is not repeated');
      assert.ok(r.span.start > licence.length, 'not the licence comment on the first line');
    }
  });
});
