// `check` and suppressions (features/suppressions.ts): findings the annotations ignore are held back from the
// report and counted, with where each suppression is (an annotation, an `ignore:` entry of the config file);
// `--no-ignores` reports everything (a strict audit).

import { applySuppressions, type ConfigSuppression, type Ignored } from '../features/suppressions';
import type { Analysis, Finding } from './featureTypes';
import { messages, type Msg } from '../l10n/l10n';

export interface WithSuppressions {
  /** The findings to report: those not ignored, and the notes on suppressions that are malformed or match nothing. */
  readonly findings: readonly Finding[];
  readonly ignored: readonly Ignored<Finding>[];
}

export function withSuppressions(
  findings: readonly Finding[],
  analysis: Analysis,
  noIgnores: boolean,
  entries: readonly ConfigSuppression[] = [],
): WithSuppressions {
  if (noIgnores) return { findings, ignored: [] };
  const outcome = applySuppressions(findings, analysis, { entries });
  return { findings: [...outcome.kept, ...outcome.notes], ignored: outcome.ignored };
}

/** `ignored 3 findings (--no-ignores reports them): 2 by the annotation on Service shop/web, 1 by …` */
export function ignoredSummary(ignored: readonly Ignored<Finding>[], msg: Msg = messages(undefined)): string | undefined {
  if (!ignored.length) return undefined;
  const byPlace = new Map<string, number>();
  for (const i of ignored) byPlace.set(i.by, (byPlace.get(i.by) ?? 0) + 1);
  const places = [...byPlace].slice(0, 10).map(([by, n]) => msg('{0} by the {1}', n, by));
  const more = byPlace.size > 10 ? msg(', and {0} more suppressions', byPlace.size - 10) : '';
  const list = places.join(msg(', ')) + more;
  return ignored.length === 1
    ? msg('ignored {0} finding (--no-ignores reports them): {1}', ignored.length, list)
    : msg('ignored {0} findings (--no-ignores reports them): {1}', ignored.length, list);
}
