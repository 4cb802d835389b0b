// `kube-netlens diff [BASE [HEAD]]`: what a change does, for a pull request's review. Both trees come from git
// (`git archive` of each commit into a temporary folder; HEAD omitted: the working tree, read as it is), the user's
// working copy is never touched. Each tree is checked by this same CLI in a process of its own (`check --format json`,
// `dns --format json`), and the two are compared: findings introduced, fixed and unchanged by identity
// (features/findingIdentity.ts), DNS names that appear or disappear, Services whose endpoint count or routes change
// (read in this process, as the trace's picker lists them), Ingress and Gateway API routes added, removed or re-pointed
// and NetworkPolicy reach that changes between workloads both trees have (features/networkChanges.ts).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messages, type Msg } from '../l10n/l10n';
import { failure, type CommandResult, type Terminal } from './commandResult';
import type { DiffRequest } from './parseArgs';
import { terminalSafe } from './terminalText';
import { textOutput } from './checkCommand';
import { analyzePaths } from './analyzePaths';
import { analyzeWithCharts } from './chartFindings';
import { isCollectError } from './collectFiles';
import { withConfigFile } from './configFile';
import { listServices } from '../features/serviceList';
import {
  compareReach,
  compareRoutes,
  reachSummary,
  routeSummaries,
  type ReachChange,
  type ReachSummary,
  type RouteChange,
  type RouteChanges,
  type RouteSummary,
} from '../features/networkChanges';

/** The scopes a change is in, the first few named: ` (in build overlays/a, build overlays/b)`. */
function unitsText(c: { readonly units?: readonly string[] }, msg: Msg): string {
  if (!c.units?.length) return '';
  const named = c.units
    .slice(0, 5)
    .map((u) => unitText(u, msg))
    .join(', ');
  return ` ${c.units.length > 5 ? msg('(in {0} and {1} more)', named, c.units.length - 5) : msg('(in {0})', named)}`;
}

/** A scope's name (features/networkChanges.ts: `build overlays/a`, `variant …`, also in the JSON) in the reader's words. */
function unitText(unit: string, msg: Msg): string {
  if (unit.startsWith('build ')) return msg('build {0}', unit.slice('build '.length));
  if (unit.startsWith('variant ')) return msg('variant {0}', unit.slice('variant '.length));
  return unit;
}

/** The words features/networkChanges.ts writes in a route's rule (kept in English in the JSON), in the reader's. */
function ruleWords(s: string, msg: Msg): string {
  if (s === 'default backend') return msg('default backend');
  if (s === 'no backends') return msg('no backends');
  if (s === 'a resource backend') return msg('a resource backend');
  if (s.endsWith(' every request')) return msg('{0} every request', s.slice(0, -' every request'.length));
  return s;
}

const ruleText = (x: { readonly match: string; readonly to: string }, msg: Msg) => `${ruleWords(x.match, msg)} → ${ruleWords(x.to, msg)}`;

interface TreeFinding {
  readonly file: string;
  readonly range: { readonly start: { readonly line: number } };
  readonly severity: 'error' | 'warning' | 'information' | 'hint';
  readonly code: string;
  readonly message: string;
  readonly fingerprint: string;
  /** A finding several builds or value sets share: the fingerprints of the others (cli/findingsJson.ts). */
  readonly otherIdentities?: readonly { readonly fingerprint: string }[];
}

/** A finding's fingerprints: one, or one per build for a finding several share; it is the same when any is. */
const fingerprintsOfFinding = (f: TreeFinding) => [f.fingerprint, ...(f.otherIdentities ?? []).map((o) => o.fingerprint)];

interface TreeRecord {
  readonly name: string;
  readonly type: string;
  readonly resource: { readonly kind: string; readonly namespace: string; readonly name: string };
}

/** A Service as the trace's picker lists it: how many endpoints it gets, and the routes that lead to it. */
interface TreeService {
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly unit?: string;
  readonly endpoints?: number;
  readonly routes: readonly string[];
}

