// `npm run bench`: builds, generates the workspaces, measures the parse floor, the language server (cold index,
// incremental edits, hovers, peak RSS), the CLI and the peer, then prints one table and writes bench/results.json
// (and, for a full run, the table in bench/README.md).
// Options: see `usage` below (`npm run bench -- --help`).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { nodeBundle } from '../scripts/nodeBundle.mjs';
import { summariseProfile } from './cpuProfile';
import { defaultSeed, generateWorkspace, hostileShapes, withShape, writeWorkspace, type GeneratedWorkspace, type HostileShape } from './generate';
import { describeMachine } from './machine';
import { bestProcessRun } from './measureProcess';
import { measureHovers, measureServer, profileColdIndex } from './measureServer';
import { parseFloor } from './parseFloor';
import { measureHelmCharts } from './helmCharts';
import { formatResults, judgeTargets, type PeerFigures, type Results, type SizeResult } from './report';
import { formatKustomize, measureKustomize } from './kustomizeOverlays';
import { formatRepo, measureRepo } from './repo';
import { setSessionLocale } from './lspSession';

const usage = `npm run bench -- [options]

  --sizes 1000,10000,50000   ordinary workspaces to measure (resources each, at least 100)
  --shapes many-copies,near-names,orphan-slices,kustomize-overlays,kustomize-tree|none
                             hostile shapes, each added to a workspace of --shape-base resources
  --shape-base N             resources of the workspace the shapes are added to (default 1000)
  --shape-count N            copies, near-identical names or Services in a shape's file, overlays × 4, or
                             the Kustomize trees' size (default 4000; bench/README.md)
  --quick                    one run per figure, 40 edits, 50 hovers, no profile, README untouched
  --edits N  --hovers N      incremental edits and hovers per workspace (default 200 each)
  --profile SIZE|none        CPU profile of the cold index at SIZE (default 10000 when measured)
  --peer-limit-s S           time limit of the peer's run (default 600)
  --helm-charts N|none       a workspace of N Helm charts: cold check next to helm's own render time (default 20)
  --hovers-only              only this: per size, the cold index then the Service and reach hovers (p50/p95, the
                             server's CPU time per hover); nothing written
  --repo DIR                 only this: check on a real repository folder (wall time, peak RSS) next to the real
                             tools' render time of its Kustomize roots and Helm releases (bench/repo.ts)
  --kustomize none           skip the two Kustomize workspaces (60 overlays, plain and platform-shaped)
  --lang zh-cn               the language server and the CLI in Simplified Chinese (default en); results into
                             bench/results.zh-cn.json, README untouched: compare with an English run of the same options
  --out FILE                 results file (default bench/results.json, bench/results.zh-cn.json with --lang zh-cn)
  --no-build                 do not run npm run build first
  --dry-run                  only generate the workspaces into bench/work/ and print their sizes
  --help                     this text
`;

interface Options {
  readonly sizes: readonly number[];
  readonly shapes: readonly HostileShape[];
  readonly shapeBase: number;
  readonly shapeCount: number;
  readonly dryRun: boolean;
  readonly quick: boolean;
  readonly edits: number;
  readonly hovers: number;
  readonly profileSize: number | undefined;
  readonly peerLimitMs: number;
  readonly out: string;
  readonly build: boolean;
  readonly helmCharts: number | undefined;
  /** `--lang zh-cn`: the language server and the CLI speak Simplified Chinese (the one extra run of issue 29). */
  readonly lang: 'en' | 'zh-cn';
  /** false with `--kustomize none`. */
  readonly kustomize: boolean;
}

const root = resolve(__dirname, '..');
const benchDir = join(root, 'bench');
const workDir = join(benchDir, 'work');
const serverJs = join(root, 'dist', 'server.js');
const cliJs = join(root, 'dist', 'cli.js');
const minute = 60_000;

