// `npm run bench -- --repo DIR`: `kube-netlens check DIR` on a real repository folder (wall time and peak RSS, one
// cold run), next to the real tools' own render time of the same roots, measured in the same run: `kustomize build`
// (or `kubectl kustomize`, whichever check would run) on each Kustomize root, and `helm template` on each chart × value
// set, one after another. The roots and releases are the ones the product finds (kustomize/roots.ts and
// model/helmCharts.ts, through the same discovery functions); nothing in DIR is written.
// Usage: node --import tsx bench/repo.ts DIR [--json FILE]   (needs `npm run build`)

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { chartsIn } from '../server/src/cli/helmCharts';
import { collectFiles, isCollectError } from '../server/src/cli/collectFiles';
import { diskReader } from '../server/src/workspace/diskReader';
import { discoverKustomizations } from '../server/src/kustomize/roots';
import { fileRoles } from '../server/src/model/fileRoles';
import type { RenderedUnit } from '../server/src/model/rendered';
import { helmArgs } from '../server/src/workspace/helm';
import { findKustomize } from './kustomizeOverlays';

const root = resolve(__dirname, '..');
const cliJs = join(root, 'dist', 'cli.js');
const peakRssJs = pathToFileURL(join(__dirname, 'peakRss.mjs')).href;

export interface RepoFigures {
  readonly repo: string;
  readonly files: number;
  readonly yamlMb: number;
  readonly kustomizeTool: string;
  readonly kustomizeRoots: number;
  /** Roots the real tool refused to build (their time counts: a user waits for them too). */
  readonly kustomizeFailed: number;
  readonly kustomizeMs: number;
  readonly renderedMb: number;
  readonly helmReleases: number;
  readonly helmFailed: number;
  readonly helmMs: number;
  readonly checkMs: number;
  readonly checkPeakRssMb: number;
  readonly checkExitCode: number | null;
  readonly findings: number;
  /** check's time over the tools' (Kustomize and helm together). */
  readonly checkOverTools: number;
  readonly load: number;
}

/** The roots `check` builds: every Kustomize root the product decides on (none rendered here). */
function kustomizeRootsOf(dir: string, sources: readonly { readonly uri: string; readonly text: string }[]): string[] {
  const texts = new Map(sources.map((s) => [s.uri, s.text]));
  const roles = fileRoles([...texts.keys()], (u) => texts.get(u));
  const uris = [...texts.keys()].filter((u) => roles.get(u) !== 'test-suite');
  const disk = diskReader;
  const reader = { read: (u: string) => texts.get(u) ?? disk.read(u), list: disk.list, realUri: disk.realUri };
  // `reuse` answers for every root, so nothing is rendered: only which folders are roots is decided
  const placeholder = (d: string): RenderedUnit => ({ kind: 'kustomize', id: d, label: d, definedBy: join(d, 'kustomization.yaml'), inputs: [], problems: [] });
  const layout = discoverKustomizations(uris, reader, dir, placeholder);
  return layout.roots.filter((r) => !r.builtElsewhere).map((r) => r.dir);
}

function timed(cmd: string, args: readonly string[]): { ms: number; ok: boolean; bytes: number } {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  return { ms: performance.now() - t0, ok: r.status === 0, bytes: r.status === 0 ? Buffer.byteLength(r.stdout) : 0 };
}

function findHelm(): string | undefined {
  const tools = join(root, '.tools', 'helm', 'helm');
  if (existsSync(tools)) return tools;
  return spawnSync('helm', ['version', '--short'], { encoding: 'utf8' }).status === 0 ? 'helm' : undefined;
}

/** One cold `check --format json` run: wall time, and the peak RSS the process itself reports at exit. */
function runCheck(dir: string, helm: string | undefined): Promise<{ ms: number; rssMb: number; exitCode: number | null; findings: number }> {
  const tmp = mkdtempSync(join(tmpdir(), 'kube-netlens-bench-'));
  const rssFile = join(tmp, 'rss');
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const args = ['--import', peakRssJs, cliJs, 'check', dir, '--format', 'json', ...(helm ? ['--helm', helm] : [])];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, KUBE_NETLENS_BENCH_RSS_FILE: rssFile } });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      try {
        const rssMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
        const parsed = JSON.parse(Buffer.concat(out).toString('utf8')) as unknown;
        const findings = Array.isArray(parsed)
          ? parsed.length
          : Array.isArray((parsed as { diagnostics?: unknown[] }).diagnostics)
            ? (parsed as { diagnostics: unknown[] }).diagnostics.length
            : 0;
        done({ ms, rssMb, exitCode: code, findings });
      } catch (err) {
        fail(new Error(`check did not answer as expected (exit ${code}): ${err instanceof Error ? err.message : String(err)}`));
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    });
  });
}