interface Tree {
  readonly label: string;
  /** The label in the reader's words (`label` is the JSON's). */
  readonly shown: string;
  readonly findings: readonly TreeFinding[];
  readonly records: readonly TreeRecord[];
  readonly services: readonly TreeService[];
  readonly routes: readonly RouteSummary[];
  readonly reach: ReachSummary | { readonly skipped: string };
}

const gitTimeoutMs = 60_000;
const rank = { error: 3, warning: 2, information: 1, hint: 0 } as const;

export function diffCommand(request: DiffRequest, terminal: Terminal): CommandResult {
  const msg = messages(request.locale);
  const top = git(['rev-parse', '--show-toplevel'], '.');
  if (!top.ok) return failure(msg('diff needs a git repository: {0}', top.error));
  const root = top.out.trim();
  const merge = request.base === undefined ? defaultBase(root) : undefined;
  const base = request.base ?? merge?.commit;
  if (!base)
    return failure(
      msg('no BASE given and no default branch found (origin/HEAD, main or master): name the commit to compare with, e.g. kube-netlens diff origin/main'),
    );
  const temps: string[] = [];
  try {
    const baseTree = treeOf(
      root,
      base,
      temps,
      msg,
      merge && { label: `the merge base with ${merge.branch}`, shown: msg('the merge base with {0}', merge.branch) },
    );
    if ('error' in baseTree) return failure(baseTree.error);
    const headTree =
      request.head === undefined ? { dir: root, label: 'the working tree', shown: msg('the working tree') } : treeOf(root, request.head, temps, msg);
    if ('error' in headTree) return failure(headTree.error);
    const before = analyse(baseTree, request, msg);
    if ('error' in before) return failure(before.error);
    const after = analyse(headTree, request, msg);
    if ('error' in after) return failure(after.error);
    const report = compare(before, after);
    const failOn = request.failOn;
    const fails = failOn !== 'never' && report.introduced.some((f) => rank[f.severity] >= rank[failOn]);
    const stdout =
      request.format === 'json'
        ? JSON.stringify({ base: before.label, head: after.label, ...report, unchanged: report.unchanged.length }, null, 2) + '\n'
        : request.format === 'markdown'
          ? markdownOf(report, before.shown, after.shown, msg)
          : textOutput(terminal, () => textOf(report, before.shown, after.shown, msg));
    return { exitCode: fails ? 1 : 0, stdout, stderr: [] };
  } finally {
    for (const t of temps) rmSync(t, { recursive: true, force: true });
  }
}

interface Report {
  readonly introduced: readonly TreeFinding[];
  readonly fixed: readonly TreeFinding[];
  readonly unchanged: readonly TreeFinding[];
  readonly dns: { readonly added: readonly TreeRecord[]; readonly removed: readonly TreeRecord[] };
  /** Services added or removed, and those whose endpoint count or routes changed. */
  readonly services: {
    readonly added: readonly TreeService[];
    readonly removed: readonly TreeService[];
    readonly changed: readonly { readonly before: TreeService; readonly after: TreeService }[];
  };
  /** Ingress and Gateway API routes added, removed, or whose parents or backends change. */
  readonly routes: RouteChanges;
  /** Connections between workloads of both trees whose NetworkPolicy verdict or ports change; why not, when skipped. */
  readonly reach: readonly ReachChange[] | { readonly skipped: string };
}

