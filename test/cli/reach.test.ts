// The reach test set (test/fixtures/reach/*): small cases written from the NetworkPolicy API reference and the upstream
// e2e suite's behaviours (docs/networkpolicy-semantics.md). Each folder holds its manifests and case.json: queries,
// each with the arguments of `kube-netlens reach --format json` and its whole expected output.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../server/src/cli/runCli';

const root = join(__dirname, '..', 'fixtures', 'reach');
const terminal = { stdoutIsTTY: false, env: {} };

interface Case {
  readonly about: string;
  readonly queries: readonly { readonly args: readonly string[]; readonly expect: unknown }[];
}

const folders = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

describe('reach test set', () => {
  it('has at least 40 cases', () => assert.ok(folders.length >= 40, `${folders.length} cases`));
  for (const name of folders) {
    const c = JSON.parse(readFileSync(join(root, name, 'case.json'), 'utf8')) as Case;
    it(`${name}: ${c.about}`, () => {
      assert.ok(c.queries.length > 0);
      for (const query of c.queries) {
        const result = runCli(['reach', join(root, name), ...query.args, '--format', 'json'], terminal);
        assert.equal(result.exitCode, 0, result.stderr.join('\n'));
        assert.deepEqual(JSON.parse(result.stdout), query.expect, `reach ${query.args.join(' ')}`);
      }
    });
  }
});

describe('reach command line', () => {
  const dir = join(root, 'policies-union');
  it('prints one verdict with the deciding rule and its line', () => {
    const r = runCli(['reach', dir, '--from', 'x/b', '--to', 'x/a'], terminal);
    assert.equal(r.exitCode, 0);
    assert.match(
      r.stdout,
      /^allowed: x\/b\[Deployment\] => x\/a\[Deployment\] : TCP 80\n {2}ingress: NetworkPolicy x\/b-on-80 ingress rule 0 admits it \(.*manifests\.yaml:\d+\)\n$/,
    );
  });
  it('says which policy isolates when it denies', () => {
    const r = runCli(['reach', dir, '--from', 'x/b', '--to', 'x/a', '--port', '81'], terminal);
    assert.match(
      r.stdout,
      /^denied: x\/b\[Deployment\] => x\/a\[Deployment\]\n {2}ingress: NetworkPolicy x\/b-on-80 isolates the pods for ingress and no rule of it admits this/,
    );
  });
  it('lists connections np-guard style, then the unknown ones', () => {
    const r = runCli(['reach', join(root, 'namespace-labels-unknown')], terminal);
    assert.equal(r.exitCode, 0);
    assert.equal(
      r.stdout,
      [
        'external => y/a[Deployment] : All Connections',
        'x/a[Deployment] => external : All Connections',
        'x/a[Deployment] => y/a[Deployment] : All Connections',
        'y/a[Deployment] => external : All Connections',
        '',
        'unknown (the manifests cannot tell):',
        'y/a[Deployment] => x/a[Deployment] : All Connections (namespace "y" has no manifest in scope, so whether it carries the labels "team" is unknown)',
        '',
      ].join('\n'),
    );
  });
  it('--limit lists the first connections in order and says how many are left; the JSON carries the total', () => {
    const folder = join(root, 'namespace-labels-unknown');
    const all = runCli(['reach', folder, '--format', 'json'], terminal);
    const full = JSON.parse(all.stdout) as { connections: unknown[]; total: number };
    assert.equal(full.total, 5);
    assert.equal(full.connections.length, 5);
    const two = runCli(['reach', folder, '--limit', '2'], terminal);
    assert.equal(two.exitCode, 0);
    assert.equal(
      two.stdout,
      [
        'external => y/a[Deployment] : All Connections',
        'x/a[Deployment] => external : All Connections',
        '',
        '3 more connections are not listed: these are the first 2 of 5. --limit N lists more (0: all), --from and --to ask about one pair.',
        '',
      ].join('\n'),
    );
    const json = JSON.parse(runCli(['reach', folder, '--limit', '2', '--format', 'json'], terminal).stdout) as typeof full;
    assert.deepEqual(json, { connections: full.connections.slice(0, 2), total: 5 });
    assert.deepEqual(JSON.parse(runCli(['reach', folder, '--limit', '0', '--format', 'json'], terminal).stdout), full);
    const bad = runCli(['reach', folder, '--limit', '-1'], terminal);
    assert.equal(bad.exitCode, 2);
    assert.match(bad.stderr.join(''), /--limit '-1' is not a number of connections/);
  });
  it('the bounded list is the first part of the whole list, whatever order the pairs are met in', () => {
    const folder = join(root, 'list-minimal-in-namespace');
    const full = (JSON.parse(runCli(['reach', folder, '--limit', '0', '--format', 'json'], terminal).stdout) as { connections: unknown[] }).connections;
    assert.ok(full.length >= 4, `${full.length} connections`);
    for (let n = 1; n < full.length; n++) {
      const part = JSON.parse(runCli(['reach', folder, '--limit', String(n), '--format', 'json'], terminal).stdout) as { connections: unknown[] };
      assert.deepEqual(part.connections, full.slice(0, n), `--limit ${n}`);
    }
  });
  it('rejects bad references and ports with a clear message', () => {
    const bad = (args: string[]) => runCli(['reach', dir, ...args], terminal);
    assert.match(bad(['--from', 'x/b']).stderr.join(''), /needs both --from and --to/);
    assert.match(bad(['--from', 'x/nope', '--to', 'x/a']).stderr.join(''), /--from: no workload x\/nope in the given files; namespace x has x\/Deployment\/a/);
    assert.match(bad(['--from', 'x', '--to', 'x/a']).stderr.join(''), /'x' is not NAMESPACE\/NAME or NAMESPACE\/KIND\/NAME/);
    assert.match(bad(['--from', 'x/b', '--to', 'x/a', '--port', '70000']).stderr.join(''), /--port '70000' is not PORT/);
    assert.match(bad(['--from', 'x/b', '--to', 'x/a', '--port', '80/ICMP']).stderr.join(''), /the protocol must be TCP, UDP or SCTP/);
    assert.match(bad(['--from', 'external', '--to', 'external']).stderr.join(''), /both external/);
    for (const args of [['--from', 'x/b']]) assert.equal(bad(args).exitCode, 2);
  });
});

