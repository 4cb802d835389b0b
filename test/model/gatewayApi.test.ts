// Reading Gateway API objects: every version of each kind reads the same way, with the CRD defaults applied, and
// objects of the same kinds in other groups are not taken for Gateway API objects.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { isGateway, isReferenceGrant, isRoute, type Gateway, type GatewayRoute, type ReferenceGrant } from '../../server/src/model/gatewayApi';
import { hostnamesIntersect, selectorOnNamespace } from '../../server/src/analysis/gatewayRoutes';
import { readLabelSelector } from '../../server/src/model/resources';

function read(text: string) {
  return analyzeTexts([{ uri: 'file:///g.yaml', text }]).cluster.resources;
}

const route = (apiVersion: string, kind: string) => `apiVersion: ${apiVersion}
kind: ${kind}
metadata: {name: r, namespace: shop}
spec:
  parentRefs: [{name: edge}, {group: "", kind: Service, name: web, port: 80}]
  hostnames: [Shop.Example.com]
  rules:
    - backendRefs:
        - {name: web, port: 80}
        - {name: api, namespace: backend, port: 8080, weight: 3}
`;

describe('Gateway API model', () => {
  for (const [apiVersion, kind] of [
    ['gateway.networking.k8s.io/v1', 'HTTPRoute'],
    ['gateway.networking.k8s.io/v1beta1', 'HTTPRoute'],
    ['gateway.networking.k8s.io/v1', 'GRPCRoute'],
    ['gateway.networking.k8s.io/v1alpha2', 'GRPCRoute'],
    ['gateway.networking.k8s.io/v1alpha2', 'TLSRoute'],
    ['gateway.networking.k8s.io/v1alpha3', 'TLSRoute'],
    ['gateway.networking.k8s.io/v1', 'TLSRoute'],
    ['gateway.networking.k8s.io/v1alpha2', 'TCPRoute'],
    ['gateway.networking.k8s.io/v1alpha2', 'UDPRoute'],
  ]) {
    it(`${kind} ${apiVersion}: parentRef and backendRef defaults`, () => {
      const [r] = read(route(apiVersion, kind));
      assert.ok(isRoute(r));
      const rt = r as GatewayRoute;
      assert.deepEqual(
        rt.parentRefs.map((p) => [p.group, p.kind, p.name, p.namespace, p.port]),
        [
          ['gateway.networking.k8s.io', 'Gateway', 'edge', undefined, undefined],
          ['', 'Service', 'web', undefined, 80],
        ],
      );
      assert.deepEqual(
        rt.rules[0].backendRefs.map((b) => [b.group, b.kind, b.name, b.namespace, b.port, b.weight]),
        [
          ['', 'Service', 'web', undefined, 80, 1],
          ['', 'Service', 'api', 'backend', 8080, 3],
        ],
      );
      // TCPRoute and UDPRoute have no hostnames (gateway semantics §G4); the others read them in lower case.
      assert.deepEqual(
        rt.hostnames.map((h) => h.value),
        kind === 'TCPRoute' || kind === 'UDPRoute' ? [] : ['shop.example.com'],
      );
    });
  }

  it('Gateway listeners: allowedRoutes defaults, kinds, TLS mode default', () => {
    for (const v of ['v1', 'v1beta1']) {
      const [g] = read(`apiVersion: gateway.networking.k8s.io/${v}
kind: Gateway
metadata: {name: edge}
spec:
  gatewayClassName: example
  listeners:
    - {name: http, port: 80, protocol: HTTP}
    - name: https
      port: 443
      protocol: HTTPS
      hostname: "*.Example.com"
      tls: {certificateRefs: [{name: cert}]}
      allowedRoutes:
        namespaces: {from: Selector, selector: {matchLabels: {team: a}}}
        kinds: [{kind: HTTPRoute}, {group: example.com, kind: Custom}]
`);
      assert.ok(isGateway(g));
      const [http, https] = (g as Gateway).listeners;
      assert.equal(http.from, 'Same');
      assert.deepEqual(http.kinds, []);
      assert.equal(https.from, 'Selector');
      assert.deepEqual(
        https.kinds.map((k) => `${k.group}/${k.kind}`),
        ['gateway.networking.k8s.io/HTTPRoute', 'example.com/Custom'],
      );
      assert.equal(https.hostname, '*.example.com');
      assert.equal(https.tls?.mode, 'Terminate');
      assert.deepEqual(
        https.tls?.certificateRefs.map((c) => [c.group, c.kind, c.name]),
        [['', 'Secret', 'cert']],
      );
    }
  });

  it('ReferenceGrant in v1, v1beta1 and v1alpha2; to without a name means any name', () => {
    for (const v of ['v1', 'v1beta1', 'v1alpha2']) {
      const [g] = read(`apiVersion: gateway.networking.k8s.io/${v}
kind: ReferenceGrant
metadata: {name: g, namespace: backend}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: shop}]
  to: [{group: "", kind: Service}]
`);
      assert.ok(isReferenceGrant(g));
      assert.deepEqual((g as ReferenceGrant).to, [{ group: '', kind: 'Service', name: undefined, span: (g as ReferenceGrant).to[0].span }]);
    }
  });

  it('a Gateway of another group (Istio) is not a Gateway API Gateway', () => {
    const [g] = read(
      'apiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata: {name: edge}\nspec:\n  servers: [{port: {number: 80, name: http, protocol: HTTP}, hosts: ["*"]}]\n',
    );
    assert.equal(g.kind, 'Gateway');
    assert.ok(!isGateway(g));
  });

  it('fields of the wrong type read as absent, never throw', () => {
    const [r] = read(
      'apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r}\nspec:\n  parentRefs: edge\n  hostnames: {a: b}\n  rules: [{backendRefs: [7, {name: [x], port: "80"}]}]\n',
    );
    const rt = r as GatewayRoute;
    assert.deepEqual(rt.parentRefs, []);
    assert.deepEqual(rt.hostnames, []);
    assert.deepEqual(
      rt.rules[0].backendRefs.map((b) => [b.name, b.port]),
      [[undefined, undefined]],
    );
  });
});

