// What a rule reports: a finding with its primary span, related places and optional fixes, all in offsets.

import type { Severity } from '../model/config';
import type { Fix } from '../model/edit';
import type { Span } from '../model/span';

export interface ResourceRef {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

export interface RelatedInfo {
  readonly uri: string;
  readonly span: Span;
  readonly message: string;
}

/**
 * A finding points at no more than this many related places: an object defined 4,000 times must not make each of its
 * 4,000 findings carry 3,999 places (quadratic in copies). The runner cuts longer lists; rules that build them stop
 * early with `firstRelated`.
 */
export const maxRelated = 20;

/** The related places of the first `maxRelated` items, and how many were left out. */
export function firstRelated<T>(items: readonly T[], place: (item: T) => RelatedInfo): { readonly related: readonly RelatedInfo[]; readonly omitted: number } {
  const related: RelatedInfo[] = [];
  for (let i = 0; i < items.length && i < maxRelated; i++) related.push(place(items[i]));
  return { related, omitted: Math.max(0, items.length - maxRelated) };
}

/** A finding with at most `maxRelated` related places (the rest add nothing a reader can use). */
export function boundRelated<T extends FindingDraft>(draft: T): T {
  return draft.related && draft.related.length > maxRelated ? { ...draft, related: draft.related.slice(0, maxRelated) } : draft;
}

export type { Fix, TextEdit } from '../model/edit';

/** What a rule's check yields; the runner adds the code and the configured severity. */
export interface FindingDraft {
  readonly uri: string;
  readonly span: Span;
  readonly message: string;
  readonly resource?: ResourceRef;
  readonly related?: readonly RelatedInfo[];
  readonly fixes?: readonly Fix[];
  /** `unnecessary` fades the span (a field with no effect). */
  readonly tags?: readonly ('unnecessary' | 'deprecated')[];
}

export interface Finding extends FindingDraft {
  readonly code: string;
  readonly severity: Severity;
  /**
   * Set on a finding mapped from renders to their sources (engine/renderedMerge.ts): the renders it was found in, one
   * per build or value set, each with the finding's place in that render. Its identity is read from these
   * (features/findingIdentity.ts), never from the source line.
   */
  readonly renders?: readonly RenderOccurrence[];
}

/** A finding's place in one render (a Kustomize build, a Helm release with one value set). */
export interface RenderOccurrence {
  /** The render as messages name it: `overlays/prod`, `release shop, values ci/prod-values.yaml`. */
  readonly build: string;
  /** The rendered file's URI and the finding's span in it. */
  readonly uri: string;
  readonly span: Span;
  /** The rendered object the rule named, if it named one. */
  readonly resource?: ResourceRef;
}
