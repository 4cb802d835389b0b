// Differential run of `kube-netlens build` against real Kustomize (`kubectl kustomize`) on the kustomizations of
// real repositories, as data. It fetches nothing; the folders are given. Not part of the test command.
//
// Usage: node --import tsx scripts/kustomizeDiff.ts [--cli PATH] [--kubectl PATH] [--per-repo N] [--jobs N]
//                                                   [--out FILE] [--verbose] [--load-restrictor VALUE] DIR [DIR...]
//   --cli PATH      the CLI bundle (default: this checkout's dist/cli.js)
//   --kubectl PATH  the kubectl whose `kustomize` is the reference (default: kubectl on PATH)
//   --per-repo N    at most N roots per DIR, chosen evenly over the sorted list (default: all)
//   --jobs N        builds run at once (default 2)
//   --out FILE      also write every root's outcome as JSON
//   --verbose       print every root that is not equal, with the first differing path or both reasons
//   --load-restrictor VALUE  given to both tools (LoadRestrictionsRootOnly, the default, or LoadRestrictionsNone: how
//                   repositories whose templates read files outside the root, such as cluster-api's, build them)
//
// A root is a folder with a kustomization (kustomization.yaml, kustomization.yml, Kustomization) that is not a
// Component. For each: `node CLI build ROOT --format json` and `kubectl kustomize ROOT`, both parsed as data (the
// real tool's YAML read as go-yaml v3 reads it: 0-prefixed integers are octal). Objects are compared as a set keyed by
// apiVersion, kind, namespace and name (map key order ignored); where the sets are equal but the order of the
// objects is not, the root counts as "equal, order differs". Outcomes: equal / different (first differing path) /
// only we refuse / only kubectl refuses / both refuse (same reason or not, by the reason's class).

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { parseAllDocuments, type ScalarTag } from 'yaml';

interface Options {
  cli: string;
  kubectl: string;
  perRepo?: number;
  jobs: number;
  out?: string;
  verbose: boolean;
  loadRestrictor?: string;
  dirs: string[];
}

type Outcome =
  | { kind: 'equal'; orderDiffers: boolean }
  | { kind: 'different'; path: string }
  | { kind: 'we-refuse'; ours: string; notEvaluated: boolean }
  | { kind: 'kubectl-refuses'; theirs: string }
  | { kind: 'both-refuse'; same: boolean; ours: string; theirs: string };

interface RootResult {
  readonly repo: string;
  readonly root: string;
  readonly outcome: Outcome;
}

function parseOptions(argv: readonly string[]): Options {
  const o: Options = { cli: resolve(__dirname, '..', 'dist', 'cli.js'), kubectl: 'kubectl', jobs: 2, verbose: false, dirs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--cli') o.cli = resolve(value());
    else if (a === '--kubectl') o.kubectl = value();
    else if (a === '--per-repo') o.perRepo = Number(value());
    else if (a === '--jobs') o.jobs = Math.max(1, Number(value()));
    else if (a === '--out') o.out = value();
    else if (a === '--verbose') o.verbose = true;
    else if (a === '--load-restrictor') o.loadRestrictor = value();
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else o.dirs.push(resolve(a));
  }
  if (o.dirs.length === 0) throw new Error('give at least one repository folder');
  return o;
}

const kustomizationNames = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const skipped = new Set(['.git', 'node_modules', 'vendor', 'third_party']);

/** Every folder under `dir` whose kustomization is not a Component. */
function rootsUnder(dir: string, out: string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  const file = kustomizationNames.find((n) => names.includes(n));
  if (file) {
    let text = '';
    try {
      text = readFileSync(join(dir, file), 'utf8');
    } catch {
      // unreadable: still a root, both tools will say why
    }
    if (!/^kind:\s*Component\s*$/m.test(text)) out.push(dir);
  }
  for (const n of names.sort()) {
    if (skipped.has(n)) continue;
    const p = join(dir, n);
    try {
      if (statSync(p).isDirectory()) rootsUnder(p, out);
    } catch {
      // gone or unreadable
    }
  }
  return out;
}

function evenly<T>(items: readonly T[], n: number | undefined): T[] {
  if (n === undefined || items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]);
}

function run(cmd: string, args: readonly string[], timeoutMs = 120_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    p.on('error', (err) => {
      clearTimeout(timer);
      done({ code: -1, stdout, stderr: err.message });
    });
    p.on('close', (code) => {
      clearTimeout(timer);
      done({ code: code ?? -1, stdout, stderr: code === null ? `${stderr}\n(timed out)` : stderr });
    });
  });
}

/** go-yaml v3 reads `0444` as octal (YAML 1.1), where YAML 1.2's core schema reads it as decimal. */
const goOctal: ScalarTag = {
  tag: 'tag:yaml.org,2002:int',
  default: true,
  test: /^0[0-7]+$/,
  resolve: (s: string) => parseInt(s, 8),
};

