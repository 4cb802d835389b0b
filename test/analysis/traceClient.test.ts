// A Service trace for a chosen client (features/traceClient.ts, netpol §1, §6): each endpoint group and container port
// says whether the client's egress and the pods' ingress admit its connection on the pod port after the targetPort
// mapping, with the deciding rule (1-based, as the hover names it); the pods a policy blocks for the client are marked.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runRules } from '../../server/src/engine/evaluate';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { clientChoices, readTraceClient } from '../../server/src/features/traceClient';
import { traceGraph } from '../../server/src/features/traceGraph';
import { traceResultFor } from '../../server/src/features/traceResult';
import { traceToMermaid } from '../../server/src/features/traceMermaid';
import { traceToText } from '../../server/src/features/traceText';
import type { Analysis } from '../../server/src/analysis/analysis';
import type { TraceClient, TraceGraph } from '../../server/src/protocol';
import { analysisOf } from '../helpers/checkDns';
import { checkInvariants } from '../helpers/checkTrace';

const fixture = join(__dirname, '..', 'fixtures', 'analysis', 'trace', 'client.yaml');

function traced(a: Analysis, namespace: string, name: string, client?: TraceClient): TraceGraph {
  const svc = a.cluster.service(namespace, name)!;
  const g = traceGraph(a, svc, runRules(a), client);
  checkInvariants(g);
  return g;
}

const workload = (namespace: string, workloadKind: string, name: string): TraceClient => ({ kind: 'workload', namespace, workloadKind, name });
const node = (g: TraceGraph, id: string) => g.nodes.find((n) => n.id === id)!;

