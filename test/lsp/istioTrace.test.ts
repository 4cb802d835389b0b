// Istio objects as starts of the trace, through the bundled server as the editor drives it: listServices offers the
// Istio Gateway (its servers, the VirtualServices each applies) and the VirtualService (hosts, the Gateway serving it,
// destinations); a trace request for either draws the same graph as `kube-netlens trace istio-gateway/…` and
// `trace virtualservice/…`; a Trace lens above each runs the trace command for it.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { ServiceSummary, TraceGraph, TraceResult } from '../../server/src/protocol';
import { canonicalUri } from '../../server/src/workspace/uri';
import { runCli } from '../cli/builtCli';
import { startServer, type TestClient } from './lspClient';

const workspace = join(__dirname, '..', 'fixtures', 'e2e', 'istio');

/** A graph without the places of its boxes (the CLI names files by path, the server by URI). */
function shape(g: TraceGraph): unknown {
  return {
    service: { kind: g.service.kind, namespace: g.service.namespace, name: g.service.name },
    nodes: g.nodes.map(({ source: _source, ...n }) => n),
    edges: g.edges,
    broken: g.broken,
  };
}

describe('language server: Istio Gateways and VirtualServices as trace starts', () => {
  let client: TestClient;
  let listed: ServiceSummary[] = [];
  before(async () => {
    client = startServer();
    const folder = pathToFileURL(workspace).href;
    await client.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: folder,
      workspaceFolders: [{ uri: folder, name: 'ws' }],
      capabilities: {},
    });
    await client.connection.sendNotification('initialized', {});
    // The server answers once it has indexed the workspace; until then the list may be short.
    for (let i = 0; i < 100 && listed.length < 7; i++) {
      listed = await client.connection.sendRequest<ServiceSummary[]>('kubeNetlens/listServices');
      if (listed.length < 7) await new Promise((r) => setTimeout(r, 100));
    }
  });
  after(() => {
    if (client.process.exitCode === null) client.process.kill();
  });

  it('lists the Istio Gateway with its servers and the VirtualService with its hosts, Gateway and destinations', () => {
    assert.deepEqual(
      listed.map((s) => `${s.kind ?? 'Service'} ${s.namespace}/${s.name}`),
      [
        'Service istio-system/istio-ingressgateway',
        'Service shop/api',
        'Service shop/web',
        'Gateway shop/edge',
        'IstioGateway shop/public',
        'VirtualService shop/shop',
      ],
    );
    const gateway = listed.find((s) => s.kind === 'IstioGateway')!;
    assert.deepEqual(gateway.listeners, [
      { name: 'http 8080/HTTP', routes: 1 },
      { name: 'https 8443/HTTPS', routes: 0 },
    ]);
    assert.equal(gateway.source?.uri, canonicalUri(pathToFileURL(join(workspace, 'gateway.yaml')).href));
    assert.equal(gateway.source?.line, 3, 'the picker knows the line of its name (1-based)');
    const vs = listed.find((s) => s.kind === 'VirtualService')!;
    assert.deepEqual([vs.hosts, vs.gateways, vs.servedBy, vs.destinations], [['shop.example.com'], ['public'], ['shop/public'], ['api', 'web.shop']]);
  });

  for (const [kind, ref] of [
    ['IstioGateway', 'istio-gateway/shop/public'],
    ['VirtualService', 'virtualservice/shop/shop'],
  ] as const) {
    it(`traces ${ref} as the CLI does`, async () => {
      const name = ref.split('/')[2];
      const trace = await client.connection.sendRequest<TraceResult>('kubeNetlens/trace', { kind, namespace: 'shop', name });
      const cli = runCli(['trace', ref, '--format', 'json', workspace]);
      assert.equal(cli.status, 0, cli.stderr);
      assert.deepEqual(shape(trace.graph), shape(JSON.parse(cli.stdout) as TraceGraph));
      assert.equal(trace.text, runCli(['trace', ref, workspace]).stdout, 'the same text as the CLI prints');
      // the broken hop carries its finding, and the boxes open the YAML
      const broken = trace.graph.nodes.find((n) => n.status === 'error' && n.findings.some((f) => f.code === 'istio-host-unresolved'));
      assert.ok(broken, JSON.stringify(trace.graph.nodes.map((n) => [n.label, n.status])));
      assert.equal(broken.source?.uri, canonicalUri(pathToFileURL(join(workspace, 'gateway.yaml')).href));
    });
  }

  it('answers no trace for a Service name asked as an Istio Gateway', async () => {
    assert.equal(await client.connection.sendRequest('kubeNetlens/trace', { kind: 'IstioGateway', namespace: 'shop', name: 'api' }), null);
  });

  it('puts a summary and a Trace lens above the Istio Gateway and the VirtualService', async () => {
    const lenses = await client.connection.sendRequest<
      { range: { start: { line: number } }; command: { title: string; command: string; arguments?: unknown[] } }[]
    >('textDocument/codeLens', { textDocument: { uri: pathToFileURL(join(workspace, 'gateway.yaml')).href } });
    assert.deepEqual(
      lenses.map((l) => [l.range.start.line, l.command.title]),
      [
        [0, 'http 8080/HTTP: 1 VirtualService · https 8443/HTTPS: 0 VirtualServices'],
        [0, 'Trace'],
        [25, 'served by public · 2 destinations'],
        [25, 'Trace'],
      ],
    );
    assert.deepEqual(lenses[1].command, {
      title: 'Trace',
      command: 'kubeNetlens.traceService',
      arguments: [{ kind: 'IstioGateway', namespace: 'shop', name: 'public' }],
    });
    assert.deepEqual(lenses[3].command.arguments, [{ kind: 'VirtualService', namespace: 'shop', name: 'shop' }]);
  });
});
