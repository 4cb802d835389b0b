// `kube-netlens dns` and `kube-netlens trace`: JSON shapes, the condition filter, and unknown Services.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { buildCli, runCli, workspaceFrom } from './builtCli';

const shop = workspaceFrom(`# file: api.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
        - name: api
          image: api:1
          ports: [{name: http, containerPort: 8080}]
---
apiVersion: v1
kind: Service
metadata: {name: api, namespace: shop}
spec:
  clusterIP: 10.96.0.20
  selector: {app: api}
  ports: [{name: http, port: 80, targetPort: http}]
# file: db.yaml
apiVersion: v1
kind: Service
metadata: {name: db, namespace: shop}
spec:
  clusterIP: None
  selector: {app: db}
  ports: [{name: pg, port: 5432}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  serviceName: db
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
        - name: pg
          image: postgres:16
          ports: [{name: pg, containerPort: 5432}]
`);

interface JsonRecord {
  name: string;
  type: string;
  answer: string;
  condition: string;
  resource: { kind: string; namespace: string; name: string };
}

function dnsJson(...args: string[]): JsonRecord[] {
  const run = runCli(['dns', '--format', 'json', ...args], { cwd: shop });
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as { records: JsonRecord[] }).records;
}

describe('kube-netlens dns', () => {
  before(() => {
    buildCli();
  });

  it('prints records with name, type, answer, condition and resource', () => {
    const records = dnsJson();
    const a = records.find((r) => r.name === 'api.shop.svc.cluster.local' && r.type === 'A');
    assert.deepEqual(a, {
      name: 'api.shop.svc.cluster.local',
      type: 'A',
      answer: '10.96.0.20',
      condition: 'always',
      resource: { kind: 'Service', namespace: 'shop', name: 'api' },
    });
    const pod = records.find((r) => r.name === 'db-1.db.shop.svc.cluster.local');
    assert.equal(pod?.condition, 'while-ready');
    for (const r of records) assert.deepEqual(Object.keys(r).sort(), ['answer', 'condition', 'name', 'resource', 'type']);
  });

  it('shows only names that resolve unconditionally or while a pod is ready, unless --all', () => {
    const shown = dnsJson();
    assert.ok(shown.length > 0);
    assert.ok(shown.every((r) => r.condition === 'always' || r.condition === 'while-ready'));
    const all = dnsJson('--all');
    const key = (r: JsonRecord) => `${r.name} ${r.type} ${r.answer}`;
    const allKeys = new Set(all.map(key));
    assert.ok(
      shown.every((r) => allKeys.has(key(r))),
      '--all is a superset',
    );
  });

  it('uses the cluster domain given', () => {
    const records = dnsJson('--cluster-domain', 'corp.internal.');
    assert.ok(records.some((r) => r.name === 'api.shop.svc.corp.internal'));
    assert.ok(records.every((r) => !r.name.includes('cluster.local')));
  });

  it('prints a table per namespace', () => {
    const run = runCli(['dns'], { cwd: shop });
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.split('\n');
    assert.equal(lines[0], 'namespace shop');
    assert.match(lines[1], /^ {2}NAME +TYPE +ANSWER +RESOLVES +FROM$/);
    assert.ok(
      lines.some((l) => /^ {2}api\.shop\.svc\.cluster\.local +A +10\.96\.0\.20 +always +Service api$/.test(l)),
      run.stdout,
    );
  });
});

