// The CLI's walk of the PATH arguments: each file once, however many paths lead to it; only YAML files; links
// followed inside the folder given, never out of it.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { collectFiles, isCollectError } from '../../server/src/cli/collectFiles';

describe('collectFiles', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'netlens-collect-')));
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'netlens-collect-outside-')));
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  mkdirSync(join(dir, 'ws', 'apps'), { recursive: true });
  writeFileSync(join(dir, 'ws', 'apps', 'a.yaml'), 'kind: ConfigMap\n');
  writeFileSync(join(dir, 'ws', 'apps', 'notes.txt'), 'not a manifest\n');
  writeFileSync(join(outside, 'secret.yaml'), 'kind: Secret\n');
  // one file reached three ways: itself, a link beside it, and a linked folder
  symlinkSync(join(dir, 'ws', 'apps', 'a.yaml'), join(dir, 'ws', 'b.yaml'));
  symlinkSync(join(dir, 'ws', 'apps'), join(dir, 'ws', 'also-apps'));
  symlinkSync(join(outside, 'secret.yaml'), join(dir, 'ws', 'out.yaml'));
  // a folder link out of the checked folder (`etc -> /etc` in a cloned repository)
  mkdirSync(join(outside, 'private'));
  writeFileSync(join(outside, 'private', 'keys.yaml'), 'kind: Secret\n');
  symlinkSync(outside, join(dir, 'ws', 'linked-out'));

  it('reads each file once, whichever path reaches it first, and only YAML files', () => {
    const got = collectFiles([join(dir, 'ws')]);
    assert.ok(!isCollectError(got));
    assert.deepEqual(
      got.sources.map((s) => s.uri.slice(dir.length + 1)),
      ['ws/also-apps/a.yaml'],
    );
    assert.ok(
      got.notes.some((n) => n.includes('out.yaml') && n.includes('outside')),
      got.notes.join('\n'),
    );
  });

  it('never walks a linked folder that leads out of the folder given: its file names are not even listed', () => {
    const got = collectFiles([join(dir, 'ws')]);
    assert.ok(!isCollectError(got));
    assert.ok(
      got.notes.some((n) => n.endsWith(`${join('ws', 'linked-out')}: a link to a folder outside the folders checked`)),
      got.notes.join('\n'),
    );
    assert.ok(
      !got.notes.some((n) => n.includes('keys.yaml') || n.includes('private') || (n.includes('secret.yaml') && n.includes('linked-out'))),
      got.notes.join('\n'),
    );
    assert.ok(!got.sources.some((s) => s.uri.includes('linked-out')));
  });

  it('reads a file named twice on the command line once', () => {
    const got = collectFiles([join(dir, 'ws', 'apps', 'a.yaml'), join(dir, 'ws', 'b.yaml'), join(dir, 'ws', 'apps')]);
    assert.ok(!isCollectError(got));
    assert.deepEqual(
      got.sources.map((s) => s.uri.slice(dir.length + 1)),
      ['ws/apps/a.yaml'],
    );
  });
});
