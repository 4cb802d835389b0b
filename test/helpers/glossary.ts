// The zh-cn glossary (l10n/glossary.zh-cn.json) and which of its terms an English text uses: shared by the message
// catalogue's test (test/l10n/catalogue.test.ts) and the Chinese rule reference's (test/rulesDocZh.test.ts), so both
// read a text's terms the same way.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface GlossaryTerm {
  readonly term: string;
  readonly translation: string;
  readonly keep?: boolean;
  readonly source: string;
}

export const glossary: readonly GlossaryTerm[] = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'l10n', 'glossary.zh-cn.json'), 'utf8')) as { terms: GlossaryTerm[] }
).terms;

/** The English words of a text, without placeholders, code spans, <name patterns>, field paths, flags and quoted names. */
export function prose(text: string): string {
  return text
    .replace(/`[^`]*`/g, ' ')
    .replace(/<[^<>]*>/g, ' ')
    .replace(/"[^"]*"/g, ' ')
    .replace(/\{\d+\}/g, ' ')
    .replace(/--[\w-]+/g, ' ')
    .replace(/[\w-]*[./][\w./-]*/g, ' ');
}

/** The glossary terms an English text uses, longest first, each occurrence counted once. */
export function termsIn(english: string): GlossaryTerm[] {
  let text = prose(english);
  const found: GlossaryTerm[] = [];
  for (const t of [...glossary].sort((a, b) => b.term.length - a.term.length)) {
    const re = new RegExp(`\\b${t.term.replace(/ /g, '\\s+')}(s|es)?\\b`, t.keep ? 'g' : 'gi');
    if (!re.test(text)) continue;
    found.push(t);
    text = text.replace(re, ' ');
  }
  return found;
}
