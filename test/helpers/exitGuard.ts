// Loaded before every test file (scripts/test.mjs): once the file's tests and hooks are done, its process has
// `graceMs` to end by itself, as it does when nothing is left running. A child process or a pipe a test left open
// would otherwise hold it for ever, and the run with it. Then the guard names what is still open and ends the process
// with the exit code the tests set, after the reports are written (the runner's own `--test-force-exit` ends it at
// once, which can cut the last reports short).

//
// Under scripts/test.mjs the file runs with a private home folder and temp dir (KUBE_NETLENS_TEST_SANDBOX): what the
// file added there and did not remove by the time its process exits is named, and fails the file.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { childProcesses } from './processes';
// first, so that its exit listener removes the file's temporary folders before the check below
import './tempDirs';

// KUBE_NETLENS_EXIT_GRACE_MS: shorter for the guard's own test (test/exitGuard.test.ts).
const graceMs = Number(process.env.KUBE_NETLENS_EXIT_GRACE_MS ?? 10_000);

after(() => {
  // unref'd: the guard's own timer holds nothing, and the runtime does not list it among what does
  setTimeout(() => {
    const open = holders();
    process.stderr.write(
      `\nThis test file's process was still running ${graceMs / 1000} s after its last test, held by: ${open.join(', ') || 'nothing the runtime names'}${children()}; ending it.\n`,
    );
    process.exit();
  }, graceMs).unref();
});

/**
 * What keeps the process running, as the runtime names it (`Timeout`, `ProcessWrap`, `PipeWrap`…), but the file's
 * own stdout and stderr: pipes to the test runner (or a terminal) that the runtime lists too, although they hold
 * nothing when idle. (They used to be all the message named when a timer held the process: "held by: PipeWrap,
 * PipeWrap" for a 60 s timer code-server's start left running.)
 */
function holders(): string[] {
  const open = process.getActiveResourcesInfo();
  for (const stream of [process.stdout, process.stderr]) {
    const type = (stream as { _handle?: object })._handle?.constructor.name;
    const i = type ? open.indexOf(`${type}Wrap`) : -1;
    if (i >= 0) open.splice(i, 1);
  }
  return open;
}

/** The processes this one still has as children, for the message. */
function children(): string {
  const named = childProcesses(process.pid);
  return named.length ? `; child processes: ${named.join(', ')}` : '';
}

const sandbox = process.env.KUBE_NETLENS_TEST_SANDBOX;
if (sandbox) {
  const before = new Set(sandboxEntries(sandbox));
  process.on('exit', () => {
    const added = sandboxEntries(sandbox).filter((e) => !before.has(e));
    if (!added.length) return;
    const shown = added.slice(0, 20).join('\n  ') + (added.length > 20 ? `\n  … and ${added.length - 20} more` : '');
    process.stderr.write(`\nThis test file left files in the home folder or temp dir of the test run (they stand for the user's):\n  ${shown}\n`);
    process.exitCode = 1;
  });
}

/** Everything in the run's home folder, and what is in its temp dir but tsx's compile cache. */
function sandboxEntries(dir: string): string[] {
  const list = (sub: string): string[] => {
    try {
      return (readdirSync(join(dir, sub), { recursive: true }) as string[]).map((p) => join(sub, p));
    } catch {
      return [];
    }
  };
  return [...list('home'), ...list('tmp').filter((p) => !/^tmp[/\\]tsx-\d+/.test(p))];
}
