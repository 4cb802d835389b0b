// Real Kustomize (`kubectl kustomize`) next to the native renderer, for differential tests.

import { spawn, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { nodeFileReader } from '../../server/src/cli/kustomizeBuild';
import { renderKustomization } from '../../server/src/kustomize/render';

export interface KubectlInfo {
  readonly path?: string;
  readonly why?: string;
}

/** kubectl on PATH with its Kustomize version, or why not. */
export function findKubectl(): KubectlInfo {
  const r = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return { why: `kubectl is not on PATH (${r.error?.message ?? r.stderr.trim()})` };
  return { path: 'kubectl' };
}

export interface BuildOutcome {
  readonly ok: boolean;
  readonly objects?: unknown[];
  readonly error?: string;
}

/** `kubectl kustomize DIR` for many folders, `parallel` at a time. */
export async function kubectlBuildAll(dirs: readonly string[], parallel = 3): Promise<BuildOutcome[]> {
  const out: BuildOutcome[] = new Array(dirs.length);
  let next = 0;
  const worker = async () => {
    while (next < dirs.length) {
      const i = next++;
      out[i] = await kubectlBuild(dirs[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, dirs.length) }, worker));
  return out;
}

function kubectlBuild(dir: string): Promise<BuildOutcome> {
  return new Promise((done) => {
    const p = spawn('kubectl', ['kustomize', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    p.on('error', (err) => done({ ok: false, error: err.message }));
    p.on('close', (code) => {
      if (code !== 0) return done({ ok: false, error: stderr.trim() || `exit ${code}` });
      done({ ok: true, objects: parseAllDocuments(stdout).map((d) => d.toJS() as unknown).filter((o) => o !== null) });
    });
  });
}

export function nativeBuild(dir: string): BuildOutcome & { messages: string[] } {
  const unit = renderKustomization(nodeFileReader(), pathToFileURL(resolve(dir)).href);
  const messages = unit.problems.map((p) => p.message);
  if (!unit.rendered) return { ok: false, error: messages.join('; '), messages };
  return { ok: true, objects: parseAllDocuments(unit.rendered.text).map((d) => d.toJS() as unknown).filter((o) => o !== null), messages };
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
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sortKeys(o[k])]));
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
