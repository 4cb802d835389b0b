// Every Service of the demo workspace traces to the right path, and each planted mistake sits on the hop it breaks.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../server/src/features/analyzeTexts';
import { traceResultFor } from '../server/src/features/traceResult';
import type { TraceGraph, TraceNode } from '../server/src/protocol';

const dir = join(__dirname, '..', 'examples');
const sources = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => ({ uri: `file:///examples/${f}`, text: readFileSync(join(dir, f), 'utf8') }));
const analysis = analyzeTexts(sources);

function trace(name: string): TraceGraph {
  const r = traceResultFor(analysis, { namespace: 'shop', name });
  assert.ok(r, `no trace for shop/${name}`);
  return r.graph;
}

function nodesWith(g: TraceGraph, code: string): TraceNode[] {
  return g.nodes.filter((n) => n.findings.some((f) => f.code === code));
}

describe('traces of the demo workspace', () => {
  it('frontend: the selector typo breaks the path at the endpoints, and nothing reaches a pod', () => {
    const g = trace('frontend');
    assert.equal(g.broken, true);
    assert.deepEqual(
      nodesWith(g, 'service-selector-no-match').map((n) => n.column),
      ['endpoints'],
    );
    assert.ok(
      g.nodes.some((n) => n.kind === 'ingress'),
      'the Ingress rule routing here is an entry',
    );
    assert.ok(g.edges.some((e) => e.status === 'broken'));
  });

  it('api: the unresolved named port sits on its container port, the wrong Ingress port on the Ingress entry', () => {
    const g = trace('api');
    assert.equal(g.broken, false, 'port 8080 still reaches the pods');
    assert.deepEqual(
      nodesWith(g, 'service-target-port-unresolved').map((n) => n.column),
      ['port'],
    );
    assert.deepEqual(
      nodesWith(g, 'ingress-backend-missing').map((n) => n.kind),
      ['ingress'],
    );
    const workload = g.nodes.find((n) => n.kind === 'workload');
    assert.ok(workload && /Deployment api/.test(workload.label) && workload.pods?.count === 3, workload?.label);
    assert.ok(g.nodes.some((n) => n.kind === 'kube-proxy'));
  });

  it('api: reached through the Gateway listener and the HTTPRoute rule too, beside the Ingress', () => {
    const g = trace('api');
    assert.deepEqual(
      g.nodes.filter((n) => n.kind === 'gateway-listener').map((n) => n.label),
      ['shop-gateway · http 80/HTTP shop.example.com'],
    );
    const rule = g.nodes.find((n) => n.kind === 'route-rule');
    assert.equal(rule?.label, 'HTTPRoute shop · rule 1');
    assert.equal(rule?.status, 'ok');
    assert.ok(g.edges.some((e) => e.from === 'gateway:backend:HTTPRoute/shop/shop/0/0' && e.to === 'service' && e.status === 'ok'));
  });

  it('postgres: headless, no kube-proxy hop, the serviceName typo on the StatefulSet', () => {
    const g = trace('postgres');
    assert.ok(!g.nodes.some((n) => n.kind === 'kube-proxy'), 'kube-proxy skips headless Services');
    assert.deepEqual(
      nodesWith(g, 'statefulset-service-missing').map((n) => n.kind),
      ['workload'],
    );
    assert.ok(
      g.nodes.some((n) => n.kind === 'network-policy'),
      'the NetworkPolicy selecting the database pods is drawn',
    );
  });

  it('legacy-db: endpoints come from the manual Endpoints object', () => {
    const g = trace('legacy-db');
    assert.equal(g.broken, false);
    assert.ok(g.nodes.some((n) => n.kind === 'manual-endpoints'));
    assert.ok(
      g.nodes.every((n) => n.findings.length === 0),
      'no finding on a correct Service',
    );
  });
});

describe('the trace view’s demo fixtures', () => {
  // test/fixtures/trace/examples-*.json feed the webview tests; they must be today's traces of the demo, or the view is
  // tested (and its screenshots taken) on words the product no longer shows.
  const relative = analyzeTexts(
    readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => ({ uri: `examples/${f}`, text: readFileSync(join(dir, f), 'utf8') })),
  );
  for (const name of ['api', 'frontend']) {
    it(`examples-${name}.json is the trace of shop/${name} as the product draws it now`, () => {
      const fixture = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'trace', `examples-${name}.json`), 'utf8')) as { graph: TraceGraph };
      const now = traceResultFor(relative, { namespace: 'shop', name });
      assert.ok(now);
      assert.deepEqual(
        JSON.parse(JSON.stringify(now.graph)),
        fixture.graph,
        `regenerate with: node dist/cli.js trace shop/${name} examples/ --format json (and mermaid, text)`,
      );
    });
  }
});
