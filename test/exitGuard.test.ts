// The exit guard (test/helpers/exitGuard.ts) names what holds a test file's process after its tests: a timer by its
// name, not the file's own stdout and stderr (pipes to the runner, listed by the runtime but holding nothing), which were
// all it used to name ("held by: PipeWrap, PipeWrap"). And the code-server helpers (scripts/codeServer.mjs) leave no
// timer running once they are done, which is what held every end-to-end file that opened code-server.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { stopProcessGroup, within } from '../scripts/codeServer.mjs';
import { repoRoot } from './helpers/bundle';
import { tempDir } from './helpers/tempDirs';

/** Runs `body` as the one test of a file under `node --test` with the guard, its grace cut to 300 ms. */
function runGuarded(body: string): { stderr: string; status: number | null; ms: number } {
  const file = join(tempDir('kube-netlens-guard-'), 'scratch.test.ts');
  writeFileSync(file, `import { it } from 'node:test';\nit('scratch', async () => {\n${body}\n});\n`);
  const env: NodeJS.ProcessEnv = { ...process.env, KUBE_NETLENS_EXIT_GRACE_MS: '300' };
  // the scratch file's own run: not a file of this run's sandbox checks
  delete env.KUBE_NETLENS_TEST_SANDBOX;
  // a run of its own, not a file of this one (which would refuse to run files)
  delete env.NODE_TEST_CONTEXT;
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', './test/helpers/exitGuard.ts', '--test', '--test-reporter=spec', file], {
    cwd: repoRoot,
    encoding: 'utf8',
    env,
    timeout: 60_000,
  });
  return { stderr: r.stdout + r.stderr, status: r.status, ms: Date.now() - started };
}

/** The timers that hold this process, as the runtime lists them. */
function timers(): string[] {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout');
}

describe('the exit guard of test files', () => {
  it("names a timer that holds the process, not the file's own stdout and stderr, and ends it", () => {
    const r = runGuarded('  setTimeout(() => {}, 60_000);');
    assert.match(r.stderr, /still running 0\.3 s after its last test, held by: Timeout; ending it\./);
    assert.doesNotMatch(r.stderr, /PipeWrap/);
    assert.equal(r.status, 0, 'the tests passed: the exit code is theirs');
    assert.ok(r.ms < 30_000, `ended long before the timer (${r.ms} ms)`);
  });

  it('says nothing when the file leaves nothing running', () => {
    const r = runGuarded('  await new Promise((resolve) => setTimeout(resolve, 10));');
    assert.doesNotMatch(r.stderr, /still running/);
    assert.equal(r.status, 0);
  });
});

describe('the code-server helpers leave no timer running', () => {
  it("within: the value in time, the timeout's answer or error after it; the timer cleared either way", async () => {
    const before = timers().length;
    assert.equal(await within(Promise.resolve('ready'), 60_000, () => 'late'), 'ready');
    assert.equal(await within(new Promise(() => {}), 20, () => 'late'), 'late');
    await assert.rejects(
      within(new Promise(() => {}), 20, () => {
        throw new Error('did not listen');
      }),
      /did not listen/,
    );
    assert.equal(timers().length, before, 'no timer of within is left');
  });

  it('stopProcessGroup: once the child has ended, no 5 s timer is left', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
    await new Promise((resolve) => child.once('spawn', resolve));
    const before = timers().length;
    await stopProcessGroup(child);
    assert.notEqual(child.signalCode ?? child.exitCode, null, 'the child ended');
    assert.equal(timers().length, before);
  });
});
