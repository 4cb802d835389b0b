// The incremental engine: all findings of a snapshot (YAML/manifest problems of each file plus every enabled rule),
// evaluated in units of one rule over one file's objects in one namespace, within that file's scope. Given an
// earlier evaluated snapshot, only the units whose inputs changed run again. The only state it holds is the
// evaluation of each snapshot (a memo by Analysis) and what the next evaluation reuses.

import { messages, say } from '../l10n/l10n';
import type { Analysis, ScopeAnalysis } from '../analysis/analysis';
import { configuredSeverity, type AnalysisConfig, type Severity } from '../model/config';
import type { ManifestFile } from '../model/parseManifest';
import { boundRelated, type Finding } from '../rules/finding';
import { rules } from '../rules/index';
import { fileNamed, fileObjectsIn, objectsOfFiles, type NamespaceObjects } from '../model/cluster';
import type { Resource } from '../model/resources';
import { ingressControllersOf } from '../model/ingressControllers';
import { mapRenderedFindings } from './renderedFindings';
import { keysOf, resolveKnown, sameResolution, unitContext, type KnownResolution } from './context';
import { dep, isAnswerKey, type DepKey } from './depKeys';
import type { Rule, RuleContext } from '../rules/rule';

/** Findings beyond this many in one file are folded into a single "N more" note. */
export const maxFindingsPerFile = 200;

/** One namespace-scoped rule's findings for its subjects in one file and one namespace, and the inputs that produced them. */
interface Unit {
  readonly findings: readonly Finding[];
  /** Its dependency keys (engine/context.ts), its own file's `file:` key included. */
  readonly deps: ReadonlySet<DepKey>;
}

/**
 * What an evaluation keeps for the next one. Units are kept only when they found something or read something
 * besides their own file: a unit with neither is empty until its file changes, and then it runs anyway. The
 * dependency indexes map a key to the units and name resolutions that read it, so an edit finds what it affects
 * without visiting everything. The state is handed from one evaluation to the next and updated in place when that
 * evaluation commits (its last step): the evaluation it came from can no longer serve as a basis.
 */
interface State {
  /** `<rule code>\u0000<namespace>\u0000<uri>` → unit */
  readonly units: Map<string, Unit>;
  /** The units with findings, by id. */
  readonly found: Map<string, Unit>;
  readonly resolutions: Map<string, KnownResolution>;
  readonly unitsByDep: Map<DepKey, Set<string>>;
  readonly resolutionsByDep: Map<DepKey, Set<string>>;
  /** Whether the two indexes are built: a first evaluation leaves them for later (`prepareIncremental`). */
  indexed: boolean;
}

interface Evaluation {
  readonly findings: readonly Finding[];
  /** The ordered rule findings as found, those of rendered apply units on the units' own text. */
  readonly ruleFindings: readonly Finding[];
  inUnits?: readonly Finding[];
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
  return completed(diagnosticsSteps(analysis, earlier));
}

/** The findings of a snapshot if its evaluation is done, without doing any of it. */
export function evaluatedFindings(analysis: Analysis): readonly Finding[] | undefined {
  return evaluations.get(analysis)?.findings;
}

/**
 * `diagnosticsFor` in steps, for a caller that must keep answering other requests meanwhile: the generator yields
 * after each rule over at most `sliceObjects` objects (one file's objects in one namespace, cut in pieces when there
 * are more; a rule reports on its own subjects, so the pieces together find what the whole does). The engine holds
 * no timer: the caller decides when to resume (the server's scheduler, lsp/). Nothing an evaluation keeps is changed
 * before its last step, so a caller may abandon it half-way for a newer snapshot, and the basis stays whole for
 * the next evaluation. An evaluation whose basis another one took over meanwhile starts again from the newer state.
 */
export function* diagnosticsSteps(analysis: Analysis, earlier: readonly Analysis[] = []): Generator<void, readonly Finding[]> {
  for (;;) {
    const done = evaluations.get(analysis);
    if (done) return done.findings;
    // A change of variants moves files between scopes: then everything runs again.
    const basis = earlier.find((a) => a.config === analysis.config && a.variants === analysis.variants && evaluations.get(a)?.state);
    const from = basis && evaluations.get(basis)!;
    const state = from?.state;
    const result = yield* evaluate(analysis, from && { state: state!, before: basis! });
    // Finished meanwhile by another caller (its result stands), or its basis taken over by another evaluation.
    if (evaluations.has(analysis) || (from && from.state !== state)) continue;
    const found = result.commit();
    if (from) from.state = undefined;
    evaluations.set(analysis, found);
    return found.findings;
  }
}