describe('kube-netlens trace', () => {
  before(() => {
    buildCli();
  });

  it('prints the trace graph of a Service as JSON', () => {
    const run = runCli(['trace', 'shop/api', '--format', 'json'], { cwd: shop });
    assert.equal(run.status, 0, run.stderr);
    const graph = JSON.parse(run.stdout);
    assert.deepEqual(
      { kind: graph.service.kind, namespace: graph.service.namespace, name: graph.service.name },
      { kind: 'Service', namespace: 'shop', name: 'api' },
    );
    assert.ok(Array.isArray(graph.nodes) && graph.nodes.length > 0);
    assert.ok(Array.isArray(graph.edges));
    assert.equal(graph.broken, false);
  });

  it('prints Mermaid and a text tree that name the Service', () => {
    const mermaid = runCli(['trace', 'shop/api', '--format', 'mermaid', '.'], { cwd: shop });
    assert.equal(mermaid.status, 0, mermaid.stderr);
    assert.match(mermaid.stdout, /^(flowchart|graph) /m);
    const text = runCli(['trace', 'shop/db'], { cwd: shop });
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /db/);
    assert.ok(text.stdout.trim().split('\n').length > 2);
  });

  it('starts the path of a Service behind a Gateway at the listener and the route rule (gateway semantics §G9)', () => {
    const text = runCli(['trace', 'shop/api', 'examples']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /\nThrough Gateways:\n {2}shop-gateway · http 80\/HTTP shop\.example\.com\n/);
    assert.match(text.stdout, /--> \[shop\.example\.com\] HTTPRoute shop · rule 1\n/);
    assert.match(text.stdout, /--> \[weight 1\] Service api port 8080 \(100%\)\n/);
    const mermaid = runCli(['trace', 'shop/api', '--format', 'mermaid', 'examples']);
    assert.match(mermaid.stdout, /subgraph listener\["Gateway listeners"\]/);
  });

  it('traces a Gateway from its listeners, named gateway/NAMESPACE/NAME or, when no Service has the name, NAMESPACE/NAME', () => {
    const text = runCli(['trace', 'gateway/shop/shop-gateway', 'examples']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^Gateway shop\/shop-gateway\n\nListeners:\n {2}shop-gateway · http 80\/HTTP shop\.example\.com\n/);
    assert.match(text.stdout, /\n {6}--> \[weight 1\] Service api port 8080 \(100%\)\n(?: {10}.*\n)+ {8}--> \[8080\] Service api/);
    const json = runCli(['trace', 'shop/shop-gateway', '--format', 'json', 'examples']);
    assert.equal(json.status, 0, json.stderr);
    const graph = JSON.parse(json.stdout);
    assert.deepEqual([graph.service.kind, graph.service.name], ['Gateway', 'shop-gateway']);
    assert.ok(graph.nodes.some((n: { kind: string }) => n.kind === 'gateway-listener'));
    const mermaid = runCli(['trace', 'Gateway/shop/shop-gateway', '--format', 'mermaid', 'examples']);
    assert.match(mermaid.stdout, /subgraph listener\["Gateway listeners"\]/);
    const typo = runCli(['trace', 'gateway/shop/shop-gatewy', 'examples']);
    assert.equal(typo.status, 2);
    assert.equal(typo.stderr, 'kube-netlens: no Gateway shop/shop-gatewy in the given files; did you mean shop/shop-gateway?\n');
    const service = runCli(['trace', 'service/shop/api', 'examples']);
    assert.match(service.stdout, /^Service shop\/api\n/);
  });

  it('traces a route the same way, as KIND/NAMESPACE/NAME', () => {
    const text = runCli(['trace', 'httproute/shop/shop', 'examples']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^HTTPRoute shop\/shop\n\nThrough Gateways:\n {2}shop-gateway · http 80\/HTTP shop\.example\.com\n/);
    assert.match(text.stdout, /\n {8}--> \[80\] Service frontend \[error\]\n/);
    const wrongKind = runCli(['trace', 'tcproute/shop/shop', 'examples']);
    assert.equal(wrongKind.status, 2);
    assert.equal(wrongKind.stderr, 'kube-netlens: no TCPRoute shop/shop: the given files define no TCPRoute at all\n');
    const unknownKind = runCli(['trace', 'deployment/shop/api', 'examples']);
    assert.equal(unknownKind.status, 2);
    assert.match(unknownKind.stderr, /is not NAMESPACE\/SERVICE .* or KIND\/NAMESPACE\/NAME with KIND one of Service, Gateway, HTTPRoute/);
  });

  it('rejects an unknown Service with the close names', () => {
    const typo = runCli(['trace', 'shop/apii'], { cwd: shop });
    assert.equal(typo.status, 2);
    assert.equal(typo.stdout, '');
    assert.equal(typo.stderr, 'kube-netlens: no Service shop/apii in the given files; did you mean shop/api?\n');
    const wrongNamespace = runCli(['trace', 'default/db'], { cwd: shop });
    assert.equal(wrongNamespace.status, 2);
    assert.match(wrongNamespace.stderr, /did you mean shop\/db\?/);
    const nothingClose = runCli(['trace', 'shop/payments'], { cwd: shop });
    assert.match(nothingClose.stderr, /^kube-netlens: no Service shop\/payments in the given files; namespace shop has shop\/api, shop\/db\n$/);
  });
});
