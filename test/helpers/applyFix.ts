// Applies a fix's text edits to the files they touch, as an editor would, and returns the new texts.

import type { SourceText } from '../../server/src/features/analyzeTexts';
import type { Fix } from '../../server/src/rules/finding';

export function applyFix(sources: readonly SourceText[], fix: Fix): SourceText[] {
  return sources.map((s) => {
    const edits = fix.edits.filter((e) => e.uri === s.uri).sort((a, b) => b.span.start - a.span.start);
    let text = s.text;
    for (let i = 0; i < edits.length; i++) {
      const e = edits[i];
      if (i > 0 && e.span.end > edits[i - 1].span.start) throw new Error(`fix "${fix.title}" has overlapping edits`);
      text = text.slice(0, e.span.start) + e.newText + text.slice(e.span.end);
    }
    return { uri: s.uri, text };
  });
}
