// Workspace-relative glob patterns (`**/*.yaml`, `deploy/{a,b}/*.yml`) as matchers over `/`-separated paths.
//
// Patterns come from settings a repository can set (`.vscode/settings.json`), so they are hostile input. They are
// not translated to regular expressions (`**/**/**/…` or `*a*a*a*…b` backtrack exponentially or polynomially in
// V8's engine): each pattern compiles to a small automaton that is run as a set of states over the path, one pass,
// O(path length × pattern length) whatever the pattern. Braces are expanded up front, within fixed limits.

import { messages, phrase, say, type Msg, type Phrase } from '../l10n/l10n';

export type PathMatcher = (relativePath: string) => boolean;

/** Longer patterns are refused. */
export const maxPatternLength = 1000;
/** A pattern whose braces expand to more alternatives than this is refused. */
export const maxAlternatives = 64;

export interface InvalidPattern {
  readonly pattern: string;
  readonly reason: string;
}

export interface CompiledGlobs {
  readonly match: PathMatcher;
  readonly invalid: readonly InvalidPattern[];
}

/** Every valid pattern, as one matcher; invalid ones match nothing and are listed with the reason. */
export function compileGlobs(patterns: readonly string[]): CompiledGlobs {
  const matchers: PathMatcher[] = [];
  const invalid: InvalidPattern[] = [];
  for (const p of patterns) {
    const compiled = compileOne(p);
    if (typeof compiled === 'string') invalid.push({ pattern: p, reason: compiled });
    else for (const prog of compiled) matchers.push(matcherOf(prog));
  }
  return { match: (path) => matchers.some((m) => m(path)), invalid };
}

/**
 * The matcher of one program. The shapes nearly every setting uses (`**` + `/*.yaml`, `**` + `/node_modules/**`, a
 * plain path) are answered by one string comparison, exactly as the automaton would answer them (a test runs both
 * over generated patterns and paths); every other shape runs the automaton.
 */
export function matcherOf(prog: Program): PathMatcher {
  const lit = (from: number, to: number): string | undefined => {
    let s = '';
    for (let i = from; i < to; i++) {
      const st = prog[i];
      if (st.t !== 'char') return undefined;
      s += String.fromCharCode(st.c);
    }
    return s;
  };
  const n = prog.length;
  const first = prog[0]?.t;
  const last = prog[n - 1]?.t;
  // a literal path
  const whole = lit(0, n);
  if (whole !== undefined) return (path) => path === whole;
  if (first === 'folders') {
    // `**` + `/*suffix`: the last path segment ends with a suffix that holds no slash
    if (prog[1]?.t === 'star') {
      const suffix = lit(2, n);
      if (suffix !== undefined && !suffix.includes('/')) return (path) => path.endsWith(suffix);
    }
    // `**` + `/some/folders/**`: those folders at any depth, anything below
    if (last === 'rest') {
      const mid = lit(1, n - 1);
      if (mid) return (path) => path.startsWith(mid) || path.includes(`/${mid}`);
    }
    // `**` + `/some/file`: that path at any depth
    const tail = lit(1, n);
    if (tail) return (path) => path === tail || path.endsWith(`/${tail}`);
  }
  return automatonOf(prog);
}

export function globMatcher(patterns: readonly string[]): PathMatcher {
  return compileGlobs(patterns).match;
}

/** Why a pattern cannot be used, or undefined when it can, in the words of `msg` (English unless said). */
export function checkGlob(pattern: string, msg: Msg = messages(undefined)): string | undefined {
  const why = globProblem(pattern);
  return why && say(why, msg);
}

/** Why a pattern cannot be used, as a phrase of the catalogue, or undefined when it can. */
export function globProblem(pattern: string): Phrase | undefined {
  const c = compilePattern(pattern);
  return Array.isArray(c) ? undefined : c;
}

/**
 * One step of a pattern: a literal character, `?` (one character other than `/`), `*` (any run of characters other
 * than `/`), `**` + `/` (zero or more whole folders) or a final `**` (anything).
 */
type Step = { readonly t: 'char'; readonly c: number } | { readonly t: 'one' } | { readonly t: 'star' } | { readonly t: 'folders' } | { readonly t: 'rest' };
export type Program = readonly Step[];

/** The programs of a pattern, or why it cannot be used (in English). */
export function compileOne(glob: string): Program[] | string {
  const c = compilePattern(glob);
  return Array.isArray(c) ? c : say(c, messages(undefined));
}

