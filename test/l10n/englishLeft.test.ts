// English left in Simplified Chinese output (issue #29): everything a person reads in zh-cn, made the way it is made
// for them (the rule fixtures' findings with their related notes and fix titles, every hover fixture, and the CLI's
// `check` in text and JSON, `dns`, `trace` and `reach` over examples/ and the Kustomize, Helm and CLI fixtures with the
// pinned helm), must hold no run of three or more English words once what legitimately stays English is cut out
// (test/helpers/englishLeft.ts says what and why). A message added in English only, or a sentence built from English
// words outside the catalogue, fails here with the run and where it was read.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { hoverAt } from '../../server/src/features/hover';
import { bundleOf, format, messages, phrase, say } from '../../server/src/l10n/l10n';
import { checkSvg } from '../../client/src/svgCheck';
import { repoRoot, runCli } from '../cli/builtCli';
import { findingsOf } from '../helpers/checkDiagnostics';
import { englishLeft, englishRunsIn } from '../helpers/englishLeft';
import { cursorIn, loadFixture, parseFixture } from '../helpers/fixture';
import { tempDir } from '../helpers/tempDirs';

const zh = { locale: 'zh-cn' as const };
const helm = join(repoRoot, '.tools', 'helm', 'helm');
/** The folders `check` reads besides examples/: Kustomize builds and their failures, Helm charts, the CLI's own cases. */
const checked = ['examples', ...['cli', 'kustomize', 'helm', 'analysis', 'lsp', 'e2e', 'hover'].map((d) => `test/fixtures/${d}`)];

function noEnglishLeft(texts: Iterable<{ readonly where: string; readonly text: string }>): void {
  const runs = englishRunsIn(texts);
  assert.equal(runs.length, 0, `English left in zh-cn output (${runs.length}):\n${runs.join('\n')}`);
}

describe('the English-left detector', () => {
  it('finds a planted English sentence in a Chinese message', () => {
    const text = 'Service "web" 的选择算符 app: web 与任何 Pod 都不匹配，and this sentence was never translated。';
    assert.deepEqual(englishLeft(text), ['and this sentence was never translated']);
  });

  it('finds a template the catalogue does not translate, as the product would show it', () => {
    const shown = say(phrase('Nobody has translated the port {0} of this Service yet.', 8080), messages('zh-cn'));
    assert.equal(shown, 'Nobody has translated the port 8080 of this Service yet.');
    assert.deepEqual(englishLeft(shown), ['Nobody has translated the port']);
    assert.throws(() => noEnglishLeft([{ where: 'planted', text: shown }]), /planted: «Nobody has translated the port»/);
  });

  it('finds English joined to Chinese and English in a hover section', () => {
    assert.deepEqual(englishLeft('**端点** 2 个就绪 Pod，no pods are ready yet'), ['no pods are ready yet']);
    assert.deepEqual(englishLeft('- 在发布 api 中 rendered as written'), ['rendered as written']);
  });

  it('leaves what stays English: codes, kinds, fields, names, paths, commands and tools’ own words', () => {
    const kept = [
      'examples/api.yaml:12:3: warning service-selector-no-match: 选择算符 release: stabel, app: frontend 与名字空间 "shop" 中的任何 Pod 模板都不匹配',
      '    examples/frontend.yaml:8:5: note: Deployment "frontend" 的 Pod 模板标签',
      'web-0.nginx.default.svc.cluster.local 只在 Pod 就绪时解析；运行 `kube-netlens trace shop/api` 查看 spec.ports[0].targetPort 的去向',
      'spec.ports[0].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP" — 协议名称区分大小写',
      'spec.hostname: Invalid value: "worker-a": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character — hostname 是 Pod 的 DNS 名称中的第一个标签',
      'spec.template.metadata.labels: Invalid value——`selector` does not match template `labels`：选择算符（app=api）选不中这个 Deployment 自己的 Pod',
      'chart worker（values.yaml）的 helm template 失败，helm 的输出如下：\n    Error: execution error at (worker/templates/deployment.yaml:18:25): queue.url is required\n    Use --debug flag to render out invalid YAML',
      'YAML 语法错误（解析器原文）：Flow sequence in block collection must be sufficiently indented',
      'HTTPRoute "shop" 的第 1 条规则：该后端无效（ResolvedRefs: False），匹配的请求会得到 HTTP 500；见 https://gateway-api.sigs.k8s.io/reference/spec/#backendref',
      'allowed: shop/web[Deployment] => shop/api[Deployment] : All Connections',
      '[追踪此 Service](command:kubeNetlens.traceService?%5B%22shop%22%2C%22api%22%5D)',
    ];
    for (const text of kept) assert.deepEqual(englishLeft(text), [], text);
  });
});

