// Markdown building blocks for hovers. Every string that comes from a manifest goes through `code` or `escape`,
// so a label or name can never form a link, an image, HTML or a command; the only links are the ones we build.

/** Text as literal Markdown: specials (and `:`, so no `http://` autolink forms) are backslash-escaped, `<` and `&` become entities. */
export function escape(s: string): string {
  return oneLine(s)
    .replace(/[\\`*_{}[\]()#+\-.!|~>:]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;');
}

/** An inline code span; it renders its content literally (no links, no HTML). */
export function code(s: string): string {
  const t = oneLine(s);
  let longest = 0;
  for (const m of t.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space from each end of a code span whose text starts and ends with a space (or a
  // backtick needs separating from the fence): pad in those cases so the text shows exactly as written.
  const pad = t.startsWith('`') || t.endsWith('`') || t === '' || (t.startsWith(' ') && t.endsWith(' ') && t.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** A table cell: a code span with pipes escaped (a pipe would end the cell even inside code). */
export function cell(s: string): string {
  return code(s).replace(/\|/g, '\\|');
}

/** `[Trace this Service](command:kubeNetlens.traceService?…)`: the one command link hovers contain. */
export function traceLink(namespace: string, name: string, uri?: string): string {
  const args = encodeURIComponent(JSON.stringify([uri ? { namespace, name, uri } : { namespace, name }]));
  return `[Trace this Service](command:kubeNetlens.traceService?${args} "Open the trace view for this Service")`;
}

/** At most `max` items, then “… and N more”. */
export function bounded<T>(list: readonly T[], max: number, render: (t: T) => string): string[] {
  const out = list.slice(0, max).map(render);
  if (list.length > max) out.push(`- … and ${list.length - max} more`);
  return out;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function oneLine(s: string): string {
  return s.replace(/[\r\n]+/g, ' ');
}
