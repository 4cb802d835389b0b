// The demo workspace: `check examples` reports exactly the planted mistakes, and `dns examples` shows no name
// that semantics §8.3 says never to show.

import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildCli, repoRoot, runCli } from './cli/builtCli';
import { tempDir } from './helpers/tempDirs';

interface Expected {
  readonly file: string;
  readonly line: number;
  readonly code: string;
}

const expected = JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'cli', 'examples-expected.json'), 'utf8')) as Expected[];

interface JsonRecord {
  name: string;
  type: string;
  answer: string;
  condition: string;
  resource: { kind: string; namespace: string; name: string };
}

describe('examples/', () => {
  before(() => {
    buildCli();
  });

  it('has at least six planted mistakes, each of a different kind', () => {
    assert.ok(expected.length >= 6);
    assert.equal(new Set(expected.map((e) => e.code)).size, expected.length);
  });

  it('check reports exactly the planted mistakes, at their lines, and nothing else', () => {
    const run = runCli(['check', 'examples', '--format', 'json']);
    assert.equal(run.status, 0, `only warnings are planted, so the default --fail-on error passes (stderr: ${run.stderr})`);
    const diagnostics = (JSON.parse(run.stdout) as { diagnostics: { file: string; range: { start: { line: number } }; code: string; message: string }[] })
      .diagnostics;
    const describe = (d: Expected) => `${d.file}:${d.line} ${d.code}`;
    const actual = diagnostics.map((d) => describe({ file: d.file, line: d.range.start.line + 1, code: d.code }));
    assert.deepEqual(actual.sort(), expected.map(describe).sort(), diagnostics.map((d) => `${d.file} ${d.code}: ${d.message}`).join('\n'));
  });

  it('once the planted mistakes are fixed, check is silent: the rest is really correct', () => {
    const fixes: readonly (readonly [file: string, wrong: string, right: string])[] = [
      ['frontend.yaml', 'release: stabel', 'release: stable'],
      ['database.yaml', 'serviceName: postgress', 'serviceName: postgres'],
      ['api.yaml', 'targetPort: http-metrics', 'targetPort: metrics'],
      ['ingress.yaml', 'number: 80\n', 'number: 8080\n'],
      ['config.yaml', 'http://payments.shop.svc.cluster.local:8080', 'http://api.shop.svc.cluster.local:8080/payments'],
      ['debug.yaml', '  subdomain: debug\n', ''],
      ['node-agent.yaml', 'hostNetwork: true\n', 'hostNetwork: true\n      dnsPolicy: ClusterFirstWithHostNet\n'],
      ['gateway.yaml', 'sectionName: htps', 'sectionName: https'],
    ];
    assert.equal(fixes.length, expected.length);
    const dir = join(tempDir('kube-netlens-examples-'), 'examples');
    cpSync(join(repoRoot, 'examples'), dir, { recursive: true });
    for (const [file, wrong, right] of fixes) {
      const text = readFileSync(join(dir, file), 'utf8');
      assert.ok(text.includes(wrong), `${file} contains ${wrong}`);
      writeFileSync(join(dir, file), text.replace(wrong, right));
    }
    const run = runCli(['check', '.', '--format', 'json'], { cwd: dir });
    assert.deepEqual(JSON.parse(run.stdout).diagnostics, []);
  });

  it('check --fail-on warning fails on them', () => {
    assert.equal(runCli(['check', 'examples', '--fail-on', 'warning']).status, 1);
  });

  it('the README lists every planted mistake at its line', () => {
    const readme = readFileSync(join(repoRoot, 'examples', 'README.md'), 'utf8');
    for (const e of expected) {
      const row = `| \`${e.file.replace(/^examples\//, '')}:${e.line}\` | \`${e.code}\` |`;
      assert.ok(readme.includes(row), `README row for ${row}`);
    }
  });

  describe('dns', () => {
    let all: JsonRecord[] = [];
    let shown: JsonRecord[] = [];
    before(() => {
      const read = (...args: string[]) => {
        const run = runCli(['dns', 'examples', '--format', 'json', ...args]);
        assert.equal(run.status, 0, run.stderr);
        return (JSON.parse(run.stdout) as { records: JsonRecord[] }).records;
      };
      all = read('--all');
      shown = read();
    });

    it('shows the names that resolve', () => {
      const has = (name: string, type: string, condition: string) =>
        assert.ok(
          shown.some((r) => r.name === name && r.type === type && r.condition === condition),
          `${type} ${name} (${condition})`,
        );
      has('api.shop.svc.cluster.local', 'A', 'always');
      has('_http._tcp.api.shop.svc.cluster.local', 'SRV', 'always');
      has('frontend.shop.svc.cluster.local', 'A', 'always');
      has('legacy-db.shop.svc.cluster.local', 'A', 'always');
      has('postgres.shop.svc.cluster.local', 'A', 'while-ready');
    });

    it('never shows <svc>.<ns>.cluster.local forms (semantics §8.3)', () => {
      for (const r of all) assert.doesNotMatch(r.name, /^[^.]+\.shop\.cluster\.local$/, r.name);
    });

    it('never shows SRV names for unnamed ports (semantics §2.1 S2)', () => {
      // legacy-db's only port has no name.
      assert.ok(!all.some((r) => r.type === 'SRV' && /^_[^.]+\._[a-z]+\.legacy-db\./.test(r.name)), 'no _<port>._<proto>.legacy-db SRV');
    });

    it('never shows per-pod names under the mistyped serviceName or an unserved subdomain (semantics §2.3, §8.3)', () => {
      for (const r of all) {
        assert.ok(!r.name.startsWith('postgres-0.'), `${r.name}: serviceName "postgress" names no Service, so the pod has no DNS name`);
        assert.ok(!r.name.includes('postgress'), r.name);
        assert.ok(!r.name.startsWith('netshoot.'), `${r.name}: no Service "debug" serves the pod's subdomain`);
      }
    });

    it('never shows names built from pod names (semantics §2.2 P3)', () => {
      for (const r of all) assert.doesNotMatch(r.name, /(^|\.)(api|frontend|log-shipper)-[a-z0-9]{5,}\./, r.name);
    });

    it('hides CoreDNS-only and Corefile-dependent names unless --all', () => {
      assert.ok(shown.every((r) => r.condition === 'always' || r.condition === 'while-ready'));
      assert.ok(shown.length <= all.length);
    });
  });
});
