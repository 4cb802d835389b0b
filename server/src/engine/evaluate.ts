// The incremental engine: all findings of a snapshot (YAML/manifest problems of each file plus every enabled rule),
// evaluated in units of one rule over one file's objects in one namespace, within that file's scope. Given an
// earlier evaluated snapshot, only the units whose inputs changed run again. The only state it holds is the
// evaluation of each snapshot (a memo by Analysis) and what the next evaluation reuses.

import type { Analysis, ScopeAnalysis } from '../analysis/analysis';
import type { ManifestFile } from '../model/parseManifest';
import type { Finding } from '../rules/finding';
import { rules } from '../rules/index';
import { fileNamed, fileObjectsIn, objectsOfFiles } from '../model/cluster';
import { keysOf, resolveKnown, sameResolution, unitContext, type KnownResolution, type ResolutionMemo } from './context';
import type { Rule, RuleContext } from '../rules/rule';

/** Findings beyond this many in one file are folded into a single "N more" note. */
export const maxFindingsPerFile = 200;

/** One namespace-scoped rule's findings for its subjects in one file and one namespace, and the inputs that produced them. */
interface Unit {
  readonly findings: readonly Finding[];
  /** Its dependency keys (engine/context.ts), its own file's `file:` key included. */
  readonly deps: ReadonlySet<string>;
}

/**
 * What an evaluation keeps for the next one. Units are kept only when they found something or read something
 * besides their own file: a unit with neither is empty until its file changes, and then it runs anyway. The
 * dependency indexes map a key to the units and name resolutions that read it, so an edit finds what it affects
 * without visiting everything. The state is handed from one evaluation to the next and updated in place: the
 * evaluation it came from can no longer serve as a basis.
 */
interface State {
  /** `<rule code>\u0000<namespace>\u0000<uri>` → unit */
  readonly units: Map<string, Unit>;
  /** The units with findings, by id. */
  readonly found: Map<string, Unit>;
  readonly resolutions: Map<string, KnownResolution>;
  readonly unitsByDep: Map<string, Set<string>>;
  readonly resolutionsByDep: Map<string, Set<string>>;
  /** Whether the two indexes are built: a first evaluation leaves them for later (`prepareIncremental`). */
  indexed: boolean;
}

interface Evaluation {
  readonly findings: readonly Finding[];
  /** Undefined once a later evaluation has taken it over. */
  state: State | undefined;
}

const evaluations = new WeakMap<Analysis, Evaluation>();

/**
 * Memoized per analysis snapshot: the editor, the trace view and the CLI share one evaluation. `earlier` lists
 * analyses of earlier snapshots of the same workspace, newest first; the first one already evaluated with the same
 * settings is the basis, and only checks that read something an edit changed run again. The result is the same
 * as evaluating from scratch (test/incremental checks this after random edit sequences).
 */
export function diagnosticsFor(analysis: Analysis, earlier: readonly Analysis[] = []): readonly Finding[] {
  let found = evaluations.get(analysis);
  if (!found) {
    // A change of variants moves files between scopes: then everything runs again.
    const basis = earlier.find((a) => a.config === analysis.config && a.variants === analysis.variants && evaluations.get(a)?.state);
    const from = basis && evaluations.get(basis)!;
    found = evaluate(analysis, from && { state: from.state!, before: basis! });
    if (from) from.state = undefined;
    evaluations.set(analysis, found);
  }
  return found.findings;
}

/**
 * Builds what the next incremental evaluation after this snapshot needs (the dependency indexes), if it is not
 * built yet: the server calls it when idle after a first evaluation, so that the first edit does not pay for it.
 */
export function prepareIncremental(analysis: Analysis): void {
  const state = evaluations.get(analysis)?.state;
  if (state) ensureIndexed(state);
}

