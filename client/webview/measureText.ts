// Measures and wraps text for SVG boxes, which (unlike HTML) do not size or wrap themselves.

export interface Font {
  readonly size: number;
  readonly weight: 'normal' | 'bold';
}

let context: CanvasRenderingContext2D | null | undefined;
let family = 'sans-serif';

/** Reads the theme's font once the page is styled; measurements use the same family the SVG text renders in. */
export function useFontFamily(cssFamily: string): void {
  if (cssFamily.trim()) family = cssFamily;
}

export function textWidth(text: string, font: Font): number {
  if (context === undefined) context = document.createElement('canvas').getContext('2d');
  if (!context) return text.length * font.size * 0.6;
  context.font = `${font.weight} ${font.size}px ${family}`;
  return context.measureText(text).width;
}

/**
 * Chinese, Japanese and Korean text has no spaces between words: a line may break before any of its characters, but
 * never before closing punctuation (，。：）…), which stays with the character before it.
 */
const wideChar = '[\\u2e80-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff\\uff00-\\uffef]';
const closing = '[，。、；：！？）》」』】〉”’…\\uff09\\uff0c\\uff0e\\uff1a\\uff1b]';
const pieceRe = new RegExp(`(?:(?!${closing})${wideChar})${closing}*|(?:(?!${wideChar})\\S)+${closing}*|${closing}+`, 'g');

/** The pieces a line may break between, each with whether a space came before it. */
function pieces(text: string): { text: string; space: boolean }[] {
  const out: { text: string; space: boolean }[] = [];
  let end = 0;
  for (const m of text.matchAll(pieceRe)) {
    out.push({ text: m[0], space: m.index > end && /\s/.test(text.slice(end, m.index)) });
    end = m.index + m[0].length;
  }
  return out;
}

/** Greedy word wrap to `maxWidth`; a word longer than a line is cut; at most `maxLines`, the last one ending in an ellipsis when text remains. */
export function wrapText(text: string, maxWidth: number, font: Font, maxLines: number): string[] {
  // A box shows a few lines at most, so longer text (names can be 100 KB) is never measured whole.
  const words = pieces(text.slice(0, 2000)).map((w) => ({ ...w, text: w.text.slice(0, 300) }));
  const lines: string[] = [];
  let line = '';
  for (let i = 0; i < words.length; i++) {
    const candidate = line ? `${line}${words[i].space ? ' ' : ''}${words[i].text}` : words[i].text;
    if (textWidth(candidate, font) <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = fitWidth(words[i].text, maxWidth, font);
    if (lines.length === maxLines) {
      return ellipsize(lines, maxWidth, font);
    }
  }
  if (line) lines.push(line);
  return lines.length > maxLines ? ellipsize(lines.slice(0, maxLines), maxWidth, font) : lines;
}

/** Cuts one line so it fits, with an ellipsis when something was cut. */
export function fitWidth(full: string, maxWidth: number, font: Font): string {
  const text = full.slice(0, 300);
  if (text === full && textWidth(text, font) <= maxWidth) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (textWidth(`${text.slice(0, mid)}…`, font) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}…`;
}

function ellipsize(lines: string[], maxWidth: number, font: Font): string[] {
  const last = lines[lines.length - 1];
  lines[lines.length - 1] = last.endsWith('…') ? last : fitWidth(`${last} …`, maxWidth, font);
  return lines;
}
