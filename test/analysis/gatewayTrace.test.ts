// The Gateway entry hop of a trace: listener → route rule → backendRef before the Service, with an invalid
// backend's failure on its rule, beside the Ingress that reaches the same Service; and a Gateway as the start of a trace.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { traceToText } from '../../server/src/features/traceText';
import { analysisOf } from '../helpers/checkDns';
import { checkTraceGolden, gatewayTraceOf, routeTraceOf, traceOf } from '../helpers/checkTrace';
import { listServices } from '../../server/src/features/serviceList';
import { traceResultFor } from '../../server/src/features/traceResult';

const trace = join(__dirname, '..', 'fixtures', 'analysis', 'trace');

describe('trace through a Gateway', () => {
  it('golden graph', () => {
    checkTraceGolden(analysisOf(join(trace, 'gateway.yaml')), ['shop/web'], join(trace, 'gateway.golden.json'));
  });

  it('draws listeners, rules and backendRefs before the Service, and the Ingress beside them', () => {
    const g = traceOf(analysisOf(join(trace, 'gateway.yaml')), 'shop', 'web');
    const listeners = g.nodes.filter((n) => n.kind === 'gateway-listener').map((n) => n.label);
    assert.deepEqual(listeners, ['edge · http 80/HTTP *.example.com', 'edge · https 443/HTTPS *.example.com']);
    const rules = g.nodes.filter((n) => n.kind === 'route-rule');
    assert.deepEqual(
      rules.map((n) => `${n.label} ${n.status}`),
      ['HTTPRoute shop · rule 1 warning', 'HTTPRoute shop · rule 2 error'],
    );
    assert.ok(rules[0].detail.includes('10% of its requests go to invalid backends and get HTTP 500.'));
    assert.ok(rules[1].findings.some((f) => f.code === 'route-all-backends-invalid'));
    const canary = g.nodes.find((n) => n.id === 'gateway:backend:HTTPRoute/shop/shop/0/1');
    assert.equal(canary?.status, 'error');
    assert.ok(canary?.findings.some((f) => f.code === 'route-backend-port'));
    assert.ok(g.edges.some((e) => e.from === canary!.id && e.to === 'service' && e.status === 'broken'));
    assert.ok(g.edges.some((e) => e.from === 'gateway:listener:infra/edge/http' && e.to === rules[0].id));
    assert.ok(
      g.nodes.some((n) => n.kind === 'ingress'),
      'the Ingress entry is drawn too',
    );
    assert.equal(g.broken, false);
  });

  it('a mesh route (a Service parent) is attached to that Service, not reported as accepted by no Gateway', () => {
    const a = analyzeTexts([
      {
        uri: 'file:///mesh.yaml',
        text: [
          'apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: split, namespace: shop}\nspec:\n  parentRefs: [{group: "", kind: Service, name: web, port: 80}]\n  rules: [{backendRefs: [{name: web-v2, port: 80}]}]',
          'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\nspec: {selector: {app: web}, ports: [{port: 80}]}',
          'apiVersion: v1\nkind: Service\nmetadata: {name: web-v2, namespace: shop}\nspec: {selector: {app: web}, ports: [{port: 80}]}',
        ].join('\n---\n'),
      },
    ]);
    const rule = traceOf(a, 'shop', 'web-v2').nodes.find((n) => n.kind === 'route-rule');
    assert.equal(rule?.status, 'ok');
    assert.deepEqual(rule?.detail, [
      'Matches every request of the route.',
      'Sends its requests to 1 backend by weight.',
      'Mesh producer route on Service shop/web: calls to it that match this rule are sent here.',
    ]);
  });

  it('puts no finding of a variant on the trace of another variant', () => {
    const variant = (port: number) =>
      `apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: site, namespace: web}\nspec:\n  rules: [{backendRefs: [{name: site, port: ${port}}]}]\n---\napiVersion: v1\nkind: Service\nmetadata: {name: site, namespace: web}\nspec: {selector: {app: site}, ports: [{port: 80, targetPort: 8080}]}\n`;
    const a = analyzeTexts([
      { uri: 'file:///w/a/site.yaml', text: variant(8080) },
      { uri: 'file:///w/b/site.yaml', text: variant(80) },
    ]);
    const graph = (uri: string) => traceResultFor(a, { namespace: 'web', name: 'site', uri })!.graph;
    const codes = (uri: string) => graph(uri).nodes.flatMap((n) => n.findings.map((f) => f.code));
    assert.ok(codes('file:///w/a/site.yaml').includes('route-backend-port'), 'variant a sends to the targetPort');
    assert.ok(!codes('file:///w/b/site.yaml').includes('route-backend-port'), "variant b's route is right: a's finding is not on it");
  });

  it('prints the same path as text', () => {
    const text = traceToText(traceOf(analysisOf(join(trace, 'gateway.yaml')), 'shop', 'web'));
    assert.match(text, /Through Gateways:\n {2}edge · http 80\/HTTP \*\.example\.com\n/);
    assert.match(text, /--> \[shop\.example\.com\] HTTPRoute shop · rule 1 \[warning\]/);
    assert.match(text, /-x-> \[weight 10\] Service web port 8080 \(10%\) \[error\]/);
  });
});