function compare(before: Tree, after: Tree): Report {
  const was = new Set(before.findings.flatMap(fingerprintsOfFinding));
  const is = new Set(after.findings.flatMap(fingerprintsOfFinding));
  const known = (set: ReadonlySet<string>) => (f: TreeFinding) => fingerprintsOfFinding(f).some((fp) => set.has(fp));
  const key = (r: TreeRecord) => `${r.type} ${r.name}`;
  const hadName = new Set(before.records.map(key));
  const hasName = new Set(after.records.map(key));
  return {
    introduced: after.findings.filter((f) => !known(was)(f)),
    fixed: before.findings.filter((f) => !known(is)(f)),
    unchanged: after.findings.filter(known(was)),
    dns: { added: after.records.filter((r) => !hadName.has(key(r))), removed: before.records.filter((r) => !hasName.has(key(r))) },
    services: compareServices(before.services, after.services),
    routes: compareRoutes(before.routes, after.routes),
    reach:
      'skipped' in before.reach
        ? { skipped: `${before.label} has ${before.reach.skipped}` }
        : 'skipped' in after.reach
          ? { skipped: `${after.label} has ${after.reach.skipped}` }
          : compareReach(before.reach, after.reach),
  };
}

function compareServices(before: readonly TreeService[], after: readonly TreeService[]): Report['services'] {
  const was = new Map(before.map((s) => [s.key, s]));
  const is = new Map(after.map((s) => [s.key, s]));
  const changed: { before: TreeService; after: TreeService }[] = [];
  for (const s of after) {
    const b = was.get(s.key);
    if (b && (b.endpoints !== s.endpoints || b.routes.join('\n') !== s.routes.join('\n'))) changed.push({ before: b, after: s });
  }
  return { added: after.filter((s) => !was.has(s.key)), removed: before.filter((s) => !is.has(s.key)), changed };
}

const endpointsText = (n: number | undefined, msg: Msg) =>
  n === undefined ? msg('no endpoints (ExternalName)') : n === 1 ? msg('{0} endpoint', n) : msg('{0} endpoints', n);

/** `denied`, `allowed TCP 80` (features/networkChanges.ts, np-guard's words, kept as they are in every language). */
const skippedText = (skipped: string, msg: Msg) => {
  const m = /^(.*) has ([\d,]+) workloads \(more than (\d+)\)$/.exec(skipped);
  return m ? msg('{0} has {1} workloads (more than {2})', m[1], m[2], m[3]) : skipped;
};

/** `shop/web: 3 endpoints → 0 endpoints; routes +HTTPRoute shop/site` */
function serviceChange(c: { readonly before: TreeService; readonly after: TreeService }, msg: Msg): string {
  const parts: string[] = [];
  if (c.before.endpoints !== c.after.endpoints) parts.push(`${endpointsText(c.before.endpoints, msg)} → ${endpointsText(c.after.endpoints, msg)}`);
  const added = c.after.routes.filter((r) => !c.before.routes.includes(r));
  const removed = c.before.routes.filter((r) => !c.after.routes.includes(r));
  if (added.length || removed.length) parts.push(msg('routes {0}', [...added.map((r) => `+${r}`), ...removed.map((r) => `-${r}`)].join(', ')));
  return parts.join('; ');
}