function ensureIndexed(state: State): void {
  if (state.indexed) return;
  for (const [id, unit] of state.units) index(state.unitsByDep, id, unit.deps);
  for (const [key, known] of state.resolutions) index(state.resolutionsByDep, key, known.deps);
  state.indexed = true;
}

/** The same findings, every rule run once over each scope's objects: the reference the incremental path must equal. */
export function diagnosticsFromScratch(analysis: Analysis): readonly Finding[] {
  return assemble(analysis, runRules(analysis));
}

/** Every enabled rule of `only` run once over each scope's objects, with the configured severities, in order. */
export function runRules(analysis: Analysis, only: readonly Rule[] = rules): Finding[] {
  const unit = unitContext(analysis.config);
  const out: Finding[] = [];
  for (const scope of analysis.scopes()) {
    unit.bind(scope.members === analysis.cluster.files ? analysis.cluster : objectsOfFiles(scope.members), new Set(), scope);
    for (const { rule, severity } of enabledRules(analysis, only)) collect(rule, unit.context, severity, out);
  }
  return orderFindings(out);
}

/**
 * By file, then position, then code, then message; findings that tie on all of these keep the order they were
 * reported in. (The message settles the order whatever order the incremental evaluation gathered them in.)
 */
export function orderFindings(findings: Finding[]): Finding[] {
  return findings.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : a.span.start - b.span.start || compare(a.code, b.code) || compare(a.message, b.message)));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function enabledRules(analysis: Analysis, only: readonly Rule[] = rules): { rule: Rule; severity: Finding['severity'] }[] {
  const out: { rule: Rule; severity: Finding['severity'] }[] = [];
  for (const rule of only) {
    const configured = analysis.config.rules[rule.code];
    if (configured !== 'off') out.push({ rule, severity: configured ?? rule.defaultSeverity });
  }
  return out;
}

const unitId = (code: string, ns: string, uri: string) => `${code}\u0000${ns}\u0000${uri}`;

function evaluate(analysis: Analysis, basis: { state: State; before: Analysis } | undefined): Evaluation {
  const state: State = basis?.state ?? { units: new Map(), found: new Map(), resolutions: new Map(), unitsByDep: new Map(), resolutionsByDep: new Map(), indexed: false };
  if (basis) ensureIndexed(state);
  const enabled = enabledRules(analysis);
  const ruleFindings: Finding[] = [];
  const released = new Set<string>();
  const drop = (id: string) => {
    const unit = state.units.get(id);
    if (!unit) return;
    if (state.indexed) unindex(state.unitsByDep, id, unit.deps);
    for (const k of unit.deps) if (k.startsWith('res:')) released.add(k.slice(4));
    state.units.delete(id);
    state.found.delete(id);
  };
  const ctx = unitContext(analysis.config, indexedResolutions(state));
  // A unit that finds nothing and reads nothing but its own file is not kept; its set and list serve the next one.
  let deps = new Set<string>();
  let findings: Finding[] = [];
  /** Runs the enabled rules over a file's objects in one namespace; `only` limits them to one rule. */
  const run = (ns: string, file: ManifestFile, only?: { rule: Rule; severity: Finding['severity'] }) => {
    const own = `file:${file.uri}`;
    const subjects = fileObjectsIn(file, ns);
    const scope = analysis.scopeOf(file.uri);
    for (const { rule, severity } of only ? [only] : enabled) {
      deps.add(own);
      ctx.bind(subjects, deps, scope);
      collect(rule, ctx.context, severity, findings);
      if (!findings.length && deps.size === 1) {
        deps.clear();
        continue;
      }
      const id = unitId(rule.code, ns, file.uri);
      drop(id);
      const unit = { findings, deps };
      state.units.set(id, unit);
      if (findings.length) state.found.set(id, unit);
      if (state.indexed) index(state.unitsByDep, id, deps);
      deps = new Set();
      findings = [];
    }
  };

  if (!basis) {
    for (const scope of analysis.scopes()) for (const file of scope.members) for (const ns of namespacesOf(file)) run(ns, file);
  } else {
    const { changed, files } = changedKeys(basis.before, analysis);
    revalidate(analysis.scopes(), state, changed);
    // The units of files that changed, went away or came: the old ones are dropped, the new ones run.
    for (const uri of files) for (const id of [...(state.unitsByDep.get(`file:${uri}`) ?? [])]) drop(id);
    // Other units whose inputs changed, found through the index, plus those that read everything.
    const stale = new Set<string>();
    for (const k of changed) for (const id of state.unitsByDep.get(k) ?? []) stale.add(id);
    for (const id of state.unitsByDep.get('*') ?? []) stale.add(id);
    for (const uri of files) {
      const file = fileNamed(analysis.cluster.files, uri);
      if (file) for (const ns of namespacesOf(file)) run(ns, file);
    }
    const byCode = new Map(enabled.map((e) => [e.rule.code, e]));
    for (const id of stale) {
      if (!state.units.has(id)) continue;
      const [code, ns, uri] = id.split('\u0000');
      const file = fileNamed(analysis.cluster.files, uri);
      const e = byCode.get(code);
      drop(id);
      if (file && e) run(ns, file, e);
    }
  }
  for (const unit of state.found.values()) for (const f of unit.findings) ruleFindings.push(f);
  // Name resolutions no unit reads any more are forgotten.
  for (const key of released) {
    if (state.unitsByDep.get(`res:${key}`)?.size) continue;
    const known = state.resolutions.get(key);
    if (!known) continue;
    unindex(state.resolutionsByDep, key, known.deps);
    state.resolutions.delete(key);
  }
  return { findings: assemble(analysis, orderFindings(ruleFindings)), state };
}

