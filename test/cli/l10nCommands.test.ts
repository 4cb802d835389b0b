// The text of `dns`, `reach`, `trace` and `diff` in Simplified Chinese (docs/localization.md): with `--lang zh-cn`
// every heading and sentence is Chinese; names, codes, record types and np-guard's verdict words stay as they are,
// and the JSON keeps its keys and values of record.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildCli, runCli } from './builtCli';
import { tempDir } from '../helpers/tempDirs';

const shop = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: 8080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: main, image: nginx, ports: [{containerPort: 8080}]}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: client, namespace: shop}
spec:
  selector: {matchLabels: {app: client}}
  template:
    metadata: {labels: {app: client}}
    spec: {containers: [{name: main, image: curl}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: other, namespace: shop}
spec:
  selector: {matchLabels: {app: other}}
  template:
    metadata: {labels: {app: other}}
    spec: {containers: [{name: main, image: curl}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: shop}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {hostNetwork: true, containers: [{name: main, image: agent}]}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web-in, namespace: shop}
spec:
  podSelector: {matchLabels: {app: web}}
  policyTypes: [Ingress]
  ingress:
    - from: [{podSelector: {matchLabels: {app: client}}}]
      ports: [{port: 8080}]
`;

/** English prose left in a text: a common word of a sentence (names, codes and kinds have none of them). */
const englishWord = /\b(the|because|is|are|not|no|of|and|or|to|from|in|by|any|every|its|it|only|when)\b/i;

/** The lines of a text that still hold English prose, after names, places, record data and np-guard's words are taken out. */
function englishLines(text: string): string[] {
  return text.split('\n').filter((line) => {
    const prose = line
      .replace(/\S*[./:]\S*/g, ' ') // DNS names, places, refs (shop/web[Deployment]), ports (8080/TCP)
      .replace(/"[^"]*"/g, ' ')
      .replace(/\b(allowed|denied|unknown|All Connections|No Connections|TCP \d+|ingress|egress|external)\b/g, ' ') // np-guard's verdict line, directions
      .replace(/\b(warning|error|information|hint) [a-z0-9-]+:/g, ' '); // a finding's severity and code
    return englishWord.test(prose);
  });
}

describe('kube-netlens dns, reach, trace and diff in Simplified Chinese', () => {
  let dir: string;
  before(() => {
    buildCli();
    dir = tempDir('kube-netlens-l10n-');
    writeFileSync(join(dir, 'shop.yaml'), shop);
  });

  it("dns: the table's headings, conditions and answers are Chinese", () => {
    const en = runCli(['dns', dir]).stdout;
    assert.match(en, /^namespace shop\n {2}NAME +TYPE +ANSWER +RESOLVES +FROM\n/);
    assert.match(en, /<cluster IP of web, allocated when it is created> +always +Service web/);
    const zh = runCli(['dns', dir, '--lang', 'zh-cn']).stdout;
    assert.match(zh, /^名字空间 shop\n {2}名称 +类型 +应答 +何时可解析 +来源\n/);
    assert.match(zh, /web\.shop\.svc\.cluster\.local +A +<web 的集群 IP，创建时分配> +始终 +Service web/);
    assert.deepEqual(englishLines(zh), []);
    // the columns line up on a terminal, where a Chinese character takes two columns
    const width = (s: string) => [...s].reduce((n, c) => n + (/[\u3000-\u9fff\uff00-\uff60]/.test(c) ? 2 : 1), 0);
    const lines = zh.split('\n').filter((l) => l.startsWith('  '));
    const at = (l: string, word: string) => width(l.slice(0, l.indexOf(word)));
    assert.equal(new Set(lines.map((l) => at(l, l.includes('来源') ? '来源' : 'Service '))).size, 1, zh);
    // JSON (docs/localization.md): `answer` in the chosen language, the English answer kept in `englishAnswer`, the rest as in English
    type Records = { records: { answer: string; englishAnswer?: string }[] };
    const enJson = JSON.parse(runCli(['dns', dir, '--format', 'json']).stdout) as Records;
    const zhJson = JSON.parse(runCli(['dns', dir, '--format', 'json', '--lang', 'zh-cn']).stdout) as Records;
    assert.deepEqual(
      zhJson.records.map(({ englishAnswer, ...r }) => ({ ...r, answer: englishAnswer })),
      enJson.records,
    );
    assert.ok(zhJson.records.some((r) => r.answer === '<web 的集群 IP，创建时分配>'));
    assert.equal(runCli(['dns', join(dir, 'none'), '--lang', 'zh-cn']).stderr.length > 0, true);
  });

  it('reach: the reasons and notes of a verdict and of the connectivity list are Chinese', () => {
    const one = runCli(['reach', dir, '--from', 'shop/client', '--to', 'shop/web', '--lang', 'zh-cn']).stdout;
    assert.match(
      one,
      /^allowed: shop\/client\[Deployment\] => shop\/web\[Deployment\] : TCP 8080\n {2}ingress：NetworkPolicy shop\/web-in 的 ingress 规则 0 允许此连接 \(/,
    );
    const denied = runCli(['reach', dir, '--from', 'shop/other', '--to', 'shop/web', '--lang', 'zh-cn']).stdout;
    assert.match(denied, /ingress：NetworkPolicy shop\/web-in 在 ingress 方向上隔离了这些 Pod，且它没有任何规则允许此连接/);
    const open = runCli(['reach', dir, '--from', 'shop/web', '--to', 'shop/client', '--lang', 'zh-cn']).stdout;
    assert.match(open, /没有任何 NetworkPolicy 隔离任一端，因此所有连接都被允许/);
    const list = runCli(['reach', dir, '--lang', 'zh-cn']).stdout;
    assert.match(list, /\n未知（清单无法说明）：\n/);
    assert.match(
      runCli(['reach', dir, '--from', 'shop/agent', '--to', 'shop/web', '--lang', 'zh-cn']).stdout,
      /^unknown: shop\/agent\[DaemonSet\] => shop\/web\[Deployment\] : All Connections\n {2}未知，原因：DaemonSet "agent" 使用主机网络/,
    );
    assert.match(list, /shop\/agent\[DaemonSet\] : All Connections \(DaemonSet "agent" 使用主机网络，而 NetworkPolicy 没有规定如何对待使用主机网络的 Pod\)/);
    for (const text of [one, denied, open, list]) assert.deepEqual(englishLines(text), [], text);
    const bad = runCli(['reach', dir, '--from', 'shop/nothing', '--to', 'shop/web', '--lang', 'zh-cn']);
    assert.match(bad.stderr, /--from：给定的文件中没有工作负载 shop\/nothing；名字空间 shop 中有 /);
    assert.match(runCli(['reach', dir, '--port', '99999', '--lang', 'zh-cn']).stderr, /--port '99999' 不是 PORT 或 PORT\/PROTOCOL/);
    // JSON: the same keys and verdicts, the reason in the reader's words
    const en = JSON.parse(runCli(['reach', dir, '--format', 'json']).stdout) as { connections: { verdict: string; unknownBecause?: string }[] };
    const zh = JSON.parse(runCli(['reach', dir, '--format', 'json', '--lang', 'zh-cn']).stdout) as typeof en;
    assert.deepEqual(
      zh.connections.map((c) => [Object.keys(c), c.verdict]),
      en.connections.map((c) => [Object.keys(c), c.verdict]),
    );
    assert.ok(zh.connections.some((c) => c.unknownBecause?.includes('使用主机网络')));
  });

  it('trace: the headings, status marks and errors are Chinese', () => {
    const zh = runCli(['trace', 'shop/web', dir, '--lang', 'zh-cn']).stdout;
    assert.match(zh, /^Service shop\/web\n\n调用方：\n/);
    assert.match(zh, /\n\n路径：\n {2}Service web\n/);
    const en = runCli(['trace', 'shop/web', dir]).stdout;
    assert.match(en, /^Service shop\/web\n\nCallers:\n/);
    assert.match(en, /\n\nPath:\n {2}Service web\n/);
    assert.match(runCli(['trace', 'shop/wbe', dir, '--lang', 'zh-cn']).stderr, /给定的文件中没有 Service shop\/wbe；你是不是想写 shop\/web？/);
    assert.equal(runCli(['trace', 'shop/web', dir, '--format', 'json', '--lang', 'zh-cn']).status, 0);
  });

  it("diff: the headings, the findings' messages and the changes are Chinese", () => {
    const repo = tempDir('kube-netlens-l10n-diff-');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: repo, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'shop.yaml'), shop);
    git('add', '-A');
    git('commit', '-q', '-m', 'one');
    writeFileSync(join(repo, 'shop.yaml'), shop.replace('selector: {app: web}', 'selector: {app: wbe}'));
    const text = runCli(['diff', '--lang', 'zh-cn'], { cwd: repo });
    assert.equal(text.status, 0, text.stderr);
    assert.match(
      text.stdout,
      /^kube-netlens diff: 与 main 的合并基础 \([0-9a-f]{12}\) → 工作树\n\n新增的问题（1）\n {2}shop\.yaml:\d+: warning service-selector-no-match: 选择算符/,
    );
    assert.match(
      text.stdout,
      /\n修复的问题（0）\n未变的问题：0\n\n增加的 DNS 名称（0）\n删除的 DNS 名称（0）\n新增、删除或变化的 Service（1）\n {2}~ shop\/web: 1 个端点 → 0 个端点\n新增、删除或改指的路由（0）\nNetworkPolicy 可达性的变化（0）\n$/,
    );
    assert.deepEqual(englishLines(text.stdout), []);
    const markdown = runCli(['diff', '--lang', 'zh-cn', '--format', 'markdown'], { cwd: repo }).stdout;
    assert.match(markdown, /^### kube-netlens：新增 1 个，修复 0 个，未变 0 个\n/);
    assert.match(markdown, /\*\*新增\*\*\n\n- warning `service-selector-no-match`，位于 `shop\.yaml:\d+`：选择算符/);
    assert.match(markdown, /\*\*Service\*\*\n\n- `shop\/web`: 1 个端点 → 0 个端点/);
    const en = JSON.parse(runCli(['diff', '--format', 'json'], { cwd: repo }).stdout) as Record<string, unknown>;
    const zh = JSON.parse(runCli(['diff', '--format', 'json', '--lang', 'zh-cn'], { cwd: repo }).stdout) as Record<string, unknown>;
    assert.deepEqual(Object.keys(zh), Object.keys(en));
    assert.equal(zh.base, en.base, 'the JSON names the trees in English');
    assert.equal(zh.head, 'the working tree');
  });
});
