// The one place tests get the bundled `kube-netlens` CLI and language server. The bundle is built at most once per
// change of the sources, under a cross-process lock, and copied into a folder of its own that is never written again
// (named by the build's start): test processes spawn that copy. Test files may run side by side (`node --test` run
// by hand uses every core), and each used to rebuild dist/ itself; a server or CLI started while another process
// rewrote dist/ could load a half-written bundle. With one immutable copy per build that cannot happen.

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const repoRoot = join(__dirname, '..', '..');

const bundleInputs = ['server/src', 'client', 'l10n', 'docs/rules.md', 'scripts/build.mjs', 'package.json', 'package-lock.json'];
/** What is copied, relative to the checkout: the bundles, and the rules document the server links diagnostics to. */
const copied = ['dist/cli.js', 'dist/cli.js.map', 'dist/server.js', 'dist/server.js.map', 'docs/rules.md'];
const buildTimeoutMs = 180_000;

export interface Bundle {
  /** The folder of the copy (it holds `dist/` and `docs/rules.md`, as the checkout does). */
  readonly dir: string;
  readonly cli: string;
  readonly server: string;
}

let bundle: Bundle | undefined;

/** Paths of a bundle no older than its sources; runs `npm run build` when there is none. */
export function builtBundle(): Bundle {
  if (bundle) return bundle;
  // Inside the checkout (git-ignored), so two clones (or worktrees) of the project never run each other's copies and
  // nothing is left in the temp dir.
  const shared = join(repoRoot, '.vscode-test', 'test-bundles');
  const lock = join(repoRoot, '.vscode-test', 'test-bundles.lock');
  mkdirSync(shared, { recursive: true });
  acquire(lock);
  try {
    const newest = newestInput();
    // the newest copy, if it was built after every source was last written
    const fresh = readdirSync(shared)
      .filter((n) => /^\d+$/.test(n))
      .map(Number)
      .sort((a, b) => b - a)
      .find((started) => started > newest && existsSync(join(shared, String(started), 'dist', 'server.js')));
    let started = fresh;
    if (started === undefined) {
      started = Date.now();
      execFileSync('npm', ['run', '--silent', 'build'], { cwd: repoRoot, stdio: 'pipe', timeout: buildTimeoutMs, killSignal: 'SIGKILL' });
      // Copied under a temporary name and renamed whole, so no process ever sees a partial copy.
      const partial = join(shared, `partial-${process.pid}`);
      rmSync(partial, { recursive: true, force: true });
      for (const rel of copied) {
        const from = join(repoRoot, rel);
        if (!existsSync(from)) continue;
        mkdirSync(join(partial, rel, '..'), { recursive: true });
        copyFileSync(from, join(partial, rel));
      }
      renameSync(partial, join(shared, String(started)));
      // Older copies may still be in use by running servers of other test files: only those built over an hour ago go.
      for (const name of readdirSync(shared)) {
        if (/^\d+$/.test(name) && Number(name) < started - 3_600_000) rmSync(join(shared, name), { recursive: true, force: true });
      }
    }
    const dir = join(shared, String(started));
    return (bundle = { dir, cli: join(dir, 'dist', 'cli.js'), server: join(dir, 'dist', 'server.js') });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function newestInput(): number {
  let newest = 0;
  const visit = (path: string): void => {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (!stats) return;
    newest = Math.max(newest, stats.mtimeMs);
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  for (const input of bundleInputs) visit(join(repoRoot, input));
  return newest;
}

function acquire(lock: string): void {
  const deadline = Date.now() + buildTimeoutMs + 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch {
      // A lock older than the build timeout was left by a crashed run.
      try {
        if (Date.now() - statSync(lock).mtimeMs > buildTimeoutMs + 10_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // it disappeared meanwhile: try again
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
}
