// Recall on real repositories: plants ordinary networking mistakes, one at a time, into copies of repository
// folders and counts how many the CLI reports. It fetches nothing; the folders are given.
//
// Usage: npm run recall -- [--cli PATH] [--per-class N] [--out FILE] [--helm PATH] [--jobs N] [--timeout S] DIR [DIR...]
//        npm run recall -- --report FILE   (the table of a saved --out file)
//   --cli PATH      the CLI bundle to run (default: this checkout's dist/cli.js); its folder is copied at the start
//   --per-class N   mutations per class and repository (default 5), chosen evenly over the candidates
//   --out FILE      also write the results as JSON
//   --helm PATH     passed to `check` (charts are rendered)
//   --jobs N        checks run at once per repository, each on its own copy (default 2)
//   --timeout S     a check that runs longer is stopped and reported (default 120)
//
// For each DIR: one unmutated `check --format json` (the baseline), the candidates of every mistake class
// (scripts/recall/mutations.ts: objects whose reference works as written by the harness's own reading, and on
// which the baseline has no warning or error), then per chosen candidate: the mutated file written into a temporary
// copy of DIR, `check` on the whole copy, the file restored. A mistake is found when a warning or error that the
// baseline does not have lies in the changed object's line range (or in a counterpart the mistake breaks the
// reference with, or a related location of the finding does). Not part of the test command.

import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { applyEdit, readRepository, rewrittenByBuild, type ManifestObject } from './recall/manifests';
import { classes, findCandidates, pick, type Candidate, type MistakeClass } from './recall/mutations';

interface Diagnostic {
  file: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: string;
  code: string;
  message: string;
  related?: { file: string; range: { start: { line: number } }; message: string }[];
}

interface CheckRun {
  ok: boolean;
  error?: string;
  seconds: number;
  diagnostics: Diagnostic[];
}

interface Options {
  cli: string;
  perClass: number;
  out?: string;
  helm?: string;
  jobs: number;
  timeoutMs: number;
  dirs: string[];
}

function parseArgs(argv: string[]): Options {
  const o: Options = { cli: join(__dirname, '..', 'dist', 'cli.js'), perClass: 5, jobs: 2, timeoutMs: 120_000, dirs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--cli') o.cli = resolve(next());
    else if (a === '--per-class') o.perClass = Number(next());
    else if (a === '--out') o.out = resolve(next());
    else if (a === '--helm') o.helm = resolve(next());
    else if (a === '--jobs') o.jobs = Math.max(1, Number(next()));
    else if (a === '--timeout') o.timeoutMs = Number(next()) * 1000;
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else o.dirs.push(resolve(a));
  }
  if (!o.dirs.length || !Number.isFinite(o.perClass) || o.perClass < 0) {
    throw new Error('usage: npm run recall -- [--cli PATH] [--per-class N] [--out FILE] [--helm PATH] [--jobs N] [--timeout S] DIR [DIR...]');
  }
  return o;
}

function runCheck(opts: Options, dir: string): Promise<CheckRun> {
  const args = [opts.cli, 'check', dir, '--format', 'json', '--fail-on', 'never', ...(opts.helm ? ['--helm', opts.helm] : [])];
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, opts.timeoutMs);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const finish = (error?: string) => {
      clearTimeout(timer);
      const seconds = (Date.now() - started) / 1000;
      if (error) return done({ ok: false, error, seconds, diagnostics: [] });
      try {
        const json = JSON.parse(Buffer.concat(out).toString('utf8')) as { diagnostics: Diagnostic[] };
        const diagnostics = json.diagnostics.map((d) => ({
          ...d,
          file: rel(dir, d.file),
          related: (d.related ?? []).map((r) => ({ ...r, file: rel(dir, r.file) })),
        }));
        done({ ok: true, seconds, diagnostics });
      } catch (e) {
        done({
          ok: false,
          error: `unreadable output (${(e as Error).message}); stderr: ${Buffer.concat(err).toString('utf8').slice(0, 300)}`,
          seconds,
          diagnostics: [],
        });
      }
    };
    child.on('error', (e) => finish(e.message));
    child.on('close', (code) => {
      if (timedOut) finish(`timed out after ${opts.timeoutMs / 1000} s`);
      else if (code !== 0 && code !== 1 && out.length === 0) finish(`exit ${code}: ${Buffer.concat(err).toString('utf8').slice(0, 300)}`);
      else finish();
    });
  });
}

function rel(root: string, file: string): string {
  const f = file.startsWith('file://') ? decodeURIComponent(new URL(file).pathname) : file;
  const r = isAbsolute(f) ? relative(root, f) : f;
  return r.split(sep).join('/');
}

const serious = (d: Diagnostic) => d.severity === 'error' || d.severity === 'warning';
const keyOf = (d: Diagnostic) => `${d.file}|${d.code}|${d.range.start.line}|${d.range.start.character}`;

function inObject(file: string, line: number, o: ManifestObject): boolean {
  return file === o.file && line >= o.startLine && line <= o.endLine;
}

