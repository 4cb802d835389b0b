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
