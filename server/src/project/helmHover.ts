// Hovers in a chart template: the hover of what each value set rendered from that place (the Service's DNS names
// and endpoints, a selector's matches…), one section per value set, sections that say the same thing merged; the
// source map of a snapshot (sourceMap.ts) answers the editor's hover in a template through it.

import type { Analysis } from '../analysis/analysis';
import { mappingsAtSource, type RenderedText } from '../model/rendered';
import type { Span } from '../model/span';
import { messages } from '../l10n/l10n';
import { contextWords } from './helmFindings';
import { hoverAt, type Hover } from '../features/hover';
import { joined, text, type Md, mdMessages } from '../features/markdown';

export interface RenderAtHand {
  readonly renderedUri: string;
  readonly rendered: RenderedText;
  /** For the section title: `release shop, values ci/prod-values.yaml`. */
  readonly context: string;
}

/** The hover at `offset` of a template file, from every render that has a mapping at that place; undefined when none. */
export function renderedHoverAt(analysis: Analysis, templateUri: string, offset: number, renders: readonly RenderAtHand[]): Hover | undefined {
  const msg = mdMessages(analysis.config.locale);
  const words = messages(analysis.config.locale);
  const sections = new Map<Md, { contexts: string[]; span: Span }>();
  for (const r of renders) {
    // the innermost mapping into this template that contains the offset
    const best = mappingsAtSource(r.rendered.mappings, templateUri, offset)?.inner;
    if (!best) continue;
    const h = hoverAt(analysis, r.renderedUri, best.rendered.start);
    if (!h) continue;
    const s = sections.get(h.markdown);
    if (s) s.contexts.push(r.context);
    else sections.set(h.markdown, { contexts: [r.context], span: best.span });
  }
  if (!sections.size) return undefined;
  const parts = [...sections].map(([markdown, s]) =>
    msg('**Rendered in {0}**\n\n{1}', text(s.contexts.map((c) => contextWords(c, words)).join(words('; '))), markdown),
  );
  return { markdown: joined(parts, '\n\n---\n\n'), span: [...sections.values()][0].span };
}
