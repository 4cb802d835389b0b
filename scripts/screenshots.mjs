// `npm run screenshots`: runs the real-editor trace and hover scenarios and writes the screenshots that document the
// product to docs/screenshots/ (replacing the old ones). Ordinary test runs write only to test-results/.
import { readdirSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const dir = join('docs', 'screenshots');
mkdirSync(dir, { recursive: true });
for (const f of readdirSync(dir)) if (f.endsWith('.png')) rmSync(join(dir, f));
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', join('test', 'e2e', 'trace.test.ts')], {
  stdio: 'inherit',
  env: { ...process.env, KUBE_NETLENS_SCREENSHOTS: '1' },
});
process.exit(r.status ?? 1);
