// Progress of `check` on a terminal (cli/progress.ts): counts on one stderr line, rewritten in place and cleared
// before the results; none unless the caller hands a writer over (cli/main.ts does only when stderr is a terminal).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../server/src/cli/runCli';
import { terminalProgress } from '../../server/src/cli/progress';

const builds = join(__dirname, '..', 'fixtures', 'lsp', 'kustomize-builds');

describe('CLI progress', () => {
  it('rewrites one line with the count, at most every 100 ms unless complete, and clears it', () => {
    const out: string[] = [];
    let t = 0;
    const p = terminalProgress(
      (s) => out.push(s),
      () => t,
    );
    p.count('Kustomize roots rendered', 1, 3);
    t = 50;
    p.count('Kustomize roots rendered', 2, 3);
    p.count('Kustomize roots rendered', 3, 3);
    p.clear();
    assert.deepEqual(out, ['\r\x1b[Kkube-netlens: 1/3 Kustomize roots rendered', '\r\x1b[Kkube-netlens: 3/3 Kustomize roots rendered', '\r\x1b[K']);
  });

  it('clears nothing it did not write', () => {
    const out: string[] = [];
    terminalProgress((s) => out.push(s)).clear();
    assert.deepEqual(out, []);
  });

  it('check counts the roots it renders on the progress line, and the results are the same without it', () => {
    const writes: string[] = [];
    const withProgress = runCli(['check', builds, '--format', 'json'], { stdoutIsTTY: false, env: {}, progress: (s) => writes.push(s) });
    const without = runCli(['check', builds, '--format', 'json'], { stdoutIsTTY: false, env: {} });
    assert.ok(
      writes.some((w) => w.endsWith('2/2 Kustomize roots rendered')),
      JSON.stringify(writes),
    );
    assert.equal(writes.at(-1), '\r\x1b[K', 'the line is cleared before the results');
    assert.deepEqual(withProgress, without);
  });
});