function readOptions(argv: readonly string[]): Options {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const quick = argv.includes('--quick');
  const sizes = (value('--sizes') ?? '1000,10000,50000').split(',').map((s) => Number(s.trim()));
  if (!sizes.length || sizes.some((n) => !Number.isInteger(n) || n < 100))
    throw new Error('--sizes takes whole numbers of resources, at least 100 each, e.g. --sizes 1000,10000');
  const shapesArg = value('--shapes') ?? hostileShapes.join(',');
  const shapes = shapesArg === 'none' ? [] : shapesArg.split(',').map((s) => s.trim());
  const unknown = shapes.filter((s) => !(hostileShapes as readonly string[]).includes(s));
  if (unknown.length) throw new Error(`--shapes takes ${hostileShapes.join(', ')} or none; not ${unknown.join(', ')}`);
  const shapeBase = Number(value('--shape-base') ?? 1000);
  const shapeCount = Number(value('--shape-count') ?? 4000);
  if (!Number.isInteger(shapeBase) || shapeBase < 100 || !Number.isInteger(shapeCount) || shapeCount < 1)
    throw new Error('--shape-base takes at least 100 resources and --shape-count a whole number');
  const profile = value('--profile');
  const profileSize = profile === 'none' ? undefined : profile ? Number(profile) : quick ? undefined : sizes.includes(10000) ? 10000 : undefined;
  return {
    sizes,
    shapes: shapes as HostileShape[],
    shapeBase,
    shapeCount,
    dryRun: argv.includes('--dry-run'),
    quick,
    edits: Number(value('--edits') ?? (quick ? 40 : 200)),
    hovers: Number(value('--hovers') ?? (quick ? 50 : 200)),
    profileSize,
    peerLimitMs: Number(value('--peer-limit-s') ?? 600) * 1000,
    out: resolve(value('--out') ?? join(benchDir, langOf(value('--lang')) === 'zh-cn' ? 'results.zh-cn.json' : 'results.json')),
    build: !argv.includes('--no-build'),
    helmCharts: value('--helm-charts') === 'none' ? undefined : Number(value('--helm-charts') ?? 20),
    lang: langOf(value('--lang')),
    kustomize: value('--kustomize') !== 'none',
  };
}

function langOf(text: string | undefined): Options['lang'] {
  if (text === undefined || text === 'en') return 'en';
  if (text === 'zh-cn') return 'zh-cn';
  throw new Error(`--lang takes en or zh-cn, not ${text}`);
}

/** The workspaces a run measures: the ordinary sizes, then each hostile shape on its base workspace. */
function workspacesOf(o: Options): { readonly size: number; readonly shape?: HostileShape; readonly dir: string; readonly ws: GeneratedWorkspace }[] {
  const out: { size: number; shape?: HostileShape; dir: string; ws: GeneratedWorkspace }[] = o.sizes.map((size) => ({
    size,
    dir: String(size),
    ws: generateWorkspace({ resources: size, seed: defaultSeed }),
  }));
  for (const shape of o.shapes) {
    out.push({
      size: o.shapeBase,
      shape,
      dir: `${o.shapeBase}-${shape}`,
      ws: withShape(generateWorkspace({ resources: o.shapeBase, seed: defaultSeed }), shape, o.shapeCount),
    });
  }
  return out;
}