describe('trace from a Gateway', () => {
  const start = () => analysisOf(join(trace, 'gatewayStart.yaml'));

  it('golden graphs', () => {
    checkTraceGolden(
      start(),
      ['Gateway/edge/front', 'Gateway/edge/dead', 'Gateway/edge/lonely', 'HTTPRoute/edge/store', 'TCPRoute/edge/pg'],
      join(trace, 'gatewayStart.golden.json'),
    );
  });

  it('draws every listener, the routes each accepts, their backendRefs and the Services they lead to', () => {
    const g = gatewayTraceOf(start(), 'edge', 'front');
    assert.deepEqual(g.service, { kind: 'Gateway', namespace: 'edge', name: 'front', source: g.service.source });
    assert.deepEqual(
      g.nodes.filter((n) => n.kind === 'gateway-listener').map((n) => n.label),
      ['front · web 80/HTTP', 'front · secure 443/HTTPS', 'front · db 5432/TCP'],
    );
    const secure = g.nodes.find((n) => n.id === 'gateway:listener:edge/front/secure')!;
    assert.ok(secure.detail.includes('No route in the workspace is attached to this listener.'));
    assert.ok(
      secure.findings.some((f) => f.code === 'gateway-tls-config'),
      'the HTTPS listener without tls carries its finding',
    );
    assert.ok(!g.nodes.find((n) => n.id === 'gateway:listener:edge/front/web')!.findings.length, 'the finding is on its own listener only');
    assert.ok(g.edges.some((e) => e.from === 'gateway:listener:edge/front/web' && e.to === 'gateway:rule:HTTPRoute/edge/store/0'));
    assert.ok(g.edges.some((e) => e.from === 'gateway:listener:edge/front/db' && e.to === 'gateway:rule:TCPRoute/edge/pg/0'));
    assert.ok(
      !g.edges.some((e) => e.from === 'gateway:listener:edge/front/web' && e.to === 'gateway:rule:TCPRoute/edge/pg/0'),
      'each route only under the listener that accepts it',
    );
    // A backendRef to no Service leads nowhere; one to a Service leads to that Service's node.
    const missing = g.nodes.find((n) => n.id === 'gateway:backend:HTTPRoute/edge/store/0/1')!;
    assert.equal(missing.status, 'error');
    assert.ok(missing.findings.some((f) => f.code === 'route-backend-missing'));
    assert.ok(!g.edges.some((e) => e.from === missing.id));
    assert.ok(g.edges.some((e) => e.from === 'gateway:backend:HTTPRoute/edge/store/0/0' && e.to === 'service:edge/store' && e.status === 'ok'));
    assert.equal(g.nodes.find((n) => n.id === 'service:edge/store')?.status, 'ok');
    const pg = g.nodes.find((n) => n.id === 'service:edge/pg')!;
    assert.equal(pg.status, 'error');
    assert.ok(pg.detail.some((d) => /HTTP requests routed here get 503/.test(d)));
    assert.ok(
      pg.findings.some((f) => f.code === 'service-selector-no-match'),
      "the Service hop carries the Service's findings",
    );
    assert.equal(g.broken, false, 'the store Service is reached');
    assert.equal(g.packetPath, undefined);
  });

  it('is broken when no backend of its routes is valid, and says nothing fails when no route is in the workspace', () => {
    assert.equal(gatewayTraceOf(start(), 'edge', 'dead').broken, true);
    const lonely = gatewayTraceOf(start(), 'edge', 'lonely');
    assert.equal(lonely.broken, false);
    assert.deepEqual(
      lonely.nodes.map((n) => n.id),
      ['gateway:listener:edge/lonely/http'],
    );
  });

  it('prints listeners → route rules → backendRefs → Services as text', () => {
    const text = traceToText(gatewayTraceOf(start(), 'edge', 'front'));
    assert.match(text, /^Gateway edge\/front\n\nListeners:\n {2}front · web 80\/HTTP\n/);
    assert.match(text, /\n {6}--> \[weight 3\] Service store port 80 \(75%\)\n(?: {10}.*\n)+ {8}--> \[80\] Service store\n/);
  });

  it('traces either copy of a Gateway two files define alike with the routes that name it', () => {
    const gateway =
      'apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: edge, namespace: web}\nspec:\n  gatewayClassName: example\n  listeners: [{name: http, port: 80, protocol: HTTP}]\n';
    const a = analyzeTexts([
      { uri: 'file:///a/gateway.yaml', text: gateway },
      { uri: 'file:///b/gateway.yaml', text: gateway },
      {
        uri: 'file:///b/route.yaml',
        text: 'apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: site, namespace: web}\nspec:\n  parentRefs: [{name: edge}]\n  rules: [{backendRefs: [{name: site, port: 80}]}]\n---\napiVersion: v1\nkind: Service\nmetadata: {name: site, namespace: web}\nspec: {selector: {app: site}, ports: [{port: 80}]}\n',
      },
    ]);
    const listed = listServices(a).filter((s) => s.kind === 'Gateway');
    assert.deepEqual(
      listed.map((g) => [g.source?.uri, g.listeners]),
      [
        ['file:///a/gateway.yaml', [{ name: 'http 80/HTTP', routes: 1 }]],
        ['file:///b/gateway.yaml', [{ name: 'http 80/HTTP', routes: 1 }]],
      ],
    );
    for (const g of listed) {
      const graph = traceResultFor(a, { kind: 'Gateway', namespace: g.namespace, name: g.name, uri: g.source?.uri })!.graph;
      assert.ok(
        graph.edges.some((e) => e.from === 'gateway:listener:web/edge/http' && e.to === 'gateway:rule:HTTPRoute/web/site/0'),
        g.source?.uri,
      );
    }
  });

  it('traces a route from the listeners that accept it, through its rules and backendRefs to their Services', () => {
    const g = routeTraceOf(start(), 'TCPRoute', 'edge', 'pg');
    assert.deepEqual(g.service, { kind: 'TCPRoute', namespace: 'edge', name: 'pg', source: g.service.source });
    assert.deepEqual(
      g.nodes.map((n) => n.id),
      ['gateway:rule:TCPRoute/edge/pg/0', 'gateway:listener:edge/front/db', 'gateway:backend:TCPRoute/edge/pg/0/0', 'service:edge/pg'],
    );
    assert.equal(g.broken, true, 'its one Service has no pods');
    assert.match(traceToText(g), /^TCPRoute edge\/pg: no request can reach a pod\n\nThrough Gateways:\n {2}front · db 5432\/TCP\n/);
    assert.equal(traceResultFor(start(), { kind: 'HTTPRoute', namespace: 'edge', name: 'store' })?.graph.service.kind, 'HTTPRoute');
    assert.equal(traceResultFor(start(), { kind: 'TCPRoute', namespace: 'edge', name: 'store' }), undefined, 'an HTTPRoute is not a TCPRoute');
  });

  it('is offered as a starting point, with its listeners and the routes each accepts', () => {
    const gateways = listServices(start()).filter((s) => s.kind === 'Gateway');
    assert.deepEqual(
      gateways.map((s) => [s.name, s.type, s.listeners]),
      [
        ['dead', 'Gateway', [{ name: 'http 8080/HTTP', routes: 1 }]],
        [
          'front',
          'Gateway',
          [
            { name: 'web 80/HTTP', routes: 1 },
            { name: 'secure 443/HTTPS', routes: 0 },
            { name: 'db 5432/TCP', routes: 1 },
          ],
        ],
        ['lonely', 'Gateway', [{ name: 'http 80/HTTP', routes: 0 }]],
      ],
    );
    const result = traceResultFor(start(), { kind: 'Gateway', namespace: 'edge', name: 'front' });
    assert.equal(result?.graph.service.kind, 'Gateway');
    assert.equal(traceResultFor(start(), { kind: 'Gateway', namespace: 'edge', name: 'store' }), undefined, 'a Service is not a Gateway');
  });
});
