// A clean run prints nothing a person must wonder about: no warning of the yaml library (a map key that is a
// collection, which a kustomization, a kuttl suite or a chart's output may hold) reaches the CLI's output.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli, workspaceFrom } from './builtCli';

describe('kube-netlens and the yaml library', () => {
  it('prints no warning of the library for map keys that are collections', () => {
    const dir = workspaceFrom(
      [
        '# file: kustomization.yaml',
        'apiVersion: kustomize.config.k8s.io/v1beta1',
        'kind: Kustomization',
        'resources:',
        '  - service.yaml',
        '? [a, b]',
        ': c',
        '# file: suite/kuttl-test.yaml',
        'apiVersion: kuttl.dev/v1beta1',
        'kind: TestSuite',
        'testDirs:',
        '  - tests',
        '? {x: 1}',
        ': y',
        '# file: service.yaml',
        'apiVersion: v1',
        'kind: Service',
        'metadata:',
        '  name: web',
        'spec:',
        '  ports:',
        '    - port: 80',
      ].join('\n'),
    );
    for (const args of [
      ['check', dir],
      ['build', dir],
    ]) {
      const run = runCli(args);
      assert.doesNotMatch(run.stderr, /Warning|stringified/, `${args[0]}: ${run.stderr}`);
      assert.doesNotMatch(run.stdout, /Warning|stringified/, `${args[0]}: ${run.stdout}`);
    }
  });
});
