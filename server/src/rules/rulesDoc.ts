// docs/rules.md and docs/rules.zh-cn.md as text, generated from the rule registry's metadata so the documentation
// cannot drift from the code. The Chinese page takes each rule's title and description from l10n/rules.zh-cn.json
// (`RuleTranslations`); an entry records the hash of the English it was translated from, so a rule whose English
// changed since (or that has no entry) is shown in English under a note instead of with an outdated translation.

import { inputCodes } from './inputCodes';
import type { Rule } from './rule';

/** The locales the rule reference is written in. */
export type RulesDocLocale = 'en' | 'zh-cn';

/** One translated rule (or input code, whose description is empty): l10n/rules.zh-cn.json's value for its code. */
export interface RuleTranslation {
  readonly title: string;
  readonly description: string;
  /** `ruleSourceHash` of the English title and description this translation was made from. */
  readonly source: string;
}

/** l10n/rules.zh-cn.json: translations by code. */
export type RuleTranslations = Readonly<Record<string, RuleTranslation>>;

/** What a page documents: a rule, or an input code (title only). */
export interface DocumentedText {
  readonly code: string;
  readonly title: string;
  readonly description?: string;
}

/** The English a translation's `source` is the hash of: the title, a newline, and the description. */
export function ruleSourceText(item: DocumentedText): string {
  return `${item.title}\n${item.description ?? ''}`;
}

/**
 * The translations of the Chinese page, and the hash their `source` is made with: SHA-256 in hex
 * (scripts/derived.ts passes node:crypto's; this layer imports no hash of its own).
 */
export interface Translated {
  readonly translations: RuleTranslations;
  readonly hash: (text: string) => string;
}

export type TranslationState = 'current' | 'missing' | 'stale';

/** Whether the translation of one code is there and made from the English the code has now. */
export function translationState(item: DocumentedText, { translations, hash }: Translated): TranslationState {
  const entry = Object.hasOwn(translations, item.code) ? translations[item.code] : undefined;
  if (!entry) return 'missing';
  return entry.source === hash(ruleSourceText(item)) ? 'current' : 'stale';
}

/** Every code the rule reference documents: the rules, then the input codes. */
export function documentedTexts(rules: readonly Rule[]): DocumentedText[] {
  return [...rules, ...inputCodes];
}

/** The fixed text of a page: headings, the introduction, the table's header, the phrases around each rule. */
interface PageTexts {
  readonly heading: string;
  readonly generated: string;
  readonly intro: readonly string[];
  readonly tableHeader: string;
  /** Follows the title in a rule's section (with the space the language puts before it). */
  readonly severity: (severity: string) => string;
  readonly firesOn: string;
  readonly quietOn: string;
  readonly otherCodes: string;
  readonly otherCodesIntro: string;
  /** The sentence after an input code's title. */
  readonly inputCode: (title: string, severity: string) => string;
  /** The note above a rule shown in English (a block quote), by why it is. */
  readonly untranslated?: Readonly<Record<Exclude<TranslationState, 'current'>, string>>;
}

const generatedNote =
  '<!-- Generated from the rule modules in server/src/rules/ by scripts/derived.ts (`npm run derived`; the build and the tests run it). Do not edit by hand. -->';

const english: PageTexts = {
  heading: '# Rules',
  generated: generatedNote,
  intro: [
    'Kubernetes Network Lens reads the Kubernetes manifests in your workspace and reports networking mistakes that the API server accepts but the cluster will not route the way you expect. Each finding carries one of the codes below. Change a rule\'s severity, or turn it off, with the `kubeNetlens.rules` setting in the editor (for example `"kubeNetlens.rules": {"service-port-not-exposed": "off"}`).',
    'References such as *semantics §1.1* point to the sections of the network semantics reference that the analysis follows; *gateway semantics §G2* points to [the Gateway API semantics](gateway-semantics.md).',
    '**What is applied together.** A repository often holds variants of one install side by side (per provider, HA and non-HA, a bundle next to its sources, dev and prod). Two folders or files that define the same object differently are variants: each is analysed with the files above and beside it, never with the other (ARCHITECTURE.md, "Apply scopes"). Kustomizations, the patches they list and Helm chart templates are inputs to a build, not objects, and are not read as manifests.',
    '**Unknown is not missing.** Where the manifests cannot know (pods an operator makes from a custom resource, labels whose values a controller generates, a namespace or Service created elsewhere, a value a tool fills in later), rules stay quiet rather than report something that may be wrong. Each rule says below when it stays quiet. An object the API server rejects does not exist: it gives no DNS names or endpoints, and what depends on it says so.',
  ],
  tableHeader: '| Code | Default severity | What it catches |',
  severity: (s) => ` (default severity: ${s})`,
  firesOn: '**Fires on:**',
  quietOn: '**Quiet on:**',
  otherCodes: '## Other codes',
  otherCodesIntro:
    "Findings that no rule makes: problems of the input and of the tools that render it, and notes about the analysis itself. The severity shown is the usual one; `kubeNetlens.rules` changes it as it does a rule's.",
  inputCode: (title, s) => `${title} (default severity: ${s}).`,
};