function textOf(r: Report, base: string, head: string, msg: Msg): string {
  const lines = [`kube-netlens diff: ${base} → ${head}`, ''];
  const findings = (title: string, list: readonly TreeFinding[]) => {
    lines.push(title);
    for (const f of list) lines.push(`  ${terminalSafe(f.file)}:${f.range.start.line + 1}: ${f.severity} ${f.code}: ${terminalSafe(f.message.split('\n')[0])}`);
  };
  findings(msg('Findings introduced ({0})', r.introduced.length), r.introduced);
  findings(msg('Findings fixed ({0})', r.fixed.length), r.fixed);
  lines.push(msg('Findings unchanged: {0}', r.unchanged.length), '');
  lines.push(
    msg('DNS names added ({0})', r.dns.added.length),
    ...r.dns.added.map((d) => `  + ${terminalSafe(d.name)} ${d.type} (${d.resource.kind} ${d.resource.namespace}/${d.resource.name})`),
  );
  lines.push(
    msg('DNS names removed ({0})', r.dns.removed.length),
    ...r.dns.removed.map((d) => `  - ${terminalSafe(d.name)} ${d.type} (${d.resource.kind} ${d.resource.namespace}/${d.resource.name})`),
  );
  const { added, removed, changed } = r.services;
  lines.push(msg('Services added, removed or changed ({0})', added.length + removed.length + changed.length));
  for (const s of added) lines.push(`  + ${terminalSafe(s.key)}: ${endpointsText(s.endpoints, msg)}`);
  for (const s of removed) lines.push(`  - ${terminalSafe(s.key)}`);
  for (const c of changed) lines.push(`  ~ ${terminalSafe(c.after.key)}: ${terminalSafe(serviceChange(c, msg))}`);
  const routes = r.routes;
  lines.push(msg('Routes added, removed or re-pointed ({0})', routes.added.length + routes.removed.length + routes.changed.length));
  for (const x of routes.added)
    lines.push(
      `  + ${terminalSafe(x.key + unitsText(x, msg))}${x.parents.length ? ` ${msg('via {0}', terminalSafe(x.parents.join(', ')))}` : ''}`,
      ...x.rules.map((rule) => `      ${terminalSafe(ruleText(rule, msg))}`),
    );
  for (const x of routes.removed) lines.push(`  - ${terminalSafe(x.key + unitsText(x, msg))}`);
  for (const c of routes.changed)
    lines.push(`  ~ ${terminalSafe(c.key + unitsText(c, msg))}`, ...routeChangeLines(c, msg).map((l) => `      ${terminalSafe(l)}`));
  if ('skipped' in r.reach) lines.push(msg('NetworkPolicy reach: not compared ({0})', terminalSafe(skippedText(r.reach.skipped, msg))));
  else {
    lines.push(msg('NetworkPolicy reach changes ({0})', r.reach.length));
    for (const c of r.reach)
      lines.push(`  ${c.after === 'denied' ? '-' : c.before === 'denied' ? '+' : '~'} ${terminalSafe(c.connection)}: ${terminalSafe(reachChangeText(c, msg))}`);
  }
  return lines.join('\n') + '\n';
}

/** The lines of a route's change: parents attached or detached, matches added, removed or sent elsewhere. */
function routeChangeLines(c: RouteChange, msg: Msg): string[] {
  return [
    ...c.parentsAdded.map((p) => `+ ${msg('parent {0}', p)}`),
    ...c.parentsRemoved.map((p) => `- ${msg('parent {0}', p)}`),
    ...c.rulesAdded.map((x) => `+ ${ruleText(x, msg)}`),
    ...c.rulesRemoved.map((x) => `- ${ruleText(x, msg)}`),
    ...c.repointed.map((x) => `~ ${ruleText(x, msg)} ${msg('(was {0})', ruleWords(x.from, msg))}`),
  ];
}

/** `denied → allowed TCP 80`; `allowed All Connections → allowed TCP 80 (in build overlays/a, build overlays/b)`. */
function reachChangeText(c: ReachChange, msg: Msg): string {
  return `${c.before} → ${c.after}${unitsText(c, msg)}`;
}

