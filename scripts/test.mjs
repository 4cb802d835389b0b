// Runs the test files under test/ with Node's built-in runner (TypeScript through tsx).
// Usage: node scripts/test.mjs [substring...]  — only files whose path contains one of the substrings.
//
// Bounded by construction: one test file at a time on every machine (the runner's default follows the core count the
// kernel reports, which a CI machine may report as many more than it has), each test fails after `testTimeoutMs`
// (the failure names the test), a file's process ends at the latest 10 s after its tests (test/helpers/exitGuard.ts:
// a handle a test left open, such as a child process, cannot hold the run), and the whole run is stopped after
// `runTimeoutMs`.
import { readdirSync, statSync } from 'node:fs';
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
const args = ['--import', 'tsx', '--import', './test/helpers/exitGuard.ts', '--test', '--test-reporter=spec', '--test-concurrency=1', `--test-timeout=${testTimeoutMs}`, ...files];
const r = spawnSync(process.execPath, args, { stdio: 'inherit', timeout: runTimeoutMs, killSignal: 'SIGKILL' });
if (r.error && r.error.code === 'ETIMEDOUT') {
  console.error(`\nThe tests did not finish within ${runTimeoutMs / 60_000} minutes and were stopped; files run in the order of their paths, and the one after the last results shown above was still running.`);
  process.exit(1);
}
process.exit(r.status ?? 1);