/** Findings of `after` that `before` does not have (as a multiset of file, code and start). */
function newFindings(before: Diagnostic[], after: Diagnostic[]): Diagnostic[] {
  const counts = new Map<string, number>();
  for (const d of before) counts.set(keyOf(d), (counts.get(keyOf(d)) ?? 0) + 1);
  const out: Diagnostic[] = [];
  for (const d of after) {
    const k = keyOf(d);
    const n = counts.get(k) ?? 0;
    if (n > 0) counts.set(k, n - 1);
    else out.push(d);
  }
  return out;
}

interface Trial {
  repo: string;
  cls: MistakeClass;
  file: string;
  line: number;
  object: string;
  before: string;
  after: string;
  /** 'object' | 'counterpart' | 'related' | 'kustomization' when found; undefined when missed. */
  foundAt?: string;
  codes: string[];
  /** New warnings and errors elsewhere (not counted), for investigating misses. */
  elsewhere: string[];
  error?: string;
  seconds: number;
}

function judge(c: Candidate, fresh: Diagnostic[]): { foundAt?: string; codes: string[]; elsewhere: string[] } {
  const o = c.object;
  const hits: { at: string; d: Diagnostic }[] = [];
  const elsewhere: string[] = [];
  for (const d of fresh.filter(serious)) {
    const line = d.range.start.line;
    if (inObject(d.file, line, o)) hits.push({ at: 'object', d });
    else if (c.counterparts.some((p) => inObject(d.file, line, p))) hits.push({ at: 'counterpart', d });
    else if ((d.related ?? []).some((r) => inObject(r.file, r.range.start.line, o))) hits.push({ at: 'related', d });
    else if (/(^|\/)kustomization\.ya?ml$/.test(d.file) && d.message.includes(o.name)) hits.push({ at: 'kustomization', d });
    else elsewhere.push(`${d.file}:${line + 1} ${d.severity} ${d.code}: ${d.message.slice(0, 160)}`);
  }
  const order = ['object', 'counterpart', 'related', 'kustomization'];
  hits.sort((a, b) => order.indexOf(a.at) - order.indexOf(b.at));
  return { foundAt: hits[0]?.at, codes: [...new Set(hits.map((h) => h.d.code))], elsewhere };
}

interface RepoResult {
  repo: string;
  dir: string;
  objects: number;
  baseline: { ok: boolean; error?: string; seconds: number; bySeverity: Record<string, number>; byCode: Record<string, number> };
  candidates: Partial<Record<MistakeClass, number>>;
  trials: Trial[];
}

