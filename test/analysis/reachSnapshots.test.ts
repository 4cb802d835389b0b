// NetworkPolicy reach across snapshots: what reach.ts and the reach hover keep (per namespace partition, per cluster,
// per analysis) is never an earlier snapshot's answer. The language server reuses the parsed objects of files that did
// not change, so a workload object outlives the snapshot that first asked about it; a policy added in another file
// must still change its answer.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAnalysis } from '../../server/src/analysis/analysis';
import { policiesFor, reach } from '../../server/src/analysis/reach';
import { workloadReachHover } from '../../server/src/features/hoverReach';
import { buildCluster } from '../../server/src/model/cluster';
import { withDefaults } from '../../server/src/model/config';
import { parseFiles } from '../../server/src/model/parseManifest';
import type { Workload } from '../../server/src/model/resources';

const workloads = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: shop
spec:
  selector:
    matchLabels:
      app: api
  template:
    metadata:
      labels:
        app: api
    spec:
      containers:
        - name: app
          image: api
          ports:
            - name: http
              containerPort: 8080
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: app
          image: web
`;

const policy = (from: string) => `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: api-ingress
  namespace: shop
spec:
  podSelector:
    matchLabels:
      app: api
  policyTypes:
    - Ingress
  ingress:
    - from:
        - podSelector:
            matchLabels:
              app: ${from}
      ports:
        - port: http
`;

const config = withDefaults({});
const parse = (sources: { uri: string; text: string }[]) => parseFiles(sources, { defaultNamespace: 'default' });
const [apps] = parse([{ uri: 'file:///w/apps.yaml', text: workloads }]);
const analysisOf = (...policies: string[]) => {
  const files = [apps, ...parse(policies.map((text, i) => ({ uri: `file:///w/policy-${i}.yaml`, text })))];
  return createAnalysis(buildCluster(files), config);
};
const named = (a: ReturnType<typeof analysisOf>, name: string): Workload => a.cluster.workloads.find((w) => w.name === name)!;

describe('NetworkPolicy reach across snapshots', () => {
  it('sees a policy added in another file although the workload object is the same', () => {
    const open = analysisOf();
    const api = named(open, 'api');
    assert.deepEqual(policiesFor(open.cluster, api, 'ingress').sure, []);
    assert.match(workloadReachHover(open, api), /No NetworkPolicy selects these pods/);
    const guarded = analysisOf(policy('web'));
    // the same parsed object in the new snapshot
    assert.equal(named(guarded, 'api'), api);
    assert.deepEqual(policiesFor(guarded.cluster, api, 'ingress').sure.map((p) => p.name), ['api-ingress']);
    assert.match(workloadReachHover(guarded, api), /Selected by `api-ingress`/);
    assert.equal(reach(guarded.cluster, { kind: 'workload', workload: named(guarded, 'web') }, { kind: 'workload', workload: api }).verdict, 'allowed');
    // and back: the earlier answer is not kept for the workload either
    assert.deepEqual(policiesFor(analysisOf().cluster, api, 'ingress').sure, []);
  });

  it('answers again when a policy edit changes which peer matches', () => {
    const a = analysisOf(policy('web'));
    const api = named(a, 'api');
    const web = { kind: 'workload', workload: named(a, 'web') } as const;
    assert.equal(reach(a.cluster, web, { kind: 'workload', workload: api }).verdict, 'allowed');
    const b = analysisOf(policy('batch'));
    assert.equal(reach(b.cluster, { kind: 'workload', workload: named(b, 'web') }, { kind: 'workload', workload: api }).verdict, 'denied');
    assert.match(workloadReachHover(b, api), /denied: 2 other sources/);
    assert.doesNotMatch(workloadReachHover(b, api), /Deployment `web` on/);
  });

  it('gives every source with the same matches the same answer, and each its own when they differ', () => {
    const a = analysisOf(policy('web'));
    const api = { kind: 'workload', workload: named(a, 'api') } as const;
    const web = reach(a.cluster, { kind: 'workload', workload: named(a, 'web') }, api);
    // outside the cluster matches no peer of the rule: denied, not the web's answer kept for its signature
    assert.equal(reach(a.cluster, { kind: 'external' }, api).verdict, 'denied');
    assert.equal(web.verdict, 'allowed');
    assert.deepEqual([...web.ports], [['TCP', [[8080, 8080]]]]);
    // a port asked for is answered on its own, not from the kept pair
    assert.equal(reach(a.cluster, { kind: 'workload', workload: named(a, 'web') }, api, { protocol: 'TCP', port: 9090 }).verdict, 'denied');
    assert.equal(reach(a.cluster, { kind: 'workload', workload: named(a, 'web') }, api).verdict, 'allowed');
  });
});
