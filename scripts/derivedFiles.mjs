// Brings the files derived from the rule modules (the rule registry, docs/rules.md and docs/rules.zh-cn.md, scripts/derived.ts) up to date;
// with CI=true it only checks them, so a stale committed file fails CI instead of being rewritten where nobody would
// commit it. The build, the test runner and scripts/test.sh all go through here: the policy is in one place.
//
// Usage: node scripts/derivedFiles.mjs   (or import { updateDerivedFiles })
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const script = join(dirname(fileURLToPath(import.meta.url)), 'derived.ts');

/** Runs scripts/derived.ts (with --check on CI); exits with its status when it fails. */
export function updateDerivedFiles() {
  const run = spawnSync(process.execPath, ['--import', 'tsx', script, ...(process.env.CI === 'true' ? ['--check'] : [])], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) updateDerivedFiles();