function parseKubectl(text: string): unknown[] {
  return parseAllDocuments(text, { customTags: (tags) => [goOctal, ...tags] })
    .map((d) => d.toJS() as unknown)
    .filter((o) => o !== null);
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

const canonical = (v: unknown) => JSON.stringify(sortKeys(v));

function idOf(o: unknown): string {
  const r = (o ?? {}) as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
  return `${String(r.apiVersion)}/${String(r.kind)}/${String(r.metadata?.namespace ?? '')}/${String(r.metadata?.name)}`;
}

function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
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
  if (typeof a === 'string' && typeof b === 'string') {
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    const from = Math.max(0, i - 20);
    return `${path || '/'}: from character ${i}: ours ${JSON.stringify(a.slice(from, i + 40))}, kubectl ${JSON.stringify(b.slice(from, i + 40))}`;
  }
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v).slice(0, 120));
  return `${path || '/'}: ours ${show(a)}, kubectl ${show(b)}`;
}

/** The objects compared as a set keyed by identity; the first differing path, or undefined when equal. */
function compareObjects(ours: readonly unknown[], theirs: readonly unknown[]): { path?: string; orderDiffers: boolean } {
  const index = (list: readonly unknown[]) => {
    const m = new Map<string, unknown[]>();
    for (const o of list) m.set(idOf(o), [...(m.get(idOf(o)) ?? []), o]);
    return m;
  };
  const a = index(ours);
  const b = index(theirs);
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(id);
    const y = b.get(id);
    if (!x) return { path: `${id}: only kubectl builds it`, orderDiffers: false };
    if (!y) return { path: `${id}: only we build it`, orderDiffers: false };
    const d = firstDifference(x, y, id);
    if (d) return { path: d, orderDiffers: false };
  }
  const order = (list: readonly unknown[]) => list.map(idOf).join('\n');
  return { orderDiffers: order(ours) !== order(theirs) };
}

/** The class of a refusal's reason, so two tools' words for one cause compare equal. */
function reasonClass(text: string): string {
  const t = text.toLowerCase();
  if (/security;|not in or below|load restrict|outside the kustomization/.test(t)) return 'load restrictor';
  if (/helm|helmcharts/.test(t)) return 'helm charts';
  if (/remote|https?:\/\/|git::|github\.com\/|\?ref=/.test(t)) return 'remote resource';
  if (/cycle/.test(t)) return 'cycle';
  if (/external plugins? disabled|plugin|exec function/.test(t)) return 'not evaluated';
  if (
    /no such file|not found|must resolve to a file|does not exist|missing|unable to find|cannot find|cannot read|no kustomization|evalsymlink|neither a file nor a folder|not read \(too large/.test(
      t,
    )
  )
    return 'missing file';
  if (/conflict|already registered|id conflict|may not add resource with an already registered id/.test(t)) return 'conflicting ids';
  if (/yaml|json|unmarshal|parse/.test(t)) return 'unreadable YAML';
  if (/replacement|vars|transformers?:|configurations|not analysed|not evaluated|openapi|crds|plugin|exec/.test(t)) return 'not evaluated';
  return 'other';
}

/** The first line of a reason, without kubectl's log prefix (`E1202 06:47:56.917019 10760 run.go:72] "command failed" err=`). */
function firstLine(text: string, max = 300): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#') && l !== '>')
    .map((l) => l.replace(/^[EWI]\d{4} [\d:.]+\s+\d+ [\w.]+:\d+\] "command failed" err=/, '').replace(/^kube-netlens: /, ''));
  const first = lines[0] === '<' ? lines[1] : lines[0];
  return (first ?? '').replace(/^"|"$/g, '').slice(0, max);
}

/**
 * kubectl's whole error on one line: its message is one Go error that may span lines (a builtin's config is quoted
 * between backticks before the cause, "trouble configuring builtin PatchTransformer with config: `...`: security; ..."),
 * so its first line alone can miss the cause.
 */
