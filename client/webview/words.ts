// The view's words in the reader's language: the host writes them into the page as JSON (client/src/traceHtml.ts,
// from viewStrings.ts through vscode.l10n), read once when the script starts, before anything is drawn. Anything
// missing or malformed is the English template; the page is never asked to fetch anything (the CSP stays strict).
import { type ViewStrings, viewStrings } from './viewStrings';

/** The id of the page's `<script type="application/json">` element that carries the words. */
export const wordsElementId = 'kube-netlens-strings';

export const english: ViewStrings = viewStrings({ t: (message) => message });

export const words: ViewStrings = readWords();

/** `{0}` … of a template replaced by the arguments (names, counts, kinds: inserted as they are). */
export function fill(template: string, ...args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => (args[Number(i)] === undefined ? whole : String(args[Number(i)])));
}

function readWords(): ViewStrings {
  if (typeof document === 'undefined') return english;
  const text = document.getElementById(wordsElementId)?.textContent;
  if (!text) return english;
  try {
    return merged(english, JSON.parse(text) as unknown) as ViewStrings;
  } catch {
    return english;
  }
}

/** The given words where they are strings with the English template's placeholders, else the English; same shape. */
export function merged(base: unknown, given: unknown): unknown {
  if (typeof base === 'string') return typeof given === 'string' && placeholders(given) === placeholders(base) ? given : base;
  const b = base as Record<string, unknown>;
  const g = typeof given === 'object' && given !== null && !Array.isArray(given) ? (given as Record<string, unknown>) : {};
  return Object.fromEntries(Object.keys(b).map((k) => [k, merged(b[k], Object.hasOwn(g, k) ? g[k] : undefined)]));
}

function placeholders(s: string): string {
  return [...new Set(s.match(/\{\d+\}/g) ?? [])].sort().join();
}
