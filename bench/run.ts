// `npm run bench`: builds, generates the workspaces, measures the parse floor, the language server (cold index,
// incremental edits, hovers, peak RSS), the CLI and the peer, then prints one table and writes bench/results.json
// (and, for a full run, the table in bench/README.md).
// Options: --sizes 1000,10000,50000  --quick  --edits N  --hovers N  --profile SIZE|none  --peer-limit-s S
//          --out results.json  --no-build

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { summariseProfile } from './cpuProfile';
import { defaultSeed, generateWorkspace, writeWorkspace } from './generate';
import { describeMachine } from './machine';
import { bestProcessRun } from './measureProcess';
import { measureServer, profileColdIndex } from './measureServer';
import { parseFloor } from './parseFloor';
import { formatResults, judgeTargets, type PeerFigures, type Results, type SizeResult } from './report';

interface Options {
  readonly sizes: readonly number[];
  readonly quick: boolean;
  readonly edits: number;
  readonly hovers: number;
  readonly profileSize: number | undefined;
  readonly peerLimitMs: number;
  readonly out: string;
  readonly build: boolean;
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
  if (!sizes.length || sizes.some((n) => !Number.isInteger(n) || n < 100)) throw new Error('--sizes takes whole numbers of resources, at least 100 each, e.g. --sizes 1000,10000');
  const profile = value('--profile');
  const profileSize = profile === 'none' ? undefined : profile ? Number(profile) : quick ? undefined : sizes.includes(10000) ? 10000 : undefined;
  return {
    sizes,
    quick,
    edits: Number(value('--edits') ?? (quick ? 40 : 200)),
    hovers: Number(value('--hovers') ?? (quick ? 50 : 200)),
    profileSize,
    peerLimitMs: Number(value('--peer-limit-s') ?? 600) * 1000,
    out: resolve(value('--out') ?? join(benchDir, 'results.json')),
    build: !argv.includes('--no-build'),
  };
}

async function measureSize(size: number, o: Options): Promise<SizeResult> {
  const say = (what: string) => console.error(`[${size}] ${what}`);
  const ws = generateWorkspace({ resources: size, seed: defaultSeed });
  const folder = writeWorkspace(join(workDir, String(size)), ws);
  const texts = ws.files.map((f) => f.text);
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  say(`${ws.files.length} files, ${(bytes / 2 ** 20).toFixed(1)} MB, ${ws.mistakes.length} planted mistakes`);

  const runs = o.quick ? 1 : 3;
  const floorBefore = parseFloor(texts, runs);
  say(`parse floor ${floorBefore.wallMs.toFixed(0)} ms; starting the server`);
  const server = await measureServer({
    serverJs, folder, editTarget: ws.editTarget, busyServices: ws.busyServices,
    edits: o.edits, editBudgetMs: (o.quick ? 1 : 5) * minute, hovers: o.hovers, timeoutMs: 15 * minute,
  });
  // The floor is taken again after the server run and the better kept: the machine's load drifts.
  const floorAfter = parseFloor(texts, runs);
  const floor = { wallMs: Math.min(floorBefore.wallMs, floorAfter.wallMs), cpuMs: Math.min(floorBefore.cpuMs, floorAfter.cpuMs) };
  say(`cold index ${server.coldIndexMs.toFixed(0)} ms, edit p95 ${server.incremental.p95Ms.toFixed(0)} ms over ${server.incremental.edits}, hover p95 ${server.hover.p95Ms.toFixed(1)} ms`);

  const cli = await bestProcessRun([cliJs, 'check', folder, '--format', 'json', '--fail-on', 'never'], runs, 15 * minute);
  if (cli.timedOut || cli.exitCode !== 0) throw new Error(`CLI check failed (exit ${cli.exitCode}${cli.timedOut ? ', timed out' : ''}): ${cli.stderr}`);
  const cliDiagnostics = (JSON.parse(cli.stdout) as { diagnostics: { file: string }[] }).diagnostics;
  say(`CLI ${cli.ms.toFixed(0)} ms`);

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
    files: ws.files.length,
    documents: ws.files.reduce((n, f) => n + f.documents, 0),
    megabytes: bytes / 2 ** 20,
    mistakes: ws.mistakes.length,
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
  await build({ entryPoints: [join(root, 'server/src/lsp/main.ts')], outfile: bundle, bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning' });
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
  const o = readOptions(process.argv.slice(2));
  if (o.build) {
    const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('npm run build failed');
  }
  const machine = describeMachine();
  const sizes: SizeResult[] = [];
  for (const size of o.sizes) sizes.push(await measureSize(size, o));
  const profile = o.profileSize ? await profileSize(o.profileSize) : undefined;
  const results: Results = {
    machine,
    quick: o.quick,
    seed: defaultSeed,
    loadAtEnd: Math.round(loadavg()[0] * 100) / 100,
    sizes,
    targets: judgeTargets(sizes),
    profile,
  };
  writeFileSync(o.out, JSON.stringify(results, null, 2) + '\n');
  const table = formatResults(results);
  console.log('\n' + table);
  // Only a full run into the default results file stands for the README's table.
  if (!o.quick && o.out === join(benchDir, 'results.json')) updateReadme(table);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  });
}
