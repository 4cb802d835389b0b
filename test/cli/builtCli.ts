// How tests run the bundled `kube-netlens`: the immutable copy of the bundle that test/helpers/bundle.ts builds at
// most once per change of the sources.

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { builtBundle, repoRoot } from '../helpers/bundle';
import { parseFixture } from '../helpers/fixture';
import { tempDir } from '../helpers/tempDirs';

export { repoRoot };

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The path of a bundled CLI no older than its sources. */
export function buildCli(): string {
  return builtBundle().cli;
}

export function runCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): CliRun {
  const r = spawnSync(process.execPath, [buildCli(), ...args], {
    cwd: options.cwd ?? repoRoot,
    encoding: 'utf8',
    // English unless a test asks for a language: the machine's locale never changes what a test reads
    env: { ...process.env, LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8', ...options.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Writes a multi-file fixture (`# file: a/b.yaml` headers, any extension) into a fresh folder and returns it. */
export function workspaceFrom(fixtureText: string): string {
  const dir = tempDir('kube-netlens-ws-');
  for (const s of parseFixture(fixtureText, '').sources) {
    if (s.text.split('\n').every((l) => !l.trim() || l.trimStart().startsWith('#'))) continue;
    const file = join(dir, s.uri);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, s.text.endsWith('\n') ? s.text : s.text + '\n');
  }
  return dir;
}
