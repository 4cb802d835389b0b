// Real Kustomize (`kubectl kustomize`) next to the native renderer, for differential tests.

import { spawn, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';
import { diskReader } from '../../server/src/workspace/diskReader';
import { renderedObjects, renderKustomization, type RenderOptions } from '../../server/src/kustomize/render';

export interface KubectlInfo {
  readonly path?: string;
  readonly kustomizeVersion?: string;
  readonly why?: string;
}

/** The kubectl that scripts/setup-kubectl.mjs unpacks from the pinned npm package (run by ./scripts/test.sh). */
export const unpackedKubectl = resolve(__dirname, '..', '..', '.tools', 'kubectl', 'kubectl');

/** The Kustomize version a kubectl bundles (`v5.5.0`), or why it does not run. */
function kustomizeVersionOf(kubectl: string): { version?: string; why?: string } {
  const r = spawnSync(kubectl, ['version', '--client'], { encoding: 'utf8', timeout: 10_000 });
  if (r.error || r.status !== 0) return { why: r.error?.message ?? (r.stderr.trim() || `exit ${r.status}`) };
  const version = /Kustomize Version: (\S+)/.exec(r.stdout)?.[1];
  return version ? { version } : { why: 'it names no Kustomize version' };
}

/** The first executable `kubectl` in PATH's folders. */
function kubectlOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = resolve(dir, 'kubectl');
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

let found: KubectlInfo | undefined;

/**
 * The kubectl every Kustomize test runs: the one on PATH when it bundles Kustomize v5, else the one unpacked into
 * .tools/kubectl (scripts/setup-kubectl.mjs), else why neither can serve. The path is absolute.
 */
export function findKubectl(): KubectlInfo {
  if (found) return found;
  const pathKubectl = kubectlOnPath();
  const onPath = pathKubectl ? kustomizeVersionOf(pathKubectl) : { why: 'no executable kubectl in its folders' };
  if (pathKubectl && onPath.version?.startsWith('v5.')) return (found = { path: pathKubectl, kustomizeVersion: onPath.version });
  const unpacked = kustomizeVersionOf(unpackedKubectl);
  if (unpacked.version?.startsWith('v5.')) return (found = { path: unpackedKubectl, kustomizeVersion: unpacked.version });
  const pathSays = onPath.version ? `kubectl on PATH bundles Kustomize ${onPath.version}, not v5` : `kubectl is not on PATH (${onPath.why})`;
  const unpackedSays = unpacked.version ? `bundles Kustomize ${unpacked.version}` : `does not run (${unpacked.why}); node scripts/setup-kubectl.mjs unpacks it`;
  return (found = { why: `${pathSays}, and ${unpackedKubectl} ${unpackedSays}` });
}

/** The kubectl of findKubectl(), or an error saying why there is none. */
export function kubectlPath(): string {
  const k = findKubectl();
  if (!k.path) throw new Error(`real Kustomize is needed: ${k.why}`);
  return k.path;
}

export interface BuildOutcome {
  readonly ok: boolean;
  readonly objects?: unknown[];
  readonly error?: string;
}

/** `kubectl kustomize [flags] DIR` for many folders, `parallel` at a time. */
export async function kubectlBuildAll(dirs: readonly string[], parallel = 3, flags: readonly string[] = []): Promise<BuildOutcome[]> {
  const out: BuildOutcome[] = new Array(dirs.length);
  let next = 0;
  const worker = async () => {
    while (next < dirs.length) {
      const i = next++;
      out[i] = await kubectlBuild(dirs[i], flags);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, dirs.length) }, worker));
  return out;
}

function kubectlBuild(dir: string, flags: readonly string[]): Promise<BuildOutcome> {
  return new Promise((done) => {
    const p = spawn(kubectlPath(), ['kustomize', ...flags, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    p.on('error', (err) => done({ ok: false, error: err.message }));
    p.on('close', (code) => {
      if (code !== 0) return done({ ok: false, error: stderr.trim() || `exit ${code}` });
      done({ ok: true, objects: renderedObjects(stdout).filter((o) => o !== null) });
    });
  });
}

export function nativeBuild(dir: string, options: RenderOptions = {}): BuildOutcome & { messages: string[] } {
  const unit = renderKustomization(diskReader, pathToFileURL(resolve(dir)).href, options);
  const messages = unit.problems.map((p) => p.message);
  if (!unit.rendered) return { ok: false, error: messages.join('; '), messages };
  return { ok: true, objects: renderedObjects(unit.rendered.text).filter((o) => o !== null), messages };
}

/** Deep equality with map key order ignored (list order counts). */
export function sameData(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

export function canonical(v: unknown): string {
  return JSON.stringify(sortKeys(v));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, sortKeys(o[k])]),
    );
  }
  return v;
}

/** A first difference between two values, for failure messages. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (canonical(a) === canonical(b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path || '/'}: ${a.length} items vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}/${i}`);
      if (d) return d;
    }
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
      const d = firstDifference(ao[k], bo[k], `${path}/${k}`);
      if (d) return d;
    }
  }
  return `${path || '/'}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}