/** Runs steps to the end (the synchronous API of the CLI and tests). */
function completed<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * Builds what the next incremental evaluation after this snapshot needs (the dependency indexes), if it is not
 * built yet: the server calls it when idle after a first evaluation, so that the first edit does not pay for it.
 */
export function prepareIncremental(analysis: Analysis): void {
  completed(prepareSteps(analysis));
}

/** `prepareIncremental` in steps (of about `sliceObjects` units); it stops early if a later evaluation takes the state over. */
export function* prepareSteps(analysis: Analysis): Generator<void, void> {
  const state = evaluations.get(analysis)?.state;
  if (state) yield* indexSteps(state, () => evaluations.get(analysis)?.state === state);
}

/** Builds the dependency indexes in steps; `held` says whether the state is still worth indexing after a step. */
function* indexSteps(state: State, held: () => boolean): Generator<void, void> {
  if (state.indexed) return;
  let n = 0;
  for (const [id, unit] of state.units) {
    index(state.unitsByDep, id, unit.deps);
    if (++n % sliceObjects) continue;
    yield;
    // Indexing only adds to sets, so an evaluation that indexed it all meanwhile leaves nothing to do.
    if (state.indexed || !held()) return;
  }
  for (const [key, known] of state.resolutions) index(state.resolutionsByDep, key, known.deps);
  state.indexed = true;
}

/**
 * The rule findings of a snapshot where they were found: those of a rendered apply unit (a Kustomize build) on the
 * unit's rendered text, as the views that draw the unit's objects (the trace) need them.
 */
