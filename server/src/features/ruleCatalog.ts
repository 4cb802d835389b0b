// The registered rules' metadata (code, title, description, default severity), for SARIF and settings UIs; and the
// codes no rule makes (rules/inputCodes.ts), which SARIF declares too.

import rulesZhCn from '../../../l10n/rules.zh-cn.json';
import type { Severity } from '../model/config';
import type { Locale } from '../l10n/l10n';
import { translationState, type RuleTranslations } from '../rules/rulesDoc';
import { inputCodes } from '../rules/inputCodes';
import { rules } from '../rules/index';

export interface RuleInfo {
  readonly code: string;
  readonly title: string;
  readonly description: string;
  readonly defaultSeverity: Severity;
  /** The heading of docs/rules.md that documents the code (its anchor is the code). */
  readonly documented: 'rule' | 'other';
}

export const ruleCatalog: readonly RuleInfo[] = rules.map((r) => ({
  code: r.code,
  title: r.title,
  description: r.description,
  defaultSeverity: r.defaultSeverity,
  documented: 'rule',
}));

/** Every code a finding may carry: the rules, then the other codes. */
export const codeCatalog: readonly RuleInfo[] = [
  ...ruleCatalog,
  ...inputCodes.map((c) => ({ code: c.code, title: c.title, description: c.title, defaultSeverity: c.defaultSeverity, documented: 'other' as const })),
];

/**
 * The catalogue in a locale: in Chinese each title and description from l10n/rules.zh-cn.json (as docs/rules.zh-cn.md
 * shows them), with the English kept beside; a code whose translation is missing or stale keeps its English, as the
 * page does. `sha256` is the hash the translations' `source` is made with (the caller's: this layer imports none).
 */
export function codeCatalogIn(locale: Locale | undefined, sha256: (text: string) => string): readonly LocalizedRuleInfo[] {
  if (locale !== 'zh-cn') return codeCatalog;
  const { $comment: _, ...translations } = rulesZhCn as unknown as RuleTranslations & { $comment?: string };
  const translated = { translations: translations as RuleTranslations, hash: sha256 };
  return codeCatalog.map((r) => {
    // an input code documents its title only (its description is the title)
    const item = r.documented === 'rule' ? r : { code: r.code, title: r.title };
    if (translationState(item, translated) !== 'current') return r;
    const t = translations[r.code];
    return {
      ...r,
      title: t.title,
      description: r.documented === 'rule' ? t.description : t.title,
      english: { title: r.title, description: r.description },
    };
  });
}

/** A code's metadata, with the English beside it when the title and description are translated. */
export interface LocalizedRuleInfo extends RuleInfo {
  readonly english?: { readonly title: string; readonly description: string };
}
