// `kube-netlens diff` on temporary git repositories: commits that add, fix and move mistakes, the working tree as
// HEAD (left as it was), the default base (the merge base with main), DNS names added and removed, the three formats
// and the exit codes.

import { tempDir } from '../helpers/tempDirs';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildCli, runCli } from './builtCli';

const app = (name: string, selector: string) => `apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: shop}
spec:
  selector: {app: ${selector}}
  ports: [{port: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: shop}
spec:
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: main, image: nginx}]}
`;

interface Json {
  introduced: { code: string; file: string; message: string }[];
  fixed: { code: string; file: string; message: string }[];
  unchanged: number;
  dns: { added: { name: string; type: string }[]; removed: { name: string; type: string }[] };
  services: {
    added: { key: string; endpoints?: number }[];
    removed: { key: string }[];
    changed: { before: { key: string; endpoints?: number }; after: { key: string; endpoints?: number } }[];
  };
  routes: {
    added: { key: string; parents: string[]; rules: { match: string; to: string }[] }[];
    removed: { key: string }[];
    changed: {
      key: string;
      parentsAdded: string[];
      parentsRemoved: string[];
      rulesAdded: { match: string; to: string }[];
      rulesRemoved: { match: string; to: string }[];
      repointed: { match: string; from: string; to: string }[];
    }[];
  };
  reach: { connection: string; units?: string[]; before: string; after: string }[];
}

function repo(): { dir: string; commit: (files: Record<string, string>, message: string) => void; git: (...args: string[]) => string } {
  const dir = tempDir('kube-netlens-diff-repo-');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  const commit = (files: Record<string, string>, message: string) => {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    git('add', '-A');
    git('commit', '-q', '-m', message);
  };
  return { dir, commit, git };
}

const diffJson = (dir: string, ...args: string[]) => {
  const run = runCli(['diff', '--format', 'json', ...args], { cwd: dir });
  assert.ok(run.status === 0 || run.status === 1, run.stderr);
  return { status: run.status, out: JSON.parse(run.stdout) as Json };
};

