// Random manifest-like YAML for the fast parser's differential tests: block trees rendered with random layouts,
// scalars drawn from ordinary values and from the characters and forms that make YAML tricky, and text mutations.

import fc from 'fast-check';

const tricky = [
  '#',
  ' #',
  ':',
  ': ',
  '"',
  "'",
  '-',
  '- ',
  '[',
  ']',
  '{',
  '}',
  ',',
  '&a',
  '*a',
  '!t',
  '|',
  '>',
  '%',
  '@',
  '`',
  '\t',
  '\r',
  '\r\n',
  '\n',
  ' ',
  '  ',
  'ü',
  '日本',
  '\u2028',
  '\uFEFF',
  '\u00a0',
  '\\',
  '?',
  '~',
  '---',
  '...',
  '0x1F',
  '1e3',
  '.5',
  '+1',
  '0o7',
  '1_000',
  'Null',
  'TRUE',
  'yes',
];

const plainish = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'a',
      'web',
      'nginx:1.25',
      'http://svc.ns:80/p',
      '80',
      '8080',
      'TCP',
      'ClusterIP',
      'v1',
      'apps/v1',
      'true',
      'a-b.c',
      '10.0.0.1',
      '/healthz',
      '1',
      '0',
    ),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '0x1F',
      '1e3',
      '.5',
      '+1',
      '-1',
      '-0',
      '0o7',
      '0o9',
      '1_000',
      '~',
      'Null',
      'NULL',
      'null',
      'TRUE',
      'True',
      'false',
      'yes',
      'no',
      '.inf',
      '-.Inf',
      '.NaN',
      '1.50',
      '3.',
      '1.2.3',
      'a#b',
      'a #b',
      'a: b',
      'a:b',
      'x:',
      '-',
      '- a',
      '-x',
      '[a]',
      '[a, "b", 1]',
      '[ ]',
      '[]',
      '{}',
      '{ }',
      '{a: 1}',
      '[a,]',
      '[,]',
      '[a b]',
      '&a x',
      '*a',
      '!t x',
      '|',
      '|-',
      '>',
      '%x',
      '@x',
      '`x`',
      "it's",
      'say "hi"',
      'ünï',
      '日本',
      'a\tb',
      ' lead',
      'trail ',
      '',
      '?',
      '? x',
      ':',
      ',a',
      'a,b',
      'a]',
      '#',
      'a  # c',
      '=',
      '<<',
      '$x',
      '(x)',
      ';',
      '"',
      "'",
      'a\\b',
      '^(\\+|-)?[0-9]+$',
      '\\x',
      '--flag=1',
      ':8081',
      '::1',
      ': x',
      ':#',
      '--',
      '---x',
      '-+',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9.:/#\-_ ]{1,10}$/) },
);
const scalarText = fc.oneof(
  { weight: 5, arbitrary: plainish },
  { weight: 2, arbitrary: plainish.map((s) => `"${s}"`) },
  { weight: 2, arbitrary: plainish.map((s) => `'${s.replace(/'/g, "''")}'`) },
  { weight: 1, arbitrary: plainish.map((s) => `'${s}'`) },
);
const key = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('name', 'app.kubernetes.io/name', 'ports', 'a', 'b', 'c', 'kind', 'metadata', 'spec', 'x-y', '_u', 'a.b/c') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '80',
      'true',
      'null',
      '~',
      '0x10',
      '1e3',
      '.inf',
      '-k',
      'a b',
      '"q"',
      "'s'",
      '"a.b/c"',
      "'@type'",
      '"it\\"s"',
      "'it''s'",
      '"k"x',
      '$patch',
      'a$',
      'ns[a]-b[0]',
      'a]',
      '[a]b',
      '<<',
      '? k',
      'k#',
      '&x k',
      '!t k',
      'a:b',
      '',
    ),
  },
);

/** Lines of a multi-line scalar: ordinary words, and what may end it, break it or be read otherwise on a later line. */
const lineText = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom('text', 'more words here', 'a', 'the end.', '1', 'true', 'x-y.z', 'https://example.com/a', '(case-sensitive)', 'e.g. [a, b]'),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'a: b',
      'a:',
      'x #y',
      'x#y',
      '- item',
      '-x',
      '--flag',
      '# c',
      '? q',
      ': c',
      '"q"',
      "'s'",
      "it's",
      "it''s",
      '[a]',
      '{b: c}',
      '\\back',
      '|',
      '>',
      '*a',
      '&a',
      '!t',
      '%',
      '@',
      '`c`',
      '^x',
      'trail  ',
      '  lead',
      '---',
      '...',
      '\\n esc',
      'q\\"',
      '\\ lead',
      'end\\',
      'end \\',
      '\\\\',
      '\\x41',
      '\\u00e9',
      'say "hi"',
    ),
  },
  { weight: 1, arbitrary: plainish },
  { weight: 2, arbitrary: fc.constantFrom('', '', ' ', '   ') },
);