describe('Simplified Chinese output has no English left', () => {
  it('in every rule fixture: messages, related notes and quick-fix titles', () => {
    const root = join(__dirname, '..', 'fixtures', 'rules');
    const texts: { where: string; text: string }[] = [];
    for (const code of readdirSync(root).sort()) {
      for (const file of readdirSync(join(root, code)).filter((f) => f.endsWith('.yaml'))) {
        const where = `rules/${code}/${file}`;
        for (const f of findingsOf(loadFixture(join(root, code, file)), zh)) {
          texts.push({ where: `${where} ${f.code}`, text: f.message });
          for (const r of f.related ?? []) texts.push({ where: `${where} ${f.code} related`, text: r.message });
          for (const x of f.fixes ?? []) texts.push({ where: `${where} ${f.code} fix`, text: x.title });
        }
      }
    }
    assert.ok(texts.length > 500, `only ${texts.length} texts`);
    noEnglishLeft(texts);
  });

  it('in every hover fixture', () => {
    const dir = join(__dirname, '..', 'fixtures', 'hover');
    const texts: { where: string; text: string }[] = [];
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.yaml'))) {
      const raw = parseFixture(readFileSync(join(dir, f), 'utf8'), 'file:///fixture/', f);
      const withCursor = raw.sources.find((s) => s.text.includes('$0'))!;
      const { text, offset } = cursorIn(withCursor.text);
      const sources = raw.sources.map((s) => (s === withCursor ? { uri: s.uri, text } : s));
      const hover = hoverAt(analyzeTexts(sources, zh), withCursor.uri, offset);
      assert.ok(hover, `no hover in ${f}`);
      texts.push({ where: `hover/${f}`, text: hover.markdown });
    }
    noEnglishLeft(texts);
  });

  it('in `check` over examples/ and the Kustomize, Helm and CLI fixtures, as text (with the stderr notes) and JSON', () => {
    assert.ok(existsSync(helm), `the pinned helm is missing: ${helm}`);
    const args = ['check', ...checked, '--lang', 'zh-cn', '--helm', helm, '--fail-on', 'never'];
    const text = runCli(args);
    assert.equal(text.status, 0, text.stderr);
    const json = runCli([...args, '--format', 'json']);
    assert.equal(json.status, 0, json.stderr);
    const diagnostics = (JSON.parse(json.stdout) as { diagnostics: { file: string; code: string; message: string }[] }).diagnostics;
    assert.ok(diagnostics.length > 100, `only ${diagnostics.length} findings`);
    noEnglishLeft([
      // one finding (with its notes) per block of the text output
      ...text.stdout.split(/\n[ \t]*\n/).map((block, i) => ({ where: `check text block ${i + 1}`, text: block })),
      ...text.stderr.split('\n').map((line) => ({ where: 'check stderr', text: line })),
      ...diagnostics.map((d) => ({ where: `check json ${d.file} ${d.code}`, text: d.message })),
    ]);
  });

  it('in `dns`, `trace` and `reach` over examples/', () => {
    const records = (
      JSON.parse(runCli(['dns', 'examples', '--format', 'json']).stdout) as { records: { resource?: { kind: string; namespace: string; name: string } }[] }
    ).records;
    const services = [...new Set(records.flatMap((r) => (r.resource?.kind === 'Service' ? [`${r.resource.namespace}/${r.resource.name}`] : [])))];
    assert.ok(services.length >= 4, services.join(', '));
    const runs: { where: string; args: string[] }[] = [
      { where: 'dns', args: ['dns', 'examples'] },
      { where: 'dns --all', args: ['dns', 'examples', '--all'] },
      ...services.map((s) => ({ where: `trace ${s}`, args: ['trace', s, 'examples'] })),
      { where: 'trace gateway', args: ['trace', 'gateway/shop/shop-gateway', 'examples'] },
      { where: 'trace httproute', args: ['trace', 'httproute/shop/shop', 'examples'] },
      { where: 'reach', args: ['reach', 'examples'] },
      { where: 'reach frontend → api', args: ['reach', 'examples', '--from', 'shop/frontend', '--to', 'shop/api', '--port', '8080'] },
      { where: 'reach external → api', args: ['reach', 'examples', '--from', 'external', '--to', 'shop/api'] },
    ];
    const texts: { where: string; text: string }[] = [];
    for (const r of runs) {
      const out = runCli([...r.args, '--lang', 'zh-cn']);
      assert.ok(out.status === 0 || out.status === 1, `${r.where}: exit ${out.status}\n${out.stderr}`);
      assert.ok(out.stdout.trim(), `${r.where}: no output`);
      texts.push(...out.stdout.split('\n').map((line) => ({ where: r.where, text: line })));
      texts.push(...out.stderr.split('\n').map((line) => ({ where: `${r.where} stderr`, text: line })));
    }
    noEnglishLeft(texts);
  });

  it('in the Kustomize failures the native renderer words (test/fixtures/l10n/kustomize: one broken kustomization each)', () => {
    const dir = join(repoRoot, 'test', 'fixtures', 'l10n', 'kustomize');
    const cases = readdirSync(dir).sort();
    const out = runCli(['check', dir, '--lang', 'zh-cn', '--format', 'json', '--fail-on', 'never']);
    assert.equal(out.status, 0, out.stderr);
    const failed = (JSON.parse(out.stdout) as { diagnostics: { file: string; code: string; message: string }[] }).diagnostics.filter(
      (d) => d.code === 'kustomize-render-failed',
    );
    // every case is met: each folder's build fails, in the translated frame, with a reason of its own
    assert.deepEqual([...new Set(failed.map((d) => d.file.slice(dir.length + 1).split('/')[0]))].sort(), cases);
    for (const d of failed) assert.match(d.message, /^Kustomize 构建失败：/, d.message);
    assert.equal(new Set(failed.map((d) => d.message)).size, cases.length, failed.map((d) => d.message).join('\n'));
    noEnglishLeft(failed.map((d) => ({ where: `check json ${d.file}`, text: d.message })));
  });

  it('in the errors of an invalid .kube-netlens.yaml and the notes on files passed over', () => {
    const dir = tempDir('kube-netlens-english-left-config-');
    writeFileSync(join(dir, 'web.yaml'), 'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\nspec:\n  ports: [{port: 80}]\n');
    writeFileSync(
      join(dir, '.kube-netlens.yaml'),
      [
        'rules: {no-such-code: error, service-selector-empty: loud}',
        'files: {include: "deploy/*.yaml", exclude: ["{a,b"]}',
        'kustomize: {path: /usr/bin/kustomize, loadRestrictor: open}',
        'helm:',
        '  releases:',
        '  - {chart: charts/web}',
        '  - {chart: charts/web, name: Web_Release, namespace: Shop, set: [replicas]}',
        'clusterDomain: "bad_domain"',
        'defaultNamespace: Shop',
        'nodePortRange: "30000"',
        'ingressController: {namespace: ingress-nginx, podLabels: {app: 1}}',
        'ignore:',
        '- {code: service-selector-empty}',
        '- {code: no-such-code, name: "{x", reason: typo}',
        'timeout: 3',
        '',
      ].join('\n'),
    );
    const out = runCli(['check', dir, '--lang', 'zh-cn']);
    assert.equal(out.status, 2, out.stdout);
    const lines = out.stderr.split('\n').filter((l) => l.includes('.kube-netlens.yaml:'));
    assert.ok(lines.length >= 15, `only ${lines.length} errors:\n${out.stderr}`);
    noEnglishLeft(out.stderr.split('\n').map((line) => ({ where: 'config errors', text: line })));
    // a link out of the folder checked is named and passed over, never read
    const outside = tempDir('kube-netlens-english-left-outside-');
    writeFileSync(join(outside, 'secret.yaml'), 'kind: ConfigMap\n');
    // (in a folder of its own: the config file above applies to the folder it is in)
    const inside = join(tempDir('kube-netlens-english-left-links-'), 'links');
    mkdirSync(inside);
    symlinkSync(join(outside, 'secret.yaml'), join(inside, 'secret.yaml'));
    const skipped = runCli(['check', inside, '--lang', 'zh-cn']);
    assert.match(skipped.stderr, /已跳过：.*secret\.yaml 指向工作区之外，不予读取/);
    noEnglishLeft(skipped.stderr.split('\n').map((line) => ({ where: 'check stderr (link outside)', text: line })));
  });

  it('in `dns --format json`: the answers the manifests do not fix, with the English kept in englishAnswer', () => {
    type Answer = { name: string; type: string; answer: string; englishAnswer?: string };
    const records = (args: string[]) => (JSON.parse(runCli(['dns', 'examples', '--all', '--format', 'json', ...args]).stdout) as { records: Answer[] }).records;
    const english = records([]);
    const chinese = records(['--lang', 'zh-cn']);
    assert.ok(
      english.some((r) => r.answer.startsWith('<')),
      'examples/ has answers the manifests do not fix',
    );
    assert.ok(
      english.every((r) => !('englishAnswer' in r)),
      'English output is unchanged',
    );
    assert.deepEqual(
      chinese.map((r) => r.englishAnswer),
      english.map((r) => r.answer),
    );
    assert.ok(chinese.some((r) => r.answer !== r.englishAnswer));
    noEnglishLeft(chinese.map((r) => ({ where: `dns json ${r.name} ${r.type}`, text: r.answer })));
  });

  it('in the reasons a trace drawing is not saved as SVG', () => {
    const zhBundle = bundleOf('zh-cn');
    const l10n = { t: (m: string, ...args: (string | number)[]) => format(zhBundle.get(m) ?? m, args) };
    const refused = [
      '<svg><text>a\u0000b</text></svg>',
      '<svg><g></svg>',
      '<svg><g>',
      '<svg><script>alert(1)</script></svg>',
      '<svg onload="alert(1)"></svg>',
      '<svg><rect xlink:href="https://example.test/x.png"/></svg>',
      '<svg><rect style="fill:url(https://example.test/t.png)"/></svg>',
      '<svg><text>a & b</text></svg>',
      '<svg><rect width=10/></svg>',
      '<!DOCTYPE svg [<!ENTITY x "y">]><svg/>',
      '<svg/><svg/>',
      'text<svg/>',
      '<svg><rect a="1" a="2"/></svg>',
      '<!-- a -- b --><svg/>',
      '',
    ];
    const why = refused.map((svg) => ({ where: `svg ${JSON.stringify(svg)}`, text: checkSvg(svg, l10n) ?? 'accepted' }));
    assert.deepEqual(
      why.filter((w) => w.text === 'accepted' || !/[\u4e00-\u9fff]/.test(w.text)).map((w) => w.where),
      [],
    );
    noEnglishLeft(why);
  });

  it('in the notes and errors of `check` and `build`: suppressions, the baseline, bad paths and options', () => {
    const dir = tempDir('kube-netlens-english-left-');
    const service = (name: string, annotation: string) => `apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: shop
  annotations:
    kube-netlens.io/ignore: "${annotation}"
spec:
  selector: {app: operator-made}
  ports: [{port: 80}]
---
`;
    writeFileSync(
      join(dir, 'app.yaml'),
      service('web', 'service-selector-no-match: pods come from the operator') +
        service('api', 'service-selector-no-match, service-no-endpoints: made by the operator') +
        service('db', 'no-such-code: a typo') +
        service('cache', 'service-selector-no-match') +
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: nginx}]}\n',
    );
    const baseline = join(dir, 'baseline.json');
    const runs: { where: string; args: string[] }[] = [
      { where: 'check with suppressions', args: ['check', dir] },
      { where: 'write a baseline', args: ['check', 'examples', '--write-baseline', baseline] },
      { where: 'check with a stale baseline', args: ['check', dir, '--baseline', baseline] },
      { where: 'no such path', args: ['check', join(dir, 'missing')] },
      { where: 'no such baseline', args: ['check', dir, '--baseline', join(dir, 'none.json')] },
      { where: 'baseline not JSON', args: ['check', dir, '--baseline', join(dir, 'app.yaml')] },
      { where: 'no such helm', args: ['check', dir, '--helm', join(dir, 'no-helm')] },
      { where: 'no such kustomize', args: ['check', dir, '--kustomize', join(dir, 'no-kustomize')] },
      { where: 'no such config file', args: ['check', dir, '--config', join(dir, 'none.yaml')] },
      { where: 'build of a folder with neither', args: ['build', dir] },
      { where: 'build of no folder', args: ['build', join(dir, 'missing')] },
      { where: 'build of a chart helm fails on', args: ['build', join(repoRoot, 'test', 'fixtures', 'helm', 'failing'), '--helm', helm] },
    ];
    const texts: { where: string; text: string }[] = [];
    for (const r of runs) {
      const out = runCli([...r.args, '--lang', 'zh-cn']);
      assert.ok(out.stdout.trim() || out.stderr.trim(), `${r.where}: nothing printed`);
      texts.push(...out.stdout.split(/\n[ \t]*\n/).map((block) => ({ where: r.where, text: block })));
      // one note per entry: a note's indented lines (a tool's own output under its frame) stay with it
      texts.push(...out.stderr.split(/\n(?![ \t])/).map((note) => ({ where: `${r.where} stderr`, text: note })));
    }
    const all = texts.map((t) => t.text).join('\n');
    // the cases are met: an ignored finding counted, notes on the bad suppressions, the stale baseline entries listed
    assert.match(all, /已忽略 \d+ 个问题/);
    assert.match(all, /ignore-invalid/);
    assert.match(all, /ignore-unused/);
    assert.match(all, /个基线条目不再与任何问题匹配/);
    assert.match(all, /的 helm template 失败，helm 的输出如下/);
    noEnglishLeft(texts);
  });
});
