// What the host saves when the trace view asks for "Save as SVG": an SVG that parses as XML and holds only drawing.
// The webview is sandboxed, but a file written to disk is opened later by browsers and other tools; so the host
// checks the text itself instead of trusting the view: well-formed XML (no character XML forbids, balanced tags,
// quoted attributes, known entities), one `<svg>` root, only the drawing elements the view makes, no event-handler
// attributes, no links other than to fragments of the same file, no CSS that fetches anything.

import { english, type L10n } from './l10n';

const drawingElements: ReadonlySet<string> = new Set([
  'svg',
  'g',
  'rect',
  'text',
  'tspan',
  'path',
  'line',
  'polyline',
  'polygon',
  'circle',
  'ellipse',
  'title',
  'desc',
  'defs',
  'marker',
]);

/** Characters XML 1.0 allows (the `Char` production), checked code unit by code unit with surrogate pairs. */
function badCharacter(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd)) continue;
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}

const name = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;
const entity = /^&(?:lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});/;

/** Why the text is not an SVG the host may save, or undefined when it is, in the words of `l10n` (the extension passes vscode.l10n). */
export function checkSvg(svg: string, l10n: L10n = english): string | undefined {
  const bad = badCharacter(svg);
  if (bad >= 0)
    return l10n.t('it holds a character XML does not allow (U+{0}) at offset {1}', svg.charCodeAt(bad).toString(16).toUpperCase().padStart(4, '0'), bad);
  const open: string[] = [];
  let roots = 0;
  let i = 0;
  const textUpTo = (end: number): string | undefined => {
    const t = svg.slice(i, end);
    if (!open.length && t.trim()) return l10n.t('text outside the <svg> element');
    for (let k = t.indexOf('&'); k >= 0; k = t.indexOf('&', k + 1)) if (!entity.test(t.slice(k))) return l10n.t('an unknown entity or a bare "&"');
    return undefined;
  };
  while (i < svg.length) {
    const lt = svg.indexOf('<', i);
    const end = lt < 0 ? svg.length : lt;
    const textProblem = textUpTo(end);
    if (textProblem) return textProblem;
    if (lt < 0) break;
    i = lt;
    if (svg.startsWith('<!--', i)) {
      const close = svg.indexOf('-->', i + 4);
      if (close < 0 || svg.slice(i + 4, close).includes('--')) return l10n.t('a malformed comment');
      i = close + 3;
      continue;
    }
    if (svg.startsWith('<?xml ', i) && i === 0) {
      const close = svg.indexOf('?>', i);
      if (close < 0) return l10n.t('a malformed XML declaration');
      i = close + 2;
      continue;
    }
    if (svg.startsWith('<!', i) || svg.startsWith('<?', i)) return l10n.t('a DOCTYPE, CDATA section or processing instruction');
    if (svg.startsWith('</', i)) {
      const m = name.exec(svg.slice(i + 2));
      if (!m) return l10n.t('a malformed end tag');
      const after = i + 2 + m[0].length;
      const gt = /^\s*>/.exec(svg.slice(after));
      if (!gt) return l10n.t('a malformed end tag');
      if (open.pop() !== m[0]) return l10n.t('the end tag </{0}> does not match its start tag', m[0]);
      i = after + gt[0].length;
      continue;
    }
    const m = name.exec(svg.slice(i + 1));
    if (!m) return l10n.t('a "<" that starts no tag');
    const tag = m[0];
    const local = tag.includes(':') ? tag.slice(tag.indexOf(':') + 1) : tag;
    if (!drawingElements.has(local)) return l10n.t('the element <{0}> is not part of a drawing', tag);
    if (!open.length) {
      if (roots++ || tag !== 'svg') return l10n.t('the root element is not a single <svg>');
    }
    i += 1 + tag.length;
    const seen = new Set<string>();
    for (;;) {
      const ws = /^\s*/.exec(svg.slice(i))![0];
      i += ws.length;
      if (svg.startsWith('/>', i)) {
        i += 2;
        break;
      }
      if (svg[i] === '>') {
        i++;
        open.push(tag);
        break;
      }
      if (!ws) return l10n.t('a malformed start tag <{0}>', tag);
      const a = name.exec(svg.slice(i));
      if (!a) return l10n.t('a malformed attribute in <{0}>', tag);
      const attr = a[0];
      i += attr.length;
      const eq = /^\s*=\s*(["'])/.exec(svg.slice(i));
      if (!eq) return l10n.t('the attribute {0} has no quoted value', attr);
      i += eq[0].length;
      const close = svg.indexOf(eq[1], i);
      if (close < 0) return l10n.t('the attribute {0} is never closed', attr);
      const value = svg.slice(i, close);
      i = close + 1;
      if (value.includes('<')) return l10n.t('a "<" in the attribute {0}', attr);
      for (let k = value.indexOf('&'); k >= 0; k = value.indexOf('&', k + 1))
        if (!entity.test(value.slice(k))) return l10n.t('an unknown entity in the attribute {0}', attr);
      if (seen.has(attr)) return l10n.t('the attribute {0} is repeated', attr);
      seen.add(attr);
      const lower = attr.toLowerCase();
      if (lower.startsWith('on')) return l10n.t('an event-handler attribute ({0})', attr);
      if ((lower === 'href' || lower.endsWith(':href')) && !value.startsWith('#')) return l10n.t('a link ({0}) to something outside the drawing', attr);
      if (/url\s*\(|@import|expression\s*\(|javascript:/i.test(value) && !/^url\(#[-\w]+\)$/.test(value.trim()))
        return l10n.t('the attribute {0} refers to something outside the drawing', attr);
    }
  }
  if (open.length) return l10n.t('the element <{0}> is never closed', open[open.length - 1]);
  if (!roots) return l10n.t('there is no <svg> element');
  return undefined;
}