/** Markdown for a pull-request comment: short, grouped; manifest text only inside code spans, backticks removed. */
function markdownOf(r: Report, base: string, head: string, msg: Msg): string {
  const code = (s: string) => `\`${s.replace(/[`\r\n]/g, ' ')}\``;
  const text = (s: string) => s.split('\n')[0].replace(/[\\`*_[\]<>|#!]/g, (c) => `\\${c}`);
  const out = [
    `### ${msg('kube-netlens: {0} introduced, {1} fixed, {2} unchanged', r.introduced.length, r.fixed.length, r.unchanged.length)}`,
    '',
    `${text(base)} → ${text(head)}`,
    '',
  ];
  const findings = (title: string, list: readonly TreeFinding[]) => {
    if (!list.length) return;
    out.push(`**${title}**`, '');
    for (const f of list) out.push(`- ${msg('{0} {1} at {2}: {3}', f.severity, code(f.code), code(`${f.file}:${f.range.start.line + 1}`), text(f.message))}`);
    out.push('');
  };
  findings(msg('Introduced'), r.introduced);
  findings(msg('Fixed'), r.fixed);
  if (r.dns.added.length || r.dns.removed.length) {
    out.push(`**${msg('DNS names')}**`, '');
    for (const d of r.dns.added)
      out.push(`- ${msg('added {0} ({1}, {2} {3})', code(d.name), d.type, d.resource.kind, code(`${d.resource.namespace}/${d.resource.name}`))}`);
    for (const d of r.dns.removed)
      out.push(`- ${msg('removed {0} ({1}, {2} {3})', code(d.name), d.type, d.resource.kind, code(`${d.resource.namespace}/${d.resource.name}`))}`);
    out.push('');
  }
  const { added, removed, changed } = r.services;
  if (added.length || removed.length || changed.length) {
    out.push(`**${msg('Services')}**`, '');
    for (const s of added) out.push(`- ${msg('added {0}: {1}', code(s.key), endpointsText(s.endpoints, msg))}`);
    for (const s of removed) out.push(`- ${msg('removed {0}', code(s.key))}`);
    for (const c of changed) out.push(`- ${code(c.after.key)}: ${text(serviceChange(c, msg))}`);
    out.push('');
  }
  const routes = r.routes;
  if (routes.added.length || routes.removed.length || routes.changed.length) {
    out.push(`**${msg('Routes')}**`, '');
    for (const x of routes.added)
      out.push(
        `- ${msg('added {0}', `${code(x.key)}${text(unitsText(x, msg))}${x.parents.length ? ` ${msg('via {0}', x.parents.map(code).join(', '))}` : ''}`)}: ${x.rules.map((rule) => code(ruleText(rule, msg))).join(', ') || msg('no rules')}`,
      );
    for (const x of routes.removed) out.push(`- ${msg('removed {0}', `${code(x.key)}${text(unitsText(x, msg))}`)}`);
    for (const c of routes.changed) out.push(`- ${code(c.key)}${text(unitsText(c, msg))}: ${routeChangeLines(c, msg).map(code).join(', ')}`);
    out.push('');
  }
  if ('skipped' in r.reach) out.push(msg('NetworkPolicy reach not compared: {0}', text(skippedText(r.reach.skipped, msg))), '');
  else if (r.reach.length) {
    out.push(`**${msg('NetworkPolicy reach')}**`, '');
    for (const c of r.reach) out.push(`- ${code(c.connection)}: ${code(c.before)} → ${code(c.after)}${text(unitsText(c, msg))}`);
    out.push('');
  }
  return out.join('\n');
}

function analyse(
  tree: { readonly dir: string; readonly label: string; readonly shown: string },
  request: DiffRequest,
  msg: Msg,
): Tree | { readonly error: string } {
  const { dir, label, shown } = tree;
  // the findings' messages in the reader's language (the child would otherwise read the locale environment alone)
  const common = ['--lang', request.locale ?? 'en', ...(request.config ? ['--config', request.config] : []), ...request.paths];
  const check = cli(['check', '--format', 'json', '--fail-on', 'never', ...common], dir, msg);
  if ('error' in check) return { error: msg('checking {0}: {1}', shown, check.error) };
  const dns = cli(['dns', '--format', 'json', ...common], dir, msg);
  if ('error' in dns) return { error: msg('listing the DNS names of {0}: {1}', shown, dns.error) };
  const network = networkIn(dir, request);
  if ('error' in network) return { error: msg('reading the Services of {0}: {1}', shown, network.error) };
  return {
    label,
    shown,
    findings: (check.json as { diagnostics: TreeFinding[] }).diagnostics,
    records: (dns.json as { records: TreeRecord[] }).records,
    ...network,
  };
}

/**
 * The Services of a tree with their endpoint counts and routes, as the trace's picker lists them
 * (features/serviceList.ts), its Ingress and Gateway API routes and its NetworkPolicy connectivity list.
 */