/** The namespaces a file's objects are in, in order. */
function namespacesOf(file: ManifestFile): string[] {
  const out: string[] = [];
  for (const r of file.resources) if (!out.includes(r.namespace)) out.push(r.namespace);
  return out;
}

/** Name resolutions made while rules run are indexed by what they read as they are added. */
function indexedResolutions(state: State): ResolutionMemo {
  return {
    get: (key) => state.resolutions.get(key),
    set(key, known) {
      const old = state.resolutions.get(key);
      if (!state.indexed) {
        state.resolutions.set(key, known);
        return;
      }
      if (old) unindex(state.resolutionsByDep, key, old.deps);
      state.resolutions.set(key, known);
      index(state.resolutionsByDep, key, known.deps);
    },
  };
}

/**
 * Recomputes the kept name resolutions that read something that changed. The dependency key of a resolution
 * counts as changed only when its answer differs, so a check that reads a name in a namespace that was edited runs
 * again only when what the name resolves to is different. Returns the changed keys, those included.
 */
function revalidate(scopes: readonly ScopeAnalysis[], state: State, changed: Set<string>): Set<string> {
  const byId = new Map(scopes.map((s) => [s.id, s]));
  const affected = new Set<string>();
  for (const k of changed) for (const key of state.resolutionsByDep.get(k) ?? []) affected.add(key);
  for (const key of state.resolutionsByDep.get('*') ?? []) affected.add(key);
  for (const key of affected) {
    const old = state.resolutions.get(key)!;
    const scope = byId.get(key.slice(0, key.indexOf('\u0001')));
    if (!scope) continue;
    const fresh = resolveKnown(scope, key);
    unindex(state.resolutionsByDep, key, old.deps);
    state.resolutions.set(key, fresh);
    index(state.resolutionsByDep, key, fresh.deps);
    if (!sameResolution(old.resolution, fresh.resolution)) changed.add(`res:${key}`);
  }
  return changed;
}

function index(byDep: Map<string, Set<string>>, id: string, deps: ReadonlySet<string>): void {
  for (const k of deps) {
    const set = byDep.get(k);
    if (set) set.add(id);
    else byDep.set(k, new Set([id]));
  }
}

