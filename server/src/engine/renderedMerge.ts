// Findings on rendered text (a Kustomize build, a Helm release) go to the source places that made it, and the
// findings of several renders that land on one source place with one code become one finding that names the renders.
// This is the one implementation of that for both renderers: engine/renderedFindings.ts (Kustomize builds) and
// project/helmFindings.ts (Helm releases) say how a render is named in the message, which related places the
// merged finding gains and whether a finding made before may be handed back instead of a new one.

import { sourceOf, type RenderedText } from '../model/rendered';
import type { Span } from '../model/span';
import { maxRelated, type Finding, type RelatedInfo } from '../rules/finding';

/** A place in the sources, and what made the value there when it is not the source's literal text. */
export interface SourcePlace {
  readonly uri: string;
  readonly span: Span;
  readonly via?: string;
}

const atStart: Span = { start: 0, end: 0 };

/** A span of a render → the source the innermost mapping names, or the start of `fallbackUri` when none covers it. */
export function sourcePlace(text: RenderedText, fallbackUri: string, span: Span): SourcePlace {
  const m = sourceOf(text, span);
  return m ? { uri: m.uri, span: m.span, via: m.via } : { uri: fallbackUri, span: atStart };
}

/**
 * Related places with those in renders mapped to their sources; `placeOf` answers undefined for a URI that is no
 * render, and such places stay the same objects.
 */
export function mappedRelated(related: readonly RelatedInfo[], placeOf: (uri: string, span: Span) => SourcePlace | undefined): RelatedInfo[] {
  return related.map((r) => {
    const p = placeOf(r.uri, r.span);
    return p ? { uri: p.uri, span: p.span, message: r.message } : r;
  });
}

/** A finding on a render and the source place it lands on. */
export interface Landing<R> {
  readonly finding: Finding;
  readonly render: R;
  readonly at: SourcePlace;
}

/** What a renderer decides when findings on its renders are merged. */
export interface Merging<R> {
  /** How messages name a render; the findings of renders of one name count once. */
  name(render: R): string;
  /**
   * Whether findings at one place with one code stay apart when their messages differ: a renderer that names each
   * render's message elsewhere (in related places) merges them under the first one's message.
   */
  readonly byMessage: boolean;
  /** A place in any render of the analysis → its source; undefined when the URI is no render. */
  placeOf(uri: string, span: Span): SourcePlace | undefined;
  /** The merged finding's message, from the first landing of each render name (the group's first landing first). */
  message(landings: readonly Landing<R>[]): string;
  /** Related places the merged finding adds after the first finding's own, from the same landings. */
  related?(landings: readonly Landing<R>[]): readonly RelatedInfo[];
  /** The merged finding of a group: `make()`, or one the caller made before from the same landings. */
  reuse?(group: readonly Landing<R>[], make: () => Finding): Finding;
}

/**
 * One finding per source place and code (and message, when `byMessage`), in the order of each group's first
 * landing: the first finding's at its source place, with the renderer's message and its related places mapped.
 * Fixes are dropped, for every renderer: they would edit rendered text, which nobody can save. Each merged finding
 * lists its renders (`renders`: each render name once, with the finding's place in it), which its identity reads.
 */
export function mergeAtSources<R>(landings: Iterable<Landing<R>>, merging: Merging<R>): Finding[] {
  const groups = new Map<string, Landing<R>[]>();
  for (const l of landings) {
    const { at, finding } = l;
    let key = `${at.uri}\u0000${at.span.start}\u0000${at.span.end}\u0000${finding.code}`;
    if (merging.byMessage) key += `\u0000${finding.message}`;
    const group = groups.get(key);
    if (group) group.push(l);
    else groups.set(key, [l]);
  }
  const out: Finding[] = [];
  for (const group of groups.values()) {
    const make = () => merged(group, merging);
    out.push(merging.reuse ? merging.reuse(group, make) : make());
  }
  return out;
}

function merged<R>(group: readonly Landing<R>[], merging: Merging<R>): Finding {
  const { finding: first, at } = group[0];
  const names = new Set<string>();
  const distinct = group.filter((l) => {
    const name = merging.name(l.render);
    if (names.has(name)) return false;
    names.add(name);
    return true;
  });
  const related = mappedRelated(first.related ?? [], merging.placeOf);
  // A base 1,000 overlays include makes one finding from 1,000 renders: its related places stay within the bound every
  // finding has (rules/finding.ts `maxRelated`), the first renders' in order.
  if (merging.related) for (const r of merging.related(distinct.slice(0, maxRelated))) related.push(r);
  const { fixes: _fixes, ...rest } = first;
  // every render named, for the finding's identity (one per build; the message names only the first few)
  const renders = distinct.map((l) => ({
    build: merging.name(l.render),
    uri: l.finding.uri,
    span: l.finding.span,
    ...(l.finding.resource && { resource: l.finding.resource }),
  }));
  return { ...rest, uri: at.uri, span: at.span, message: merging.message(distinct), related: related.slice(0, maxRelated), renders };
}
