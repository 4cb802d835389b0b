// The one reader of manifests from disk: regular files only, inside the roots once links are resolved, never more
// than the cap, never blocking on a FIFO or a device.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readBounded, realRoots } from '../../server/src/workspace/readBounded';

describe('readBounded', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'netlens-read-')));
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'netlens-read-outside-')));
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  mkdirSync(join(dir, 'ws'));
  writeFileSync(join(dir, 'ws', 'a.yaml'), 'kind: ConfigMap\n');
  writeFileSync(join(dir, 'ws', 'big.yaml'), 'x'.repeat(4096));
  writeFileSync(join(outside, 'secret.yaml'), 'kind: Secret\n');
  execFileSync('mkfifo', [join(dir, 'ws', 'fifo.yaml')]);
  symlinkSync('/dev/zero', join(dir, 'ws', 'zero.yaml'));
  symlinkSync('/proc/self/fd/0', join(dir, 'ws', 'stdin.yaml'));
  symlinkSync('/proc/self/fd/1', join(dir, 'ws', 'stdout.yaml'));
  symlinkSync(join(outside, 'secret.yaml'), join(dir, 'ws', 'out.yaml'));
  symlinkSync(join(dir, 'ws', 'a.yaml'), join(dir, 'ws', 'in.yaml'));
  const roots = realRoots([join(dir, 'ws'), join(dir, 'gone')]);
  const limits = { maxBytes: 1024, roots };

  it('reads a regular file inside the roots, also through a link that stays inside', () => {
    const st = statSync(join(dir, 'ws', 'a.yaml'));
    assert.deepEqual(readBounded(join(dir, 'ws', 'a.yaml'), limits), {
      ok: true,
      text: 'kind: ConfigMap\n',
      realPath: join(dir, 'ws', 'a.yaml'),
      identity: `${st.dev}:${st.ino}`,
    });
    const linked = readBounded(join(dir, 'ws', 'in.yaml'), limits);
    assert.equal(linked.ok && linked.identity, `${st.dev}:${st.ino}`, 'the file a link leads to is the same file');
    assert.deepEqual(roots, [join(dir, 'ws')], 'a root that does not exist is left out');
  });

  it("refuses FIFOs, devices and the process's own stdin and stdout without blocking", () => {
    const started = Date.now();
    for (const n of ['fifo', 'zero', 'stdin', 'stdout']) {
      const r = readBounded(join(dir, 'ws', `${n}.yaml`), limits);
      assert.equal(r.ok, false, n);
      if (!r.ok) assert.ok(['not-regular', 'missing', 'unreadable', 'outside-roots'].includes(r.refusal), `${n}: ${r.refusal}`);
    }
    assert.equal((readBounded(join(dir, 'ws', 'fifo.yaml'), limits) as { refusal: string }).refusal, 'not-regular');
    assert.equal((readBounded(join(dir, 'ws', 'zero.yaml'), { maxBytes: 1024 }) as { refusal: string }).refusal, 'not-regular');
    assert.ok(Date.now() - started < 2000);
  });

  it('never follows a link out of the roots, and never reads past the cap', () => {
    const out = readBounded(join(dir, 'ws', 'out.yaml'), limits);
    assert.equal(out.ok ? 'read' : out.refusal, 'outside-roots');
    const big = readBounded(join(dir, 'ws', 'big.yaml'), limits);
    assert.equal(big.ok ? 'read' : big.refusal, 'too-large');
    assert.equal(readBounded(join(dir, 'ws', 'nothing.yaml'), limits).ok, false);
  });

  it('resolves linked folders too, with the folder cache of one pass as without it', () => {
    mkdirSync(join(outside, 'sub'), { recursive: true });
    writeFileSync(join(outside, 'sub', 'b.yaml'), 'kind: Secret\n');
    symlinkSync(join(outside, 'sub'), join(dir, 'ws', 'linked'));
    mkdirSync(join(dir, 'ws', 'real'));
    writeFileSync(join(dir, 'ws', 'real', 'c.yaml'), 'kind: ConfigMap\n');
    symlinkSync(join(dir, 'ws', 'real'), join(dir, 'ws', 'inner'));
    for (const realFolders of [undefined, new Map<string, string>()]) {
      for (let pass = 0; pass < 2; pass++) {
        const out = readBounded(join(dir, 'ws', 'linked', 'b.yaml'), { ...limits, realFolders });
        assert.equal(out.ok ? 'read' : out.refusal, 'outside-roots', 'a file in a folder linked out of the roots');
        const inner = readBounded(join(dir, 'ws', 'inner', 'c.yaml'), { ...limits, realFolders });
        assert.deepEqual(inner.ok && inner.realPath, join(dir, 'ws', 'real', 'c.yaml'), 'a file in a folder linked inside');
      }
    }
  });

  it('checks a file listed as a regular file just as well, though it skips its lstat', () => {
    const listed = { ...limits, listedAsFile: true };
    assert.deepEqual(readBounded(join(dir, 'ws', 'a.yaml'), listed), readBounded(join(dir, 'ws', 'a.yaml'), limits));
    // What a listing said may no longer hold when the file is opened: each kind of swap is caught on the open.
    for (const n of ['out', 'in', 'fifo', 'zero', 'stdin', 'big', 'nothing']) {
      const was = readBounded(join(dir, 'ws', `${n}.yaml`), limits);
      const now = readBounded(join(dir, 'ws', `${n}.yaml`), listed);
      assert.equal(now.ok ? 'read' : now.refusal, was.ok ? 'read' : was.refusal, n);
    }
  });

  it('reads a regular file whose size the system does not report, still within the cap', () => {
    const status = readBounded('/proc/self/status', { maxBytes: 64 * 1024 });
    assert.ok(status.ok && status.text.includes('VmHWM'), 'the whole file, though stat says 0 bytes');
    const capped = readBounded('/proc/self/status', { maxBytes: 16 });
    assert.equal(capped.ok ? 'read' : capped.refusal, 'too-large');
  });
});
