// All findings of a snapshot: YAML/manifest problems of each file plus every enabled rule, evaluated incrementally:
// given an earlier evaluated snapshot, only the checks whose inputs changed run again.

import type { Analysis } from '../analysis/analysis';
import type { ManifestFile } from '../model/parseManifest';
import type { Finding } from '../rules/finding';
import { rules } from '../rules/index';
import { keysOf, namespaceLists, namespaceView, resolveKnown, sameResolution, type KnownResolution, type ResolutionMemo } from '../rules/namespaceView';
import type { Rule } from '../rules/rule';
import { orderFindings, runRules } from '../rules/runRules';

/** Findings beyond this many in one file are folded into a single "N more" note. */
export const maxFindingsPerFile = 200;

/** One namespace-scoped rule's findings for the subjects of one namespace, and the inputs that produced them. */
interface Unit {
  readonly findings: readonly Finding[];
  /** Its dependency keys (rules/namespaceView.ts), its own namespace's `ns:` key included. */
  readonly deps: ReadonlySet<string>;
}

/**
 * What an evaluation keeps for the next one. The dependency indexes map a key to the units and name resolutions
 * that read it, so an edit finds what it affects without visiting everything. The state is handed from one
 * evaluation to the next and updated in place: the evaluation it came from can no longer serve as a basis.
 */
interface State {
  /** `<rule code>\u0000<namespace>` → unit */
  readonly units: Map<string, Unit>;
  readonly resolutions: Map<string, KnownResolution>;
  readonly unitsByDep: Map<string, Set<string>>;
  readonly resolutionsByDep: Map<string, Set<string>>;
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
    const basis = earlier.find((a) => a.config === analysis.config && evaluations.get(a)?.state);
    const from = basis && evaluations.get(basis)!;
    found = evaluate(analysis, from && { state: from.state!, changed: changedKeys(basis!, analysis) });
    if (from) from.state = undefined;
    evaluations.set(analysis, found);
  }
  return found.findings;
}

/** The same findings, every rule run once over the whole cluster: the reference the incremental path must equal. */
export function diagnosticsFromScratch(analysis: Analysis): readonly Finding[] {
  return assemble(analysis, runRules(analysis));
}

const unitId = (code: string, ns: string) => `${code}\u0000${ns}`;

function evaluate(analysis: Analysis, basis: { state: State; changed: Set<string> } | undefined): Evaluation {
  const state: State = basis?.state ?? { units: new Map(), resolutions: new Map(), unitsByDep: new Map(), resolutionsByDep: new Map() };
  const changed = basis ? revalidate(analysis, state, basis.changed) : undefined;
  // The units whose inputs changed: found through the index, plus those that read everything.
  const stale = new Set<string>();
  if (changed) {
    for (const k of changed) for (const id of state.unitsByDep.get(k) ?? []) stale.add(id);
    for (const id of state.unitsByDep.get('*') ?? []) stale.add(id);
  }
  const resolutions = indexedResolutions(state);
  const byNamespace = namespaceLists(analysis.cluster);
  const live = new Set<string>();
  const ruleFindings: Finding[] = [];
  for (const rule of rules) {
    const configured = analysis.config.rules[rule.code];
    if (configured === 'off') continue;
    const severity = configured ?? rule.defaultSeverity;
    if (rule.scope !== 'namespace') {
      collect(rule, analysis, severity, ruleFindings);
      continue;
    }
    for (const [ns, lists] of byNamespace) {
      const id = unitId(rule.code, ns);
      live.add(id);
      let unit = state.units.get(id);
      if (!unit || !changed || stale.has(id)) {
        const deps = new Set<string>([`ns:${ns}`]);
        const findings: Finding[] = [];
        collect(rule, namespaceView(analysis, lists, deps, resolutions), severity, findings);
        if (unit) unindex(state.unitsByDep, id, unit.deps);
        unit = { findings, deps };
        index(state.unitsByDep, id, deps);
        state.units.set(id, unit);
      }
      for (const f of unit.findings) ruleFindings.push(f);
    }
  }
  // Units of namespaces that went away, and name resolutions no unit reads any more.
  for (const [id, unit] of state.units) {
    if (live.has(id)) continue;
    unindex(state.unitsByDep, id, unit.deps);
    state.units.delete(id);
  }
  for (const [key, known] of state.resolutions) {
    if (state.unitsByDep.get(`res:${key}`)?.size) continue;
    unindex(state.resolutionsByDep, key, known.deps);
    state.resolutions.delete(key);
  }
  return { findings: assemble(analysis, orderFindings(ruleFindings)), state };
}

/** Name resolutions made while rules run are indexed by what they read as they are added. */
function indexedResolutions(state: State): ResolutionMemo {
  return {
    get: (key) => state.resolutions.get(key),
    set(key, known) {
      const old = state.resolutions.get(key);
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
function revalidate(analysis: Analysis, state: State, changed: Set<string>): Set<string> {
  const affected = new Set<string>();
  for (const k of changed) for (const key of state.resolutionsByDep.get(k) ?? []) affected.add(key);
  for (const key of state.resolutionsByDep.get('*') ?? []) affected.add(key);
  for (const key of affected) {
    const old = state.resolutions.get(key)!;
    const fresh = resolveKnown(analysis, key);
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

function collect(rule: Rule, analysis: Analysis, severity: Finding['severity'], out: Finding[]): void {
  for (const draft of rule.check(analysis)) out.push({ ...draft, code: rule.code, severity });
}

/** Dependency keys touched between two snapshots: those of every object in a file that changed, appeared or went away. */
function changedKeys(before: Analysis, after: Analysis): Set<string> {
  const keys = new Set<string>();
  const old = new Map<string, ManifestFile>(before.cluster.files.map((f) => [f.uri, f]));
  const touch = (f: ManifestFile) => {
    for (const r of f.resources) keysOf(r, keys);
  };
  for (const f of after.cluster.files) {
    const o = old.get(f.uri);
    old.delete(f.uri);
    if (o === f) continue;
    touch(f);
    if (o) touch(o);
  }
  for (const o of old.values()) touch(o);
  const a = before.cluster.namespaces;
  const b = after.cluster.namespaces;
  for (const n of a) if (!b.has(n)) keys.add(`nsx:${n}`);
  for (const n of b) if (!a.has(n)) keys.add(`nsx:${n}`);
  // Iterating the namespaces reads their order too (first appearance in file order), which an edit can change alone.
  if (a.size !== b.size || [...a].join('/') !== [...b].join('/')) keys.add('nsset');
  return keys;
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
