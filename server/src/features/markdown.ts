// Markdown for hovers, built so that text from a manifest cannot be inserted unescaped. `Md` is Markdown the product
// vouches for: the literal parts of an `md` template (written here, in the source), or text passed through `text`,
// `code` or `cell`. A plain string is not an `Md`, so the type checker rejects a manifest string placed into a hover
// without one of them; there is no concatenation path for untrusted text. The only links are the product's own
// (`traceLink`), with their arguments fully percent-encoded.

import { messages, type Locale, type TypedArgs } from '../l10n/l10n';

declare const vouched: unique symbol;

/** Markdown that is safe to render: literal source text, or untrusted text after escaping. */
export type Md = string & { readonly [vouched]: true };

/** A Markdown template: the literal parts are trusted; each value must already be `Md`, or a number. */
export function md(parts: TemplateStringsArray, ...values: readonly (Md | number)[]): Md {
  let out = parts[0];
  for (let i = 0; i < values.length; i++) out += String(values[i]) + parts[i + 1];
  return out as Md;
}

/**
 * A hover sentence in one locale (docs/localization.md): `msg('**Service** {0} in namespace {1}', code(name), code(ns))`.
 * The English template is the catalogue key and, like an `md` template's literal parts, written in the source; its
 * translation comes from the product's own bundle. Both are trusted Markdown; each argument must already be `Md` (or a
 * number), so manifest text still goes through `text` or `code`.
 */
export type MdMsg = <const T extends string>(template: T, ...args: TypedArgs<T, Md | number>) => Md;

/** The hover formatter of a locale (undefined: English). */
export function mdMessages(locale: Locale | undefined): MdMsg {
  return messages(locale) as unknown as MdMsg;
}

/** Text as literal Markdown: specials (and `:`, so no `http://` autolink forms) are backslash-escaped, `<` and `&` become entities. */
export function text(s: string): Md {
  return oneLine(s)
    .replace(/[\\`*_{}[\]()#+\-.!|~>:=]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;') as Md;
}

/** The same as `text` (the name the escaping function had first). */
export const escape = text;

/** An inline code span; it renders its content literally (no links, no HTML). */
export function code(s: string): Md {
  const t = oneLine(s);
  let longest = 0;
  for (const m of t.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space from each end of a code span whose text starts and ends with a space (or a
  // backtick needs separating from the fence): pad in those cases so the text shows exactly as written.
  const pad = t.startsWith('`') || t.endsWith('`') || t === '' || (t.startsWith(' ') && t.endsWith(' ') && t.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}` as Md;
}

/** A table cell: a code span with pipes escaped (a pipe would end the cell even inside code). */
export function cell(s: string): Md {
  return code(s).replace(/\|/g, '\\|') as Md;
}

/** Markdown made safe for a table cell (pipes escaped). */
export function inCell(m: Md): Md {
  return m.replace(/\|/g, '\\|') as Md;
}

/** Lines of Markdown, one after the other. */
export function lines(list: readonly Md[]): Md {
  return list.join('\n') as Md;
}

/** Markdown pieces joined by a literal separator. */
export function joined(list: readonly Md[], separator: '; ' | ', ' | ' and ' | '\n\n' | '\n\n---\n\n'): Md {
  return list.join(separator) as Md;
}

/** `[Trace this Service](command:kubeNetlens.traceService?…)`: the one command link hovers contain. */
export function traceLink(msg: MdMsg, namespace: string, name: string, uri?: string): Md {
  // encodeURIComponent leaves `(`, `)`, `'`, `!` and `*` alone; a `)` would end the link's destination early.
  const args = encodeURIComponent(JSON.stringify([uri ? { namespace, name, uri } : { namespace, name }])).replace(
    /[()'!*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `[${msg('Trace this Service')}](command:kubeNetlens.traceService?${args} "${msg('Open the trace view for this Service')}")` as Md;
}

/** `[All DNS records, env vars…](command:kubeNetlens.serviceDetails?…)`: the second level of the Service hover. */
export function detailsLink(msg: MdMsg, namespace: string, name: string, uri?: string): Md {
  // encodeURIComponent leaves `(`, `)`, `'`, `!` and `*` alone; a `)` would end the link's destination early.
  const args = encodeURIComponent(JSON.stringify([uri ? { namespace, name, uri } : { namespace, name }])).replace(
    /[()'!*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `[${msg('All DNS records, env vars…')}](command:kubeNetlens.serviceDetails?${args} "${msg('Open every DNS record, pod name and environment variable of this Service')}")` as Md;
}

/** At most `max` items, then “… and N more”. */
export function bounded<T>(msg: MdMsg, list: readonly T[], max: number, render: (t: T) => Md): Md[] {
  const out = list.slice(0, max).map(render);
  if (list.length > max) out.push(msg('- … and {0} more', list.length - max));
  return out;
}

/** One of two messages by a count (`plural(n, msg('{0} pod', n), msg('{0} pods', n))`; Chinese says both the same). */
export function plural(n: number, one: Md, many: Md): Md {
  return n === 1 ? one : many;
}

function oneLine(s: string): string {
  return s.replace(/[\r\n\u2028\u2029]+/g, ' ');
}