describe('Gateway API semantics helpers', () => {
  it('wildcard hostnames match one or more labels, never the bare domain (gateway semantics §G4)', () => {
    assert.equal(hostnamesIntersect('*.example.com', 'a.example.com'), true);
    assert.equal(hostnamesIntersect('*.example.com', 'a.b.example.com'), true);
    assert.equal(hostnamesIntersect('*.example.com', 'example.com'), false);
    assert.equal(hostnamesIntersect('example.com', '*.example.com'), false);
    assert.equal(hostnamesIntersect('*.example.com', '*.a.example.com'), true);
    assert.equal(hostnamesIntersect('*.example.com', '*.example.org'), false);
    assert.equal(hostnamesIntersect('a.example.com', 'b.example.com'), false);
    assert.equal(hostnamesIntersect('*.example.com', 'xexample.com'), false);
  });

  it('a namespace selector is unknown on labels a missing Namespace manifest would carry (semantics §9.3)', () => {
    const sel = (yaml: Record<string, unknown>) => readLabelSelector(toTree(yaml))!;
    const byName = sel({ matchLabels: { 'kubernetes.io/metadata.name': 'shop' } });
    const byTeam = sel({ matchLabels: { team: 'a' } });
    assert.equal(selectorOnNamespace(byName, 'shop', undefined), true);
    assert.equal(selectorOnNamespace(byName, 'ops', undefined), false);
    assert.equal(selectorOnNamespace(byTeam, 'shop', undefined), 'unknown');
    assert.equal(selectorOnNamespace(byTeam, 'shop', new Map([['team', 'a']])), true);
    assert.equal(selectorOnNamespace(byTeam, 'shop', new Map()), false);
  });
});

/** A plain object as the model's YAML tree (spans are not looked at here). */
function toTree(v: unknown): Parameters<typeof readLabelSelector>[0] {
  const span = { start: 0, end: 0 };
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    return { type: 'map', span, entries: new Map(Object.entries(v).map(([k, x]) => [k, { key: k, keySpan: span, value: toTree(x)! }])) };
  }
  if (Array.isArray(v)) return { type: 'seq', span, items: v.map((x) => toTree(x)!) };
  return { type: 'scalar', span, value: v as string, quoted: false };
}
