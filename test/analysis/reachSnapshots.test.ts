// NetworkPolicy reach across snapshots: what reach.ts and the reach hover keep (per namespace partition, per cluster,
// per analysis) is never an earlier snapshot's answer. The language server reuses the parsed objects of files that did
// not change, so a workload object outlives the snapshot that first asked about it; a policy added in another file
// must still change its answer.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAnalysis } from '../../server/src/analysis/analysis';
import { podMatch, policiesFor, prepareReach, reach } from '../../server/src/analysis/reach';
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
    assert.deepEqual(
      policiesFor(guarded.cluster, api, 'ingress').sure.map((p) => p.name),
      ['api-ingress'],
    );
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

  it("keeps the reach indexes with the namespaces: an edit elsewhere reuses them, and the hover is the new snapshot's", () => {
    const agent = (hostNetwork: boolean) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: agent
  namespace: ops
spec:
  selector:
    matchLabels:
      app: agent
  template:
    metadata:
      labels:
        app: agent
    spec:
      hostNetwork: ${hostNetwork}
      containers:
        - name: app
          image: agent
`;
    const [guard] = parse([{ uri: 'file:///w/policy-0.yaml', text: policy('web') }]);
    const snapshot = (previous: ReturnType<typeof buildCluster> | undefined, hostNetwork: boolean) => {
      const [ops] = parse([{ uri: 'file:///w/ops.yaml', text: agent(hostNetwork) }]);
      const cluster = buildCluster([apps, guard, ops], previous);
      prepareReach(cluster);
      return createAnalysis(cluster, config);
    };
    const first = snapshot(undefined, false);
    const api = named(first, 'api');
    // the agent and outside the cluster
    assert.match(workloadReachHover(first, api), /denied: 2 other sources/);
    assert.doesNotMatch(workloadReachHover(first, api), /agent/);
    // the agent's namespace is edited: the shop's partition (and what reach keeps with it) is the same object
    const second = snapshot(first.cluster, true);
    assert.equal(second.cluster.objectsIn('shop'), first.cluster.objectsIn('shop'));
    assert.notEqual(second.cluster.objectsIn('ops'), first.cluster.objectsIn('ops'));
    assert.match(workloadReachHover(second, api), /Deployment `agent` in `ops`: unknown on `All Connections` because Deployment "agent" uses the host network/);
    assert.match(workloadReachHover(second, api), /denied: 1 other source\n/);
    const third = snapshot(second.cluster, false);
    assert.match(workloadReachHover(third, api), /denied: 2 other sources/);
    assert.doesNotMatch(workloadReachHover(third, api), /agent/);
  });

  it('finds through the label index exactly the policies a scan of the namespace finds', () => {
    const np = (name: string, selector: string) => `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: ${name}
  namespace: zoo
spec:
  podSelector: ${selector}
  policyTypes: [Ingress, Egress]
`;
    const deploy = (name: string, labels: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: zoo
spec:
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: ${labels}
    spec:
      containers:
        - name: app
          image: x
`;
    const policies = [
      np('all', '{}'),
      np('api', '{matchLabels: {app: api}}'),
      np('api-blue', '{matchLabels: {app: api, tier: blue}}'),
      np('blue-api', '{matchLabels: {tier: blue, app: api}}'),
      np('tier-in', '{matchExpressions: [{key: tier, operator: In, values: [blue, green]}]}'),
      np('no-tier', '{matchExpressions: [{key: tier, operator: DoesNotExist}]}'),
      np('hash', '{matchLabels: {pod-template-hash: abc}}'),
      np('api-hash', '{matchLabels: {app: api, pod-template-hash: abc}}'),
      np('web', '{matchLabels: {app: web}}'),
    ];
    const workloadsText = [
      deploy('api', '{app: api, tier: blue}'),
      deploy('api2', '{app: api}'),
      deploy('web', '{app: web, tier: green}'),
      deploy('tmpl', '{app: "${APP}", tier: blue}'),
      deploy('bare', '{other: x}'),
    ];
    const files = parse([...workloadsText, ...policies].map((text, i) => ({ uri: `file:///z/${String(i).padStart(2, '0')}.yaml`, text })));
    const cluster = buildCluster(files);
    const all = cluster.objectsIn('zoo')!.networkPolicies;
    assert.equal(all.length, policies.length);
    for (const w of cluster.workloadsIn('zoo')) {
      for (const direction of ['ingress', 'egress'] as const) {
        const found = policiesFor(cluster, w, direction);
        const scanned = all.map((p) => ({ p, m: podMatch(p.podSelector, w) }));
        assert.deepEqual(
          found.sure.map((p) => p.name),
          scanned.filter((x) => x.m.m === 'yes').map((x) => x.p.name),
          `${w.name} ${direction}`,
        );
        assert.deepEqual(
          found.maybe.map((x) => x.p.name),
          scanned.filter((x) => x.m.m === 'unknown').map((x) => x.p.name),
          `${w.name} ${direction} perhaps`,
        );
      }
    }
    // the cases the index must not decide alone are there
    assert.deepEqual(
      policiesFor(
        cluster,
        cluster.workloadsIn('zoo').find((w) => w.name === 'tmpl')!,
        'ingress',
      ).maybe.map((x) => x.p.name),
      ['api', 'api-blue', 'blue-api', 'hash', 'api-hash', 'web'],
    );
  });

  it('lists the sources of several namespaces in cluster order (by file), not by namespace', () => {
    const client = (name: string, ns: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}, role: client}
    spec:
      containers:
        - name: app
          image: x
`;
    const open = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: api-from-clients
  namespace: shop
spec:
  podSelector: {matchLabels: {app: api}}
  policyTypes: [Ingress]
  ingress:
    - from:
        - namespaceSelector: {}
          podSelector: {matchLabels: {role: client}}
`;
    // namespace "b" appears first (file a.yaml), then "a"; each file holds clients of both, interleaved
    const files = [
      apps,
      ...parse([
        { uri: 'file:///w/a.yaml', text: [client('b1', 'b'), client('a1', 'a'), client('b2', 'b')].join('---\n') },
        { uri: 'file:///w/c.yaml', text: [client('a2', 'a'), client('b3', 'b')].join('---\n') },
        { uri: 'file:///w/p.yaml', text: open },
      ]),
    ];
    const a = createAnalysis(buildCluster(files), config);
    const hover = workloadReachHover(a, named(a, 'api'));
    const order = [...hover.matchAll(/Deployment `(\w+)` in/g)].map((m) => m[1]);
    assert.deepEqual(
      order,
      a.cluster.workloads.filter((w) => w.name !== 'api' && w.name !== 'web').map((w) => w.name),
    );
    assert.deepEqual(order, ['b1', 'a1', 'b2', 'a2', 'b3']);
  });
});
