// The DNS-name injection grammar: which strings in YAML it marks as cluster DNS names, and how the manifest wires it in.
// Its one pattern uses only syntax that JavaScript and Oniguruma read alike (lookbehind, lookahead, non-capturing groups).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = join(__dirname, '..', '..');
const grammarPath = 'syntaxes/dns-names.injection.tmLanguage.json';

interface Grammar {
  readonly scopeName: string;
  readonly injectionSelector: string;
  readonly repository: Record<string, { readonly match: string; readonly captures: Record<string, { readonly name: string }> }>;
}

const grammar = JSON.parse(readFileSync(join(root, grammarPath), 'utf8')) as Grammar;
const pattern = grammar.repository['cluster-dns-name'];

/** The (name, port) pairs the grammar marks in one line, in order. */
function marked(line: string): Array<[string, string | undefined]> {
  const re = new RegExp(pattern.match, 'g');
  return [...line.matchAll(re)].map((m) => [m[1], m[2]]);
}

describe('DNS-name grammar', () => {
  it('marks Service, pod and SRV names with and without the cluster domain', () => {
    assert.deepEqual(marked('api.shop.svc'), [['api.shop.svc', undefined]]);
    assert.deepEqual(marked('api.shop.svc.cluster.local'), [['api.shop.svc.cluster.local', undefined]]);
    assert.deepEqual(marked('web-0.db.shop.svc.cluster.local'), [['web-0.db.shop.svc.cluster.local', undefined]]);
    assert.deepEqual(marked('_mysql._tcp.db.shop.svc.cluster.local'), [['_mysql._tcp.db.shop.svc.cluster.local', undefined]]);
    assert.deepEqual(marked('api.shop.svc.k8s.internal'), [['api.shop.svc.k8s.internal', undefined]]);
    assert.deepEqual(marked('api.shop.svc.cluster.local.'), [['api.shop.svc.cluster.local.', undefined]]);
  });

  it('marks the port separately', () => {
    assert.deepEqual(marked('mysql.db.svc.cluster.local:3306'), [['mysql.db.svc.cluster.local', '3306']]);
    assert.deepEqual(marked('redis.cache.svc:6379'), [['redis.cache.svc', '6379']]);
  });

  it('finds names inside URLs, quoted strings, flow sequences and prose', () => {
    assert.deepEqual(marked('  value: http://api.shop.svc.cluster.local:8080/path?q=1'), [['api.shop.svc.cluster.local', '8080']]);
    assert.deepEqual(marked('  API_URL: "https://api.shop.svc/v1"'), [['api.shop.svc', undefined]]);
    assert.deepEqual(marked("args: ['--peer=web-0.db.shop.svc:7000', '--peer=web-1.db.shop.svc:7000']"), [
      ['web-0.db.shop.svc', '7000'],
      ['web-1.db.shop.svc', '7000'],
    ]);
    assert.deepEqual(marked('postgres://user@pg.data.svc.cluster.local:5432/app'), [['pg.data.svc.cluster.local', '5432']]);
  });

  it('leaves other names alone', () => {
    assert.deepEqual(marked('api'), []);
    assert.deepEqual(marked('api.shop'), []);
    assert.deepEqual(marked('shop.svc'), [], 'one label before svc is a namespace query, not a Service name');
    assert.deepEqual(marked('api.shop.cluster.local'), []);
    assert.deepEqual(marked('api.shop.svcx.cluster.local'), []);
    assert.deepEqual(marked('www.example.com'), []);
    assert.deepEqual(marked('kube-netlens.dev/svc'), []);
    assert.deepEqual(marked('image: registry.shop.svc-mirror.io/api:1.2'), []);
    assert.deepEqual(marked('api.shop.svc:http'), [['api.shop.svc', undefined]], 'a port must be a number');
  });

  it('is an injection into YAML outside comments, with distinct scopes', () => {
    assert.equal(grammar.injectionSelector, 'L:source.yaml -comment');
    assert.equal(pattern.captures['1'].name, 'markup.underline.link.dns.kube-netlens');
    assert.equal(pattern.captures['2'].name, 'constant.numeric.port.dns.kube-netlens');
  });

  it('is contributed by the manifest', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      contributes?: { grammars?: ReadonlyArray<{ scopeName: string; path: string; injectTo?: readonly string[] }> };
    };
    const entry = manifest.contributes?.grammars?.find((g) => g.scopeName === grammar.scopeName);
    assert.ok(entry, `package.json contributes.grammars has no entry for ${grammar.scopeName}`);
    assert.equal(entry.path, `./${grammarPath}`);
    assert.deepEqual(entry.injectTo, ['source.yaml']);
  });
});