export function findingsInUnits(analysis: Analysis, earlier: readonly Analysis[] = []): readonly Finding[] {
  diagnosticsFor(analysis, earlier);
  const e = evaluations.get(analysis)!;
  return (e.inUnits ??= assemble(analysis, e.ruleFindings, false));
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
  return findings.sort((a, b) =>
    a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : a.span.start - b.span.start || compare(a.code, b.code) || compare(a.message, b.message),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function enabledRules(analysis: Analysis, only: readonly Rule[] = rules): { rule: Rule; severity: Finding['severity'] }[] {
  const out: { rule: Rule; severity: Finding['severity'] }[] = [];
  for (const rule of only) {
    const severity = severityOf(analysis.config, rule.code, rule.defaultSeverity);
    if (severity) out.push({ rule, severity });
  }
  return out;
}

/** Severity is applied here, to rule findings, parse problems (`yaml-syntax`, `manifest`) and the `too-many-findings` note alike. */
function severityOf(config: AnalysisConfig, code: string, defaultSeverity: Severity): Severity | undefined {
  return configuredSeverity(config.rules, code, defaultSeverity);
}

const unitId = (code: string, ns: string, uri: string) => `${code}\u0000${ns}\u0000${uri}`;

/** What an evaluation found, kept aside until `commit` makes it the state the next evaluation starts from. */
interface Pending {
  commit(): Evaluation;
}

function* evaluate(analysis: Analysis, basis: { state: State; before: Analysis } | undefined): Generator<void, Pending> {
  const state: State = basis?.state ?? {
    units: new Map(),
    found: new Map(),
    resolutions: new Map(),
    unitsByDep: new Map(),
    resolutionsByDep: new Map(),
    indexed: false,
  };
  if (basis && !state.indexed) yield* indexSteps(state, () => true);
  const enabled = enabledRules(analysis);
  /** Units run or dropped by this evaluation (undefined: dropped), and name resolutions made or made again. */
  const units = new Map<string, Unit | undefined>();
  const resolutions = new Map<string, KnownResolution>();
  const ctx = unitContext(analysis.config, {
    get: (key) => resolutions.get(key) ?? state.resolutions.get(key),
    set: (key, known) => void resolutions.set(key, known),
  });
  // A unit that finds nothing and reads nothing but its own file is not kept; its set and list serve the next one.
  let deps = new Set<DepKey>();
  let findings: Finding[] = [];
  /** Objects checked since the last step. */
  let work = 0;
  /** Runs the enabled rules over a file's objects in one namespace; `only` limits them to one rule. */
  const run = function* (ns: string, file: ManifestFile, only?: { rule: Rule; severity: Finding['severity'] }): Generator<void, void> {
    const own = dep.file(file.uri);
    const pieces = slicesOf(fileObjectsIn(file, ns));
    const scope = analysis.scopeOf(file.uri);
    for (const { rule, severity } of only ? [only] : enabled) {
      deps.add(own);
      for (const subjects of pieces) {
        // nothing of what the rule examines: it would read nothing and find nothing
        if (!hasSubjects(rule, subjects)) continue;
        ctx.bind(subjects, deps, scope);
        collect(rule, ctx.context, severity, findings);
        work += subjects.resources.length + 1;
        if (work < sliceObjects) continue;
        work = 0;
        yield;
      }
      if (!findings.length && deps.size === 1) {
        deps.clear();
        continue;
      }
      units.set(unitId(rule.code, ns, file.uri), { findings, deps });
      deps = new Set();
      findings = [];
    }
  };

  if (!basis) {
    for (const scope of analysis.scopes()) for (const file of scope.members) for (const ns of namespacesOf(file)) yield* run(ns, file);
  } else {
    const { changed, files } = yield* changedKeys(basis.before, analysis);
    yield;
    revalidate(analysis.scopes(), state, changed, resolutions);
    yield;
    // The units of files that changed, went away or came: the old ones are dropped, the new ones run.
    for (const uri of files) for (const id of state.unitsByDep.get(dep.file(uri)) ?? []) units.set(id, undefined);
    // Other units whose inputs changed, found through the index, plus those that read everything.
    const stale = new Set<string>();
    for (const k of changed) for (const id of state.unitsByDep.get(k) ?? []) stale.add(id);
    for (const id of state.unitsByDep.get(dep.anything) ?? []) stale.add(id);
    for (const uri of files) {
      const file = fileNamed(analysis.cluster.files, uri);
      if (file) for (const ns of namespacesOf(file)) yield* run(ns, file);
    }
    const byCode = new Map(enabled.map((e) => [e.rule.code, e]));
    for (const id of stale) {
      // A unit of a file that changed has just run over its new text.
      if (units.has(id) || !state.units.has(id)) continue;
      const [code, ns, uri] = id.split('\u0000');
      const file = fileNamed(analysis.cluster.files, uri);
      const e = byCode.get(code);
      units.set(id, undefined);
      if (file && e) yield* run(ns, file, e);
    }
  }
  return { commit: () => commit(analysis, state, units, resolutions) };
}

/** Makes what an evaluation found the state (in one piece: it only moves entries between maps) and assembles its findings. */
function commit(analysis: Analysis, state: State, units: ReadonlyMap<string, Unit | undefined>, resolutions: ReadonlyMap<string, KnownResolution>): Evaluation {
  const released = new Set<DepKey>();
  // An index begun in steps and left unfinished is begun again from the whole state.
  if (!state.indexed) {
    state.unitsByDep.clear();
    state.resolutionsByDep.clear();
  }
  for (const [id, unit] of units) {
    const old = state.units.get(id);
    if (old) {
      if (state.indexed) unindex(state.unitsByDep, id, old.deps);
      // the dependency keys themselves (`res:<resolution key>`), not new strings made from them
      for (const k of old.deps) if (isAnswerKey(k)) released.add(k);
    }
    if (!unit) {
      if (old) {
        state.units.delete(id);
        state.found.delete(id);
      }
      continue;
    }
    state.units.set(id, unit);
    if (unit.findings.length) state.found.set(id, unit);
    else if (old) state.found.delete(id);
    if (state.indexed) index(state.unitsByDep, id, unit.deps);
  }
  for (const [key, known] of resolutions) {
    const old = state.resolutions.get(key);
    state.resolutions.set(key, known);
    if (!state.indexed) continue;
    if (old) unindex(state.resolutionsByDep, key, old.deps);
    index(state.resolutionsByDep, key, known.deps);
  }
  const ruleFindings: Finding[] = [];
  for (const unit of state.found.values()) for (const f of unit.findings) ruleFindings.push(f);
  // Name resolutions no unit reads any more are forgotten.
  for (const dep of released) {
    if (state.unitsByDep.get(dep)?.size) continue;
    const key = dep.slice(4);
    const known = state.resolutions.get(key);
    if (!known) continue;
    unindex(state.resolutionsByDep, key, known.deps);
    state.resolutions.delete(key);
  }
  const ordered = orderFindings(ruleFindings);
  return { findings: assemble(analysis, ordered), ruleFindings: ordered, state };
}

/** Rules run over at most about this many objects between two steps of an evaluation (a few milliseconds). */
const sliceObjects = 64;

const slices = new WeakMap<NamespaceObjects, readonly NamespaceObjects[]>();

/** A file's objects in one namespace, in pieces of at most `sliceObjects` objects in file order (memoized per list). */
function slicesOf(objects: NamespaceObjects): readonly NamespaceObjects[] {
  if (objects.resources.length <= sliceObjects) return [objects];
  let found = slices.get(objects);
  if (found) return found;
  const pieceOf = new Map<Resource, number>();
  objects.resources.forEach((r, i) => pieceOf.set(r, Math.floor(i / sliceObjects)));
  const n = Math.ceil(objects.resources.length / sliceObjects);
  const pick = <T extends Resource>(list: readonly T[], i: number) => list.filter((r) => pieceOf.get(r) === i);
  found = Array.from({ length: n }, (_, i): NamespaceObjects => ({
    resources: objects.resources.slice(i * sliceObjects, (i + 1) * sliceObjects),
    services: pick(objects.services, i),
    workloads: pick(objects.workloads, i),
    endpoints: pick(objects.endpoints, i),
    endpointSlices: pick(objects.endpointSlices, i),
    ingresses: pick(objects.ingresses, i),
    networkPolicies: pick(objects.networkPolicies, i),
    configMaps: pick(objects.configMaps, i),
    routes: pick(objects.routes, i),
    gateways: pick(objects.gateways, i),
  }));
  slices.set(objects, found);
  return found;
}

/** The namespaces a file's objects are in, in order. */
function namespacesOf(file: ManifestFile): string[] {
  const out: string[] = [];
  for (const r of file.resources) if (!out.includes(r.namespace)) out.push(r.namespace);
  return out;
}

/**
 * Recomputes the kept name resolutions that read something that changed. The dependency key of a resolution
 * counts as changed only when its answer differs, so a check that reads a name in a namespace that was edited runs
 * again only when what the name resolves to is different. The fresh resolutions go to `into` (the state is changed
 * only when the evaluation commits). Returns the changed keys, those included.
 */
function revalidate(scopes: readonly ScopeAnalysis[], state: State, changed: Set<DepKey>, into: Map<string, KnownResolution>): Set<DepKey> {
  const byId = new Map(scopes.map((s) => [s.id, s]));
  const affected = new Set<string>();
  for (const k of changed) for (const key of state.resolutionsByDep.get(k) ?? []) affected.add(key);
  for (const key of state.resolutionsByDep.get(dep.anything) ?? []) affected.add(key);
  for (const key of affected) {
    const old = state.resolutions.get(key)!;
    const scope = byId.get(key.slice(0, key.indexOf('\u0001')));
    if (!scope) continue;
    const fresh = resolveKnown(scope, key);
    into.set(key, fresh);
    if (!sameResolution(old.resolution, fresh.resolution)) changed.add(dep.answer(key));
  }
  return changed;
}

function index(byDep: Map<DepKey, Set<string>>, id: string, deps: ReadonlySet<DepKey>): void {
  for (const k of deps) {
    const set = byDep.get(k);
    if (set) set.add(id);
    else byDep.set(k, new Set([id]));
  }
}

function unindex(byDep: Map<DepKey, Set<string>>, id: string, deps: ReadonlySet<DepKey>): void {
  for (const k of deps) {
    const set = byDep.get(k);
    if (!set) continue;
    set.delete(id);
    if (!set.size) byDep.delete(k);
  }
}

/** Whether the subjects hold an object of a list the rule examines (`Rule.subjects`). */
function hasSubjects(rule: Rule, subjects: NamespaceObjects): boolean {
  for (const list of rule.subjects) if (subjects[list].length) return true;
  return false;
}

function collect(rule: Rule, context: RuleContext, severity: Finding['severity'], out: Finding[]): void {
  for (const draft of rule.check(context)) out.push({ ...boundRelated(draft), code: rule.code, severity });
}

/**
 * Dependency keys touched between two snapshots: those of every object in a file that changed, appeared or went
 * away, and those files' `file:` keys; with the URIs of those files.
 */
function* changedKeys(before: Analysis, after: Analysis): Generator<void, { changed: Set<DepKey>; files: Set<string> }> {
  const keys = new Set<DepKey>();
  const files = new Set<string>();
  /** A step per `sliceObjects` objects of the files that changed. */
  const touch = function* (f: ManifestFile): Generator<void, void> {
    files.add(f.uri);
    keys.add(dep.file(f.uri));
    // A chart or a render coming or going changes what is unknown (analysis/unknowns.ts).
    if (f.uri.includes('#helm/') || f.uri.endsWith('/Chart.yaml')) keys.add(dep.charts);
    for (let i = 0; i < f.resources.length; i++) {
      keysOf(f.resources[i], keys);
      if (i % sliceObjects === sliceObjects - 1) yield;
    }
  };
  const a = before.cluster.files;
  const b = after.cluster.files;
  if (a.length === b.length && a.every((f, i) => f.uri === b[i].uri)) {
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) continue;
      yield* touch(a[i]);
      yield* touch(b[i]);
    }
  } else {
    const old = new Map<string, ManifestFile>(a.map((f) => [f.uri, f]));
    for (const f of b) {
      const o = old.get(f.uri);
      old.delete(f.uri);
      if (o === f) continue;
      yield* touch(f);
      if (o) yield* touch(o);
    }
    for (const o of old.values()) yield* touch(o);
  }
  // Which namespaces exist is a question each scope answers for itself (its cluster holds the files it sees).
  const clusterOf = (s: ScopeAnalysis) => s.cluster ?? s.analysis.cluster;
  const scopesBefore = new Map(before.scopes().map((s) => [s.id, clusterOf(s)]));
  for (const scope of after.scopes()) {
    const ca = scopesBefore.get(scope.id);
    const cb = clusterOf(scope);
    if (!ca || ca === cb) continue;
    // Which workloads are ingress controllers can change without any of them being edited: a definition that hid a
    // controller of the same name (model/cluster.ts: lookups see the first) going away. Both lists are made once per
    // cluster, from the namespaces' lists kept while they are unchanged.
    if (!sameList(ingressControllersOf(ca), ingressControllersOf(cb))) keys.add(dep.ingressControllers);
    const na = ca.namespaces;
    const nb = cb.namespaces;
    if (na === nb) continue;
    for (const n of na) if (!nb.has(n)) keys.add(dep.namespaceExists(n));
    for (const n of nb) if (!na.has(n)) keys.add(dep.namespaceExists(n));
    // Iterating the namespaces reads their order too (first appearance in file order), which an edit can change alone.
    if (na.size !== nb.size || [...na].join('/') !== [...nb].join('/')) keys.add(dep.namespaceSet);
  }
  return { changed: keys, files };
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Parse problems first, file by file, then the ordered rule findings; capped per file. */
function assemble(analysis: Analysis, ruleFindings: readonly Finding[], mapUnits = true): Finding[] {
  const out: Finding[] = [];
  for (const f of analysis.cluster.files) if (f.problems.length) for (const p of problemsOf(f, analysis.config)) out.push(p);
  for (const f of mapUnits ? mapRenderedFindings(analysis.cluster.files, ruleFindings, orderFindings, messages(analysis.config.locale)) : ruleFindings)
    out.push(f);
  return capPerFile(out, analysis);
}

/**
 * A file's parse problems as findings at their configured severities, made once per parsed file and severity
 * settings (an unchanged file's findings stay the same objects).
 */
const problemFindings = new WeakMap<
  ManifestFile,
  { readonly settings: AnalysisConfig['rules']; readonly locale: AnalysisConfig['locale']; readonly findings: readonly Finding[] }
>();

function problemsOf(f: ManifestFile, config: AnalysisConfig): readonly Finding[] {
  const hit = problemFindings.get(f);
  if (hit?.settings === config.rules && hit.locale === config.locale) return hit.findings;
  const findings: Finding[] = [];
  // worded in the finding's locale: the problems are made once with the parsed file, for every locale
  const msg = messages(config.locale);
  for (const p of f.problems) {
    const severity = severityOf(config, p.code, p.severity);
    if (!severity) continue;
    const related = p.related?.map((r) => ({ uri: f.uri, span: r.span, message: r.phrase ? say(r.phrase, msg) : r.message }));
    findings.push({ uri: f.uri, span: p.span, message: p.phrase ? say(p.phrase, msg) : p.message, code: p.code, severity, ...(related ? { related } : {}) });
  }
  problemFindings.set(f, { settings: config.rules, locale: config.locale, findings });
  return findings;
}

/**
 * The note that says how many findings of a file are not shown, kept with the parsed file while it says the same (so
 * the file's findings stay the same objects over an edit elsewhere, and nothing is converted or sent again).
 */
const capNotes = new WeakMap<ManifestFile, Finding>();

function capPerFile(findings: Finding[], analysis: Analysis): Finding[] {
  const noteSeverity = severityOf(analysis.config, 'too-many-findings', 'information');
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
    if (!noteSeverity) continue;
    const msg = messages(analysis.config.locale);
    const message = msg('{0} more findings in this file are not shown.', list.length - maxFindingsPerFile);
    const file = fileNamed(analysis.cluster.files, uri);
    const kept = file && capNotes.get(file);
    const note: Finding =
      kept && kept.message === message && kept.severity === noteSeverity
        ? kept
        : { uri, span: { start: 0, end: 0 }, code: 'too-many-findings', severity: noteSeverity, message };
    if (file) capNotes.set(file, note);
    out.push(note);
  }
  return out;
}
