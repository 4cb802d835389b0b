// Port resolution, manual Endpoints mirroring, Ingress routes, NetworkPolicy reach and Service env vars.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analysisOf } from '../helpers/checkDns';
import { envLines } from '../helpers/checkEnv';
import { policyNames, reach } from '../helpers/checkPolicy';
import { manualEndpoints, portMap } from '../helpers/checkPorts';
import { routeLines } from '../helpers/checkRoutes';

const fixtures = join(__dirname, '..', 'fixtures', 'analysis');
const a = analysisOf(join(fixtures, 'reach', 'shop.yaml'));

describe('port resolution (semantics §5)', () => {
  it('resolves named ports per workload: container order, sidecars, protocol, numeric verbatim', () => {
    assert.deepEqual(portMap(a, 'shop', 'api'), {
      // http: the first container wins over the second; the regular init container never counts.
      // stats: named with TCP in v1 but the Service port is UDP → no endpoint; admin comes from the sidecar.
      'Deployment/api-v1': 'http:8080@app grpc:9000 stats:✗(protocol-mismatch) admin:15000@proxy',
      'Deployment/api-v2': 'http:8443@app grpc:9000 stats:8125@app admin:9901@app',
    });
  });
  it('mirrors manual Endpoints only for selector-less Services', () => {
    assert.deepEqual(manualEndpoints(a, 'shop', 'ext-db'), ['manual', 'Endpoints/ext-db mirrored 192.168.1.10']);
    const ignored = manualEndpoints(a, 'shop', 'mirrored-not');
    assert.equal(ignored[0], 'selector');
    assert.match(ignored[1], /^Endpoints\/mirrored-not ignored: the Service has a selector/);
  });
});

describe('Ingress routes', () => {
  it('follow host/path → Service port → container port per workload, with problems in words', () => {
    assert.deepEqual(routeLines(a), [
      'shop.example.com/api → api:80 → api-v1:8080 api-v2:8443',
      'shop.example.com/grpc → api: Service "api" has no port 9001; its ports are 80 (http), 9000 (grpc), 8125 (stats), 8081 (admin).',
      'shop.example.com/old → apii: No Service "apii" in namespace "shop"; did you mean "api"?',
      'web (default) → api:80 → api-v1:8080 api-v2:8443',
    ]);
  });
});

describe('NetworkPolicy reach', () => {
  it('selects by podSelector in the policy namespace ({} selects all)', () => {
    assert.deepEqual(policyNames(a, 'Deployment/shop/api-v1'), ['api-from-edge', 'egress-only']);
    assert.deepEqual(policyNames(a, 'Deployment/edge/gateway'), []);
  });
  it('ANDs namespaceSelector with podSelector in one peer, ORs peers, and resolves named ports per workload', () => {
    const w = 'Deployment/shop/api-v1';
    assert.equal(reach(a, w, { namespace: 'edge', labels: { app: 'gateway' } }, 8080), 'allowed by api-from-edge');
    assert.equal(reach(a, w, { namespace: 'edge', labels: { app: 'other' } }, 8080), 'denied by api-from-edge');
    assert.equal(reach(a, w, { namespace: 'shop', labels: { app: 'gateway' } }, 8080), 'denied by api-from-edge');
    // podSelector alone means the policy's own namespace.
    assert.equal(reach(a, w, { namespace: 'shop', labels: { app: 'frontend' } }, 8080), 'allowed by api-from-edge');
    assert.equal(reach(a, w, { namespace: 'edge', labels: { app: 'frontend' } }, 8080), 'denied by api-from-edge');
    // The named port `http` is 8080 in api-v1 and 8443 in api-v2.
    assert.equal(reach(a, w, { namespace: 'shop', labels: { app: 'frontend' } }, 8443), 'denied by api-from-edge');
    assert.equal(reach(a, 'Deployment/shop/api-v2', { namespace: 'shop', labels: { app: 'frontend' } }, 8443), 'allowed by api-from-edge');
  });
  it('matches the automatic kubernetes.io/metadata.name label, protocols and endPort ranges', () => {
    const w = 'Deployment/shop/api-v1';
    assert.equal(reach(a, w, { namespace: 'monitoring', labels: {} }, 8125, 'UDP'), 'allowed by api-from-edge');
    assert.equal(reach(a, w, { namespace: 'monitoring', labels: {} }, 8125, 'TCP'), 'denied by api-from-edge');
    assert.equal(reach(a, w, { namespace: 'monitoring', labels: {} }, 9050), 'allowed by api-from-edge');
    assert.equal(reach(a, w, { namespace: 'monitoring', labels: {} }, 9101), 'denied by api-from-edge');
  });
  it('allows everything when no Ingress policy selects the pods', () => {
    assert.equal(reach(a, 'Deployment/edge/gateway', { namespace: 'shop', labels: {} }, 80), 'allowed (no policy)');
  });
});

describe('Service environment variables (semantics §4)', () => {
  it('lists every cluster IP Service of the namespace plus the master Service', () => {
    const env = envLines(a, 'edge');
    assert.deepEqual(
      env.filter((l) => l.startsWith('FREE_')),
      [
        'FREE_SERVICE_HOST=<cluster IP of free>',
        'FREE_SERVICE_PORT=80',
        'FREE_PORT=tcp://<cluster IP of free>:80',
        'FREE_PORT_80_TCP=tcp://<cluster IP of free>:80',
        'FREE_PORT_80_TCP_PROTO=tcp',
        'FREE_PORT_80_TCP_PORT=80',
        'FREE_PORT_80_TCP_ADDR=<cluster IP of free>',
      ],
    );
    assert.ok(env.includes('KUBERNETES_SERVICE_PORT_HTTPS=443'));
  });
  it('uses the literal cluster IP, named ports and UDP; dashes become underscores', () => {
    const env = envLines(a, 'shop');
    for (const l of [
      'API_SERVICE_HOST=10.96.0.20',
      'API_SERVICE_PORT=80',
      'API_SERVICE_PORT_STATS=8125',
      'API_PORT=tcp://10.96.0.20:80',
      'API_PORT_8125_UDP=udp://10.96.0.20:8125',
      'EXT_DB_SERVICE_PORT_PG=5432',
    ])
      assert.ok(env.includes(l), l);
  });
  it('keeps only the master Service with enableServiceLinks: false', () => {
    assert.ok(envLines(a, 'shop', false).every((l) => l.startsWith('KUBERNETES_')));
  });
  it('skips headless and ExternalName Services', () => {
    const b = analysisOf(join(fixtures, 'dns', 'records.yaml'));
    const env = envLines(b, 'shop');
    assert.ok(env.includes('DUAL_PORT_53_UDP=udp://10.96.0.30:53'));
    assert.ok(!env.some((l) => l.startsWith('DB_') || l.startsWith('PAYMENTS_') || l.startsWith('KAFKA_')));
  });
});