async function runRepo(opts: Options, dir: string): Promise<RepoResult> {
  const repo = basename(dir);
  const copies: string[] = [];
  try {
    for (let j = 0; j < opts.jobs; j++) {
      const tmp = mkdtempSync(join(tmpdir(), 'recall-'));
      const copy = join(tmp, repo);
      cpSync(dir, copy, { recursive: true, filter: (src) => !src.split(sep).includes('.git') });
      copies.push(copy);
    }
    const base = await runCheck(opts, copies[0]);
    const bySeverity: Record<string, number> = {};
    const byCode: Record<string, number> = {};
    for (const d of base.diagnostics) {
      bySeverity[d.severity] = (bySeverity[d.severity] ?? 0) + 1;
      byCode[`${d.code} (${d.severity})`] = (byCode[`${d.code} (${d.severity})`] ?? 0) + 1;
    }
    const result: RepoResult = {
      repo,
      dir,
      objects: 0,
      baseline: { ok: base.ok, error: base.error, seconds: base.seconds, bySeverity, byCode },
      candidates: {},
      trials: [],
    };
    if (!base.ok) return result;
    const objects = readRepository(copies[0]);
    result.objects = objects.length;
    const flagged = base.diagnostics.filter(serious);
    const clean = (o: ManifestObject) => !flagged.some((d) => inObject(d.file, d.range.start.line, o));
    const all = findCandidates(objects).filter((c) => clean(c.object) && c.counterparts.every(clean) && !rewrittenByBuild(copies[0], c.object));
    const chosen: Candidate[] = [];
    for (const cls of classes) {
      // one candidate per place: the same object in a bundle and in its sources is two places
      const list = all.filter((c) => c.cls === cls);
      result.candidates[cls] = list.length;
      chosen.push(...pick(list, opts.perClass));
    }
    let next = 0;
    const worker = async (copy: string) => {
      while (next < chosen.length) {
        const c = chosen[next++];
        const path = join(copy, c.object.file);
        const original = readFileSync(path, 'utf8');
        writeFileSync(path, applyEdit(original, c.edit));
        let run: CheckRun;
        try {
          run = await runCheck(opts, copy);
        } finally {
          writeFileSync(path, original);
        }
        const verdict = run.ok ? judge(c, newFindings(base.diagnostics, run.diagnostics)) : { codes: [], elsewhere: [] };
        result.trials.push({
          repo,
          cls: c.cls,
          file: c.object.file,
          line: c.line + 1,
          object: `${c.object.kind}/${c.object.namespace ? c.object.namespace + '/' : ''}${c.object.name}`,
          before: c.before,
          after: c.after,
          ...verdict,
          error: run.error,
          seconds: run.seconds,
        });
      }
    };
    await Promise.all(copies.map(worker));
    result.trials.sort((a, b) => classes.indexOf(a.cls) - classes.indexOf(b.cls) || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
    return result;
  } finally {
    for (const c of copies) rmSync(join(c, '..'), { recursive: true, force: true });
  }
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function report(results: RepoResult[], opts: Options): string {
  const lines: string[] = [];
  const trials = results.flatMap((r) => r.trials);
  const counted = (t: Trial) => !t.error;
  lines.push(`CLI: ${opts.cli}`);
  lines.push(`per class and repository: ${opts.perClass}`);
  lines.push('');
  lines.push('Recall per class (found/total; failed runs not counted)');
  let totalFound = 0;
  let total = 0;
  for (const cls of classes) {
    const ts = trials.filter((t) => t.cls === cls && counted(t));
    const found = ts.filter((t) => t.foundAt).length;
    totalFound += found;
    total += ts.length;
    const codes = [...new Set(ts.flatMap((t) => t.codes))].join(', ');
    lines.push(`  ${pad(cls, 28)} ${pad(`${found}/${ts.length}`, 8)} ${codes}`);
  }
  lines.push(`  ${pad('all', 28)} ${totalFound}/${total}${total ? ` (${Math.round((100 * totalFound) / total)}%)` : ''}`);
  lines.push('');
  lines.push('Per repository (found/total; baseline check time)');
  for (const r of results) {
    const ts = r.trials.filter(counted);
    const per = classes
      .map((cls) => {
        const c = ts.filter((t) => t.cls === cls);
        return c.length ? `${cls} ${c.filter((t) => t.foundAt).length}/${c.length}` : '';
      })
      .filter(Boolean)
      .join('; ');
    const failed = r.trials.length - ts.length;
    lines.push(
      `  ${r.repo}: ${ts.filter((t) => t.foundAt).length}/${ts.length}${failed ? ` (${failed} runs failed)` : ''}; ${r.baseline.seconds.toFixed(1)} s${r.baseline.ok ? '' : ` BASELINE FAILED: ${r.baseline.error}`}`,
    );
    if (per) lines.push(`    ${per}`);
  }
  lines.push('');
  lines.push('Misses');
  for (const t of trials.filter((t) => counted(t) && !t.foundAt)) {
    lines.push(`  ${t.repo} ${t.file}:${t.line} ${t.cls} ${t.object}: ${JSON.stringify(t.before)} → ${JSON.stringify(t.after)}`);
    for (const e of t.elsewhere.slice(0, 3)) lines.push(`      new elsewhere: ${e}`);
  }
  const failedRuns = trials.filter((t) => !counted(t));
  if (failedRuns.length) {
    lines.push('');
    lines.push('Failed runs');
    for (const t of failedRuns) lines.push(`  ${t.repo} ${t.file}:${t.line} ${t.cls}: ${t.error}`);
  }
  lines.push('');
  lines.push('Baseline findings per repository (for the precision audit)');
  for (const r of results) {
    const sev =
      Object.entries(r.baseline.bySeverity)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none';
    lines.push(`  ${r.repo} (${r.objects} objects read by the harness): ${sev}`);
    for (const [code, n] of Object.entries(r.baseline.byCode).sort((a, b) => b[1] - a[1])) lines.push(`    ${pad(String(n), 5)} ${code}`);
  }
  return lines.join('\n') + '\n';
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--report') {
    // Prints the table of a saved --out file (also one a run still writes after each repository).
    const saved = JSON.parse(readFileSync(resolve(argv[1]), 'utf8')) as { cli: string; perClass: number; results: RepoResult[] };
    process.stdout.write(report(saved.results, { cli: saved.cli, perClass: saved.perClass, jobs: 0, timeoutMs: 0, dirs: [] }));
    return;
  }
  const opts = parseArgs(argv);
  // The CLI's folder is copied first, so a rebuild of it during the run (another checkout's `npm run build`) cannot
  // mix two versions of the product in one measurement, or fail the checks that start while it is half written.
  const snapshot = mkdtempSync(join(tmpdir(), 'recall-cli-'));
  cpSync(dirname(opts.cli), snapshot, { recursive: true });
  const runOpts = { ...opts, cli: join(snapshot, basename(opts.cli)) };
  const started = new Date().toISOString();
  const results: RepoResult[] = [];
  const write = () => {
    if (opts.out)
      writeFileSync(opts.out, JSON.stringify({ cli: opts.cli, perClass: opts.perClass, started, finished: new Date().toISOString(), results }, null, 2) + '\n');
  };
  try {
    for (const dir of opts.dirs) {
      process.stderr.write(`${basename(dir)}: `);
      const r = await runRepo(runOpts, dir);
      process.stderr.write(`${r.trials.filter((t) => t.foundAt).length}/${r.trials.length} found\n`);
      results.push(r);
      write(); // after each repository, so a long run can be read before it ends
    }
  } finally {
    rmSync(snapshot, { recursive: true, force: true });
  }
  process.stdout.write(report(results, opts));
  write();
}

main().catch((e: Error) => {
  process.stderr.write(`${e.message}\n`);
  process.exit(2);
});