describe('trace --from: a Service trace for a chosen client', () => {
  const file = join(__dirname, '..', 'fixtures', 'analysis', 'trace', 'client.yaml');
  it('text: the client first, each pod port with its verdict and the deciding rules', () => {
    const r = runCli(['trace', 'shop/api', file, '--from', 'shop/batch'], terminal);
    assert.equal(r.exitCode, 0, r.stderr.join('\n'));
    assert.match(
      r.stdout,
      /^Service shop\/api\nClient: ✓ From shop\/batch \(Job\): 1 of 2 endpoint groups admit the connection\.\n {2}Deployment api: blocked — ingress: shop\/api-in admits none of it \(client\.yaml line 64\)\n {2}Deployment api-canary: allowed — no NetworkPolicy isolates either end\n/,
    );
    assert.match(r.stdout, /--> Deployment api ×1 \[error\]\n {10}✖ From shop\/batch \(Job\): NetworkPolicy blocks the connection to these pods\./);
  });
  it('mermaid and json carry the verdicts; NAMESPACE/* and external are clients too', () => {
    const m = runCli(['trace', 'shop/api', file, '--from', 'shop/web', '--format', 'mermaid'], terminal);
    assert.match(m.stdout, /\(\["From shop\/web #40;Deployment#41;"\]\)/);
    assert.match(m.stdout, /-->\|"admits the client"\|/);
    const j = JSON.parse(runCli(['trace', 'shop/api', file, '--from', 'edge/*', '--format', 'json'], terminal).stdout) as {
      client: { verdict: string; label: string };
      nodes: { id: string; reach?: { verdict: string } }[];
    };
    assert.deepEqual([j.client.label, j.client.verdict], ['any pod in namespace edge', 'allowed']);
    assert.equal(j.nodes.find((n) => n.id === 'port:Deployment/api:0')?.reach?.verdict, 'unknown');
    const e = runCli(['trace', 'shop/api', file, '--from', 'external'], terminal);
    assert.match(e.stdout, /✖ From outside the cluster: blocked on 8080\/TCP by NetworkPolicy\./);
  });
  it('a REF that names no workload, or --from on a Gateway trace, is a usage error', () => {
    const r = runCli(['trace', 'shop/api', file, '--from', 'shop/nope'], terminal);
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr.join('\n'), /--from: no workload shop\/nope in the given files; namespace shop has shop\/Deployment\/api/);
    const g = runCli(['trace', 'gateway/shop/edge', file, '--from', 'shop/web'], terminal);
    assert.equal(g.exitCode, 2);
    assert.match(g.stderr.join('\n'), /--from checks a client's connections to a Service's pods/);
  });
});