function unindex(byDep: Map<string, Set<string>>, id: string, deps: ReadonlySet<string>): void {
  for (const k of deps) {
    const set = byDep.get(k);
    if (!set) continue;
    set.delete(id);
    if (!set.size) byDep.delete(k);
  }
}

function collect(rule: Rule, context: RuleContext, severity: Finding['severity'], out: Finding[]): void {
  for (const draft of rule.check(context)) out.push({ ...draft, code: rule.code, severity });
}

/**
 * Dependency keys touched between two snapshots: those of every object in a file that changed, appeared or went
 * away, and those files' `file:` keys; with the URIs of those files.
 */
function changedKeys(before: Analysis, after: Analysis): { changed: Set<string>; files: Set<string> } {
  const keys = new Set<string>();
  const files = new Set<string>();
  const touch = (f: ManifestFile) => {
    files.add(f.uri);
    keys.add(`file:${f.uri}`);
    for (const r of f.resources) keysOf(r, keys);
  };
  const a = before.cluster.files;
  const b = after.cluster.files;
  if (a.length === b.length && a.every((f, i) => f.uri === b[i].uri)) {
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) continue;
      touch(a[i]);
      touch(b[i]);
    }
  } else {
    const old = new Map<string, ManifestFile>(a.map((f) => [f.uri, f]));
    for (const f of b) {
      const o = old.get(f.uri);
      old.delete(f.uri);
      if (o === f) continue;
      touch(f);
      if (o) touch(o);
    }
    for (const o of old.values()) touch(o);
  }
  // Which namespaces exist is a question each scope answers for itself (its cluster holds the files it sees).
  const scopesBefore = new Map(before.scopes().map((s) => [s.id, s.analysis.cluster.namespaces]));
  for (const scope of after.scopes()) {
    const na = scopesBefore.get(scope.id);
    const nb = scope.analysis.cluster.namespaces;
    if (!na || na === nb) continue;
    for (const n of na) if (!nb.has(n)) keys.add(`nsx:${n}`);
    for (const n of nb) if (!na.has(n)) keys.add(`nsx:${n}`);
    // Iterating the namespaces reads their order too (first appearance in file order), which an edit can change alone.
    if (na.size !== nb.size || [...na].join('/') !== [...nb].join('/')) keys.add('nsset');
  }
  return { changed: keys, files };
}

/** Parse problems first, file by file, then the ordered rule findings; capped per file. */
function assemble(analysis: Analysis, ruleFindings: readonly Finding[]): Finding[] {
  const out: Finding[] = [];
  for (const f of analysis.cluster.files) if (f.problems.length) for (const p of problemsOf(f)) out.push(p);
  for (const f of ruleFindings) out.push(f);
  return capPerFile(out);
}

/** A file's parse problems as findings, made once per parsed file (an unchanged file's findings stay the same objects). */
const problemFindings = new WeakMap<ManifestFile, readonly Finding[]>();

function problemsOf(f: ManifestFile): readonly Finding[] {
  let found = problemFindings.get(f);
  if (!found) problemFindings.set(f, (found = f.problems.map((p) => ({ uri: f.uri, span: p.span, message: p.message, code: p.code, severity: p.severity }))));
  return found;
}

function capPerFile(findings: Finding[]): Finding[] {
  const byUri = new Map<string, Finding[]>();
  for (const f of findings) {
    const l = byUri.get(f.uri);
    if (l) l.push(f);
    else byUri.set(f.uri, [f]);
  }
  const out: Finding[] = [];
  for (const [uri, list] of byUri) {
    if (list.length <= maxFindingsPerFile) {
      out.push(...list);
      continue;
    }
    out.push(...list.slice(0, maxFindingsPerFile));
    out.push({ uri, span: { start: 0, end: 0 }, code: 'too-many-findings', severity: 'information', message: `${list.length - maxFindingsPerFile} more findings in this file are not shown.` });
  }
  return out;
}