async function measureSize(
  size: number,
  o: Options,
  given?: { readonly shape?: HostileShape; readonly dir: string; readonly ws: GeneratedWorkspace },
): Promise<SizeResult> {
  const label = given?.shape ? `${size} + ${given.shape}` : String(size);
  const say = (what: string) => console.error(`[${label}] ${what}`);
  const ws = given?.ws ?? generateWorkspace({ resources: size, seed: defaultSeed });
  const folder = writeWorkspace(join(workDir, given?.dir ?? String(size)), ws);
  const texts = ws.files.map((f) => f.text);
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  say(`${ws.files.length} files, ${(bytes / 2 ** 20).toFixed(1)} MB, ${ws.mistakes.length} planted mistakes`);

  const runs = o.quick ? 1 : 3;
  const floorBefore = parseFloor(texts, runs);
  say(`parse floor ${floorBefore.wallMs.toFixed(0)} ms; starting the server`);
  const server = await measureServer({
    serverJs,
    folder,
    editTarget: ws.editTarget,
    busyServices: ws.busyServices,
    busyWorkloads: ws.busyWorkloads,
    edits: o.edits,
    editBudgetMs: (o.quick ? 1 : 5) * minute,
    hovers: o.hovers,
    timeoutMs: 15 * minute,
  });
  // The floor is taken again after the server run and the better kept: the machine's load drifts.
  const floorAfter = parseFloor(texts, runs);
  const floor = { wallMs: Math.min(floorBefore.wallMs, floorAfter.wallMs), cpuMs: Math.min(floorBefore.cpuMs, floorAfter.cpuMs) };
  say(
    `cold index ${server.coldIndexMs.toFixed(0)} ms, edit p95 ${server.incremental.p95Ms.toFixed(0)} ms over ${server.incremental.edits}, hover p95 ${server.hover.p95Ms.toFixed(1)} ms, reach hover p95 ${server.reachHover.p95Ms.toFixed(1)} ms`,
  );

  const cli = await bestProcessRun([cliJs, 'check', folder, '--format', 'json', '--fail-on', 'never'], runs, 15 * minute);
  if (cli.timedOut || cli.exitCode !== 0) throw new Error(`CLI check failed (exit ${cli.exitCode}${cli.timedOut ? ', timed out' : ''}): ${cli.stderr}`);
  const cliDiagnostics = (JSON.parse(cli.stdout) as { diagnostics: { file: string; message: string }[] }).diagnostics;
  say(`CLI ${cli.ms.toFixed(0)} ms`);
  // A run in Chinese must really speak it, in the server and in the CLI: a run in English that thought otherwise
  // would show "no regression" for nothing.
  const chinese = /[\u4e00-\u9fff]/;
  for (const [who, text] of [
    ['server', server.sampleMessage],
    ['CLI', cliDiagnostics[0]?.message],
  ] as const) {
    if (text !== undefined && chinese.test(text) !== (o.lang === 'zh-cn')) throw new Error(`--lang ${o.lang}, but the ${who} said: ${text}`);
  }
  const reachRun = await bestProcessRun([cliJs, 'reach', folder], runs, 15 * minute);
  // A reach list that fails (at 50,000 resources the whole connectivity list runs out of memory) is a figure of
  // the run, shown in the table, not the end of the run.
  const reachOk = !reachRun.timedOut && reachRun.exitCode === 0;
  const reachFailure = reachOk
    ? undefined
    : reachRun.timedOut
      ? 'timed out'
      : /heap out of memory/.test(reachRun.stderr)
        ? 'out of memory'
        : `exit ${reachRun.exitCode}`;
  say(reachOk ? `CLI reach ${reachRun.ms.toFixed(0)} ms, ${reachRun.stdout.split('\n').length - 1} lines` : `CLI reach failed (${reachFailure})`);

  const peerLimit = o.peerLimitMs;
  const peerRun = await bestProcessRun([join(benchDir, 'peer.mjs'), folder], runs, peerLimit);
  let peer: PeerFigures;
  if (peerRun.timedOut) peer = { ms: peerLimit, resources: 0, results: 0, timedOut: true };
  else if (peerRun.exitCode !== 0) throw new Error(`peer failed (exit ${peerRun.exitCode}): ${peerRun.stderr}`);
  else {
    const p = JSON.parse(peerRun.stdout) as { resources: number; results: number };
    peer = { ms: peerRun.ms, resources: p.resources, results: p.results, timedOut: false };
  }
  say(`peer ${peer.timedOut ? 'did not finish' : `${peer.ms.toFixed(0)} ms`}`);

  return {
    size,
    ...(given?.shape ? { shape: `${given.shape} ×${o.shapeCount.toLocaleString('en-US')}` } : {}),
    files: ws.files.length,
    documents: ws.files.reduce((n, f) => n + f.documents, 0),
    megabytes: bytes / 2 ** 20,
    mistakes: ws.mistakes.length,
    ...(reachOk ? { reachMs: reachRun.ms } : { reachFailure }),
    parseFloorMs: floor.wallMs,
    parseFloorCpuMs: floor.cpuMs,
    coldIndexMs: server.coldIndexMs,
    coldIndexCpuMs: server.coldIndexCpuMs,
    coldOverParse: server.coldIndexMs / floor.wallMs,
    coldOverParseCpu: server.coldIndexCpuMs / floor.cpuMs,
    serverFilesWithDiagnostics: server.filesWithDiagnostics,
    serverDiagnostics: server.diagnostics,
    cliFilesWithFindings: new Set(cliDiagnostics.map((d) => d.file)).size,
    cliFindings: cliDiagnostics.length,
    incremental: server.incremental,
    hover: server.hover,
    reachHover: server.reachHover,
    peakRssMb: server.peakRssMb,
    cliMs: cli.ms,
    peer,
    cliOverPeer: peer.timedOut ? NaN : cli.ms / peer.ms,
  };
}

export async function profileSize(size: number) {
  const folder = join(workDir, String(size));
  if (!existsSync(folder)) writeWorkspace(folder, generateWorkspace({ resources: size, seed: defaultSeed }));
  const dir = join(workDir, 'profile');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The profiled server is bundled here, with a source map, so that a rebuild of dist/ (a production one has no
  // map) cannot change the code under the profiler or its mapping.
  const bundle = join(dir, 'server.js');
  await build({ ...nodeBundle, entryPoints: [join(root, 'server/src/lsp/main.ts')], outfile: bundle, sourcemap: true });
  const coldIndexMs = await profileColdIndex(bundle, folder, dir, 15 * minute);
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('the server wrote no CPU profile');
  return { size, coldIndexMs, ...summariseProfile(join(dir, file), 15) };
}

/** Replaces the text between the result markers of bench/README.md. */
function updateReadme(table: string): void {
  const path = join(benchDir, 'README.md');
  if (!existsSync(path)) return;
  const text = readFileSync(path, 'utf8');
  const start = '<!-- results:start -->';
  const end = '<!-- results:end -->';
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) return;
  writeFileSync(path, `${text.slice(0, i + start.length)}\n${table}${text.slice(j)}`);
}

