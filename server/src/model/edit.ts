// A change to a file's text that a quick fix proposes, in offsets.

import type { Span } from './span';

export interface TextEdit {
  readonly uri: string;
  readonly span: Span;
  readonly newText: string;
}

export interface Fix {
  readonly title: string;
  readonly edits: readonly TextEdit[];
  /** The single obvious fix (shown first, applied by "auto fix"). */
  readonly isPreferred?: boolean;
}
