// Runs the test files under test/ with Node's built-in runner (TypeScript through tsx).
// Usage: node scripts/test.mjs [substring...]  — only files whose path contains one of the substrings.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

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
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
