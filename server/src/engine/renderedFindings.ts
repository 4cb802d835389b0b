// Findings on a rendered apply unit (a Kustomize root's build, model/rendered.ts) land where their cause is: the
// base line of a field from a base, the patch line of a field a patch set, the kustomization line of a value a
// setting made. One cause found in several units (a base that three overlays include) is one finding that names
// them, with related information per unit. The mapping and merging are engine/renderedMerge.ts's; what is
// Kustomize's is here: how a build is named, the related place per build and the memoization.

import { includingEntry } from '../model/kustomizeIncludes';
import type { ManifestFile } from '../model/parseManifest';
import { buildLabel, type RenderedSource } from '../model/rendered';
import type { Span } from '../model/span';
import type { Finding, RelatedInfo } from '../rules/finding';
import { mappedRelated, mergeAtSources, sourcePlace, type Landing, type Merging } from './renderedMerge';
import type { Msg } from '../l10n/l10n';

const atStart: Span = { start: 0, end: 0 };

/** `findings` with those on rendered files mapped to their sources, merged per source place; in finding order. */
export function mapRenderedFindings(files: readonly ManifestFile[], findings: readonly Finding[], order: (f: Finding[]) => Finding[], msg: Msg): Finding[] {
  const rendered = new Map<string, RenderedSource>();
  for (const f of files) if (f.rendered) rendered.set(f.uri, f.rendered);
  if (!rendered.size) return [...findings];
  // A finding on a workspace file may name a place in a render (the pods a Service written beside a build is for):
  // that place shows on its source line, like the places of findings on renders.
  const inRender = (r: RelatedInfo) => rendered.has(r.uri);
  const placeOf = (uri: string, span: Span) => {
    const u = rendered.get(uri);
    return u && sourcePlace(u.text, u.definedBy, span);
  };
  const plain = (f: Finding) => (f.related?.some(inRender) ? { ...f, related: mappedRelated(f.related, placeOf) } : f);
  if (!findings.some((f) => rendered.has(f.uri))) return findings.map(plain);
  let byUri: Map<string, ManifestFile> | undefined;
  const fileOf = (uri: string) => (byUri ??= new Map(files.map((f) => [f.uri, f]))).get(uri);
  const out: Finding[] = [];
  const landings: Landing<RenderedSource>[] = [];
  for (const f of findings) {
    const unit = rendered.get(f.uri);
    if (unit) landings.push(landingOf(unit, f));
    else out.push(plain(f));
  }
  for (const f of mergedOnce(landings, rendered, () => order(mergeAtSources(landings, kustomizeMerging(rendered, fileOf, msg))))) out.push(f);
  return order(out);
}

/**
 * The merged findings of the same landings (the same findings on the same builds), in order, are those made before:
 * an edit outside every build costs a pass over the landings, not a merge of each group again. Each first finding's
 * related places must map through the same builds too (they are mapped when a merged finding is made).
 */
const mergedLists = new WeakMap<
  Landing<RenderedSource>,
  { readonly landings: readonly Landing<RenderedSource>[]; readonly related: readonly (RenderedSource | undefined)[]; readonly merged: readonly Finding[] }
>();

function mergedOnce(landings: readonly Landing<RenderedSource>[], rendered: ReadonlyMap<string, RenderedSource>, merge: () => Finding[]): readonly Finding[] {
  if (!landings.length) return [];
  const related: (RenderedSource | undefined)[] = [];
  for (const l of landings) for (const r of l.finding.related ?? []) related.push(rendered.get(r.uri));
  const kept = mergedLists.get(landings[0]);
  if (kept && sameList(kept.landings, landings) && sameList(kept.related, related)) return kept.merged;
  const merged = merge();
  mergedLists.set(landings[0], { landings, related, merged });
  return merged;
}

/** Builds a merged finding's message names; the others are counted. */
const namedBuilds = 10;

/**
 * Findings of one code at one source place merge whatever their messages (an overlay's prefix changes the names
 * they mention): the message is the first one's, naming every build, and each build adds one short related place,
 * on the entry of its kustomization that includes the file.
 */
function kustomizeMerging(rendered: ReadonlyMap<string, RenderedSource>, fileOf: (uri: string) => ManifestFile | undefined, msg: Msg): Merging<RenderedSource> {
  return {
    name: (unit) => unit.label,
    byMessage: false,
    placeOf(uri, span) {
      const u = rendered.get(uri);
      return u && sourcePlace(u.text, u.definedBy, span);
    },
    message(landings) {
      // at most `namedBuilds` named; a base of 1,000 overlays would otherwise make a message of tens of kilobytes
      const labels = landings.slice(0, namedBuilds).map((l) => buildLabel(l.render.label, msg));
      const more = landings.length > namedBuilds ? msg(' and {0} more', (landings.length - namedBuilds).toLocaleString('en-US')) : '';
      return landings.length === 1
        ? msg('{0} (in the build of {1}{2})', landings[0].finding.message, labels.join(', '), more)
        : msg('{0} (in the builds of {1}{2})', landings[0].finding.message, labels.join(', '), more);
    },
    related: (landings) => landings.map((l) => perUnitOf(l.render, l.at, fileOf, msg)),
    reuse(group, make) {
      // The same findings over the same builds give the same object: unchanged findings stay the very same objects
      // from one evaluation to the next (what the server compares before converting and sending them).
      const inputs = group.map((l) => l.finding);
      const sources = [group[0].render, ...(inputs[0].related ?? []).map((r) => rendered.get(r.uri))];
      for (let i = 1; i < group.length; i++) sources.push(group[i].render);
      const kept = mergedOf.get(inputs[0]);
      if (kept && sameList(kept.inputs, inputs) && sameList(kept.sources, sources)) return kept.finding;
      const finding = make();
      mergedOf.set(inputs[0], { inputs, sources, finding });
      return finding;
    },
  };
}

/**
 * A merged finding by the first finding it merges, with what it was made from: the findings it merges and the builds
 * it read (the first one's, those of its related places, the others' in order); memoization keyed by immutable inputs.
 */
const mergedOf = new WeakMap<
  Finding,
  { readonly inputs: readonly Finding[]; readonly sources: readonly (RenderedSource | undefined)[]; readonly finding: Finding }
>();

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The related place of one build: the entry of its kustomization that includes the file the finding is on (the
 * kustomization's start when the finding is on the kustomization itself, or on a patch it names), in one short line.
 */
function perUnitOf(unit: RenderedSource, at: { uri: string; via?: string }, fileOf: (uri: string) => ManifestFile | undefined, msg: Msg): RelatedInfo {
  const entry = includingEntry(unit.definedBy, at.uri, fileOf);
  const via = at.via ? msg(', where {0} writes this value', at.via) : '';
  return {
    uri: unit.definedBy,
    span: entry ?? atStart,
    message: entry
      ? msg('Included here in the build of {0}{1}', buildLabel(unit.label, msg), via)
      : msg('Here in the build of {0}{1}', buildLabel(unit.label, msg), via),
  };
}

/** Where a finding on a build lands, once per finding and build (both immutable). */
const placed = new WeakMap<Finding, Landing<RenderedSource>>();

function landingOf(unit: RenderedSource, f: Finding): Landing<RenderedSource> {
  const hit = placed.get(f);
  if (hit?.render === unit) return hit;
  const landing = { finding: f, render: unit, at: sourcePlace(unit.text, unit.definedBy, f.span) };
  placed.set(f, landing);
  return landing;
}
