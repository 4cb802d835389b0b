// docs/rules.zh-cn.md: generated from the registry and l10n/rules.zh-cn.json, every translation made from the English
// its rule has now (an entry whose English changed since is stale and fails here), and what is not translated shown in
// English under a note.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { rules } from '../server/src/rules/index';
import {
  documentedTexts,
  renderRulesDoc,
  ruleSourceText,
  translationState,
  type DocumentedText,
  type RuleTranslations,
  type Translated,
} from '../server/src/rules/rulesDoc';
import { termsIn } from './helpers/glossary';

const root = join(__dirname, '..');
const docPath = join(root, 'docs', 'rules.zh-cn.md');
const translations = JSON.parse(readFileSync(join(root, 'l10n', 'rules.zh-cn.json'), 'utf8')) as RuleTranslations;
const hash = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const ruleSourceHash = (item: DocumentedText): string => hash(ruleSourceText(item));
const translated: Translated = { translations, hash };
const entries = Object.entries(translations).filter(([code]) => !code.startsWith('$'));
const documented = documentedTexts(rules);
const byCode = new Map(documented.map((d) => [d.code, d]));

/** Code spans and link targets of a Markdown text, sorted: what a translation must keep exactly. */
function literals(markdown: string): string[] {
  return [...markdown.matchAll(/`[^`]+`|\]\([^)]+\)/g)].map((m) => m[0]).sort();
}

describe('docs/rules.zh-cn.md', () => {
  it('is up to date with the rule registry and l10n/rules.zh-cn.json', () => {
    const written = existsSync(docPath) ? readFileSync(docPath, 'utf8') : '';
    assert.ok(written === renderRulesDoc(rules, 'zh-cn', translated), 'docs/rules.zh-cn.md is stale: `npm run derived` updates it; commit the result');
  });

  it('has a section anchored at each code, as docs/rules.md does', () => {
    const doc = renderRulesDoc(rules, 'zh-cn', translated);
    for (const r of rules) assert.ok(doc.includes(`\n## ${r.code}\n`), `no section for ${r.code}`);
  });

  it('has an entry for a code only, and every entry translated from the English its code has now', () => {
    const unknown = entries.filter(([code]) => !byCode.has(code)).map(([code]) => code);
    assert.deepEqual(unknown, [], 'entries of l10n/rules.zh-cn.json for codes that do not exist');
    const stale = entries
      .filter(([code]) => translationState(byCode.get(code)!, translated) === 'stale')
      .map(([code]) => `${code} (its English now hashes to ${ruleSourceHash(byCode.get(code)!)}: translate it again, then update source)`);
    assert.deepEqual(stale, [], 'translations made from English that has changed since');
  });

  it('translates every rule and every other code', () => {
    const missing = documented.filter((d) => translationState(d, translated) === 'missing').map((d) => d.code);
    assert.deepEqual(
      missing,
      [],
      `${missing.length} of ${documented.length} codes have no translation in l10n/rules.zh-cn.json (\`npm run derived\` prints the source hash of each)`,
    );
  });

  it('keeps every code span and link target of the English', () => {
    for (const [code, entry] of entries) {
      const english = byCode.get(code);
      if (!english) continue;
      assert.deepEqual(literals(entry.title), literals(english.title), `${code}: the title's code spans differ from the English`);
      assert.deepEqual(
        literals(entry.description),
        literals(english.description ?? ''),
        `${code}: the description's code spans and links differ from the English`,
      );
    }
  });

  it('writes every glossary term of the English as l10n/glossary.zh-cn.json translates it', () => {
    const wrong: string[] = [];
    for (const [code, entry] of entries) {
      const english = byCode.get(code);
      if (!english) continue;
      for (const part of ['title', 'description'] as const) {
        for (const term of termsIn(english[part] ?? '')) {
          if (!entry[part].includes(term.translation)) wrong.push(`${code} (${part}): "${term.term}" must read "${term.translation}"`);
        }
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('writes Chinese punctuation after Chinese text, and the glossary word for namespace', () => {
    for (const [code, entry] of entries) {
      const prose = `${entry.title}\n${entry.description}`.replace(/`[^`]*`/g, '``');
      assert.doesNotMatch(prose, /[\u4e00-\u9fff][,.;:?!]/u, `${code}: a half-width punctuation mark after a Chinese character`);
      assert.doesNotMatch(prose, /命名空间/u, `${code}: the glossary writes 名字空间 for namespace`);
    }
  });

  it('shows a rule in English under a note when its translation is missing or stale', () => {
    const [rule] = rules;
    const stale: RuleTranslations = {
      [rule.code]: { title: '旧标题', description: '旧说明。', source: ruleSourceHash({ ...rule, title: `${rule.title} (older)` }) },
    };
    for (const [given, note] of [
      [{}, '（此规则尚无中文说明，以下为英文原文）'],
      [stale, '（此规则的中文说明尚未随英文原文更新，以下为英文原文）'],
    ] as const) {
      const doc = renderRulesDoc(rules, 'zh-cn', { translations: given, hash });
      const section = doc.slice(doc.indexOf(`\n## ${rule.code}\n`), doc.indexOf('\n## ', doc.indexOf(`\n## ${rule.code}\n`) + 1));
      assert.ok(section.includes(`\n> ${note}\n`), `no note in ${section.slice(0, 200)}`);
      assert.ok(section.includes(`**${rule.title}**（默认严重程度：${rule.defaultSeverity}）`));
      assert.ok(section.includes(rule.description.trim()));
      assert.ok(!section.includes('旧标题'));
    }
    const current: RuleTranslations = { [rule.code]: { title: '新标题', description: '新说明。', source: ruleSourceHash(rule) } };
    const doc = renderRulesDoc(rules, 'zh-cn', { translations: current, hash });
    assert.ok(doc.includes(`\n## ${rule.code}\n\n**新标题**（默认严重程度：${rule.defaultSeverity}）\n\n新说明。\n`));
    assert.ok(doc.includes(`| [\`${rule.code}\`](#${rule.code}) | ${rule.defaultSeverity} | 新标题 |`));
  });

  it('keeps the examples of docs/rules.md as they are', () => {
    const doc = renderRulesDoc(rules, 'zh-cn', translated);
    for (const r of rules) {
      assert.ok(doc.includes('```yaml\n' + r.examples.bad.trim() + '\n```'), `${r.code}: the "fires on" example`);
      assert.ok(doc.includes('```yaml\n' + r.examples.good.trim() + '\n```'), `${r.code}: the "quiet on" example`);
    }
  });
});
