// `kube-netlens trace istio-gateway/NAMESPACE/NAME` and `trace virtualservice/…`: from an Istio Gateway's servers, or
// a VirtualService, through the route blocks and destinations to the Services, with findings on the hops they break.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { buildCli, runCli, workspaceFrom } from './builtCli';

const mesh = workspaceFrom(`# file: gateway.yaml
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: public, namespace: shop}
spec:
  selector: {istio: ingressgateway}
  servers:
    - port: {number: 8080, name: http, protocol: HTTP}
      hosts: ["shop.example.com"]
    - port: {number: 8443, name: https, protocol: HTTPS}
      hosts: ["admin.example.com"]
      tls: {mode: SIMPLE, credentialName: admin-cert}
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: shop, namespace: shop}
spec:
  hosts: ["shop.example.com"]
  gateways: [public]
  http:
    - match: [{uri: {prefix: /api}}]
      route:
        - destination: {host: api, port: {number: 80}}
    - route:
        - destination: {host: web.shop, port: {number: 80}}
# file: app.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop}
spec:
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
  selector: {app: api}
  ports: [{name: http, port: 80, targetPort: http}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: api}
  ports: [{name: http, port: 80, targetPort: http}]
`);

describe('kube-netlens trace from Istio objects', () => {
  before(() => {
    buildCli();
  });

  it('traces an Istio Gateway from its servers through the VirtualServices bound to them', () => {
    const text = runCli(['trace', 'istio-gateway/shop/public', mesh]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^Gateway shop\/public\n\nListeners:\n {2}public · http 8080\/HTTP\n/);
    assert.match(text.stdout, /Applies 1 VirtualService of the workspace\./);
    assert.match(text.stdout, /No VirtualService in the workspace is bound to it for these hosts\./);
    assert.match(text.stdout, /--> VirtualService shop · http\[0\]\n/);
    assert.match(text.stdout, /--> api:80\n(?: {10}.*\n)+ {8}--> \[80\] Service api\n/);
    // the unexpanded short form is a broken hop, with the istio-host-unresolved finding on it
    assert.match(
      text.stdout,
      /-x-> web\.shop:80 \[error\]\n {10}http\[1\]\.route\[0\]: sends requests to web\.shop port 80\.\n {10}Istio does not expand this name: write web\.shop\.svc\.cluster\.local/,
    );
    assert.match(text.stdout, /istio-host-unresolved/);
    // gateway/NAMESPACE/NAME finds the Istio Gateway when no Gateway API Gateway has the name
    const plain = runCli(['trace', 'gateway/shop/public', '--format', 'json', mesh]);
    assert.equal(plain.status, 0, plain.stderr);
    const graph = JSON.parse(plain.stdout) as { service: { kind: string; name: string }; nodes: { kind: string; label: string }[] };
    assert.deepEqual([graph.service.kind, graph.service.name], ['Gateway', 'public']);
    assert.deepEqual(
      graph.nodes.filter((n) => n.kind === 'gateway-listener').map((n) => n.label),
      ['public · http 8080/HTTP', 'public · https 8443/HTTPS'],
    );
  });

  it('traces a VirtualService from the servers that serve its hosts', () => {
    const text = runCli(['trace', 'virtualservice/shop/shop', mesh]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^VirtualService shop\/shop\n\nThrough Gateways:\n {2}public · http 8080\/HTTP\n/);
    assert.doesNotMatch(text.stdout, /8443/);
    const mermaid = runCli(['trace', 'VirtualService/shop/shop', '--format', 'mermaid', mesh]);
    assert.match(mermaid.stdout, /subgraph route\["Route rules"\]/);
    const typo = runCli(['trace', 'virtualservice/shop/shpo', mesh]);
    assert.equal(typo.status, 2);
    assert.equal(typo.stderr, 'kube-netlens: no VirtualService shop/shpo in the given files; did you mean shop/shop?\n');
  });
});