function wholeError(text: string, max = Infinity): string {
  const first = firstLine(text, Infinity);
  const all = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
  const start = all.indexOf(first.slice(0, 40));
  // the quoted config is not the reason (it may name files, URLs or Helm charts the cause is not about)
  return (start >= 0 ? all.slice(start) : all)
    .replace(/`[^`]*`/g, '`…`')
    .replace(/"$/, '')
    .slice(0, max);
}

async function compareRoot(o: Options, repo: string, root: string): Promise<RootResult> {
  const restrictor = o.loadRestrictor ? ['--load-restrictor', o.loadRestrictor] : [];
  const [ours, theirs] = await Promise.all([
    run(process.execPath, [o.cli, 'build', root, '--format', 'json', ...restrictor]),
    run(o.kubectl, ['kustomize', root, ...restrictor]),
  ]);
  const name = relative(repo, root) || '.';
  let ourObjects: unknown[] | undefined;
  let ourError = ours.stderr.trim() || `exit ${ours.code}`;
  if (ours.code === 0) {
    try {
      ourObjects = (JSON.parse(ours.stdout) as unknown[]).filter((x) => x !== null);
    } catch (e) {
      ourError = `unparsable output: ${(e as Error).message}`;
    }
  }
  let theirObjects: unknown[] | undefined;
  let theirError = theirs.stderr.trim() || `exit ${theirs.code}`;
  if (theirs.code === 0) {
    try {
      theirObjects = parseKubectl(theirs.stdout);
    } catch (e) {
      theirError = `unparsable output: ${(e as Error).message}`;
    }
  }
  // the CLI's first line is "cannot build DIR"; its reason follows
  const ourReason = ourError
    .split('\n')
    .filter((l) => !/^(kube-netlens: )?cannot build /.test(l.trim()))
    .join('\n');
  let outcome: Outcome;
  if (ourObjects && theirObjects) {
    const c = compareObjects(ourObjects, theirObjects);
    outcome = c.path ? { kind: 'different', path: c.path } : { kind: 'equal', orderDiffers: c.orderDiffers };
  } else if (!ourObjects && !theirObjects) {
    outcome = {
      kind: 'both-refuse',
      same: reasonClass(firstLine(ourReason, Infinity)) === reasonClass(wholeError(theirError)),
      ours: firstLine(ourReason),
      theirs: wholeError(theirError, 300),
    };
  } else if (!ourObjects) outcome = { kind: 'we-refuse', ours: firstLine(ourReason), notEvaluated: /Not analysed as a Kustomize build/.test(ourReason) };
  else outcome = { kind: 'kubectl-refuses', theirs: firstLine(theirError) };
  return { repo: basename(repo), root: name, outcome };
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const work: { repo: string; root: string }[] = [];
  for (const repo of o.dirs) for (const root of evenly(rootsUnder(repo), o.perRepo)) work.push({ repo, root });
  const results: RootResult[] = new Array(work.length);
  let next = 0;
  let finished = 0;
  const worker = async () => {
    while (next < work.length) {
      const i = next++;
      results[i] = await compareRoot(o, work[i].repo, work[i].root);
      if (++finished % 25 === 0) process.stderr.write(`${finished}/${work.length}\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.jobs, work.length) }, worker));

  const columns = ['roots', 'equal', 'order', 'different', 'not native', 'we refuse', 'kubectl refuses', 'both, same', 'both, differ'] as const;
  const rows = new Map<string, number[]>();
  const count = (repo: string, col: (typeof columns)[number]) => {
    const row = rows.get(repo) ?? columns.map(() => 0);
    row[columns.indexOf(col)]++;
    rows.set(repo, row);
  };
  for (const r of results) {
    count(r.repo, 'roots');
    const k = r.outcome;
    if (k.kind === 'equal') count(r.repo, k.orderDiffers ? 'order' : 'equal');
    else if (k.kind === 'different') count(r.repo, 'different');
    else if (k.kind === 'we-refuse') count(r.repo, k.notEvaluated ? 'not native' : 'we refuse');
    else if (k.kind === 'kubectl-refuses') count(r.repo, 'kubectl refuses');
    else count(r.repo, k.same ? 'both, same' : 'both, differ');
  }
  const total = columns.map((_, i) => [...rows.values()].reduce((s, row) => s + row[i], 0));
  const table = [['repository', ...columns], ...[...rows].map(([repo, row]) => [repo, ...row.map(String)]), ['total', ...total.map(String)]];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(
    '"order": equal as a set of objects, in another order; "not native": kubectl builds what the native renderer says it does not evaluate (check builds it with the real binary).',
  );
  for (const row of table) console.log(line(row));
  if (o.verbose) {
    for (const r of results) {
      const k = r.outcome;
      if (k.kind === 'equal' && !k.orderDiffers) continue;
      const what =
        k.kind === 'equal'
          ? 'order differs'
          : k.kind === 'different'
            ? `different at ${k.path}`
            : k.kind === 'we-refuse'
              ? `we refuse: ${k.ours}`
              : k.kind === 'kubectl-refuses'
                ? `kubectl refuses: ${k.theirs}`
                : `both refuse (${k.same ? 'same reason' : 'different reasons'}): ours: ${k.ours} | kubectl: ${k.theirs}`;
      console.log(`${r.repo}/${r.root}: ${what}`);
    }
  }
  if (o.out) writeFileSync(o.out, JSON.stringify(results, null, 2) + '\n');
}

main().catch((e: unknown) => {
  console.error((e as Error).message);
  process.exit(2);
});