describe('kube-netlens diff', () => {
  before(() => {
    buildCli();
  });

  it('reports findings introduced and fixed by identity, lines that moved as no change, and DNS names added and removed', () => {
    const r = repo();
    r.commit({ 'web.yaml': app('web', 'wbe'), 'cart.yaml': app('cart', 'cart') }, 'one mistake');
    // fixes web's typo, makes one in api (a new Service), removes cart, and moves nothing else
    r.commit({ 'web.yaml': app('web', 'web'), 'api.yaml': app('api', 'apii'), 'cart.yaml': '' }, 'fix one, add one');
    const { status, out } = diffJson(r.dir, 'HEAD~1', 'HEAD');
    assert.equal(status, 0, 'warnings do not fail with the default --fail-on error');
    assert.deepEqual(
      out.introduced.map((f) => `${f.file} ${f.code}`),
      ['api.yaml service-selector-no-match'],
    );
    assert.deepEqual(
      out.fixed.map((f) => `${f.file} ${f.code}`),
      ['web.yaml service-selector-no-match'],
    );
    assert.equal(out.unchanged, 0);
    assert.ok(
      out.dns.added.some((d) => d.name === 'api.shop.svc.cluster.local' && d.type === 'A'),
      JSON.stringify(out.dns.added),
    );
    assert.ok(
      out.dns.removed.some((d) => d.name === 'cart.shop.svc.cluster.local'),
      JSON.stringify(out.dns.removed),
    );
    assert.deepEqual(
      out.services.added.map((x) => [x.key, x.endpoints]),
      [['shop/api', 0]],
    );
    assert.deepEqual(
      out.services.removed.map((x) => x.key),
      ['shop/cart'],
    );
    assert.deepEqual(
      out.services.changed.map((c) => [c.after.key, c.before.endpoints, c.after.endpoints]),
      [['shop/web', 0, 1]],
      'the fixed selector gives web its pod',
    );
    assert.match(
      runCli(['diff', 'HEAD~1', 'HEAD'], { cwd: r.dir }).stdout,
      /\nServices added, removed or changed \(3\)\n {2}\+ shop\/api: 0 endpoints\n {2}- shop\/cart\n {2}~ shop\/web: 0 endpoints → 1 endpoint\nRoutes added, removed or re-pointed \(0\)\nNetworkPolicy reach changes \(0\)\n$/,
    );
    assert.equal(diffJson(r.dir, '--fail-on', 'warning', 'HEAD~1', 'HEAD').status, 1);
    // a commit that only moves the mistake down its file (and into another order) changes nothing
    r.commit({ 'api.yaml': `# moved\n\n\n${app('api', 'apii').split('---\n').reverse().join('---\n')}` }, 'move');
    const moved = diffJson(r.dir, 'HEAD~1', 'HEAD').out;
    assert.deepEqual([moved.introduced.length, moved.fixed.length, moved.unchanged, moved.services.changed.length], [0, 0, 1, 0]);
  });

  it('compares with the working tree by default, from the merge base with main, and leaves the working copy as it was', () => {
    const r = repo();
    r.commit({ 'web.yaml': app('web', 'web') }, 'clean');
    r.git('checkout', '-q', '-b', 'feature');
    r.commit({ 'web.yaml': app('web', 'wbe') }, 'typo on the branch');
    writeFileSync(join(r.dir, 'db.yaml'), app('db', 'dbb'));
    const status = r.git('status', '--porcelain');
    const { out } = diffJson(r.dir);
    assert.match(runCli(['diff'], { cwd: r.dir }).stdout, /^kube-netlens diff: the merge base with main \([0-9a-f]{12}\) → the working tree\n/);
    assert.deepEqual(out.introduced.map((f) => f.file).sort(), ['db.yaml', 'web.yaml'], 'the branch’s commit and the uncommitted file');
    assert.equal(r.git('status', '--porcelain'), status);
    assert.equal(readFileSync(join(r.dir, 'web.yaml'), 'utf8'), app('web', 'wbe'));
    assert.equal(r.git('rev-parse', '--abbrev-ref', 'HEAD').trim(), 'feature');
  });

  it('writes Markdown for a pull-request comment and text for a terminal', () => {
    const r = repo();
    r.commit({ 'web.yaml': app('web', 'web') }, 'clean');
    r.commit({ 'web.yaml': app('web', 'w`b*e') }, 'typo');
    const md = runCli(['diff', '--format', 'markdown', 'HEAD~1', 'HEAD'], { cwd: r.dir }).stdout;
    // the API server rejects the label value (api-validation), and the selector matches nothing
    assert.match(md, /^### kube-netlens: 2 introduced, 0 fixed, 0 unchanged\n/);
    assert.match(md, /\*\*Introduced\*\*\n\n- error `api-validation` at `web\.yaml:5`: .*\n- warning `service-selector-no-match` at `web\.yaml:5`: /);
    assert.match(md, /\*\*DNS names\*\*\n\n- removed `web\.shop\.svc\.cluster\.local` \(A, Service `shop\/web`\)/, 'a rejected Service has no name');
    assert.ok(!md.includes('w`b'), 'manifest text cannot break out of Markdown');
    const text = runCli(['diff', 'HEAD~1', 'HEAD'], { cwd: r.dir }).stdout;
    assert.match(
      text,
      /^kube-netlens diff: HEAD~1 \([0-9a-f]{12}\) → HEAD \([0-9a-f]{12}\)\n\nFindings introduced \(2\)\n {2}web\.yaml:5: error api-validation: /,
    );
  });

  it('reports Ingress and Gateway API routes added, removed and re-pointed, and NetworkPolicy reach that changes', () => {
    const ingress = (paths: string) => `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: site, namespace: shop}
spec:
  rules:
    - host: shop.example.com
      http:
        paths:
${paths}`;
    const path = (p: string, service: string, port: number | string) =>
      `          - {path: ${p}, pathType: Prefix, backend: {service: {name: ${service}, port: {${typeof port === 'number' ? 'number' : 'name'}: ${port}}}}}\n`;
    const httpRoute = (name: string, gateway: string, backend: string) => `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: ${name}, namespace: shop}
spec:
  parentRefs: [{name: ${gateway}}]
  hostnames: [api.example.com]
  rules:
    - matches: [{path: {type: PathPrefix, value: /v1}}]
      backendRefs: [{name: ${backend}, port: 80}]
`;
    const gateways = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: public, namespace: shop}
spec:
  gatewayClassName: example
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: internal, namespace: shop}
spec:
  gatewayClassName: example
  listeners: [{name: http, port: 80, protocol: HTTP}]
`;
    // api admits web on every port; the change narrows it to TCP 8080 and adds a policy that isolates db from everyone
    const policies = (apiPorts: string, db: boolean) => `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: api, namespace: shop}
spec:
  podSelector: {matchLabels: {app: api}}
  ingress:
    - from: [{podSelector: {matchLabels: {app: web}}}]
${apiPorts}${
      db
        ? `---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: db-isolated, namespace: shop}
spec:
  podSelector: {matchLabels: {app: db}}
  policyTypes: [Ingress]
`
        : ''
    }`;
    const r = repo();
    r.commit(
      {
        'apps.yaml': [app('web', 'web'), app('api', 'api'), app('db', 'db')].join('---\n'),
        'ingress.yaml': ingress(path('/', 'web', 80) + path('/old', 'web', 80)),
        'gateways.yaml': gateways,
        'routes.yaml': `${httpRoute('api', 'public', 'api')}---\n${httpRoute('legacy', 'public', 'web')}`,
        'policies.yaml': policies('', false),
      },
      'before',
    );
    r.commit(
      {
        'ingress.yaml': ingress(path('/', 'api', 80) + path('/new', 'web', 'http')),
        'routes.yaml': `${httpRoute('api', 'internal', 'web')}---\n${httpRoute('beta', 'public', 'api')}`,
        'policies.yaml': policies('      ports: [{port: 8080}]\n', true),
      },
      'after',
    );
    const { out } = diffJson(r.dir, 'HEAD~1', 'HEAD');
    assert.deepEqual(
      out.routes.added.map((x) => [x.key, x.parents, x.rules]),
      [['HTTPRoute shop/beta', ['Gateway shop/public'], [{ match: 'api.example.com PathPrefix /v1', to: 'Service shop/api:80' }]]],
    );
    assert.deepEqual(
      out.routes.removed.map((x) => x.key),
      ['HTTPRoute shop/legacy'],
    );
    assert.deepEqual(out.routes.changed, [
      {
        key: 'HTTPRoute shop/api',
        parentsAdded: ['Gateway shop/internal'],
        parentsRemoved: ['Gateway shop/public'],
        rulesAdded: [],
        rulesRemoved: [],
        repointed: [{ match: 'api.example.com PathPrefix /v1', from: 'Service shop/api:80', to: 'Service shop/web:80' }],
      },
      {
        key: 'Ingress shop/site',
        parentsAdded: [],
        parentsRemoved: [],
        rulesAdded: [{ match: 'shop.example.com/new', to: 'Service web:http' }],
        rulesRemoved: [{ match: 'shop.example.com/old', to: 'Service web:80' }],
        repointed: [{ match: 'shop.example.com/', from: 'Service web:80', to: 'Service api:80' }],
      },
    ]);
    // the connections into db that the new policy denies, and web → api narrowed to one port; nothing else changed
    assert.deepEqual(out.reach, [
      { connection: 'external => shop/db[Deployment]', before: 'allowed All Connections', after: 'denied' },
      { connection: 'shop/api[Deployment] => shop/db[Deployment]', before: 'allowed All Connections', after: 'denied' },
      { connection: 'shop/web[Deployment] => shop/api[Deployment]', before: 'allowed All Connections', after: 'allowed TCP 8080' },
      { connection: 'shop/web[Deployment] => shop/db[Deployment]', before: 'allowed All Connections', after: 'denied' },
    ]);
    const text = runCli(['diff', 'HEAD~1', 'HEAD'], { cwd: r.dir }).stdout;
    assert.match(
      text,
      /\nRoutes added, removed or re-pointed \(4\)\n {2}\+ HTTPRoute shop\/beta via Gateway shop\/public\n {6}api\.example\.com PathPrefix \/v1 → Service shop\/api:80\n {2}- HTTPRoute shop\/legacy\n {2}~ HTTPRoute shop\/api\n {6}\+ parent Gateway shop\/internal\n {6}- parent Gateway shop\/public\n {6}~ api\.example\.com PathPrefix \/v1 → Service shop\/web:80 \(was Service shop\/api:80\)\n {2}~ Ingress shop\/site\n/,
    );
    assert.match(
      text,
      /\nNetworkPolicy reach changes \(4\)\n {2}- external => shop\/db\[Deployment\]: allowed All Connections → denied\n(?:.*\n) {2}~ shop\/web\[Deployment\] => shop\/api\[Deployment\]: allowed All Connections → allowed TCP 8080\n/,
    );
    const md = runCli(['diff', '--format', 'markdown', 'HEAD~1', 'HEAD'], { cwd: r.dir }).stdout;
    assert.match(
      md,
      /\*\*Routes\*\*\n\n- added `HTTPRoute shop\/beta` via `Gateway shop\/public`: `api\.example\.com PathPrefix \/v1 → Service shop\/api:80`\n- removed `HTTPRoute shop\/legacy`\n- `HTTPRoute shop\/api`: `\+ parent Gateway shop\/internal`, /,
    );
    assert.match(md, /\*\*NetworkPolicy reach\*\*\n\n- `external => shop\/db\[Deployment\]`: `allowed All Connections` → `denied`\n/);
  });

  it('names the builds a change of a base is in, once for all of them', () => {
    const base = (backend: string, port: number) => `${app('web', 'web')}---\n${app('api', 'api')}---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: site, namespace: shop}
spec:
  defaultBackend: {service: {name: ${backend}, port: {number: 80}}}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: api, namespace: shop}
