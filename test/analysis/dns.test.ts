// DNS records per semantics §2 (goldens), the §8 "never show" list, and per-resource records.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkDnsGolden, dnsNamesOf, dnsRecordsForResource, dnsRecordsOf } from '../helpers/checkDns';

const dir = join(__dirname, '..', 'fixtures', 'analysis', 'dns');
const records = join(dir, 'records.yaml');
const neverShow = join(dir, 'never-show.yaml');

describe('DNS records', () => {
  it('match the golden for every record kind (kubeadm defaults)', () => {
    checkDnsGolden(records, join(dir, 'records.golden.json'));
  });
  it('follow the CoreDNS options: pods disabled, endpoint_pod_names on, another cluster domain', () => {
    checkDnsGolden(records, join(dir, 'records.options.golden.json'), {
      clusterDomain: 'corp.internal.',
      coreDns: { podsMode: 'disabled', endpointPodNames: true },
    });
  });

  it('S1/S2/S4: cluster IP records are always there; SRV only for named ports, with the Service port', () => {
    const r = dnsRecordsOf(records);
    assert.deepEqual(
      r.filter((x) => x.name === 'api.shop.svc.cluster.local').map((x) => [x.type, x.answer, x.condition]),
      [['A', '10.96.0.20', 'always']],
    );
    assert.deepEqual(
      r.filter((x) => x.name.endsWith('.api.shop.svc.cluster.local') && x.type === 'SRV').map((x) => [x.name, x.answer]),
      [
        ['_http._tcp.api.shop.svc.cluster.local', '0 100 80 api.shop.svc.cluster.local.'],
        ['_metrics._tcp.api.shop.svc.cluster.local', '0 100 9090 api.shop.svc.cluster.local.'],
      ],
    );
    // A single unnamed port: no _<port>._<proto> SRV name, since the query has to name the port.
    assert.deepEqual(
      r.filter((x) => x.name.endsWith('.plain.shop.svc.cluster.local') && x.type === 'SRV'),
      [],
    );
    assert.ok(r.some((x) => x.type === 'PTR' && x.name === '20.0.96.10.in-addr.arpa'));
    assert.deepEqual(
      r.filter((x) => x.name === 'dual.shop.svc.cluster.local').map((x) => x.type),
      ['A', 'AAAA'],
    );
    assert.ok(r.some((x) => x.name === '_dns._udp.dual.shop.svc.cluster.local'));
  });

  it('H3: headless SRV carries the resolved container port, targeting each StatefulSet pod', () => {
    const srv = dnsRecordsOf(records)
      .filter((x) => x.name === '_pg._tcp.db.shop.svc.cluster.local')
      .map((x) => x.answer);
    assert.deepEqual(srv, ['0 100 5433 db-0.db.shop.svc.cluster.local.', '0 100 5433 db-1.db.shop.svc.cluster.local.']);
  });

  it('StatefulSet ordinals start at ordinals.start and publishNotReadyAddresses is explained', () => {
    const kafka = dnsRecordsOf(records).filter((x) => x.name === 'kafka-1.kafka.shop.svc.cluster.local');
    assert.equal(kafka.length, 1);
    assert.match(kafka[0].note ?? '', /publishNotReadyAddresses/);
    assert.ok(!dnsNamesOf(records).has('kafka-0.kafka.shop.svc.cluster.local'));
  });

  it('S5: per-pod names under a cluster IP Service are CoreDNS-only', () => {
    const r = dnsRecordsOf(records).filter((x) => x.name === 'cache-0.cache.shop.svc.cluster.local');
    assert.deepEqual(
      r.map((x) => x.condition),
      ['coredns-only'],
    );
  });

  it('manual Endpoints: ready addresses only, hostnames become names, dashed IPs are config-dependent', () => {
    const r = dnsRecordsOf(records);
    const names = new Set(r.map((x) => x.name));
    assert.ok(names.has('primary.legacy-db.shop.svc.cluster.local'));
    assert.ok(!names.has('broken.legacy-db.shop.svc.cluster.local'));
    assert.deepEqual(
      r.filter((x) => x.name === 'legacy-db.shop.svc.cluster.local').map((x) => x.answer),
      ['192.168.10.5', '192.168.10.6'],
    );
    assert.equal(r.find((x) => x.name === '192-168-10-6.legacy-db.shop.svc.cluster.local')?.condition, 'config-dependent');
    // EndpointSlice hostnames: ready (or unset) endpoints only, CoreDNS-only under a cluster IP Service.
    assert.equal(r.find((x) => x.name === 'es-0.search.shop.svc.cluster.local')?.condition, 'coredns-only');
    assert.ok(!names.has('es-1.search.shop.svc.cluster.local'));
  });

  it('pod hostname + subdomain gives a per-pod name; a pod name alone does not, unless endpoint_pod_names', () => {
    assert.ok(dnsNamesOf(records).has('alpha.workers.shop.svc.cluster.local'));
    assert.ok(!dnsNamesOf(records).has('worker-b.workers.shop.svc.cluster.local'));
    const withOption = dnsRecordsOf(records, { coreDns: { podsMode: 'insecure', endpointPodNames: true } }).find(
      (x) => x.name === 'worker-b.workers.shop.svc.cluster.local',
    );
    assert.equal(withOption?.condition, 'config-dependent');
  });

  it('pod A records are patterns, only when the pods mode is not disabled', () => {
    assert.ok(dnsNamesOf(records).has('<a-b-c-d>.shop.pod.cluster.local'));
    assert.ok(![...dnsNamesOf(records, { coreDns: { podsMode: 'disabled', endpointPodNames: false } })].some((n) => n.includes('.pod.')));
  });

  it('dnsRecordsFor gives a Service its per-pod names and a StatefulSet its own', () => {
    const svc = dnsRecordsForResource(records, 'Service/shop/db').map((r) => r.name);
    assert.ok(svc.includes('db.shop.svc.cluster.local') && svc.includes('db-1.db.shop.svc.cluster.local'));
    const sts = dnsRecordsForResource(records, 'StatefulSet/shop/db').map((r) => r.name);
    assert.ok(sts.includes('db-0.db.shop.svc.cluster.local') && !sts.includes('db.shop.svc.cluster.local'));
  });
});