async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    console.log(usage);
    return;
  }
  const repo = process.argv.includes('--repo') ? process.argv[process.argv.indexOf('--repo') + 1] : undefined;
  if (process.argv.includes('--repo')) {
    if (!repo || repo.startsWith('--')) throw new Error('--repo takes a folder');
    if (!process.argv.includes('--no-build')) {
      const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
      if (b.status !== 0) throw new Error('npm run build failed');
    }
    const figures = await measureRepo(repo);
    console.log('\n' + formatRepo(figures));
    const out = process.argv.includes('--out') ? process.argv[process.argv.indexOf('--out') + 1] : undefined;
    if (out) writeFileSync(out, JSON.stringify({ machine: describeMachine(), repo: figures }, null, 2) + '\n');
    return;
  }
  const o = readOptions(process.argv.slice(2));
  if (o.lang === 'zh-cn') {
    // The server as the client starts it in a Chinese VS Code; the CLI as a Chinese locale makes it speak (its
    // child processes inherit this environment).
    setSessionLocale('zh-cn');
    process.env.LC_ALL = 'zh_CN.UTF-8';
  }
  if (process.argv.includes('--hovers-only')) {
    if (o.build) {
      const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
      if (b.status !== 0) throw new Error('npm run build failed');
    }
    for (const w of workspacesOf(o)) {
      const folder = writeWorkspace(join(workDir, w.dir), w.ws);
      const f = await measureHovers({
        serverJs,
        folder,
        editTarget: w.ws.editTarget,
        busyServices: w.ws.busyServices,
        busyWorkloads: w.ws.busyWorkloads,
        edits: 0,
        editBudgetMs: 0,
        hovers: o.hovers,
        timeoutMs: 15 * minute,
      });
      const row = (name: string, h: typeof f.hover) =>
        `${name} p50 ${h.p50Ms.toFixed(1)} / p95 ${h.p95Ms.toFixed(1)} ms, CPU ${h.cpuMsPerHover.toFixed(2)} ms per hover`;
      console.log(
        `[${w.dir}] cold index ${f.coldIndexMs.toFixed(0)} ms; ${row('hover', f.hover)}; ${row('reach hover', f.reachHover)} (${o.hovers} each, load ${loadavg()[0].toFixed(2)})`,
      );
    }
    return;
  }
  if (o.dryRun) {
    for (const w of workspacesOf(o)) {
      writeWorkspace(join(workDir, w.dir), w.ws);
      const bytes = w.ws.files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
      console.log(`${w.dir}: ${w.ws.files.length} files, ${w.ws.resources} resources, ${(bytes / 2 ** 20).toFixed(1)} MB → bench/work/${w.dir}/`);
    }
    return;
  }
  if (o.build) {
    const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('npm run build failed');
  }
  const machine = describeMachine();
  const sizes: SizeResult[] = [];
  for (const w of workspacesOf(o)) sizes.push(await measureSize(w.size, o, w));
  const profile = o.profileSize ? await profileSize(o.profileSize) : undefined;
  const helm = o.helmCharts ? await measureHelmCharts(o.helmCharts, true) : undefined;
  const results: Results = {
    machine,
    quick: o.quick,
    seed: defaultSeed,
    loadAtEnd: Math.round(loadavg()[0] * 100) / 100,
    sizes,
    targets: judgeTargets(sizes),
    profile,
    ...(helm ? { helm } : {}),
  };
  writeFileSync(o.out, JSON.stringify({ ...results, lang: o.lang }, null, 2) + '\n');
  if (!o.kustomize) {
    console.log('\n' + formatResults(results));
    return;
  }
  // Kustomize (bench/kustomizeOverlays.ts): 20 bases, 60 overlays, next to real Kustomize's own render time.
  const kustomize = await measureKustomize(20, o.quick ? 20 : 60);
  // the same 60 overlays, each also including a base of large CRDs and a Component (real-shaped, issue 27)
  const kustomizePlatform = await measureKustomize(20, o.quick ? 10 : 30, undefined, true);
  writeFileSync(o.out, JSON.stringify({ ...results, lang: o.lang, kustomize, kustomizePlatform }, null, 2) + '\n');
  const table = `${formatResults(results)}\n\n${formatKustomize(kustomize)}\n\n${formatKustomize(kustomizePlatform)}\n`;
  console.log('\n' + table);
  // Only a full run into the default results file stands for the README's table.
  if (!o.quick && o.lang === 'en' && o.out === join(benchDir, 'results.json')) updateReadme(table);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  });
}