/** The programs of a pattern, or why it cannot be used, as a phrase of the catalogue. */
function compilePattern(glob: string): Program[] | Phrase {
  if (glob.length > maxPatternLength) return phrase('longer than {0} characters', maxPatternLength);
  let g = glob.trim().replace(/\\/g, '/');
  if (!g) return phrase('empty');
  if (g.startsWith('./')) g = g.slice(2);
  // A pattern without a slash matches at any depth, as in .gitignore and VS Code's files.exclude.
  if (!g.includes('/')) g = `**/${g}`;
  const expanded = expandBraces(g);
  if (!Array.isArray(expanded)) return expanded;
  return expanded.map(toProgram);
}

/** `a{b,c{d,e}}` → `ab`, `acd`, `ace`, at most `maxAlternatives`; an unclosed `{` is an error, a lone `}` a literal. */
function expandBraces(g: string): string[] | Phrase {
  const open = g.indexOf('{');
  if (open < 0) return [g];
  let depth = 0;
  let close = -1;
  const commas: number[] = [];
  for (let i = open; i < g.length; i++) {
    if (g[i] === '{') depth++;
    else if (g[i] === '}') {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    } else if (g[i] === ',' && depth === 1) commas.push(i);
  }
  if (close < 0) return phrase('the {0} at position {1} is never closed', '"{"', open + 1);
  const head = g.slice(0, open);
  const bounds = [open, ...commas, close];
  const out: string[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const alt = g.slice(bounds[k] + 1, bounds[k + 1]);
    const rest = expandBraces(alt + g.slice(close + 1));
    if (!Array.isArray(rest)) return rest;
    for (const r of rest) {
      out.push(head + r);
      if (out.length > maxAlternatives) return phrase('its braces expand to more than {0} alternatives', maxAlternatives);
    }
  }
  return out;
}

function toProgram(g: string): Program {
  const steps: Step[] = [];
  for (let i = 0; i < g.length; i++) {
    const c = g[i];
    if (c === '*') {
      let j = i;
      while (g[j + 1] === '*') j++;
      const atStart = i === 0 || g[i - 1] === '/';
      const atEnd = j + 1 === g.length || g[j + 1] === '/';
      if (j > i && atStart && atEnd) {
        if (j + 1 === g.length) steps.push({ t: 'rest' });
        else {
          // `**/` matches zero or more folders; several in a row are one.
          if (steps[steps.length - 1]?.t !== 'folders') steps.push({ t: 'folders' });
          j++; // the slash
        }
      } else if (steps[steps.length - 1]?.t !== 'star') steps.push({ t: 'star' });
      i = j;
    } else if (c === '?') steps.push({ t: 'one' });
    else steps.push({ t: 'char', c: g.charCodeAt(i) });
  }
  return steps;
}

/**
 * Runs a program over a path as a set of states (a position in the program, plus for `**` + `/` whether part of a folder
 * name was read): every character moves each state at most two ways, so no input can make it backtrack.
 * State 2·p is "at step p"; state 2·p+1 is "inside the folders of the `**` + `/` at step p".
 */
export function automatonOf(prog: Program): PathMatcher {
  const n = prog.length;
  // allocated once per program: a match runs to its end without yielding, so two calls never share them
  const setA = new Uint8Array(2 * n + 2);
  const setB = new Uint8Array(2 * n + 2);
  return (path) => run(prog, path, setA, setB);
}

function run(prog: Program, path: string, setA: Uint8Array, setB: Uint8Array): boolean {
  const n = prog.length;
  let cur = setA;
  let next = setB;
  cur.fill(0);
  const add = (set: Uint8Array, p: number): void => {
    // epsilon moves: `*`, `**/` and a final `**` may match nothing
    while (p < n && !set[2 * p]) {
      set[2 * p] = 1;
      const t = prog[p].t;
      if (t !== 'star' && t !== 'folders' && t !== 'rest') return;
      p++;
    }
    if (p === n) set[2 * n] = 1;
  };
  add(cur, 0);
  for (let i = 0; i < path.length; i++) {
    const ch = path.charCodeAt(i);
    const slash = ch === 47;
    next.fill(0);
    let any = false;
    for (let p = 0; p < n; p++) {
      const s = prog[p];
      if (cur[2 * p]) {
        if (s.t === 'char' && s.c === ch) add(next, p + 1);
        else if (s.t === 'one' && !slash) add(next, p + 1);
        else if ((s.t === 'star' && !slash) || s.t === 'rest') add(next, p);
        else if (s.t === 'folders') {
          if (slash) add(next, p);
          else next[2 * p + 1] = 1;
        }
      }
      if (cur[2 * p + 1]) {
        // inside a folder name of `**/`: a slash ends it (and may end the `**/`), anything else continues it
        if (slash) {
          add(next, p);
        } else next[2 * p + 1] = 1;
      }
    }
    for (let k = 0; k < next.length; k++) if (next[k]) any = true;
    if (!any) return false;
    [cur, next] = [next, cur];
  }
  return cur[2 * n] === 1;
}