const chinese: PageTexts = {
  heading: '# 规则',
  generated: generatedNote.replace(' Do not edit by hand. -->', ' The translations are l10n/rules.zh-cn.json. Do not edit by hand. -->'),
  intro: [
    '[English](rules.md) | 简体中文',
    'Kubernetes Network Lens 读取工作区中的 Kubernetes 清单，报告 API 服务器会接受、但集群不会按你预期的方式路由的网络错误。每条发现都带有下面的一个代码。在编辑器中用设置 `kubeNetlens.rules` 修改某条规则的严重程度或关闭它（例如 `"kubeNetlens.rules": {"service-port-not-exposed": "off"}`）。',
    '*semantics §1.1* 这样的引用指向分析所依据的网络语义参考中的章节；*gateway semantics §G2* 指向 [Gateway API 语义](gateway-semantics.md)。',
    '**哪些内容会一起应用。** 一个仓库里常常并排存放同一套安装的多个变体（按云厂商、高可用与非高可用、打包文件与其源文件、开发与生产）。以不同方式定义同一个对象的两个文件夹或文件就是变体：每个变体都与它上层和同层的文件一起分析，从不与另一个变体一起分析（ARCHITECTURE.md，“Apply scopes”）。Kustomization、它列出的补丁以及 Helm Chart 模板是构建的输入，而不是对象，不会被当作清单读取。',
    '**未知不等于缺失。** 在清单无从得知的地方（Operator 根据定制资源创建的 Pod、值由控制器生成的标签、在别处创建的名字空间或 Service、之后由工具填入的值），规则保持沉默，而不是报告可能有误的内容。下面每条规则都说明了它在何时保持沉默。API 服务器拒绝的对象并不存在：它不产生 DNS 名称或端点，依赖它的对象会指出这一点。',
  ],
  tableHeader: '| 代码 | 默认严重程度 | 检查内容 |',
  severity: (s) => `（默认严重程度：${s}）`,
  firesOn: '**触发示例：**',
  quietOn: '**不触发示例：**',
  otherCodes: '## 其他代码',
  otherCodesIntro:
    '不由任何规则产生的发现：输入本身以及渲染输入的工具的问题，还有关于分析本身的说明。这里给出的是通常的严重程度；`kubeNetlens.rules` 可以像修改规则一样修改它。',
  inputCode: (title, s) => `${title}（默认严重程度：${s}）。`,
  untranslated: {
    missing: '（此规则尚无中文说明，以下为英文原文）',
    stale: '（此规则的中文说明尚未随英文原文更新，以下为英文原文）',
  },
};

/**
 * The rule reference in a locale: English (docs/rules.md), or Simplified Chinese (docs/rules.zh-cn.md) with the
 * translations of l10n/rules.zh-cn.json, where a code whose translation is missing or stale keeps its English text
 * under a note.
 */
export function renderRulesDoc(rules: readonly Rule[], locale: RulesDocLocale = 'en', translated?: Translated): string {
  const page = locale === 'zh-cn' ? chinese : english;
  const translations = translated?.translations ?? {};
  /** The text a code is shown with on this page, and the note above it when that is English on a Chinese page. */
  const shown = (item: DocumentedText): { title: string; description: string; note?: string } => {
    const description = item.description ?? '';
    if (!page.untranslated) return { title: item.title, description };
    const state = translated ? translationState(item, translated) : 'missing';
    if (state === 'current') return { title: translations[item.code].title, description: translations[item.code].description };
    return { title: item.title, description, note: page.untranslated[state] };
  };
  const out: string[] = [page.heading, '', page.generated];
  for (const paragraph of page.intro) out.push('', paragraph);
  out.push(
    '',
    page.tableHeader,
    '|---|---|---|',
    ...rules.map((r) => `| [\`${r.code}\`](#${r.code}) | ${r.defaultSeverity} | ${escapeCell(shown(r).title)} |`),
  );
  for (const r of rules) {
    const text = shown(r);
    out.push('', `## ${r.code}`, '');
    if (text.note) out.push(`> ${text.note}`, '');
    out.push(
      `**${text.title}**${page.severity(r.defaultSeverity)}`,
      '',
      text.description.trim(),
      '',
      page.firesOn,
      '',
      '```yaml',
      r.examples.bad.trim(),
      '```',
      '',
      page.quietOn,
      '',
      '```yaml',
      r.examples.good.trim(),
      '```',
    );
  }
  out.push('', page.otherCodes, '', page.otherCodesIntro);
  for (const c of inputCodes) {
    const text = shown(c);
    out.push('', `### ${c.code}`, '');
    if (text.note) out.push(`> ${text.note}`, '');
    out.push(page.inputCode(text.title, c.defaultSeverity));
  }
  return out.join('\n') + '\n';
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|');
}