function networkIn(dir: string, request: DiffRequest): Pick<Tree, 'services' | 'routes' | 'reach'> | { readonly error: string } {
  const configured = withConfigFile({ paths: request.paths.map((p) => join(dir, p)), ...(request.config && { config: join(dir, request.config) }) });
  if ('error' in configured) return configured;
  const loaded = analyzePaths(configured.request);
  if (isCollectError(loaded)) return loaded;
  const { analysis } = analyzeWithCharts(loaded, {}, process.env);
  // names of units are paths in the tree: the same in both trees only without the tree's folder
  const local = (s: string | undefined) => s?.split(`${dir}/`).join('');
  const list = listServices(analysis)
    .filter((s) => s.kind === undefined)
    .map((s) => {
      const unit = local(s.unit);
      return {
        key: `${s.namespace}/${s.name}${unit ? ` (${unit})` : ''}`,
        namespace: s.namespace,
        name: s.name,
        ...(unit && { unit }),
        ...(s.endpoints !== undefined && { endpoints: s.endpoints }),
        routes: (s.routes ?? []).map((r) => `${r.kind} ${r.namespace}/${r.name}`).sort(),
      };
    });
  return { services: list, routes: routeSummaries(analysis, (u) => local(u)!), reach: reachSummary(analysis, (u) => local(u)!) };
}

/** This CLI on one tree, in a process of its own (its current folder is the tree's root). */
function cli(args: readonly string[], cwd: string, msg: Msg): { readonly json: unknown } | { readonly error: string } {
  const r = spawnSync(process.execPath, [process.argv[1], ...args], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) return { error: (r.stderr || `exit ${r.status}`).trim().replace(/^kube-netlens: /gm, '') };
  try {
    return { json: JSON.parse(r.stdout) };
  } catch {
    return { error: msg('its output was not JSON') };
  }
}

/** The commit's tree, from `git archive`, in a temporary folder. */
function treeOf(
  root: string,
  rev: string,
  temps: string[],
  msg: Msg,
  name?: { readonly label: string; readonly shown: string },
): { readonly dir: string; readonly label: string; readonly shown: string } | { readonly error: string } {
  if (rev.startsWith('-')) return { error: msg("'{0}' is not a commit", rev) };
  const commit = git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], root);
  if (!commit.ok) return { error: msg("'{0}' is not a commit of this repository", rev) };
  const dir = mkdtempSync(join(tmpdir(), 'kube-netlens-diff-'));
  temps.push(dir);
  const archive = spawnSync('git', ['archive', '--format=tar', commit.out.trim()], { cwd: root, maxBuffer: 1024 * 1024 * 1024, timeout: gitTimeoutMs });
  if (archive.status !== 0) return { error: msg('git archive {0} failed: {1}', rev, archive.stderr.toString().trim()) };
  const tar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout, timeout: gitTimeoutMs });
  if (tar.status !== 0) return { error: msg('unpacking {0} failed: {1}', rev, tar.stderr.toString().trim()) };
  const short = commit.out.trim().slice(0, 12);
  return { dir, label: `${name?.label ?? rev} (${short})`, shown: `${name?.shown ?? rev} (${short})` };
}

/** The merge base of HEAD with the default branch (origin/HEAD, else main, else master). */
function defaultBase(root: string): { readonly commit: string; readonly branch: string } | undefined {
  for (const branch of ['origin/HEAD', 'main', 'master', 'origin/main', 'origin/master']) {
    if (!git(['rev-parse', '--verify', '--quiet', `${branch}^{commit}`], root).ok) continue;
    const base = git(['merge-base', 'HEAD', branch], root);
    if (base.ok) return { commit: base.out.trim(), branch };
  }
  return undefined;
}

function git(args: readonly string[], cwd: string): { readonly ok: true; readonly out: string } | { readonly ok: false; readonly error: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', timeout: gitTimeoutMs });
  if (r.error) return { ok: false, error: r.error.message };
  return r.status === 0 ? { ok: true, out: r.stdout } : { ok: false, error: r.stderr.trim() || `git ${args[0]} failed` };
}
