// Definition and code lenses on Gateway API objects: refs lead to the objects they name, lenses summarise attachment.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { hoverAt } from '../../server/src/features/hover';
import { codeLensesFor } from '../../server/src/features/codeLenses';
import { completionAt } from '../../server/src/features/completion';
import { definitionAt } from '../../server/src/features/definition';
import { referencesAt } from '../../server/src/features/references';
import { cursorIn, parseFixture } from '../helpers/fixture';

const workspace = `# file: gateway.yaml
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: example
  listeners:
    - name: http
      port: 80
      protocol: HTTP
      allowedRoutes: {namespaces: {from: All}}
    - name: https
      port: 443
      protocol: HTTPS
      tls: {certificateRefs: [{name: edge-cert}]}
---
apiVersion: v1
kind: Secret
metadata: {name: edge-cert, namespace: infra}
type: kubernetes.io/tls
# file: route.yaml
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs:
    - {name: edge, namespace: infra, sectionName: http}
  rules:
    - backendRefs:
        - {name: web, port: 80}
        - {name: gone, port: 80}
# file: svc.yaml
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: 8080}]
`;

function at(name: string, needle: string, delta: number) {
  const fx = parseFixture(workspace);
  const src = fx.sources.find((s) => s.uri.endsWith(name))!;
  const i = src.text.indexOf(needle);
  assert.ok(i >= 0, needle);
  const { text: clean, offset } = cursorIn(src.text.slice(0, i + delta) + '$0' + src.text.slice(i + delta));
  const sources = fx.sources.map((s) => (s === src ? { uri: s.uri, text: clean } : s));
  return { analysis: analyzeTexts(sources), uri: src.uri, offset, sources };
}

const where = (locs: readonly { uri: string; span: { start: number } }[], sources: readonly { uri: string; text: string }[]) =>
  locs.map(
    (l) =>
      `${l.uri.split('/').pop()}:${
        sources
          .find((s) => s.uri === l.uri)!
          .text.slice(l.span.start)
          .split('\n')[0]
      }`,
  );

describe('Gateway API definition', () => {
  it('parentRef name → the Gateway', () => {
    const c = at('route.yaml', 'name: edge', 7);
    assert.deepEqual(where(definitionAt(c.analysis, c.uri, c.offset), c.sources), ['gateway.yaml:edge, namespace: infra}']);
  });
  it('parentRef sectionName → the listener', () => {
    const c = at('route.yaml', 'sectionName: http', 14);
    assert.deepEqual(where(definitionAt(c.analysis, c.uri, c.offset), c.sources), ['gateway.yaml:name: http']);
  });
  it('backendRef port → the Service port', () => {
    const c = at('route.yaml', 'port: 80}', 7);
    assert.deepEqual(where(definitionAt(c.analysis, c.uri, c.offset), c.sources), ['svc.yaml:{name: http, port: 80, targetPort: 8080}]']);
  });
  it('certificateRef → the Secret', () => {
    const c = at('gateway.yaml', 'name: edge-cert', 7);
    assert.deepEqual(where(definitionAt(c.analysis, c.uri, c.offset), c.sources), ['gateway.yaml:edge-cert, namespace: infra}']);
  });
});

describe('Gateway API references', () => {
  it('a Gateway → the parentRefs naming it; a Service → the backendRefs naming it', () => {
    const g = at('gateway.yaml', 'name: edge', 7);
    assert.deepEqual(where(referencesAt(g.analysis, g.uri, g.offset, false), g.sources), ['route.yaml:edge, namespace: infra, sectionName: http}']);
    const s = at('svc.yaml', 'name: web', 7);
    assert.deepEqual(where(referencesAt(s.analysis, s.uri, s.offset, false), s.sources), ['route.yaml:web, port: 80}']);
  });
});

describe('Gateway API completion', () => {
  const route = (body: string) => `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: shop
  namespace: shop
spec:
${body}`;
  function complete(routeText: string): string[] {
    const fx = parseFixture(workspace);
    const { text, offset } = cursorIn(routeText);
    const sources = fx.sources.map((s) => (s.uri.endsWith('route.yaml') ? { uri: s.uri, text } : s));
    return completionAt(analyzeTexts(sources), 'file:///fixture/route.yaml', text, offset).map((c) => c.label);
  }
  it('backendRef name offers the Services of its namespace, port the Service ports of the Service named beside it', () => {
    assert.deepEqual(complete(route('  rules:\n    - backendRefs:\n        - name: $0\n')), ['web']);
    assert.deepEqual(complete(route('  rules:\n    - backendRefs:\n        - name: web\n          port: $0\n')), ['80']);
  });
  it('parentRef name offers the Gateways of its namespace, sectionName the listeners of the Gateway named beside it', () => {
    assert.deepEqual(complete(route('  parentRefs:\n    - namespace: infra\n      name: $0\n')), ['edge']);
    assert.deepEqual(complete(route('  parentRefs:\n    - name: edge\n      namespace: infra\n      sectionName: $0\n')), ['http', 'https']);
  });
});

describe('Gateway API code lenses', () => {
  it('a Gateway counts the routes of each listener; a route names the parents that accept it and its invalid backends', () => {
    const c = at('route.yaml', 'kind', 0);
    const titles = (uri: string) => codeLensesFor(c.analysis, uri).map((l) => l.title);
    assert.deepEqual(titles('file:///fixture/gateway.yaml'), ['http 80/HTTP: 1 route · https 443/HTTPS: 0 routes', 'Trace']);
    assert.deepEqual(codeLensesFor(c.analysis, 'file:///fixture/gateway.yaml')[1].trace, { kind: 'Gateway', namespace: 'infra', name: 'edge' });
    assert.deepEqual(titles(c.uri), ['accepted by edge/http · 2 backends (1 invalid)', 'Trace web']);
    assert.deepEqual(codeLensesFor(c.analysis, c.uri)[1].trace, { namespace: 'shop', name: 'web' });
  });
});

describe('a Gateway written only in a folder below the route', () => {
  // another example's TLS-only Gateway of the same name, in a subfolder: the route is not known to be applied with it
  const fixture = readFileSync(join(__dirname, '..', 'fixtures', 'rules', 'gateway-route-not-allowed', 'quiet-gateway-in-subfolder.yaml'), 'utf8');
  const sources = parseFixture(fixture).sources;
  const route = sources.find((s) => s.uri.endsWith('examples/http-route.yaml'))!;
  const offset = route.text.indexOf('example-gateway') + 3;
  const analysis = analyzeTexts(sources);

  it('is still where go to definition leads', () => {
    assert.deepEqual(
      definitionAt(analysis, route.uri, offset).map((d) => d.uri),
      [sources.find((s) => s.uri.endsWith('tls-passthrough/gateway.yaml'))!.uri],
    );
  });
  it("leaves the route's acceptance unknown in the hover and the lens, not refused", () => {
    const hover = hoverAt(analysis, route.uri, offset);
    assert.match(
      hover?.markdown ?? '',
      /written only in a folder below the route's, which is not applied with it: whether the route meets this Gateway is unknown/,
    );
    const lens = codeLensesFor(analysis, route.uri)
      .map((l) => l.title)
      .join(' | ');
    assert.match(lens, /example-gateway: acceptance unknown/);
    assert.doesNotMatch(lens, /not accepted/);
  });
});
