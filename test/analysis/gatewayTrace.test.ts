// The Gateway entry hop of a trace: listener → route rule → backendRef before the Service, with an invalid
// backend's failure on its rule, beside the Ingress that reaches the same Service.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { traceToText } from '../../server/src/features/traceText';
import { analysisOf } from '../helpers/checkDns';
import { checkTraceGolden, traceOf } from '../helpers/checkTrace';

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
    assert.deepEqual(rules.map((n) => `${n.label} ${n.status}`), ['HTTPRoute shop · rule 1 warning', 'HTTPRoute shop · rule 2 error']);
    assert.ok(rules[0].detail.includes('10% of its requests go to invalid backends and get HTTP 500.'));
    assert.ok(rules[1].findings.some((f) => f.code === 'route-all-backends-invalid'));
    const canary = g.nodes.find((n) => n.id === 'gateway:backend:HTTPRoute/shop/shop/0/1');
    assert.equal(canary?.status, 'error');
    assert.ok(canary?.findings.some((f) => f.code === 'route-backend-port'));
    assert.ok(g.edges.some((e) => e.from === canary!.id && e.to === 'service' && e.status === 'broken'));
    assert.ok(g.edges.some((e) => e.from === 'gateway:listener:infra/edge/http' && e.to === rules[0].id));
    assert.ok(g.nodes.some((n) => n.kind === 'ingress'), 'the Ingress entry is drawn too');
    assert.equal(g.broken, false);
  });

  it('a mesh route (a Service parent) is attached to that Service, not reported as accepted by no Gateway', () => {
    const a = analyzeTexts([{ uri: 'file:///mesh.yaml', text: [
      'apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: split, namespace: shop}\nspec:\n  parentRefs: [{group: "", kind: Service, name: web, port: 80}]\n  rules: [{backendRefs: [{name: web-v2, port: 80}]}]',
      'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\nspec: {selector: {app: web}, ports: [{port: 80}]}',
      'apiVersion: v1\nkind: Service\nmetadata: {name: web-v2, namespace: shop}\nspec: {selector: {app: web}, ports: [{port: 80}]}',
    ].join('\n---\n') }]);
    const rule = traceOf(a, 'shop', 'web-v2').nodes.find((n) => n.kind === 'route-rule');
    assert.equal(rule?.status, 'ok');
    assert.deepEqual(rule?.detail, ['Matches every request of the route.', 'Sends its requests to 1 backend by weight.', 'Mesh producer route on Service shop/web: calls to it that match this rule are sent here.']);
  });

  it('prints the same path as text', () => {
    const text = traceToText(traceOf(analysisOf(join(trace, 'gateway.yaml')), 'shop', 'web'));
    assert.match(text, /Through Gateways:\n {2}edge · http 80\/HTTP \*\.example\.com\n/);
    assert.match(text, /--> \[shop\.example\.com\] HTTPRoute shop · rule 1 \[warning\]/);
    assert.match(text, /-x-> \[weight 10\] shop → port 8080 \(10%\) \[error\]/);
  });
});
