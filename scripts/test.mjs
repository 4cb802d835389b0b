// Runs the test files under test/ with Node's built-in runner (TypeScript through tsx).
// Usage: node scripts/test.mjs [substring...]  — only files whose path contains one of the substrings.
//
// Bounded by construction: one test file at a time on every machine (the runner's default follows the core count the
// kernel reports, which a CI machine may report as many more than it has), each test fails after `testTimeoutMs`
// (the failure names the test), a file's process ends at the latest 10 s after its tests (test/helpers/exitGuard.ts:
// a handle a test left open, such as a child process, cannot hold the run), and the whole run is stopped after
// `runTimeoutMs`.
//
// Nothing is written outside the checkout: the test processes run with a private home folder and temp dir (HOME,
// the XDG folders and TMPDIR in a folder of their own under the system temp dir), which must both be empty when
// the tests are done (test/helpers/exitGuard.ts names the test file that left something) and are removed at the end.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { updateDerivedFiles } from './derivedFiles.mjs';

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'fixtures' || name === 'node_modules') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
const skipE2e = !filters.includes('e2e');
let files = walk('test', []).sort();
if (filters.length) files = files.filter((f) => filters.some((s) => f.includes(s)));
else if (skipE2e) files = files.filter((f) => !f.startsWith(join('test', 'e2e')));
if (!files.length) {
  console.error('no test files matched');
  process.exit(1);
}
// The tests read the rule registry and docs/rules.md, which are derived from the rule modules: brought up to date
// first (on CI: checked), so a rule just added is tested.
updateDerivedFiles();
const testTimeoutMs = 5 * 60_000;
// Both runs together stay well inside CI's limit, with the installs (about 6 minutes in all when nothing hangs).
const runTimeoutMs = (skipE2e ? 20 : 15) * 60_000;
const args = [
  '--import',
  'tsx',
  '--import',
  './test/helpers/exitGuard.ts',
  '--test',
  '--test-reporter=spec',
  '--test-concurrency=1',
  `--test-timeout=${testTimeoutMs}`,
  ...files,
];
const sandbox = mkdtempSync(join(tmpdir(), 'kube-netlens-test-run-'));
const home = join(sandbox, 'home');
const temp = join(sandbox, 'tmp');
mkdirSync(home);
mkdirSync(temp);
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_CACHE_HOME: join(home, '.cache'),
  XDG_DATA_HOME: join(home, '.local', 'share'),
  XDG_STATE_HOME: join(home, '.local', 'state'),
  TMPDIR: temp,
  KUBE_NETLENS_TEST_SANDBOX: sandbox,
  // npm (the bundle's build, the code-server set-up) keeps the user's configuration and cache, and writes no log file
  npm_config_userconfig: process.env.npm_config_userconfig ?? join(homedir(), '.npmrc'),
  npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
  npm_config_logs_max: '0',
  npm_config_update_notifier: 'false',
};
let status;
try {
  const r = spawnSync(process.execPath, args, { stdio: 'inherit', timeout: runTimeoutMs, killSignal: 'SIGKILL', env });
  if (r.error && r.error.code === 'ETIMEDOUT') {
    console.error(
      `\nThe tests did not finish within ${runTimeoutMs / 60_000} minutes and were stopped; files run in the order of their paths, and the one after the last results shown above was still running.`,
    );
    status = 1;
  } else {
    status = r.status ?? 1;
    const left = leftovers();
    if (left.length) {
      const shown = left.slice(0, 20).join('\n  ') + (left.length > 20 ? `\n  … and ${left.length - 20} more` : '');
      console.error(`\nThe tests left files in their home folder or temp dir (which stand for yours):\n  ${shown}`);
      status = 1;
    }
  }
} finally {
  rmSync(sandbox, { recursive: true, force: true, maxRetries: 3 });
}
process.exit(status);

/** What is in the private home and temp dir, but tsx's compile cache (the runner's own, `tsx-<uid>`). */
function leftovers() {
  const list = (dir, name, skip) =>
    readdirSync(dir, { recursive: true })
      .filter((p) => !skip(String(p)))
      .map((p) => join(name, String(p)));
  return [...list(home, 'home', () => false), ...list(temp, 'tmp', (p) => /^tsx-\d+(\/|$)/.test(p))];
}
