// Findings on a rendered apply unit (a Kustomize root's build, model/rendered.ts) land where their cause is: the
// base line of a field from a base, the patch line of a field a patch set, the kustomization line of a value a
// setting made. One cause found in several units (a base that three overlays include) is one finding that names
// them, with related information per unit.

import type { ManifestFile } from '../model/parseManifest';
import { sourceOf, type RenderedSource } from '../model/rendered';
import type { Span } from '../model/span';
import type { Finding, RelatedInfo } from '../rules/finding';

const atStart: Span = { start: 0, end: 0 };

/** `findings` with those on rendered files mapped to their sources, merged per source place; in finding order. */
export function mapRenderedFindings(files: readonly ManifestFile[], findings: readonly Finding[], order: (f: Finding[]) => Finding[]): Finding[] {
  const rendered = new Map<string, RenderedSource>();
  for (const f of files) if (f.rendered) rendered.set(f.uri, f.rendered);
  if (!rendered.size || !findings.some((f) => rendered.has(f.uri))) return [...findings];
  const out: Finding[] = [];
  // The findings that land on one place with one code, with what the merged finding reads: each finding, its build,
  // and the builds of the first one's related places.
  const groups = new Map<string, { inputs: Finding[]; units: RenderedSource[]; sources: (RenderedSource | undefined)[] }>();
  for (const f of findings) {
    const unit = rendered.get(f.uri);
    if (!unit) {
      out.push(f);
      continue;
    }
    const at = placeIn(unit, f);
    const key = `${at.uri}\u0000${at.span.start}\u0000${at.span.end}\u0000${f.code}`;
    const group = groups.get(key);
    if (group) {
      group.inputs.push(f);
      group.units.push(unit);
      group.sources.push(unit);
    } else {
      groups.set(key, { inputs: [f], units: [unit], sources: [unit, ...(f.related ?? []).map((r) => rendered.get(r.uri))] });
    }
  }
  for (const { inputs, units, sources } of groups.values()) {
    // The same findings over the same builds give the same object: unchanged findings stay the very same objects
    // from one evaluation to the next (what the server compares before converting and sending them).
    const kept = mergedOf.get(inputs[0]);
    if (kept && sameList(kept.inputs, inputs) && sameList(kept.sources, sources)) {
      out.push(kept.finding);
      continue;
    }
    const made = merge(inputs, units, rendered);
    mergedOf.set(inputs[0], { inputs, sources, finding: made });
    out.push(made);
  }
  return order(out);
}

/** One finding for the findings of several builds at one source place: the first one's, naming every build. */
function merge(inputs: readonly Finding[], units: readonly RenderedSource[], rendered: ReadonlyMap<string, RenderedSource>): Finding {
  const f = inputs[0];
  const at = placeIn(units[0], f);
  const related: RelatedInfo[] = (f.related ?? []).map((r) => {
    const u = rendered.get(r.uri);
    if (!u) return r;
    const p = place(u, r.span);
    return { uri: p.uri, span: p.span, message: r.message };
  });
  const labels: string[] = [];
  inputs.forEach((g, i) => {
    const unit = units[i];
    if (labels.includes(unit.label)) return;
    labels.push(unit.label);
    related.push(perUnitOf(unit, g, placeIn(unit, g)));
  });
  const message = `${f.message} (in ${labels.length === 1 ? 'the build of ' : 'the builds of '}${labels.join(', ')})`;
  return { uri: at.uri, span: at.span, code: f.code, severity: f.severity, message, resource: f.resource, tags: f.tags, related };
}

/** A merged finding by the first finding it merges, with what it was made from (memoization keyed by immutable inputs). */
const mergedOf = new WeakMap<Finding, { readonly inputs: readonly Finding[]; readonly sources: readonly (RenderedSource | undefined)[]; readonly finding: Finding }>();

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function perUnitOf(unit: RenderedSource, f: Finding, at: { via?: string }): RelatedInfo {
  const via = at.via ? ` (written by ${at.via} in ${unit.label})` : '';
  return { uri: unit.definedBy, span: atStart, message: `In the build of ${unit.label}: ${f.message}${via}` };
}

/** Where a finding on a build lands, once per finding and build (both immutable). */
const placed = new WeakMap<Finding, { readonly unit: RenderedSource; readonly at: { uri: string; span: Span; via?: string } }>();

function placeIn(unit: RenderedSource, f: Finding): { uri: string; span: Span; via?: string } {
  const hit = placed.get(f);
  if (hit?.unit === unit) return hit.at;
  const at = place(unit, f.span);
  placed.set(f, { unit, at });
  return at;
}

function place(unit: RenderedSource, span: Span): { uri: string; span: Span; via?: string } {
  const m = sourceOf(unit.text, span);
  return m ? { uri: m.uri, span: m.span, via: m.via } : { uri: unit.definedBy, span: atStart };
}
