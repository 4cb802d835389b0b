// Restricted Mode, an untrusted workspace (docs/robustness.md, third round): no setting from the workspace chooses a
// program (helm, kustomize, kubectl) or lets a kustomization read outside its folder, none of them runs, and the
// native Kustomize build reads nothing outside the workspace folders, not even a base folder kustomize itself would
// load; in a trusted workspace that base builds.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { diskReaderWithin } from '../../server/src/workspace/diskReader';
import { helmForSettings } from '../../server/src/workspace/helm';
import { kustomizeForSettings } from '../../server/src/workspace/kustomizeBinary';
import { readSettings, type Settings } from '../../server/src/workspace/settings';
import { createWorkspace } from '../../server/src/workspace/workspace';
import { canonicalUri } from '../../server/src/workspace/uri';
import { secretMarker } from '../helpers/escapeCases';

describe('Restricted Mode (an untrusted workspace)', () => {
  let top: string;
  let ws: string;
  before(() => {
    top = realpathSync(mkdtempSync(join(tmpdir(), 'kube-netlens-restricted-')));
    ws = join(top, 'ws');
    mkdirSync(join(top, 'shared-base'), { recursive: true });
    writeFileSync(join(top, 'shared-base', 'kustomization.yaml'), 'resources:\n  - cm.yaml\n');
    writeFileSync(join(top, 'shared-base', 'cm.yaml'), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\ndata:\n  v: ${secretMarker}\n`);
    mkdirSync(join(ws, 'app'), { recursive: true });
    writeFileSync(join(ws, 'app', 'kustomization.yaml'), 'resources:\n  - ../../shared-base\n');
    writeFileSync(join(ws, 'inside.txt'), 'inside\n');
    symlinkSync(join(top, 'shared-base', 'cm.yaml'), join(ws, 'link.yaml'));
  });
  after(() => rmSync(top, { recursive: true, force: true }));

  it('settings from an untrusted workspace name no program and lift no restriction; nothing would run', () => {
    const raw = { helm: { path: '/bin/sh', releases: [{ chart: '/etc', name: 'x' }] }, kustomize: { path: '/bin/sh', loadRestrictor: 'none' } };
    const s = readSettings(raw, false);
    assert.equal(s.helm.allowed, false);
    assert.equal(s.helm.path, undefined);
    assert.deepEqual(s.helm.releases, []);
    assert.equal(s.kustomize.allowed, false);
    assert.equal(s.kustomize.path, undefined);
    assert.equal(s.kustomize.loadRestrictor, 'rootOnly');
    const env = { PATH: process.env.PATH };
    assert.equal(helmForSettings(s.helm, env), undefined, 'helm does not run');
    assert.equal(kustomizeForSettings(s.kustomize, env), undefined, 'neither kustomize nor kubectl runs');
  });

  it('the disk reader of an untrusted workspace reads only inside its folders, links resolved', () => {
    const reader = diskReaderWithin([ws]);
    assert.equal(reader.read(pathToFileURL(join(ws, 'inside.txt')).href), 'inside\n');
    assert.equal(reader.read(pathToFileURL(join(top, 'shared-base', 'cm.yaml')).href), undefined, 'outside');
    assert.equal(reader.read(pathToFileURL(join(ws, 'link.yaml')).href), undefined, 'a link leading out');
    assert.equal(reader.list(pathToFileURL(join(top, 'shared-base')).href), undefined, 'a folder outside');
    assert.ok(reader.list(pathToFileURL(ws).href)?.includes('app'));
    assert.equal(reader.realUri?.(pathToFileURL(join(ws, 'link.yaml')).href), canonicalUri(pathToFileURL(join(top, 'shared-base', 'cm.yaml')).href));
  });

  const build = (trusted: boolean) => {
    const read = readSettings({}, trusted);
    const settings: Settings = { ...read, kustomize: { ...read.kustomize, folders: [ws] } };
    const workspace = createWorkspace(settings);
    const uri = canonicalUri(pathToFileURL(join(ws, 'app', 'kustomization.yaml')).href);
    workspace.replaceDisk(new Map([[uri, readFileSync(join(ws, 'app', 'kustomization.yaml'), 'utf8')]]), []);
    const files = workspace.snapshot().analysis.cluster.files;
    return { problems: files.find((f) => f.uri === uri)?.problems.map((p) => p.message) ?? [], text: files.map((f) => f.text).join('\n') };
  };

  it('natively, a base outside the workspace is not read in an untrusted workspace, and builds in a trusted one', () => {
    const untrusted = build(false);
    // nothing is there for the build: outside the kustomization's folder, that is the restrictor's refusal (kustomize
    // words a resource it can load neither as a file nor as a folder with the file's refusal too)
    assert.ok(
      untrusted.problems.some((m) => /Kustomize build fails: security; file '..\/..\/shared-base' is not in or below/.test(m)),
      untrusted.problems.join(' | '),
    );
    assert.ok(!untrusted.text.includes(secretMarker));
    const trusted = build(true);
    assert.deepEqual(trusted.problems, []);
    assert.ok(trusted.text.includes(secretMarker), 'kustomize loads a base folder with its own root: trusted, it builds');
  });
});