/** A plain or quoted scalar over several lines: its first line, then lines at a column relative to its collection's. */
const multiLine = fc.record({
  quote: fc.constantFrom('', '', '"', "'"),
  first: lineText,
  rest: fc.array(fc.tuple(fc.constantFrom(-1, 0, 1, 2, 2, 4, 6), lineText), { minLength: 1, maxLength: 4 }),
  // the first line on the line below the key or dash
  below: fc.constantFrom(false, false, false, true),
});

type Tree =
  | { kind: 'scalar'; text: string }
  | { kind: 'lines'; quote: string; first: string; rest: [number, string][]; below: boolean }
  | { kind: 'map'; entries: [string, Tree][] }
  | { kind: 'seq'; items: Tree[] }
  | { kind: 'literal'; header: string; lines: string[] };

const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: scalarText.map((text): Tree => ({ kind: 'scalar', text })) },
    { weight: 2, arbitrary: multiLine.map((m): Tree => ({ kind: 'lines', ...m })) },
    {
      weight: 1,
      arbitrary: fc
        .record({
          header: fc.constantFrom('|', '|-', '|+', '>', '>-', '>+', '>2-', '| # c', '|2', '|2-', '|1', '|4-', '|-2'),
          // lines of text, empty lines, and lines of spaces only (written as they are, not indented)
          lines: fc.array(fc.oneof(plainish, fc.constant(''), fc.constantFrom(' ', '  ', '   ', '     ', '        ')), { minLength: 0, maxLength: 5 }),
        })
        .map((l): Tree => ({ kind: 'literal', ...l })),
    },
    { weight: 2, arbitrary: fc.array(fc.tuple(key, tie('node')), { maxLength: 4 }).map((entries): Tree => ({ kind: 'map', entries })) },
    { weight: 2, arbitrary: fc.array(tie('node'), { maxLength: 4 }).map((items): Tree => ({ kind: 'seq', items })) },
  ),
})).node;

/** Layout choices drawn per text: indentation step, whether sequences sit at their key's column, decorations. */
const style = fc.record({
  step: fc.constantFrom(2, 2, 2, 4, 1, 3),
  sameIndentSeq: fc.boolean(),
  comments: fc.constantFrom(0, 0, 0.05, 0.2, 0.4),
  blanks: fc.constantFrom(0, 0.1),
  oddIndent: fc.constantFrom(0, 0, 0, 0.02),
  // how often a one-line scalar is written on the line below its key or dash
  below: fc.constantFrom(0, 0, 0.1, 0.3),
});
type Style = typeof style extends fc.Arbitrary<infer S> ? S : never;