spec:
  podSelector: {matchLabels: {app: api}}
  ingress: [{from: [{podSelector: {matchLabels: {app: web}}}], ports: [{port: ${port}}]}]
`;
    const r = repo();
    mkdirSync(join(r.dir, 'base'));
    for (const o of ['eu', 'us']) mkdirSync(join(r.dir, 'overlays', o), { recursive: true });
    const overlay = (o: string) => `resources: [../../base]\ncommonAnnotations: {region: ${o}}\n`;
    r.commit(
      {
        'base/kustomization.yaml': 'resources: [app.yaml]\n',
        'base/app.yaml': base('web', 80),
        'overlays/eu/kustomization.yaml': overlay('eu'),
        'overlays/us/kustomization.yaml': overlay('us'),
      },
      'before',
    );
    r.commit({ 'base/app.yaml': base('api', 8080) }, 'after');
    const { out } = diffJson(r.dir, 'HEAD~1', 'HEAD');
    const units = ['build overlays/eu', 'build overlays/us'];
    assert.deepEqual(
      out.routes.changed.map((c) => [c.key, (c as { units?: string[] }).units, c.repointed]),
      [['Ingress shop/site', units, [{ match: 'default backend', from: 'Service web:80', to: 'Service api:80' }]]],
    );
    assert.deepEqual(out.reach, [{ connection: 'shop/web[Deployment] => shop/api[Deployment]', units, before: 'allowed TCP 80', after: 'allowed TCP 8080' }]);
    const text = runCli(['diff', 'HEAD~1', 'HEAD'], { cwd: r.dir }).stdout;
    assert.match(
      text,
      /\n {2}~ Ingress shop\/site \(in build overlays\/eu, build overlays\/us\)\n {6}~ default backend → Service api:80 \(was Service web:80\)\n/,
    );
    assert.match(
      text,
      /\n {2}~ shop\/web\[Deployment\] => shop\/api\[Deployment\]: allowed TCP 80 → allowed TCP 8080 \(in build overlays\/eu, build overlays\/us\)\n/,
    );
  });

  it('says what is wrong with a commit that does not exist or a folder outside git (exit 2)', () => {
    const r = repo();
    r.commit({ 'web.yaml': app('web', 'web') }, 'clean');
    const missing = runCli(['diff', 'nosuchbranch'], { cwd: r.dir });
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /'nosuchbranch' is not a commit of this repository/);
    const outside = runCli(['diff'], { cwd: tempDir('kube-netlens-nogit-') });
    assert.equal(outside.status, 2);
    assert.match(outside.stderr, /diff needs a git repository/);
  });
});