describe('trace for a chosen client', () => {
  const a = analysisOf(fixture);

  it('without a client, draws no client and no verdicts', () => {
    const g = traced(a, 'shop', 'api');
    assert.equal(g.client, undefined);
    assert.ok(!g.nodes.some((n) => n.kind === 'client' || n.reach));
  });

  it('an allowed client: egress and ingress rules on the pod port 8080 (Service port 80, targetPort http)', () => {
    const g = traced(a, 'shop', 'api', workload('shop', 'Deployment', 'web'));
    assert.equal(g.client?.verdict, 'allowed');
    assert.equal(g.nodes[0].id, 'client');
    assert.equal(g.nodes[0].label, 'From shop/web (Deployment)');
    const port = node(g, 'port:Deployment/api:0');
    assert.equal(port.reach?.verdict, 'allowed');
    assert.deepEqual(port.reach?.because, ['egress: shop/web-out rule 1 (client.yaml line 80)', 'ingress: shop/api-in rule 1 (client.yaml line 68)']);
    assert.equal(port.detail[0], '✓ From shop/web (Deployment): allowed on 8080/TCP.');
    assert.equal(port.status, 'ok');
    const toPolicy = g.edges.find((e) => e.from === 'port:Deployment/api:0' && e.to === 'policy:shop/api-in');
    assert.deepEqual([toPolicy?.status, toPolicy?.label], ['ok', 'admits the client']);
    // The canary is selected by no ingress policy: only the client's egress rule decides.
    assert.deepEqual(node(g, 'port:Deployment/api-canary:0').reach?.because, ['egress: shop/web-out rule 1 (client.yaml line 80)']);
    assert.ok(g.edges.some((e) => e.from === 'client' && e.to === 'service' && e.status === 'ok'));
  });

  it('marks the pods a policy blocks for the client, and the pods it still reaches', () => {
    const g = traced(a, 'shop', 'api', workload('shop', 'Job', 'batch'));
    const blocked = node(g, 'endpoints:Deployment/api');
    assert.equal(blocked.reach?.verdict, 'denied');
    assert.equal(blocked.status, 'error');
    assert.equal(blocked.detail[0], '✖ From shop/batch (Job): NetworkPolicy blocks the connection to these pods.');
    const port = node(g, 'port:Deployment/api:0');
    assert.deepEqual([port.status, port.reach?.because], ['error', ['ingress: shop/api-in admits none of it (client.yaml line 64)']]);
    assert.ok(g.edges.some((e) => e.from === 'endpoints:Deployment/api' && e.to === 'port:Deployment/api:0' && e.status === 'broken'));
    assert.ok(g.edges.some((e) => e.to === 'policy:shop/api-in' && e.status === 'broken' && e.label === 'blocks the client'));
    assert.equal(node(g, 'endpoints:Deployment/api-canary').reach?.verdict, 'allowed');
    assert.equal(g.client?.verdict, 'allowed');
    assert.deepEqual(g.client?.because, [
      'Deployment api: blocked — ingress: shop/api-in admits none of it (client.yaml line 64)',
      'Deployment api-canary: allowed — no NetworkPolicy isolates either end',
    ]);
    // The Service path itself is not broken: other clients get through.
    assert.equal(g.broken, false);
    const text = traceToText(g);
    assert.match(text, /^Service shop\/api\nClient: ✓ From shop\/batch \(Job\): 1 of 2 endpoint groups admit the connection\.\n {2}Deployment api: blocked/);
    assert.match(text, /-x-> \[80\/TCP\] 80 → http → 8080 \[error\]\n {12}✖ From shop\/batch \(Job\): blocked on 8080\/TCP by NetworkPolicy\./);
    assert.match(traceToMermaid(g), /-\.->\|"✗ blocks the client"\|/);
  });

  it('a client blocked everywhere: every pod marked, the client box broken', () => {
    const only = analyzeTexts([
      {
        uri: 'file:///one.yaml',
        text: [
          'apiVersion: v1\nkind: Service\nmetadata: {name: db, namespace: x}\nspec:\n  selector: {app: db}\n  ports: [{port: 5432}]',
          'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db, namespace: x}\nspec:\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec:\n      containers: [{name: db, image: db, ports: [{containerPort: 5432}]}]',
          'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: x}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: web}]',
          'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: web-no-egress, namespace: x}\nspec:\n  podSelector: {matchLabels: {app: web}}\n  policyTypes: [Egress]',
        ].join('\n---\n'),
      },
    ]);
    const g = traced(only, 'x', 'db', workload('x', 'Deployment', 'web'));
    assert.equal(g.client?.verdict, 'denied');
    assert.equal(node(g, 'client').status, 'error');
    assert.ok(g.edges.some((e) => e.from === 'client' && e.status === 'broken'));
    assert.deepEqual(node(g, 'port:StatefulSet/db:0').reach?.because, ['egress: x/web-no-egress admits none of it (one.yaml line 31)']);
    assert.ok(node(g, 'client').detail.includes('Its egress is limited by web-no-egress.'));
  });

  it('with two policies on the pods, the edge to each says whether its own rules admit the client', () => {
    const two = analyzeTexts([
      {
        uri: 'file:///two.yaml',
        text: [
          'apiVersion: v1\nkind: Service\nmetadata: {name: api, namespace: x}\nspec:\n  selector: {app: api}\n  ports: [{port: 80, targetPort: 8080}]',
          'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: x}\nspec:\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec:\n      containers: [{name: api, image: api, ports: [{containerPort: 8080}]}]',
          'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: x}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: web}]',
          'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: from-web, namespace: x}\nspec:\n  podSelector: {matchLabels: {app: api}}\n  ingress: [{from: [{podSelector: {matchLabels: {app: web}}}], ports: [{port: 8080}]}]',
          'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: from-admin, namespace: x}\nspec:\n  podSelector: {matchLabels: {app: api}}\n  ingress: [{from: [{podSelector: {matchLabels: {app: admin}}}]}]',
        ].join('\n---\n'),
      },
    ]);
    const g = traced(two, 'x', 'api', workload('x', 'Deployment', 'web'));
    const label = (policy: string) => g.edges.find((e) => e.from === 'port:Deployment/api:0' && e.to === `policy:x/${policy}`)?.label;
    assert.equal(label('from-web'), 'admits the client');
    assert.equal(label('from-admin'), 'another policy admits the client');
  });

  it('outside the cluster and any pod of a namespace: unknown where the labels decide, never denied for it', () => {
    const ext = traced(a, 'shop', 'api', { kind: 'external' });
    assert.equal(node(ext, 'endpoints:Deployment/api').reach?.verdict, 'denied');
    assert.ok(node(ext, 'client').detail.some((d) => d.startsWith('A ClusterIP Service has no address outside the cluster')));
    const edge = traced(a, 'shop', 'api', { kind: 'namespace', namespace: 'edge' });
    const port = node(edge, 'port:Deployment/api:0');
    assert.equal(port.reach?.verdict, 'unknown');
    assert.match(port.reach!.text, /the labels of "any pod in namespace edge" are not given, and the selector reads "app"/);
    assert.deepEqual(port.reach?.because, ['ingress: shop/api-in rule 2 (client.yaml line 70)']);
    assert.equal(port.status, 'conditional');
    assert.equal(node(edge, 'endpoints:Deployment/api-canary').reach?.verdict, 'allowed');
  });

  it("a client missing from the Service's scope is said so, and nothing is checked", () => {
    const g = traced(a, 'shop', 'api', workload('shop', 'Deployment', 'gone'));
    assert.equal(g.client?.verdict, 'unknown');
    assert.match(node(g, 'client').detail[0], /Deployment shop\/gone is not in the files applied with this Service/);
    assert.ok(!g.nodes.some((n) => n.kind !== 'client' && n.reach));
  });

  it('the trace result offers the clients of the scope, and reads a requested client defensively', () => {
    const r = traceResultFor(a, { namespace: 'shop', name: 'api', client: workload('shop', 'Deployment', 'web') })!;
    assert.equal(r.graph.client?.label, 'From shop/web (Deployment)'.slice(5));
    assert.deepEqual(
      r.clients?.map((c) => c.label),
      ['outside the cluster', 'shop/api', 'shop/api-canary', 'shop/batch', 'shop/web', 'any pod in namespace edge', 'any pod in namespace shop'],
    );
    assert.deepEqual(clientChoices(a)[0].client, { kind: 'external' });
    assert.equal(readTraceClient({ kind: 'workload', namespace: 'shop' }), undefined);
    assert.equal(readTraceClient('external'), undefined);
    assert.deepEqual(readTraceClient({ kind: 'namespace', namespace: 'x', extra: 1 }), { kind: 'namespace', namespace: 'x' });
    // A malformed client is no client: the trace is drawn without one.
    const bad = traceResultFor(a, { namespace: 'shop', name: 'api', client: { kind: 'pod' } as unknown as TraceClient })!;
    assert.equal(bad.graph.client, undefined);
  });
});
