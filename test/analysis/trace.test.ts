// Trace graphs (goldens), findings on the hop they break, size with many workloads, and safe Mermaid labels.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { traceGraph } from '../../server/src/features/traceGraph';
import { traceToMermaid } from '../../server/src/features/traceMermaid';
import { analysisOf } from '../helpers/checkDns';
import { checkTraceGolden, traceOf } from '../helpers/checkTrace';
import type { Service } from '../../server/src/model/resources';
import type { TraceNodeKind } from '../../server/src/protocol';
import { runRules } from '../../server/src/engine/evaluate';
import { rules } from '../../server/src/rules/index';
import type { TraceHop } from '../../server/src/rules/rule';

const fixtures = join(__dirname, '..', 'fixtures', 'analysis');
const trace = join(fixtures, 'trace');

describe('trace graphs', () => {
  it('ClusterIP Service with two workloads, sidecar ports, policies and Ingress routes', () => {
    checkTraceGolden(analysisOf(join(fixtures, 'reach', 'shop.yaml')), ['shop/api', 'shop/ext-db'], join(trace, 'shop.golden.json'));
  });
  it('headless StatefulSet, ExternalName, manual Endpoints (ipvs, calico-ipip)', () => {
    checkTraceGolden(
      analysisOf(join(fixtures, 'dns', 'records.yaml'), { proxyMode: 'ipvs', cni: 'calico-ipip' }),
      ['shop/db', 'shop/payments', 'shop/legacy-db'],
      join(trace, 'records.golden.json'),
    );
  });
  it('broken Services (nftables, cilium)', () => {
    checkTraceGolden(
      analysisOf(join(trace, 'broken.yaml'), { proxyMode: 'nftables', cni: 'cilium' }),
      ['shop/web', 'shop/legacy', 'shop/public'],
      join(trace, 'broken.golden.json'),
    );
  });

  it('puts each finding on the hop it breaks and marks unreachable Services broken', () => {
    const a = analysisOf(join(trace, 'broken.yaml'));
    const web = traceOf(a, 'shop', 'web');
    assert.equal(web.broken, true);
    const none = web.nodes.find((n) => n.id === 'endpoints:none');
    assert.ok(none?.findings.some((f) => f.code === 'service-selector-no-match'));
    assert.ok(web.edges.some((e) => e.to === 'endpoints:none' && e.status === 'broken'));
    assert.equal(traceOf(a, 'shop', 'legacy').broken, true);
    assert.equal(traceOf(a, 'shop', 'public').broken, false);

    const shop = analysisOf(join(fixtures, 'reach', 'shop.yaml'));
    const api = traceOf(shop, 'shop', 'api');
    const stats = api.nodes.find((n) => n.id === 'port:Deployment/api-v1:2');
    assert.equal(stats?.status, 'error');
    assert.ok(stats?.findings.some((f) => f.code === 'service-target-port-unresolved'));
    const grpcRoute = api.nodes.find((n) => n.kind === 'ingress' && n.label === 'shop.example.com/grpc');
    assert.ok(grpcRoute?.findings.some((f) => f.code === 'ingress-backend-missing'));
    assert.equal(api.broken, false);
  });

  it("puts the findings of each rule with a traceHop on that hop, for the rule's own bad example", () => {
    const kinds: Record<TraceHop, TraceNodeKind> = { endpoints: 'no-endpoints', 'resolved-port': 'container-port', 'unresolved-port': 'container-port' };
    const withHop = rules.filter((r) => r.traceHop);
    assert.ok(withHop.length >= 5, 'the Service rules name their hops');
    for (const rule of withHop) {
      const a = analyzeTexts([{ uri: 'file:///bad.yaml', text: rule.examples.bad }]);
      const found = runRules(a, [rule]).filter((f) => f.resource?.kind === 'Service');
      assert.ok(found.length, `${rule.code}: its bad example fires on a Service`);
      for (const f of found) {
        const graph = traceOf(a, f.resource!.namespace, f.resource!.name);
        const on = graph.nodes.filter((n) => n.findings.some((x) => x.code === rule.code && x.message === f.message));
        assert.ok(on.length, `${rule.code}: the finding is on the trace`);
        for (const n of on) assert.equal(n.kind, kinds[rule.traceHop!], `${rule.code} on ${n.id}`);
        const expected = rule.traceHop === 'unresolved-port' ? 'error' : undefined;
        if (expected) for (const n of on) assert.equal(n.status, expected, `${rule.code} on a port that does not resolve`);
      }
    }
  });

  it('stays small: one node per workload for 200 pods in 20 workloads', () => {
    const docs = ['apiVersion: v1\nkind: Service\nmetadata: {name: big}\nspec:\n  selector: {app: big}\n  ports: [{name: http, port: 80, targetPort: http}]'];
    for (let i = 0; i < 20; i++) {
      docs.push(
        `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: big-${i}}\nspec:\n  replicas: 10\n  selector: {matchLabels: {app: big, shard: "${i}"}}\n  template:\n    metadata: {labels: {app: big, shard: "${i}"}}\n    spec:\n      containers: [{name: c, image: c, ports: [{name: http, containerPort: ${8000 + i}}]}]`,
      );
    }
    const a = analyzeTexts([{ uri: 'file:///big.yaml', text: docs.join('\n---\n') }]);
    const g = traceOf(a, 'default', 'big');
    assert.equal(g.nodes.filter((n) => n.kind === 'workload').length, 20);
    assert.equal(
      g.nodes.filter((n) => n.kind === 'workload').reduce((s, n) => s + (n.pods?.count ?? 0), 0),
      200,
    );
    assert.ok(g.nodes.length < 50, `${g.nodes.length} nodes`);
  });

  it('escapes labels from YAML so nothing breaks the Mermaid syntax', () => {
    // An Ingress path is free text from YAML, and its rule is a node of the Service's trace.
    const a = analyzeTexts([
      {
        uri: 'file:///m.yaml',
        text: 'apiVersion: v1\nkind: Service\nmetadata: {name: odd}\nspec:\n  selector: {app: odd}\n  ports: [{port: 80}]\n---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: odd}\nspec:\n  rules:\n  - http:\n      paths:\n      - path: "/a\\"b]|c<d>(e)#f&g"\n        pathType: Prefix\n        backend: {service: {name: odd, port: {number: 80}}}\n',
      },
    ]);
    const svc = a.cluster.service('default', 'odd')!;
    const mermaid = traceToMermaid(traceOf(a, 'default', svc.name));
    const labelLine = mermaid.split('\n').find((l) => l.includes('#124;'))!;
    assert.match(labelLine, /^\s+n\d+\(\["\*\/a#quot;b#93;#124;c#lt;d#gt;#40;e#41;#35;f#amp;g"\]\)$/, labelLine);
  });

  it('draws the trace of a rejected Service safely, its odd externalName kept out of the Mermaid labels', () => {
    const a = analyzeTexts([
      {
        uri: 'file:///m.yaml',
        text: 'apiVersion: v1\nkind: Service\nmetadata: {name: odd}\nspec:\n  type: ExternalName\n  externalName: "a\\"b]|c<d>(e)#f&g"\n',
      },
    ]);
    // That externalName is no DNS name, so the API server rejects the Service; its trace must still draw safely.
    const svc = a.cluster.rejected('Service', 'default', 'odd') as Service;
    const graph = traceGraph(a, svc, []);
    assert.equal(graph.nodes.find((n) => n.id === 'service')?.label, 'odd', 'the box names the Service');
    const mermaid = traceToMermaid(graph);
    for (const line of mermaid.split('\n').filter((l) => /^\s+n\d+[[({]/.test(l))) {
      assert.match(line, /^\s+n\d+[[({]+"[^"<>|]*"[\])}]+$/, line);
    }
  });
});