export async function measureRepo(dirArg: string): Promise<RepoFigures> {
  if (!existsSync(cliJs)) throw new Error(`${cliJs} is missing: run npm run build`);
  const dir = resolve(dirArg);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`--repo ${dirArg} is not a folder`);
  const collected = collectFiles([dir]);
  if (isCollectError(collected)) throw new Error(collected.error);
  const yamlBytes = collected.sources.reduce((n, s) => n + Buffer.byteLength(s.text), 0);

  // the real tools, one root and one release after another
  const k = findKustomize();
  const roots = kustomizeRootsOf(dir, collected.sources);
  let kustomizeMs = 0;
  let kustomizeFailed = 0;
  let renderedBytes = 0;
  for (const r of roots) {
    const t = timed(k.cmd, k.args(r));
    kustomizeMs += t.ms;
    renderedBytes += t.bytes;
    if (!t.ok) kustomizeFailed++;
  }
  const helm = findHelm();
  const charts = chartsIn(collected.sources, {});
  const releases = helm ? charts.topLevel.flatMap((c) => c.valueSets.map((v) => helmArgs(c, v, (u) => u))) : [];
  let helmMs = 0;
  let helmFailed = 0;
  for (const args of releases) {
    const t = timed(helm!, args);
    helmMs += t.ms;
    renderedBytes += t.bytes;
    if (!t.ok) helmFailed++;
  }

  const check = await runCheck(dir, helm);
  const toolsMs = kustomizeMs + helmMs;
  return {
    repo: dirArg,
    files: collected.sources.length,
    yamlMb: yamlBytes / 2 ** 20,
    kustomizeTool: k.name,
    kustomizeRoots: roots.length,
    kustomizeFailed,
    kustomizeMs,
    renderedMb: renderedBytes / 2 ** 20,
    helmReleases: releases.length,
    helmFailed,
    helmMs,
    checkMs: check.ms,
    checkPeakRssMb: check.rssMb,
    checkExitCode: check.exitCode,
    findings: check.findings,
    checkOverTools: toolsMs > 0 ? check.ms / toolsMs : NaN,
    load: Math.round(loadavg()[0] * 100) / 100,
  };
}

export function formatRepo(f: RepoFigures): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const mb = (x: number) => `${x.toFixed(0)} MB`;
  return [
    `Repository ${f.repo}: ${f.files} files (${f.yamlMb.toFixed(1)} MB); ${f.kustomizeRoots} Kustomize roots, ${f.helmReleases} Helm releases; load ${f.load} at the end`,
    '',
    '| | time | peak RSS | ratio |',
    '|---|---:|---:|---:|',
    `| \`kube-netlens check\` (cold, ${f.findings} findings, exit ${f.checkExitCode}) | ${s(f.checkMs)} | ${mb(f.checkPeakRssMb)} | ${f.checkOverTools.toFixed(2)}× the tools |`,
    `| ${f.kustomizeTool}, ${f.kustomizeRoots} roots one after another${f.kustomizeFailed ? ` (${f.kustomizeFailed} fail)` : ''} | ${s(f.kustomizeMs)} | | |`,
    `| helm template, ${f.helmReleases} releases one after another${f.helmFailed ? ` (${f.helmFailed} fail)` : ''} | ${s(f.helmMs)} | | |`,
    `| rendered YAML (what the tools print) | | ${mb(f.renderedMb)} | RSS ${(f.checkPeakRssMb / Math.max(f.renderedMb, 1e-9)).toFixed(0)}× it |`,
  ].join('\n');
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const dir = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--json');
  const json = argv.includes('--json') ? argv[argv.indexOf('--json') + 1] : undefined;
  if (!dir) {
    console.error('usage: node --import tsx bench/repo.ts DIR [--json FILE]');
    process.exitCode = 2;
  } else {
    measureRepo(dir)
      .then((f) => {
        console.log(formatRepo(f));
        if (json) writeFileSync(json, JSON.stringify(f, null, 2) + '\n');
      })
      .catch((err: unknown) => {
        console.error(err instanceof Error ? err.message : String(err));
        process.exitCode = 1;
      });
  }
}