describe('semantics §8 never-show names', () => {
  const configs = [undefined, { coreDns: { podsMode: 'verified' as const, endpointPodNames: true } }];
  const never = [
    // `_p._proto` SRV for unnamed ports
    '_80._tcp.unnamed.ns1.svc.cluster.local',
    // SRV and sub-names for ExternalName Services
    '_pg._tcp.ext.ns1.svc.cluster.local',
    // an ExternalName with an IP-shaped value
    'extip.ns1.svc.cluster.local',
    // per-pod names when serviceName matches no Service, or the Service does not select the pods
    'web-0.nginx.ns1.svc.cluster.local',
    'web-0.nginxx.ns1.svc.cluster.local',
    'lonely-0.other.ns1.svc.cluster.local',
    'solo.missing.ns1.svc.cluster.local',
    // `<svc>.<ns>.cluster.local` forms
    'unnamed.ns1.cluster.local',
    'ext.ns1.cluster.local',
    // selector-less (absent or `{}`) headless Services without Endpoints: no pod-derived names
    'bare.ns1.svc.cluster.local',
    'empty.ns1.svc.cluster.local',
    'anything-0.empty.ns1.svc.cluster.local',
    // a headless Service selecting nothing
    'other.ns1.svc.cluster.local',
    // notReadyAddresses never answer, even with publishNotReadyAddresses or the obsolete annotation
    'notready.ns1.svc.cluster.local',
    'sleepy.notready.ns1.svc.cluster.local',
    'drowsy.tolerate.ns1.svc.cluster.local',
    // Endpoints with the skip-mirror label
    'hidden.skipped.ns1.svc.cluster.local',
    'skipped.ns1.svc.cluster.local',
  ];
  for (const config of configs) {
    it(`leaves them all out (${config ? 'pods verified, endpoint_pod_names' : 'defaults'})`, () => {
      const names = dnsNamesOf(neverShow, config);
      for (const n of never) assert.ok(!names.has(n), `${n} must never be shown`);
      // No name anywhere may use the `.cluster.local` form without `.svc` or `.pod`.
      for (const n of names) assert.match(n, /\.(svc|pod)\.cluster\.local$|\.arpa$/, `${n} is not a form CoreDNS answers`);
    });
  }
  it('still shows what does resolve in the same manifests', () => {
    const names = dnsNamesOf(neverShow);
    for (const n of ['unnamed.ns1.svc.cluster.local', 'ext.ns1.svc.cluster.local', 'nginx.ns1.svc.cluster.local'])
      assert.ok(names.has(n), `${n} should resolve`);
  });
});
