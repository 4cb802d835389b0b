// The panel host's pure parts: the HTML shell and its CSP, the message allow-list, command arguments, the Service
// quick pick; and the fixture traces themselves, checked against the protocol's vocabulary.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { checkSvg } from '../../client/src/svgCheck';
import { freshNonce, renderTraceHtml } from '../../client/src/traceHtml';
import { maxSvgLength, readTraceIntent, readTraceTarget } from '../../client/src/traceMessages';
import { servicePicks } from '../../client/src/traceServicePicks';
import type { ViewInbound, ViewOutbound } from '../../client/webview/messages';
import { readTrace } from '../../client/webview/readTrace';
import { columnOrder } from '../../client/webview/vocabulary';
import { loadFixture } from './tracePage';

describe('trace panel HTML', () => {
  const html = renderTraceHtml({
    cspSource: 'https://res.vscode-cdn.test',
    scriptUri: 'https://res.vscode-cdn.test/dist/webview/trace.js',
    styleUri: 'https://res.vscode-cdn.test/dist/webview/trace.css',
    nonce: 'abc123',
  });

  it('starts its Content-Security-Policy from default-src none and allows scripts only by nonce', () => {
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    assert.equal(
      csp,
      "default-src 'none'; img-src https://res.vscode-cdn.test data:; style-src https://res.vscode-cdn.test; script-src 'nonce-abc123'; font-src https://res.vscode-cdn.test; require-trusted-types-for 'script'; trusted-types 'none'",
    );
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    assert.deepEqual(scripts, ['<script nonce="abc123" src="https://res.vscode-cdn.test/dist/webview/trace.js">']);
    assert.ok(!/\son[a-z]+=/i.test(html), 'no inline event handlers');
    assert.ok(!/https?:\/\/(?!res\.vscode-cdn\.test)/.test(html), 'no remote resources');
  });

  it('makes a fresh 128-bit nonce each time', () => {
    const a = freshNonce();
    assert.match(a, /^[0-9a-f]{32}$/);
    assert.notEqual(a, freshNonce());
  });
});

