// Offsets ↔ zero-based line/character positions (UTF-16, as LSP and the CLI's JSON use).

export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface LineIndex {
  positionAt(offset: number): Position;
  offsetAt(position: Position): number;
  readonly lineCount: number;
}

export function lineIndex(text: string): LineIndex {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
  }
  return {
    lineCount: starts.length,
    positionAt(offset) {
      const o = Math.max(0, Math.min(offset, text.length));
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= o) lo = mid;
        else hi = mid - 1;
      }
      return { line: lo, character: o - starts[lo] };
    },
    offsetAt(p) {
      if (p.line >= starts.length) return text.length;
      if (p.line < 0) return 0;
      const lineEnd = p.line + 1 < starts.length ? starts[p.line + 1] : text.length;
      return Math.min(starts[p.line] + Math.max(0, p.character), lineEnd);
    },
  };
}

/** One line index per URI, built on first use and built again when that URI's text changes; the caller owns it. */
export interface LineIndexMemo {
  /** The line index of `text`, the text of `uri`. */
  of(uri: string, text: string): LineIndex;
  /** Forgets the URIs `keep` says no to. */
  prune(keep: (uri: string) => boolean): void;
}

export function lineIndexMemo(): LineIndexMemo {
  const memo = new Map<string, { readonly text: string; readonly index: LineIndex }>();
  return {
    of(uri, text) {
      const hit = memo.get(uri);
      if (hit && hit.text === text) return hit.index;
      const index = lineIndex(text);
      memo.set(uri, { text, index });
      return index;
    },
    prune(keep) {
      for (const uri of memo.keys()) if (!keep(uri)) memo.delete(uri);
    },
  };
}

/** Line indexes of a fixed set of files, by URI (an unknown URI reads as empty text). */
export function lineIndexesOf(files: Iterable<{ readonly uri: string; readonly text: string }>): (uri: string) => LineIndex {
  const texts = new Map<string, string>();
  for (const f of files) texts.set(f.uri, f.text);
  const memo = lineIndexMemo();
  return (uri) => memo.of(uri, texts.get(uri) ?? '');
}
