// Name resolution from a client namespace: every row of semantics §3.3, URLs and ports, and the reasons given.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analysisOf, resolveFrom } from '../helpers/checkDns';

const a = analysisOf(join(__dirname, '..', 'fixtures', 'analysis', 'resolve', 'namespaces.yaml'));

describe('resolveName: semantics §3.3 from namespace test', () => {
  const table: [string, string | undefined][] = [
    ['data', 'data.test.svc.cluster.local'],
    ['data.prod', 'data.prod.svc.cluster.local'],
    ['data.prod.svc', 'data.prod.svc.cluster.local'],
    ['data.prod.svc.cluster.local', 'data.prod.svc.cluster.local'],
    ['data.prod.svc.cluster.local.', 'data.prod.svc.cluster.local'],
    ['data.prod.cluster.local', undefined],
    ['web-0.nginx', 'web-0.nginx.test.svc.cluster.local'],
    ['web-0.nginx.prod', 'web-0.nginx.prod.svc.cluster.local'],
    ['_http._tcp.nginx', '_http._tcp.nginx.test.svc.cluster.local'],
    ['10-1-2-3.prod.pod', '10-1-2-3.prod.pod.cluster.local'],
    ['DATA.Prod.SVC', 'data.prod.svc.cluster.local'],
  ];
  for (const [name, fqdn] of table) {
    it(`${name} → ${fqdn ?? 'NXDOMAIN'}`, () => {
      const r = resolveFrom(a, name, 'test');
      assert.equal(r.resolves, fqdn !== undefined, JSON.stringify(r));
      assert.equal(r.fqdn, fqdn);
    });
  }
  it('x.ns.cluster.local explains the missing .svc and suggests the right name', () => {
    const r = resolveFrom(a, 'data.prod.cluster.local', 'test');
    assert.match(r.reason ?? '', /missing "\.svc"/);
    assert.equal(r.suggestion, 'data.prod.svc.cluster.local');
  });
  it('pod names follow the pods mode', () => {
    const disabled = analysisOf(join(__dirname, '..', 'fixtures', 'analysis', 'resolve', 'namespaces.yaml'), {
      coreDns: { podsMode: 'disabled', endpointPodNames: false },
    });
    assert.equal(resolveFrom(disabled, '10-1-2-3.prod.pod', 'test').resolves, false);
  });
});

describe('resolveName: capture hazard', () => {
  it('data.prod from namespace capture lands on endpoint data of Service prod there, with a warning', () => {
    const r = resolveFrom(a, 'data.prod', 'capture');
    assert.equal(r.fqdn, 'data.prod.capture.svc.cluster.local');
    assert.equal(r.service, 'capture/prod');
    assert.match(r.warning ?? '', /never reaches data\.prod\.svc\.cluster\.local/);
  });
  it('the full name is not captured', () => {
    const r = resolveFrom(a, 'data.prod.svc.cluster.local', 'capture');
    assert.equal(r.service, 'prod/data');
    assert.equal(r.warning, undefined);
  });
});

describe('resolveName: URLs, ports and reasons', () => {
  it('strips scheme, user, path and port; checks the port against the Service', () => {
    assert.deepEqual(resolveFrom(a, 'http://data.prod.svc.cluster.local:80/api?q=1', 'test'), {
      resolves: true,
      fqdn: 'data.prod.svc.cluster.local',
      service: 'prod/data',
      portKnown: true,
    });
    const wrong = resolveFrom(a, 'mysql://user@data.prod:8080', 'test');
    assert.equal(wrong.portKnown, false);
    assert.match(wrong.reason ?? '', /has no port 8080/);
  });
  it('headless per-pod names accept the container port', () => {
    assert.equal(resolveFrom(a, 'web-1.nginx:80', 'test').portKnown, true);
  });
  it('a missing Service suggests a close name', () => {
    const r = resolveFrom(a, 'mysql.db.svc.cluster.local', 'test');
    assert.equal(r.resolves, false);
    assert.equal(r.reason, 'No Service "mysql" in namespace "db"; did you mean "mysql-0"?');
    assert.equal(r.suggestion, 'mysql-0.db.svc.cluster.local');
  });
  it('a namespace no manifest describes is unknown, not NXDOMAIN (semantics §9.3)', () => {
    const r = resolveFrom(a, 'data.shop.svc', 'test');
    assert.equal(r.resolves, false);
    assert.equal(r.unknown, true);
    assert.match(r.reason ?? '', /^namespace "shop" is not described by the manifests in scope \(it may be created elsewhere\)/);
  });
  it('a StatefulSet pod name under the wrong Service explains what it needs', () => {
    const r = resolveFrom(a, 'web-0.web', 'test');
    assert.equal(r.resolves, false);
    assert.match(r.reason ?? '', /^web-0\.web needs a headless Service "web" that selects the StatefulSet's pods/);
    assert.equal(r.suggestion, 'web-0.nginx');
  });
  it('an ordinal past the replicas does not exist', () => {
    assert.match(resolveFrom(a, 'web-2.nginx', 'test').reason ?? '', /has 2 replicas/);
  });
  it('an IP-shaped ExternalName never resolves', () => {
    assert.match(resolveFrom(a, 'ip-ext.db', 'test').reason ?? '', /IP-shaped ExternalNames/);
  });
  it('names outside the workspace stay unknown, and kubernetes.default always resolves', () => {
    assert.equal(resolveFrom(a, 'kube-dns.kube-system.svc.cluster.local', 'test').unknown, true);
    assert.equal(resolveFrom(a, 'api.github.com', 'test').unknown, true);
    assert.equal(resolveFrom(a, 'kubernetes.default.svc', 'test').resolves, true);
  });
});
