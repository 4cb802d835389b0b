// `kube-netlens diff` on temporary git repositories: commits that add, fix and move mistakes, the working tree as
// HEAD (left as it was), the default base (the merge base with main), DNS names added and removed, the three formats
// and the exit codes.

import { tempDir } from '../helpers/tempDirs';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
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
  services: { added: { key: string; endpoints?: number }[]; removed: { key: string }[]; changed: { before: { key: string; endpoints?: number }; after: { key: string; endpoints?: number } }[] };
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
    assert.deepEqual(out.introduced.map((f) => `${f.file} ${f.code}`), ['api.yaml service-selector-no-match']);
    assert.deepEqual(out.fixed.map((f) => `${f.file} ${f.code}`), ['web.yaml service-selector-no-match']);
    assert.equal(out.unchanged, 0);
    assert.ok(out.dns.added.some((d) => d.name === 'api.shop.svc.cluster.local' && d.type === 'A'), JSON.stringify(out.dns.added));
    assert.ok(out.dns.removed.some((d) => d.name === 'cart.shop.svc.cluster.local'), JSON.stringify(out.dns.removed));
    assert.deepEqual(out.services.added.map((x) => [x.key, x.endpoints]), [['shop/api', 0]]);
    assert.deepEqual(out.services.removed.map((x) => x.key), ['shop/cart']);
    assert.deepEqual(out.services.changed.map((c) => [c.after.key, c.before.endpoints, c.after.endpoints]), [['shop/web', 0, 1]], 'the fixed selector gives web its pod');
    assert.match(runCli(['diff', 'HEAD~1', 'HEAD'], { cwd: r.dir }).stdout, /\nServices added, removed or changed \(3\)\n {2}\+ shop\/api: 0 endpoints\n {2}- shop\/cart\n {2}~ shop\/web: 0 endpoints → 1 endpoint\n$/);
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
    assert.match(text, /^kube-netlens diff: HEAD~1 \([0-9a-f]{12}\) → HEAD \([0-9a-f]{12}\)\n\nFindings introduced \(2\)\n {2}web\.yaml:5: error api-validation: /);
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