describe('trace panel message allow-list', () => {
  const graph = loadFixture('healthy-deployment').graph;

  it('accepts the known intents', () => {
    assert.deepEqual(readTraceIntent({ type: 'ready' }, undefined), { type: 'ready' });
    assert.deepEqual(readTraceIntent({ type: 'copyMermaid' }, graph), { type: 'copyMermaid' });
    assert.deepEqual(readTraceIntent({ type: 'saveSvg', svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>' }, graph), {
      type: 'saveSvg',
      svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
    });
    const reveal = readTraceIntent({ type: 'reveal', nodeId: 'endpoints:Deployment/api' }, graph);
    assert.equal(reveal?.type, 'reveal');
    assert.deepEqual(reveal?.type === 'reveal' ? reveal.node.source : undefined, graph.nodes.find((n) => n.id === 'endpoints:Deployment/api')?.source);
  });

  it('drops reveals of nodes that are not in the graph shown, or have no source', () => {
    assert.equal(readTraceIntent({ type: 'reveal', nodeId: 'no-such-node' }, graph), undefined);
    assert.equal(readTraceIntent({ type: 'reveal', nodeId: 'proxy' }, graph), undefined, 'kube-proxy has no YAML of its own');
    assert.equal(readTraceIntent({ type: 'reveal', nodeId: 'service' }, undefined), undefined);
    assert.equal(readTraceIntent({ type: 'reveal', nodeId: 7 }, graph), undefined);
  });

  it('drops anything else: unknown types, wrong shapes, oversized or non-SVG exports', () => {
    for (const m of [
      null,
      'ready',
      [],
      {},
      { type: 'openFile', path: '/etc/passwd' },
      { type: 'eval', code: '1' },
      { type: 'saveSvg', svg: 42 },
      { type: 'saveSvg', svg: '<html><script>1</script></html>' },
      { type: 'saveSvg', svg: `<svg>${'x'.repeat(maxSvgLength)}</svg>` },
    ]) {
      assert.equal(readTraceIntent(m, graph), undefined, JSON.stringify(m)?.slice(0, 60));
    }
    assert.equal(readTraceIntent({ type: 'copyMermaid' }, undefined), undefined, 'nothing to copy before a trace arrived');
  });

  it('reads the {namespace, name} argument of the command and of restored panels', () => {
    assert.deepEqual(readTraceTarget({ namespace: 'shop', name: 'api' }), { namespace: 'shop', name: 'api' });
    // The client a trace was drawn for comes back from the saved state; anything else in its place is dropped.
    assert.deepEqual(
      readTraceTarget({ namespace: 'shop', name: 'api', client: { kind: 'workload', namespace: 'shop', workloadKind: 'Job', name: 'batch', extra: '<b>' } }),
      { namespace: 'shop', name: 'api', client: { kind: 'workload', namespace: 'shop', workloadKind: 'Job', name: 'batch' } },
    );
    assert.deepEqual(readTraceTarget({ namespace: 'shop', name: 'api', client: { kind: 'namespace', namespace: 'edge' } }), {
      namespace: 'shop',
      name: 'api',
      client: { kind: 'namespace', namespace: 'edge' },
    });
    assert.deepEqual(readTraceTarget({ namespace: 'shop', name: 'api', client: { kind: 'pod', name: 'x' } }), { namespace: 'shop', name: 'api' });
    assert.deepEqual(readTraceTarget({ kind: 'Gateway', namespace: 'shop', name: 'gw', client: { kind: 'external' } }), {
      kind: 'Gateway',
      namespace: 'shop',
      name: 'gw',
    });
    assert.equal(readTraceTarget(undefined), undefined);
    assert.equal(readTraceTarget({ namespace: 'shop' }), undefined);
    assert.equal(readTraceTarget({ namespace: 'shop', name: '' }), undefined);
    assert.equal(readTraceTarget('shop/api'), undefined);
  });
});

describe('SVG check before saving', () => {
  it('accepts a drawing and refuses malformed XML, scripts, handlers, outside links and forbidden characters', () => {
    const ok =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10"><defs><marker id="m"><path d="M0 0L1 1"/></marker></defs><g><rect width="10" height="10" fill="#fff"/><path d="M0 0" marker-end="url(#m)"/><text x="1" y="2">a &amp; b &lt;c&gt; &#x41;<title>t</title></text></g></svg>';
    assert.equal(checkSvg(ok), undefined);
    const refused: [string, RegExp][] = [
      ['<svg><text>a\u0000b</text></svg>', /character XML does not allow \(U\+0000\)/],
      ['<svg><text>\ud800</text></svg>', /U\+D800/],
      ['<svg><g></svg>', /does not match/],
      ['<svg><g>', /never closed/],
      ['<svg><script>alert(1)</script></svg>', /<script> is not part of a drawing/],
      ['<svg><foreignObject/></svg>', /not part of a drawing/],
      ['<svg onload="alert(1)"></svg>', /event-handler/],
      ['<svg><g ONclick="x"/></svg>', /event-handler/],
      ['<svg><a href="https://example.test"/></svg>', /<a> is not part/],
      ['<svg><rect xlink:href="https://example.test/x.png"/></svg>', /link/],
      ['<svg><rect style="fill:url(https://example.test/t.png)"/></svg>', /outside the drawing/],
      ['<svg><text>a & b</text></svg>', /entity/],
      ['<svg><rect width=10/></svg>', /quoted/],
      ['<!DOCTYPE svg [<!ENTITY x "y">]><svg/>', /DOCTYPE/],
      ['<html><svg/></html>', /not part of a drawing/],
      ['<svg/><svg/>', /single <svg>/],
      ['text<svg/>', /outside/],
      ['<svg><rect a="1" a="2"/></svg>', /repeated/],
    ];
    for (const [svg, why] of refused) assert.match(checkSvg(svg) ?? 'accepted', why, svg);
  });
});

describe('trace Service quick pick', () => {
  it('groups Services by namespace with separators and shows type, endpoint count and the Helm release', () => {
    const picks = servicePicks([
      { namespace: 'shop', name: 'orders', type: 'ClusterIP', endpoints: 0 },
      { namespace: 'data', name: 'db', type: 'ClusterIP (headless)', endpoints: 3 },
      { namespace: 'shop', name: 'api', type: 'NodePort', endpoints: 1 },
      { namespace: 'shop', name: 'payments', type: 'ExternalName' },
      { namespace: 'shop', name: 'web', type: 'ClusterIP', endpoints: 2, release: 'release shop, values.yaml' },
    ]);
    assert.deepEqual(
      picks.map((p) => ('separator' in p ? `--${p.separator}` : `${p.label}: ${p.description}`)),
      [
        '--data',
        'db: ClusterIP (headless) · 3 endpoints',
        '--shop',
        'api: NodePort · 1 endpoint',
        'orders: ClusterIP · no endpoints',
        'payments: ExternalName',
        'web: ClusterIP · 2 endpoints · release shop, values.yaml',
      ],
    );
  });
});

describe('trace Service quick pick: the Service at the cursor, and same-named Services', () => {
  const at = (uri: string, start: number) => ({ uri, start, end: start + 3, line: 0, character: 0 });
  const services = [
    { namespace: 'shop', name: 'api', type: 'ClusterIP', endpoints: 3, source: at('file:///w/overlays/prod/api.yaml', 10) },
    { namespace: 'shop', name: 'api', type: 'ClusterIP', endpoints: 1, source: at('file:///w/overlays/dev/api.yaml', 10) },
    { namespace: 'shop', name: 'web', type: 'ClusterIP', endpoints: 2, source: at('file:///w/web.yaml', 4) },
  ];
  const folderOf = (s: { source?: { uri: string } }) => s.source?.uri.replace('file:///w/', '').replace(/\/[^/]*$/, '');

  it('tells Services that share a namespace and name apart by folder, and marks the one under the cursor', () => {
    const picks = servicePicks(services, { folderOf, current: services[1] });
    assert.deepEqual(
      picks.map((p) => ('separator' in p ? `--${p.separator}` : `${p.label}: ${p.description}${p.current ? ' [start]' : ''}`)),
      [
        '--shop',
        'api: ClusterIP · 3 endpoints · overlays/prod',
        'api: ClusterIP · 1 endpoint · overlays/dev · at the cursor [start]',
        'web: ClusterIP · 2 endpoints',
      ],
    );
  });

  it('lists a Service of a Kustomize base once per build root, by its root, all of them at the cursor in the base', () => {
    const base = at('file:///w/base/web.yaml', 40);
    const builds = ['overlays/prod', 'overlays/staging'].map((root) => ({
      namespace: 'shop',
      name: 'web',
      type: 'ClusterIP',
      endpoints: 2,
      unit: `build ${root}`,
      source: at(`file:///w/${root}/kustomization.yaml#rendered`, 40),
      definedAt: base,
    }));
    const picks = servicePicks(builds, { folderOf, current: builds[0] });
    assert.deepEqual(
      picks.map((p) => ('separator' in p ? `--${p.separator}` : `${p.label}: ${p.description}${p.current ? ' [start]' : ''}`)),
      [
        '--shop',
        'web: ClusterIP · 2 endpoints · build overlays/prod · at the cursor [start]',
        'web: ClusterIP · 2 endpoints · build overlays/staging · at the cursor [start]',
      ],
    );
  });

  it('shows the unit the project model names instead of the folder', () => {
    const picks = servicePicks([{ ...services[2], unit: 'overlay prod' }], { folderOf });
    assert.deepEqual(
      picks.map((p) => ('separator' in p ? p.separator : p.description)),
      ['shop', 'ClusterIP · 2 endpoints · overlay prod'],
    );
  });
});

describe('trace Service quick pick: Gateway routes', () => {
  it('offers each route once as a starting point of its own, naming the Services it sends to', () => {
    const shopRoute = { kind: 'HTTPRoute', namespace: 'shop', name: 'shop', listeners: ['shop-gateway/http'] };
    const api = { namespace: 'shop', name: 'api', type: 'ClusterIP', endpoints: 3, routes: [shopRoute] };
    const web = { namespace: 'shop', name: 'web', type: 'ClusterIP', endpoints: 2, routes: [shopRoute] };
    const picks = servicePicks([
      api,
      web,
      { namespace: 'shop', name: 'db', type: 'ClusterIP', endpoints: 1, routes: [{ kind: 'TCPRoute', namespace: 'ops', name: 'db', listeners: [] }] },
    ]);
    assert.deepEqual(
      picks.map((p) => ('separator' in p ? `--${p.separator}` : `${p.label}: ${p.description}`)),
      [
        '--shop',
        'api: ClusterIP · 3 endpoints',
        'db: ClusterIP · 1 endpoint',
        'web: ClusterIP · 2 endpoints',
        '--Gateway routes',
        'HTTPRoute shop/shop → api, web: via shop-gateway/http',
        'TCPRoute ops/db → db: accepted by no Gateway',
      ],
    );
    const first = picks.find((p) => 'label' in p && p.label.startsWith('HTTPRoute'));
    assert.deepEqual(
      first && 'service' in first && first.service,
      { kind: 'HTTPRoute', namespace: 'shop', name: 'shop', type: 'HTTPRoute' },
      'the pick traces the route itself',
    );
  });
});

describe('trace Service quick pick: Gateways', () => {
  it('offers each Gateway as a starting point, apart from the Services, with its listeners', () => {
    const edge = {
      kind: 'Gateway' as const,
      namespace: 'shop',
      name: 'shop-gateway',
      type: 'Gateway',
      listeners: [
        { name: 'http 80/HTTP', routes: 1 },
        { name: 'https 443/HTTPS', routes: 0 },
      ],
    };
    const api = { namespace: 'shop', name: 'api', type: 'ClusterIP', endpoints: 3 };
    const picks = servicePicks([edge, api, { kind: 'Gateway', namespace: 'ops', name: 'bare', type: 'Gateway', listeners: [] }]);
    assert.deepEqual(
      picks.map((p) => ('separator' in p ? `--${p.separator}` : `${p.label}: ${p.description}`)),
      [
        '--shop',
        'api: ClusterIP · 3 endpoints',
        '--Gateways',
        'Gateway shop/shop-gateway: http 80/HTTP: 1 route · https 443/HTTPS: 0 routes',
        'Gateway ops/bare: no listeners',
      ],
    );
    const pick = picks.find((p) => 'label' in p && p.label === 'Gateway shop/shop-gateway');
    assert.ok(pick && 'service' in pick && pick.service === edge);
  });

  it('tells apart same-named Gateways by their folder', () => {
    const at = (uri: string) => ({ uri, start: 0, end: 4, line: 0, character: 0 });
    const one = { kind: 'Gateway' as const, namespace: 'web', name: 'edge', type: 'Gateway', listeners: [], source: at('file:///w/a/gateway.yaml') };
    const two = { ...one, source: at('file:///w/b/gateway.yaml') };
    const picks = servicePicks([one, two], { folderOf: (s) => s.source?.uri.split('/')[4] });
    assert.deepEqual(
      picks.map((p) => ('separator' in p ? `--${p.separator}` : `${p.label}: ${p.description}`)),
      ['--Gateways', 'Gateway web/edge: no listeners · a', 'Gateway web/edge: no listeners · b'],
    );
  });

  it('reads a Gateway as a trace target from a command argument', () => {
    assert.deepEqual(readTraceTarget({ kind: 'Gateway', namespace: 'shop', name: 'shop-gateway' }), {
      kind: 'Gateway',
      namespace: 'shop',
      name: 'shop-gateway',
    });
    assert.deepEqual(readTraceTarget({ kind: 'Deployment', namespace: 'shop', name: 'api' }), { namespace: 'shop', name: 'api' });
  });
});

describe('trace Service quick pick: Istio Gateways and VirtualServices', () => {
  const at = (uri: string, start: number) => ({ uri, start, end: start + 4, line: 0, character: 0 });
  const gateway = {
    kind: 'IstioGateway' as const,
    namespace: 'shop',
    name: 'public',
    type: 'Gateway',
    listeners: [
      { name: 'http 8080/HTTP', routes: 1 },
      { name: 'https 8443/HTTPS', routes: 0 },
    ],
    source: at('file:///w/gateway.yaml', 10),
  };
  const shop = {
    kind: 'VirtualService' as const,
    namespace: 'shop',
    name: 'shop',
    type: 'VirtualService',
    hosts: ['shop.example.com'],
    gateways: ['public'],
    servedBy: ['shop/public'],
    destinations: ['api', 'web.shop'],
    source: at('file:///w/gateway.yaml', 300),
  };
  const api = { namespace: 'shop', name: 'api', type: 'ClusterIP', endpoints: 2 };

  it('offers each Istio Gateway with its servers, then each VirtualService with its hosts, Gateways and destinations', () => {
    const mesh = {
      kind: 'VirtualService' as const,
      namespace: 'shop',
      name: 'reviews',
      type: 'VirtualService',
      hosts: ['reviews', 'a', 'b', 'c'],
      gateways: ['mesh'],
      servedBy: [],
      destinations: ['reviews'],
    };
    const lost = {
      kind: 'VirtualService' as const,
      namespace: 'ops',
      name: 'admin',
      type: 'VirtualService',
      hosts: ['admin.example.com'],
      gateways: ['istio-system/ingress'],
      servedBy: [],
      destinations: [],
    };
    const picks = servicePicks([api, gateway, shop, mesh, lost, { ...gateway, name: 'bare', listeners: [], source: undefined }]);
    assert.deepEqual(
      picks.map((p) => ('separator' in p ? `--${p.separator}` : `${p.label}: ${p.description}`)),
      [
        '--shop',
        'api: ClusterIP · 2 endpoints',
        '--Istio Gateways',
        'Istio Gateway shop/public: http 8080/HTTP: 1 VirtualService · https 8443/HTTPS: 0 VirtualServices',
        'Istio Gateway shop/bare: no servers',
        '--VirtualServices',
        'VirtualService shop/shop → api, web.shop: shop.example.com · via shop/public',
        'VirtualService shop/reviews → reviews: reviews, a, b +1 · via mesh',
        'VirtualService ops/admin: admin.example.com · served by no Istio Gateway of the workspace',
      ],
    );
    const pick = picks.find((p) => 'label' in p && p.label.startsWith('Istio Gateway shop/public'));
    assert.ok(pick && 'service' in pick && pick.service === gateway, 'the pick traces the Istio Gateway itself');
  });

  it('starts on the Istio Gateway or VirtualService under the cursor, never on a same-named object of another kind', () => {
    const service = { ...api, name: 'public', source: at('file:///w/gateway.yaml', 10) };
    const picks = servicePicks([service, gateway, shop], { current: gateway });
    assert.deepEqual(
      picks.filter((p) => 'current' in p && p.current).map((p) => 'label' in p && p.label),
      ['Istio Gateway shop/public'],
    );
    const onVs = servicePicks([service, gateway, shop], { current: shop });
    assert.deepEqual(
      onVs.filter((p) => 'current' in p && p.current).map((p) => 'description' in p && p.description),
      ['shop.example.com · via shop/public · at the cursor'],
    );
  });

  it('tells same-named VirtualServices of two variants apart by their unit', () => {
    const picks = servicePicks([
      { ...shop, unit: 'variant prod' },
      { ...shop, unit: 'variant dev' },
    ]);
    assert.deepEqual(
      picks.filter((p) => 'description' in p).map((p) => 'description' in p && p.description),
      ['shop.example.com · via shop/public · variant prod', 'shop.example.com · via shop/public · variant dev'],
    );
  });

  it('reads every kind a trace starts from as a command argument or saved state, with its file; a client only for a Service', () => {
    assert.deepEqual(readTraceTarget({ kind: 'IstioGateway', namespace: 'shop', name: 'public', uri: 'file:///w/gateway.yaml' }), {
      kind: 'IstioGateway',
      namespace: 'shop',
      name: 'public',
      uri: 'file:///w/gateway.yaml',
    });
    assert.deepEqual(readTraceTarget({ kind: 'VirtualService', namespace: 'shop', name: 'shop', client: { kind: 'external' } }), {
      kind: 'VirtualService',
      namespace: 'shop',
      name: 'shop',
    });
    assert.deepEqual(readTraceTarget({ kind: 'HTTPRoute', namespace: 'shop', name: 'store' }), { kind: 'HTTPRoute', namespace: 'shop', name: 'store' });
    assert.deepEqual(readTraceTarget({ kind: 'Service', namespace: 'shop', name: 'api', client: { kind: 'external' } }), {
      namespace: 'shop',
      name: 'api',
      client: { kind: 'external' },
    });
    assert.deepEqual(readTraceTarget({ kind: 'istiogateway', namespace: 'shop', name: 'public' }), { namespace: 'shop', name: 'public' });
  });
});

describe('trace fixtures', () => {
  const names = readdirSync('test/fixtures/trace')
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''));

  it("cover the six required Services and the demo's two", () => {
    assert.deepEqual(names.sort(), [
      'client-blocked',
      'examples-api',
      'examples-frontend',
      'external-name',
      'healthy-deployment',
      'large-200-endpoints',
      'no-endpoints',
      'nodeport-ingress',
      'statefulset-broken-servicename',
    ]);
  });

  for (const name of names) {
    it(`${name} matches the protocol: the view keeps every node, edge and hop`, () => {
      const fixture = loadFixture(name);
      const read = readTrace(fixture);
      assert.ok(read);
      assert.equal(read.graph.nodes.length, fixture.graph.nodes.length);
      assert.equal(read.graph.edges.length, fixture.graph.edges.length);
      assert.equal(read.graph.packetPath?.crossNode.length, fixture.graph.packetPath?.crossNode.length);
      // A trace for a client keeps the client and every hop's verdict.
      assert.deepEqual(read.graph.client, fixture.graph.client);
      assert.deepEqual(
        read.graph.nodes.map((n) => n.reach),
        fixture.graph.nodes.map((n) => n.reach),
      );
      for (const n of fixture.graph.nodes) assert.ok(columnOrder.includes(n.column));
      assert.ok(fixture.mermaid.startsWith('flowchart LR'));
    });
  }

  it('host and view agree on the message shapes', () => {
    // Compile-time: each message the host posts is one the view accepts, and the reverse for intents.
    const toView: ViewInbound[] = [{ type: 'loading' }, { type: 'error', message: 'x' }, { type: 'trace', result: loadFixture('external-name') }];
    const fromView: ViewOutbound[] = [
      { type: 'ready' },
      { type: 'copyMermaid' },
      { type: 'saveSvg', svg: '<svg></svg>' },
      { type: 'reveal', nodeId: 'service' },
      { type: 'pickClient' },
    ];
    const graph = loadFixture('external-name').graph;
    assert.deepEqual(
      fromView.map((m) => readTraceIntent(m, graph)?.type),
      ['ready', 'copyMermaid', 'saveSvg', 'reveal', 'pickClient'],
    );
    assert.equal(readTraceIntent({ type: 'pickClient' }, undefined), undefined, 'no client to pick before a trace is shown');
    const trace = toView.find((m) => m.type === 'trace');
    assert.ok(trace && readTrace(trace.result));
  });
});
