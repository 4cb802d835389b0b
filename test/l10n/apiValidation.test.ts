// api-validation's messages in the analysis locale (issue #29): the field path and the reason stay as the API server
// prints them, in English, and what it means in practice is worded in the reader's language; English is unchanged.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import type { Locale } from '../../server/src/l10n/l10n';

const manifest = `apiVersion: v1
kind: Service
metadata: {name: api}
spec:
  selector: {app: api}
  ports:
    - port: 80
      protocol: tcp
    - port: "eighty"
---
apiVersion: v1
kind: Service
metadata: {name: empty}
spec:
  selector: {app: api}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: api, image: api, ports: [{name: http_web, containerPort: 8080}]}]}
`;

function findings(locale?: Locale) {
  const a = analyzeTexts([{ uri: 'file:///w/app.yaml', text: manifest }], locale ? { locale } : {});
  return diagnosticsFor(a).filter((f) => f.code === 'api-validation');
}

/** Each mistake: the path and reason as the API server words them, then the explanation in English and in Chinese. */
const expected: readonly { readonly reason: string; readonly en: string; readonly zh: string }[] = [
  {
    reason: 'spec.ports[0].name: Required value',
    en: 'a Service with more than one port must name every port',
    zh: '有多个端口的 Service 必须为每个端口命名',
  },
  {
    reason: 'spec.ports[0].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"',
    en: 'values are case-sensitive; write TCP',
    zh: '取值区分大小写；请写作 TCP',
  },
  {
    reason: 'spec.ports[1].port: Invalid type',
    en: 'must be an integer, but "eighty" is a string; the API server cannot decode the object',
    zh: '必须是整数，但值 "eighty" 是字符串；API 服务器无法解码该对象',
  },
  {
    reason: 'spec.ports: Required value',
    en: 'a Service with a cluster IP needs at least one port; only headless (clusterIP: None) and ExternalName Services may omit ports',
    zh: '有集群 IP 的 Service 至少需要一个端口；只有无头（clusterIP: None）和 ExternalName 类型的 Service 可以省略端口',
  },
  {
    reason: 'spec.template.spec.containers[0].ports[0].name: Invalid value: "http_web": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    en: "a container port name is what a Service's targetPort refers to: at most 15 lower-case letters, digits and single hyphens, with at least one letter",
    zh: '容器端口名称是 Service 的 targetPort 所引用的名称：最多 15 个小写字母、数字和单个连字符，且至少包含一个字母',
  },
];

describe('api-validation in zh-cn', () => {
  const en = findings().map((f) => f.message);
  const zh = findings('zh-cn').map((f) => f.message);

  it('finds the same mistakes in both locales', () => {
    assert.equal(zh.length, en.length);
    assert.ok(en.length >= expected.length, en.join('\n'));
  });

  for (const e of expected) {
    it(`keeps the API server's English and explains in Chinese: ${e.reason}`, () => {
      assert.ok(en.includes(`${e.reason} — ${e.en}`), en.join('\n'));
      assert.ok(zh.includes(`${e.reason} — ${e.zh}`), zh.join('\n'));
    });
  }

  it('words every explanation in Chinese, and every reason as in English', () => {
    const reasons = (ms: readonly string[]) => ms.map((m) => m.split(' — ')[0]).sort();
    assert.deepEqual(reasons(zh), reasons(en));
    for (const m of zh) {
      const why = m.split(' — ')[1];
      if (why !== undefined) assert.match(why, /[\u4e00-\u9fff]/, m);
    }
  });

  it('titles the fixes in Chinese', () => {
    const titles = findings('zh-cn').flatMap((f) => (f.fixes ?? []).map((x) => x.title));
    assert.ok(titles.includes('将此端口命名为 "http"'), titles.join('\n'));
    const enTitles = findings().flatMap((f) => (f.fixes ?? []).map((x) => x.title));
    assert.ok(enTitles.includes('Name this port "http"'), enTitles.join('\n'));
  });
});
