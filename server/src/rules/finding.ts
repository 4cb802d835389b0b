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
}
