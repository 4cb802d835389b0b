// The CLI in Simplified Chinese (docs/localization.md): `--lang zh-cn` or a zh_CN locale environment makes the
// messages and the summary Chinese; codes, places and identities stay what they are in English; SARIF declares the
// run's language and carries each result's English text as well.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runCli } from './builtCli';

interface JsonOut {
  readonly diagnostics: readonly {
    readonly file: string;
    readonly range: unknown;
    readonly code: string;
    readonly message: string;
    readonly fingerprint?: string;
  }[];
}

const cjk = /[\u4e00-\u9fff]/;

describe('kube-netlens in Simplified Chinese', () => {
  const english = runCli(['check', 'examples/', '--format', 'json']);
  const chinese = runCli(['check', 'examples/', '--format', 'json', '--lang', 'zh-cn']);

  it('prints Chinese messages and summary with --lang zh-cn, the codes and places unchanged', () => {
    const text = runCli(['check', 'examples/', '--lang', 'zh-cn']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /service-selector-no-match: 选择算符 release: stabel, app: frontend 与名字空间 "shop" 中的任何 Pod 模板都不匹配/);
    assert.match(text.stdout, /13 个文件中共有 0 个错误，8 个警告\n$/);
    const en = JSON.parse(english.stdout) as JsonOut;
    const zh = JSON.parse(chinese.stdout) as JsonOut;
    assert.deepEqual(
      zh.diagnostics.map((d) => [d.file, d.range, d.code, d.fingerprint]),
      en.diagnostics.map((d) => [d.file, d.range, d.code, d.fingerprint]),
    );
    assert.ok(en.diagnostics.every((d) => !cjk.test(d.message)));
    assert.ok(zh.diagnostics.some((d) => cjk.test(d.message)));
  });

  it('follows LC_ALL, then LC_MESSAGES, then LANG, and --lang over them', () => {
    const summary = (env: Record<string, string>, ...args: string[]) =>
      runCli(['check', 'examples/', ...args], { env })
        .stdout.trim()
        .split('\n')
        .pop();
    assert.equal(summary({ LANG: 'zh_CN.UTF-8' }), '13 个文件中共有 0 个错误，8 个警告');
    assert.equal(summary({ LC_MESSAGES: 'zh_CN.UTF-8', LANG: 'en_US.UTF-8' }), '13 个文件中共有 0 个错误，8 个警告');
    assert.equal(summary({ LC_ALL: 'en_US.UTF-8', LC_MESSAGES: 'zh_CN.UTF-8' }), '0 errors, 8 warnings in 13 files');
    assert.equal(summary({ LANG: 'zh_CN.UTF-8' }, '--lang', 'en'), '0 errors, 8 warnings in 13 files');
    assert.equal(summary({ LANG: 'fr_FR.UTF-8' }), '0 errors, 8 warnings in 13 files');
  });

  it('prints the help and usage errors in Chinese', () => {
    assert.match(runCli(['help', '--lang', 'zh-cn']).stdout, /^kube-netlens：在 YAML 清单中查找 Kubernetes 网络配置错误\n\n用法：/);
    assert.match(runCli(['check', '--help'], { env: { LANG: 'zh_CN.UTF-8' } }).stdout, /^用法：kube-netlens check \[PATH\.\.\.\] \[选项\]/);
    const run = runCli(['chek', '--lang=zh-cn']);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /未知命令 'chek'；可用的命令有 check、dns、trace、build、reach 和 diff/);
  });

  it('refuses a language it does not speak', () => {
    const run = runCli(['check', 'examples/', '--lang', 'fr']);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /--lang must be one of en, zh-cn \(got 'fr'\)/);
  });

  it("writes SARIF with run.language zh-CN, the Chinese text and the English one in each result's property bag", () => {
    const sarif = (args: string[]) =>
      JSON.parse(runCli(['check', 'examples/', '--format', 'sarif', ...args]).stdout) as {
        runs: { language?: string; results: { ruleId: string; message: { text: string }; properties?: { englishMessage: string } }[] }[];
      };
    const en = sarif([]).runs[0];
    const zh = sarif(['--lang', 'zh-cn']).runs[0];
    assert.equal(en.language, undefined);
    assert.equal(zh.language, 'zh-CN');
    assert.deepEqual(
      zh.results.map((r) => r.ruleId),
      en.results.map((r) => r.ruleId),
    );
    assert.deepEqual(
      zh.results.map((r) => r.properties?.englishMessage),
      en.results.map((r) => r.message.text),
    );
    assert.ok(en.results.every((r) => r.properties === undefined));
    assert.ok(zh.results.some((r) => cjk.test(r.message.text)));
  });

  it('declares the rules in Chinese too (as docs/rules.zh-cn.md words them), with the English beside and the Chinese rule page as help', () => {
    type Rule = {
      id: string;
      shortDescription: { text: string };
      fullDescription: { text: string };
      helpUri: string;
      properties?: { englishShortDescription: string; englishFullDescription: string };
    };
    const rulesOf = (args: string[]) =>
      (JSON.parse(runCli(['check', 'examples/', '--format', 'sarif', ...args]).stdout) as { runs: { tool: { driver: { rules: Rule[] } } }[] }).runs[0].tool
        .driver.rules;
    const en = rulesOf([]);
    const zh = rulesOf(['--lang', 'zh-cn']);
    assert.deepEqual(
      zh.map((r) => r.id),
      en.map((r) => r.id),
    );
    assert.ok(en.every((r) => r.properties === undefined && /\/docs\/rules\.md#/.test(r.helpUri)));
    const selector = zh.find((r) => r.id === 'service-selector-no-match')!;
    assert.ok(cjk.test(selector.shortDescription.text), selector.shortDescription.text);
    assert.match(selector.helpUri, /\/docs\/rules\.zh-cn\.md#service-selector-no-match$/);
    const english = en.find((r) => r.id === 'service-selector-no-match')!;
    assert.deepEqual(selector.properties, { englishShortDescription: english.shortDescription.text, englishFullDescription: english.fullDescription.text });
    // every rule docs/rules.zh-cn.md shows in Chinese is declared in Chinese
    const page = readFileSync(join(repoRoot, 'docs', 'rules.zh-cn.md'), 'utf8');
    for (const r of zh) {
      const row = page.split('\n').find((l) => l.startsWith(`| [\`${r.id}\`](#${r.id}) |`));
      if (row && cjk.test(row.split(' | ').pop()!)) assert.ok(cjk.test(r.shortDescription.text), `${r.id}: ${r.shortDescription.text}`);
    }
  });
});