function render(t: Tree, indent: number, s: Style, rnd: () => number, out: string[]): void {
  const pad = (n: number) => ' '.repeat(Math.max(0, n + (rnd() < s.oddIndent ? (rnd() < 0.5 ? -1 : 1) : 0)));
  // comment lines at column 0, at the collection's column, or a little off it, sometimes more than one
  const commentLine = () =>
    `${' '.repeat(Math.max(0, [0, 0, indent, indent, indent + 2, indent - 1, indent + 1][Math.floor(rnd() * 7)]))}# note: ${rnd() < 0.5 ? 'x' : '- y'}`;
  const decorate = () => {
    if (rnd() < s.blanks) out.push(rnd() < 0.5 ? '' : '  ');
    while (rnd() < s.comments) out.push(commentLine());
  };
  const trailing = () => (rnd() < s.comments ? ` # c${rnd() < 0.3 ? ' :#' : ''}` : '');
  const inline = (v: Tree, lead: string, childIndent: number) => {
    if (v.kind === 'scalar') {
      if (rnd() < s.below) out.push(lead, `${pad(childIndent)}${v.text}${trailing()}`);
      else out.push(`${lead} ${v.text}${trailing()}`);
    } else if (v.kind === 'lines') {
      if (v.below) out.push(lead, `${pad(childIndent)}${v.quote}${v.first}`);
      else out.push(`${lead} ${v.quote}${v.first}`);
      // continuation lines at, left of or deeper than the collection's column (empty ones as they are)
      for (const [offset, l] of v.rest) out.push(l.trim() ? ' '.repeat(Math.max(0, indent + offset)) + l : l);
      if (v.quote) out[out.length - 1] += v.quote;
      out[out.length - 1] += trailing();
    } else if (v.kind === 'literal') {
      out.push(`${lead} ${v.header}`);
      for (const l of v.lines) out.push(l && l.trim() ? pad(childIndent) + l : l);
    } else if ((v.kind === 'map' && !v.entries.length) || (v.kind === 'seq' && !v.items.length)) out.push(`${lead}${rnd() < 0.5 ? '' : trailing()}`);
    else {
      out.push(`${lead}${rnd() < 0.1 ? trailing() : ''}`);
      render(v, v.kind === 'seq' && s.sameIndentSeq && lead.trimStart() !== '-' ? indent : childIndent, s, rnd, out);
    }
  };
  if (t.kind === 'map') {
    for (const [k, v] of t.entries) {
      decorate();
      inline(v, `${pad(indent)}${k}:`, indent + s.step);
    }
  } else if (t.kind === 'seq') {
    for (const item of t.items) {
      decorate();
      if (item.kind === 'map' && item.entries.length && rnd() < 0.7) {
        // a compact mapping: the first entry on the dash's line, the rest under it
        const first = out.length;
        render(item, indent + 2, s, rnd, out);
        out[first] = `${pad(indent)}-${out[first].slice(indent + 1)}`;
      } else inline(item, `${pad(indent)}-`, indent + s.step);
    }
  } else inline(t, `${pad(indent)}value:`, indent + s.step);
  // trailing comments after a collection's last entry
  if (t.kind === 'map' || t.kind === 'seq') decorate();
}

export const manifestText = fc
  .tuple(
    fc.tuple(fc.array(tree, { minLength: 1, maxLength: 3 }), fc.constantFrom(false, false, true)),
    style,
    fc.integer(),
    fc.constantFrom('', '---\n', '# head\n', '# head\n---\n'),
    fc.boolean(),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom(...tricky)), { maxLength: 2 }),
  )
  .map(([[docs, crlf], s, salt, head, finalNewline, inserts]) => {
    let state = salt | 0;
    const rnd = () => {
      state = (Math.imul(state, 1103515245) + 12345) | 0;
      return ((state >>> 8) & 0xffff) / 0x10000;
    };
    const parts = docs.map((d) => {
      const out: string[] = [];
      render(d.kind === 'scalar' || d.kind === 'literal' || d.kind === 'lines' ? { kind: 'map', entries: [['value', d]] } : d, 0, s, rnd, out);
      return out.join('\n');
    });
    let text = head + parts.join('\n---\n') + (finalNewline ? '\n' : '');
    if (crlf) text = text.replace(/\n/g, '\r\n');
    // a few tricky characters at random places, half of the time
    for (const [at, what] of inserts) if (rnd() < 0.3) text = text.slice(0, at % (text.length + 1)) + what + text.slice(at % (text.length + 1));
    return text;
  });

export const mutation: fc.Arbitrary<(t: string) => string> = fc.oneof(
  fc.constant((t: string) => t.replace(/\n/g, '\r\n')),
  fc.tuple(fc.nat(), fc.constantFrom(...tricky)).map(
    ([at, what]) =>
      (t: string) =>
        t.slice(0, at % (t.length + 1)) + what + t.slice(at % (t.length + 1)),
  ),
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 8 })).map(
    ([at, len]) =>
      (t: string) =>
        t.slice(0, at % (t.length + 1)) + t.slice((at % (t.length + 1)) + len),
  ),
  fc.tuple(fc.nat(), fc.constantFrom(' ', '  ', '- ', '# ')).map(([line, lead]) => (t: string) => {
    const lines = t.split('\n');
    const i = line % lines.length;
    lines[i] = lead + lines[i];
    return lines.join('\n');
  }),
  fc.nat().map((line) => (t: string) => {
    const lines = t.split('\n');
    const i = line % lines.length;
    lines[i] = lines[i].replace(/^ /, '');
    return lines.join('\n');
  }),
);
