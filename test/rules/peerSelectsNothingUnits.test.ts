// networkpolicy-peer-selects-nothing on a Helm release's policy: a near miss is evidence only within the policy's unit
// (semantics §9.0). A workload of another chart's example beside the chart, in the same defaulted namespace, is no
// evidence that the peer names the wrong pods; the same near miss in the release's own render is.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosticsFor } from '../../server/src/engine/evaluate';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';

const policy = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: collector
spec:
  podSelector:
    matchLabels:
      app.kubernetes.io/name: collector
  policyTypes: [Egress]
  egress:
    - to:
        - podSelector:
            matchLabels:
              app: jaeger
      ports:
        - port: 4317
`;

const collector = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: collector
spec:
  selector:
    matchLabels:
      app.kubernetes.io/name: collector
  template:
    metadata:
      labels:
        app.kubernetes.io/name: collector
    spec:
      containers:
        - name: collector
          image: example/collector:1
`;

const jaeger = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: jaeger
spec:
  selector:
    matchLabels:
      app.kubernetes.io/name: jaeger
  template:
    metadata:
      labels:
        app.kubernetes.io/name: jaeger
    spec:
      containers:
        - name: jaeger
          image: example/jaeger:1
`;

const release = 'file:///repo/charts/collector/#helm/ci/networkpolicy-values.yaml';
const peerFindings = (sources: { uri: string; text: string }[]) =>
  diagnosticsFor(analyzeTexts(sources)).filter((f) => f.code === 'networkpolicy-peer-selects-nothing');

describe('networkpolicy-peer-selects-nothing and the units of Helm releases', () => {
  it('stays quiet when the near miss is a workload of another chart beside the release', () => {
    assert.deepEqual(
      peerFindings([
        { uri: release, text: `${policy}---\n${collector}` },
        { uri: 'file:///repo/charts/demo/examples/rendered/jaeger.yaml', text: jaeger },
      ]),
      [],
    );
  });

  it('fires when the near miss is in the release itself', () => {
    const found = peerFindings([{ uri: release, text: `${policy}---\n${collector}---\n${jaeger}` }]);
    assert.equal(found.length, 1);
    assert.match(found[0].message, /Deployment "jaeger" labels its pods app\.kubernetes\.io\/name: jaeger/);
  });

  it('still fires on workspace files beside each other', () => {
    const found = peerFindings([
      { uri: 'file:///repo/app/policy.yaml', text: policy },
      { uri: 'file:///repo/app/collector.yaml', text: collector },
      { uri: 'file:///repo/jaeger/deployment.yaml', text: jaeger },
    ]);
    assert.equal(found.length, 1);
  });
});
