// The one place tests run the bundled `kube-netlens`. `npm run build` runs at most once per change of the sources:
// under a cross-process lock, the fresh dist/cli.js is copied to a place shared by this checkout's test processes, and
// they spawn that copy (other test files rebuild dist/ concurrently, and a half-written bundle must never run).

import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseFixture } from '../helpers/fixture';

export const repoRoot = join(__dirname, '..', '..');

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const bundleInputs = ['server/src', 'client', 'scripts/build.mjs', 'package.json', 'package-lock.json'];
let cliPath: string | undefined;

/** The path of a bundled CLI no older than its sources; builds with `npm run build` when there is none. */
export function buildCli(): string {
  if (cliPath) return cliPath;
  // One copy per checkout: two clones (or worktrees) of the project on one machine must not run each other's CLI.
  const checkout = createHash('sha256').update(repoRoot).digest('hex').slice(0, 12);
  const shared = join(tmpdir(), `kube-netlens-test-cli-${checkout}`);
  const copy = join(shared, 'cli.js');
  const lock = join(tmpdir(), `kube-netlens-build-${checkout}.lock`);
  acquire(lock);
  try {
    if (mtimeOf(copy) <= newestInput()) {
      const started = new Date();
      execFileSync('npm', ['run', '--silent', 'build'], { cwd: repoRoot, stdio: 'pipe' });
      mkdirSync(shared, { recursive: true });
      copyFileSync(join(repoRoot, 'dist', 'cli.js'), copy);
      // Stamped with the build's start, so a source saved during the build still counts as newer.
      utimesSync(copy, started, started);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return (cliPath = copy);
}

export function runCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): CliRun {
  const r = spawnSync(process.execPath, [buildCli(), ...args], {
    cwd: options.cwd ?? repoRoot,
    encoding: 'utf8',
    env: { ...process.env, ...options.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Writes a multi-file fixture (`# file: a/b.yaml` headers, any extension) into a fresh folder and returns it. */
export function workspaceFrom(fixtureText: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kube-netlens-ws-'));
  for (const s of parseFixture(fixtureText, '').sources) {
    if (s.text.split('\n').every((l) => !l.trim() || l.trimStart().startsWith('#'))) continue;
    const file = join(dir, s.uri);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, s.text.endsWith('\n') ? s.text : s.text + '\n');
  }
  return dir;
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

function mtimeOf(path: string): number {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

function acquire(lock: string): void {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch {
      // A lock older than two minutes was left by a crashed run.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // it disappeared meanwhile: try again
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
}
