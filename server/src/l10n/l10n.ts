// The one message catalogue (docs/localization.md). Every user-facing sentence is written once, in English, as the
// template passed to a `Msg` (or to `vscode.l10n.t` in the client): the English template is the key of its
// translation in l10n/bundle.l10n.<locale>.json, the bundle format of vscode.l10n, so the client, the language server
// and the CLI read the same file. Placeholders are {0}, {1}…; the arguments (names, codes, field paths, numbers) are
// inserted as they are, never translated. test/l10n/catalogue.test.ts scans every call site: a template without a
// translation, or whose translation has other placeholders, fails the tests.
//
// Pure: the locale is an input (AnalysisConfig.locale, the CLI's --lang), never a global. The bundles are imported,
// so esbuild bundles them in: a lookup is one Map.get, no file is read.

import zhCn from '../../../l10n/bundle.l10n.zh-cn.json';

/** The display languages the product speaks. `en` is the templates themselves. */
export const locales = ['en', 'zh-cn'] as const;
export type Locale = (typeof locales)[number];

/** What a placeholder receives: inserted as written (numbers in plain digits: ports, counts, never grouped). */
export type MsgArg = string | number;

/** The placeholder indices of a template literal type: `'a {0} b {1}'` → `0 | 1`. */
type Indices<T extends string> = T extends `${string}{${infer N}}${infer Rest}` ? (N extends `${infer D extends number}` ? D : never) | Indices<Rest> : never;
/** A tuple with one argument per index up to the highest placeholder. */
type ArgsFor<I extends number, E, Acc extends E[] = []> = [I] extends [never] ? Acc : ArgsFor<Exclude<I, Acc['length']>, E, [...Acc, E]>;
/** The arguments a template takes: exactly one per placeholder, checked by the compiler at every call site. */
export type MsgArgs<T extends string> = ArgsFor<Indices<T>, MsgArg>;
/** The same, each argument of type `E` (features/markdown.ts: only vouched Markdown or numbers go into a hover). */
export type TypedArgs<T extends string, E> = ArgsFor<Indices<T>, E>;

/**
 * A message formatter in one locale: `msg('Service "{0}" has no port {1}.', name, port)`. The first argument must be
 * a string literal (the catalogue key; the test refuses anything else), so a message cannot exist in one language only.
 */
export type Msg = <const T extends string>(template: T, ...args: MsgArgs<T>) => string;

const bundles: Readonly<Record<Exclude<Locale, 'en'>, ReadonlyMap<string, string>>> = {
  'zh-cn': new Map(Object.entries(zhCn as Record<string, string>)),
};

/** `{0}` … in `template` replaced by the arguments; a placeholder without an argument is left as written. */
export function format(template: string, args: readonly MsgArg[]): string {
  if (!args.length) return template;
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => {
    const arg = args[Number(i)];
    return arg === undefined ? whole : String(arg);
  });
}

const english: Msg = (template, ...args) => format(template, args as readonly MsgArg[]);
const formatters = new Map<Locale, Msg>([['en', english]]);

/** The formatter of a locale (undefined: English), made once per locale. */
export function messages(locale: Locale | undefined): Msg {
  const key = locale ?? 'en';
  let m = formatters.get(key);
  if (m) return m;
  const bundle = key === 'en' ? undefined : bundles[key];
  m = (template, ...args) => format(bundle?.get(template) ?? template, args as readonly MsgArg[]);
  formatters.set(key, m);
  return m;
}

/** The translations of a locale, keyed by English template (for the tests and the docs generator). */
export function bundleOf(locale: Exclude<Locale, 'en'>): ReadonlyMap<string, string> {
  return bundles[locale];
}

/**
 * A BCP 47 tag (VS Code's `vscode.env.language`, `--lang`) or a POSIX locale name (`zh_CN.UTF-8`) → a locale we
 * speak; undefined for any other language. Simplified Chinese: zh-CN, zh-Hans (any region), zh-SG, zh_CN.
 */
export function localeOf(tag: string | undefined): Locale | undefined {
  if (!tag) return undefined;
  const t = tag
    .trim()
    .toLowerCase()
    .replace(/_/g, '-')
    .replace(/[.@].*$/, '');
  if (t === 'en' || t.startsWith('en-') || t === 'c' || t === 'posix') return 'en';
  if (t === 'zh-cn' || t === 'zh-sg' || t === 'zh-hans' || t.startsWith('zh-hans-') || t === 'zh') return 'zh-cn';
  return undefined;
}

/**
 * The locale of the POSIX environment: the first of LC_ALL, LC_MESSAGES, LANG that is set and not empty decides
 * (the order setlocale(3) reads them for message catalogues); a language we do not speak is English.
 */
export function localeFromEnv(env: Readonly<Record<string, string | undefined>>): Locale {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const value = env[name];
    if (value) return localeOf(value) ?? 'en';
  }
  return 'en';
}

/**
 * Sentences of one message, in order: English ones are separated by a space, and a sentence that ends with a
 * full-width mark (Chinese `。？！`) is followed by none, as written Chinese has no space between sentences. The same
 * for every locale, so English text is unchanged by it.
 */
export function joinSentences(parts: readonly string[]): string {
  let out = parts.length ? parts[0] : '';
  for (let i = 1; i < parts.length; i++) out += (/[\u3002\uff1f\uff01]$/.test(parts[i - 1]) ? '' : ' ') + parts[i];
  return out;
}

/**
 * A message worded later, in the locale of whoever shows it: what parsing and rendering report (YAML errors, a
 * manifest's shape, a Kustomize or Helm render), whose results are cached with the file or the render and shared by
 * every locale. `phrase('…', args)` is declared like `msg('…', args)` (the test scans both: the English template is
 * the catalogue key); an argument may be a phrase itself, worded in the same locale. `sentences` joins phrases as
 * `joinSentences` joins strings.
 */
export type Phrase = { readonly template: string; readonly args: readonly PhraseArg[] } | { readonly sentences: readonly Phrase[] };
export type PhraseArg = MsgArg | Phrase;

/** A phrase of one template, with exactly one argument per placeholder (checked by the compiler, as for `Msg`). */
export function phrase<const T extends string>(template: T, ...args: ArgsFor<Indices<T>, PhraseArg>): Phrase {
  return { template, args };
}

/** Phrases one after the other, as sentences of one message. */
export function sentences(...parts: readonly Phrase[]): Phrase {
  return { sentences: parts };
}

/** A text kept as written in every locale (a tool's own words, an error of the YAML library). */
export function asIs(text: string): Phrase {
  return { template: '{0}', args: [text] };
}

/** The phrase in the words of `msg` (its arguments too). */
export function say(p: Phrase, msg: Msg): string {
  if ('sentences' in p) return joinSentences(p.sentences.map((s) => say(s, msg)));
  const args = p.args.map((a) => (typeof a === 'object' ? say(a, msg) : a));
  return (msg as (template: string, ...args: MsgArg[]) => string)(p.template, ...args);
}

/** The English text of a phrase and the phrase itself: what a problem keeps, so that both are made from one template. */
export function worded(p: Phrase): { readonly message: string; readonly phrase: Phrase } {
  return { message: say(p, messages(undefined)), phrase: p };
}
