// scripts/recall/mutations.ts: each mistake class finds its candidate in a tiny manifest and its edit changes exactly
// one place (the rest of the text, and the number of lines, stay as they were).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdit, parseObjects } from '../../scripts/recall/manifests';
import { findCandidates, pick, serviceHostOffset, swapLetters, type MistakeClass } from '../../scripts/recall/mutations';

const app = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: store
spec:
  serviceName: store-hl
  selector:
    matchLabels:
      app: store
  template:
    metadata:
      labels:
        app: store
    spec:
      subdomain: store-hl
      containers:
        - name: main
          image: example/store
          ports:
            - name: http
              containerPort: 8080
          env:
            - name: PEER
              value: "http://cache:6379/x"
---
apiVersion: v1
kind: Service
metadata:
  name: store-hl
spec:
  clusterIP: None
  selector:
    app: store
  ports:
    - port: 80
      targetPort: http
---
apiVersion: v1
kind: Service
metadata:
  name: cache
spec:
  selector:
    app: cache
  ports:
    - port: 6379
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: cache
spec:
  selector:
    matchLabels:
      app: cache
  template:
    metadata:
      labels:
        app: cache
    spec:
      containers:
        - name: c
          image: example/cache
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: cache-in
spec:
  podSelector:
    matchLabels:
      app: cache
  ingress:
    - from:
        - podSelector:
            matchLabels:
              app: store
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  rules:
    - http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: store-hl
                port:
                  number: 80
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: edge
spec:
  gatewayClassName: x
  listeners:
    - name: http
      port: 80
      protocol: HTTP
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  parentRefs:
    - name: edge
`;

function candidates() {
  return findCandidates(parseObjects('app.yaml', app, 'g'));
}

function changedLines(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  assert.equal(b.length, a.length, 'the number of lines is kept');
  return b.filter((l, i) => l !== a[i]);
}

const expected: Record<MistakeClass, string> = {
  'selector-value-typo': '    app: sotre',
  'selector-key-swap': '    app.kubernetes.io/name: store',
  'dns-short-typo': '              value: "http://ccahe:6379/x"',
  'netpol-podselector-typo': '      app: ccahe',
  'netpol-peer-typo': '              app: sotre',
  'targetport-name-typo': '      targetPort: htpt',
  'sts-servicename-typo': '  serviceName: sotre-hl',
  'sts-governing-not-headless': '  # clusterIP: None',
  'ingress-backend-name-typo': '                name: sotre-hl',
  'ingress-backend-port': '                  number: 81',
  'workload-selector-typo': '      app: sotre',
  'port-name-typo': '            - name: htpt',
  'gateway-parent-typo': '    - name: egde',
  'pod-subdomain-typo': '      subdomain: sotre-hl',
};

describe('recall mutations', () => {
  it('swaps two adjacent letters after the first, or gives up', () => {
    assert.equal(swapLetters('frontend'), 'forntend');
    assert.equal(swapLetters('db'), undefined);
    assert.equal(swapLetters('a---'), undefined);
  });

  it('finds Service names written as hosts, and only as hosts', () => {
    assert.equal(serviceHostOffset('http://cache:6379/x', 'cache', '', ''), 7);
    assert.equal(serviceHostOffset('cache.shop.svc.cluster.local:80', 'cache', 'shop', 'web'), 0);
    assert.equal(serviceHostOffset('cache', 'cache', 'shop', 'shop'), 0);
    assert.equal(serviceHostOffset('mycache:80', 'cache', '', ''), -1);
    assert.equal(serviceHostOffset('cache-2:80', 'cache', '', ''), -1);
    assert.equal(serviceHostOffset('cache:80', 'cache', 'shop', 'web'), -1);
    assert.equal(serviceHostOffset('cache', 'cache', '', '', false), -1, 'a bare name only in a host variable');
    assert.equal(serviceHostOffset('--service=cache', 'cache', '', ''), -1);
  });

  for (const [cls, line] of Object.entries(expected)) {
    it(`${cls}: one edit, on one line`, () => {
      const c = candidates().filter((x) => x.cls === cls);
      assert.ok(c.length >= 1, `a ${cls} candidate`);
      const after = applyEdit(app, c[0].edit);
      assert.deepEqual(changedLines(app, after), [line]);
      const a = app.split('\n');
      const b = after.split('\n');
      assert.equal(
        c[0].line,
        a.findIndex((l, i) => l !== b[i]),
        'the candidate names the changed line',
      );
    });
  }

  it('offers no candidate whose reference does not work as written', () => {
    const broken = app.replace('  serviceName: store-hl', '  serviceName: other').replace('      app: cache\n  ingress', '      app: nothing\n  ingress');
    const cls = findCandidates(parseObjects('app.yaml', broken, 'g')).map((c) => c.cls);
    assert.ok(!cls.includes('sts-servicename-typo'));
    assert.ok(!cls.includes('sts-governing-not-headless'));
    assert.ok(!cls.includes('netpol-podselector-typo'));
  });

  it('skips templated files and kustomizations', async () => {
    const { readable } = await import('../../scripts/recall/manifests');
    assert.equal(readable('a/templates/svc.yaml', 'kind: Service'), false);
    assert.equal(readable('a/kustomization.yaml', 'resources: []'), false);
    assert.equal(readable('a/svc.yaml', 'name: {{ .Release.Name }}'), false);
    assert.equal(readable('a/svc.yaml', 'kind: Service'), true);
  });

  it('picks evenly and deterministically', () => {
    assert.deepEqual(pick([1, 2, 3, 4, 5, 6], 3), [1, 3, 5]);
    assert.deepEqual(pick([1, 2], 3), [1, 2]);
  });
});
