// IP literals: the one parser that validation, DNS records, environment variables, traces and hovers share.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cidrFamily, dashedIP, isIP, isIPv4, isIPv6, reverseName } from '../../server/src/analysis/ip';

describe('IP parsing', () => {
  it('accepts IPv4 dotted quads up to 255 only', () => {
    for (const ok of ['10.0.0.1', '0.0.0.0', '255.255.255.255']) assert.ok(isIPv4(ok), ok);
    for (const bad of ['256.0.0.1', '10.0.0', '10.0.0.1.2', '10.0.0.x', '', '1..2.3']) assert.ok(!isIPv4(bad), bad);
  });

  it('accepts IPv6 with one `::`, eight groups without it, and an IPv4 tail as two groups', () => {
    for (const ok of ['::', '::1', '2001:db8::ffff', 'FE80::1', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7::', '::ffff:10.0.0.1', '1:2:3:4:5:6:1.2.3.4'])
      assert.ok(isIPv6(ok), ok);
    for (const bad of ['1:2:3:4:5:6:7', '1::2::3', '12345::', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7:1.2.3.4', '::ffff:300.0.0.1', 'db.local', '10.0.0.1'])
      assert.ok(!isIPv6(bad), bad);
  });

  it('isIP is either family; host names are not IPs', () => {
    assert.ok(isIP('10.0.0.1') && isIP('::1'));
    assert.ok(!isIP('postgres.data.svc') && !isIP('999.1.1.1'));
  });

  it('derives the DNS labels and reverse names CoreDNS uses (semantics §1.4)', () => {
    assert.equal(dashedIP('10.1.2.3'), '10-1-2-3');
    assert.equal(dashedIP('2001:DB8::'), '2001-db8--0');
    assert.equal(reverseName('10.1.2.3'), '3.2.1.10.in-addr.arpa');
    assert.equal(reverseName('::1'), `1.${'0.'.repeat(31)}ip6.arpa`);
    assert.equal(reverseName('nope'), undefined);
  });

  it('tells the family of an ipBlock CIDR, and nothing of other text (netpol §5)', () => {
    for (const v4 of ['0.0.0.0/0', '10.0.0.0/8', '203.0.113.7/32', ' 192.168.0.0/16 ']) assert.equal(cidrFamily(v4), 'IPv4', v4);
    for (const v6 of ['::/0', 'fc00::/7', '2001:db8::/64', '::ffff:10.0.0.0/104', '::1/128']) assert.equal(cidrFamily(v6), 'IPv6', v6);
    for (const bad of ['10.0.0.1', '10.0.0.0/33', '::/129', '10.0.0.0/', '{{ .Values.cidr }}', 'example.com/24', '', '10.0.0.0/8/8'])
      assert.equal(cidrFamily(bad), undefined, bad);
  });
});
