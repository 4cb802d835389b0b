// All findings of a snapshot: YAML/manifest problems of each file plus every enabled rule, evaluated incrementally:
// given an earlier evaluated snapshot, only the checks whose inputs changed run again.

import type { Analysis } from '../analysis/analysis';
import type { ManifestFile } from '../model/parseManifest';
import type { Finding } from '../rules/finding';
import { rules } from '../rules/index';
import { keysOf, namespaceLists, namespaceView, resolveKnown, sameResolution, type KnownResolution } from '../rules/namespaceView';
import type { Rule } from '../rules/rule';
import { orderFindings, runRules } from '../rules/runRules';

/** Findings beyond this many in one file are folded into a single "N more" note. */
export const maxFindingsPerFile = 200;

/** One namespace-scoped rule's findings for the subjects of one namespace, and the inputs that produced them. */
interface Unit {
  readonly findings: readonly Finding[];
  readonly deps: ReadonlySet<string>;
  /** The written names whose resolutions it read (the `res:` keys among its dependencies). */
  readonly names: readonly string[];
}

interface Evaluation {
  readonly findings: readonly Finding[];
  /** rule code → namespace → unit */
  readonly units: ReadonlyMap<string, ReadonlyMap<string, Unit>>;
  readonly resolutions: ReadonlyMap<string, KnownResolution>;
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
    const basis = earlier.find((a) => a.config === analysis.config && evaluations.has(a));
    found = evaluate(analysis, basis && { evaluation: evaluations.get(basis)!, changed: changedKeys(basis, analysis) });
    evaluations.set(analysis, found);
  }
  return found.findings;
}

/** The same findings, every rule run once over the whole cluster: the reference the incremental path must equal. */
export function diagnosticsFromScratch(analysis: Analysis): readonly Finding[] {
  return assemble(analysis, runRules(analysis));
}

function evaluate(analysis: Analysis, basis: { evaluation: Evaluation; changed: ReadonlySet<string> } | undefined): Evaluation {
  const byNamespace = namespaceLists(analysis.cluster);
  const units = new Map<string, Map<string, Unit>>();
  const ruleFindings: Finding[] = [];
  const { resolutions, changed } = revalidate(analysis, basis);
  for (const rule of rules) {
    const configured = analysis.config.rules[rule.code];
    if (configured === 'off') continue;
    const severity = configured ?? rule.defaultSeverity;
    if (rule.scope !== 'namespace') {
      collect(rule, analysis, severity, ruleFindings);
      continue;
    }
    const before = basis?.evaluation.units.get(rule.code);
    const mine = new Map<string, Unit>();
    units.set(rule.code, mine);
    for (const [ns, lists] of byNamespace) {
      const old = before?.get(ns);
      let unit = old && changed && !changed.has(`ns:${ns}`) && !intersects(old.deps, changed) ? old : undefined;
      if (!unit) {
        const deps = new Set<string>();
        const findings: Finding[] = [];
        collect(rule, namespaceView(analysis, lists, deps, resolutions), severity, findings);
        const names: string[] = [];
        for (const k of deps) if (k.startsWith('res:')) names.push(k.slice(4));
        unit = { findings, deps, names };
      }
      mine.set(ns, unit);
      for (const f of unit.findings) ruleFindings.push(f);
    }
  }
  return { findings: assemble(analysis, orderFindings(ruleFindings)), units, resolutions: referenced(resolutions, units) };
}

/**
 * The earlier snapshot's name resolutions, each recomputed when something it read changed; the dependency key of a
 * resolution counts as changed only when its answer differs, so a check that reads a name in a namespace that was
 * edited runs again only when what the name resolves to is different.
 */
function revalidate(analysis: Analysis, basis: { evaluation: Evaluation; changed: ReadonlySet<string> } | undefined): { resolutions: Map<string, KnownResolution>; changed?: ReadonlySet<string> } {
  const resolutions = new Map<string, KnownResolution>();
  if (!basis) return { resolutions };
  const changed = new Set(basis.changed);
  for (const [key, old] of basis.evaluation.resolutions) {
    if (!intersects(old.deps, basis.changed)) {
      resolutions.set(key, old);
      continue;
    }
    const fresh = resolveKnown(analysis, key);
    resolutions.set(key, fresh);
    if (!sameResolution(old.resolution, fresh.resolution)) changed.add(`res:${key}`);
  }
  return { resolutions, changed };
}

/** The resolutions some unit depends on: the others are not kept for the next snapshot. */
function referenced(resolutions: ReadonlyMap<string, KnownResolution>, units: ReadonlyMap<string, ReadonlyMap<string, Unit>>): ReadonlyMap<string, KnownResolution> {
  const out = new Map<string, KnownResolution>();
  for (const byNs of units.values()) {
    for (const unit of byNs.values()) {
      for (const key of unit.names) {
        const known = resolutions.get(key);
        if (known) out.set(key, known);
      }
    }
  }
  return out;
}

function collect(rule: Rule, analysis: Analysis, severity: Finding['severity'], out: Finding[]): void {
  for (const draft of rule.check(analysis)) out.push({ ...draft, code: rule.code, severity });
}

function intersects(deps: ReadonlySet<string>, changed: ReadonlySet<string>): boolean {
  if (deps.has('*')) return true;
  const [small, large] = deps.size < changed.size ? [deps, changed] : [changed, deps];
  for (const k of small) if (large.has(k)) return true;
  return false;
}

/** Dependency keys touched between two snapshots: those of every object in a file that changed, appeared or went away. */
function changedKeys(before: Analysis, after: Analysis): ReadonlySet<string> {
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
  for (const f of analysis.cluster.files) {
    for (const p of f.problems) out.push({ uri: f.uri, span: p.span, message: p.message, code: p.code, severity: p.severity });
  }
  for (const f of ruleFindings) out.push(f);
  return capPerFile(out);
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
