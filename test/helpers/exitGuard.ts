// Loaded before every test file (scripts/test.mjs): once the file's tests and hooks are done, its process has
// `graceMs` to end by itself, as it does when nothing is left running. A child process or a pipe a test left open
// would otherwise hold it for ever, and the run with it. Then the guard names what is still open and ends the process
// with the exit code the tests set, after the reports are written (the runner's own `--test-force-exit` ends it at
// once, which can cut the last reports short).

import { after } from 'node:test';
import { childProcesses } from './processes';

const graceMs = 10_000;

after(() => {
  setTimeout(() => {
    const open = process.getActiveResourcesInfo().filter((r) => r !== 'Timeout' && r !== 'TTYWrap');
    process.stderr.write(`\nThis test file's process was still running ${graceMs / 1000} s after its last test, held by: ${open.join(', ') || 'nothing the runtime names'}${children()}; ending it.\n`);
    process.exit();
  }, graceMs).unref();
});

/** The processes this one still has as children, for the message. */
function children(): string {
  const named = childProcesses(process.pid);
  return named.length ? `; child processes: ${named.join(', ')}` : '';
}
