// The trace of a Service in Simplified Chinese (features/traceGraph.ts, traceClient.ts, packetPath.ts, traceText.ts):
// the boxes' details, the client's verdicts and the packet path are Chinese with the analysis locale zh-cn, and the
// English trace is unchanged by it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { traceResultFor } from '../../server/src/features/traceResult';
import type { Locale } from '../../server/src/l10n/l10n';
import type { TraceClient } from '../../server/src/protocol';

const shop = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: main
          image: nginx
          ports: [{name: http, containerPort: 8080}]
          readinessProbe: {httpGet: {path: /, port: http}}
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

function traceText(locale?: Locale, client?: TraceClient): string {
  const analysis = analyzeTexts([{ uri: 'shop.yaml', text: shop }], locale ? { locale } : {});
  const trace = traceResultFor(analysis, { namespace: 'shop', name: 'web', ...(client ? { client } : {}) });
  assert.ok(trace);
  return trace.text;
}

/** Lines still holding an English sentence: a common word of English prose, outside names, places, arrows and fields. */
function englishLines(text: string): string[] {
  const english = /\b(the|because|is|are|not|no|of|and|or|to|from|in|by|any|every|its|it|only|when|on|at)\b/i;
  return text.split('\n').filter((line) =>
    english.test(
      line
        .replace(/\S*[./:]\S*/g, ' ')
        .replace(/\S+-\S+/g, ' ')
        .replace(/"[^"]*"/g, ' ')
        .replace(/\b(ingress|egress|kube-proxy \(iptables\)|targetPort \w+)\b/g, ' ')
        .replace(/\b(warning|error|information|hint) [a-z0-9-]+:/g, ' '),
    ),
  );
}

const gateway = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: shop}
spec:
  gatewayClassName: envoy
  listeners: [{name: http, port: 80, protocol: HTTP, hostname: shop.example.com}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: site, namespace: shop}
spec:
  parentRefs: [{name: edge}]
  hostnames: [shop.example.com]
  rules:
    - matches: [{path: {type: PathPrefix, value: /}}]
      backendRefs: [{name: web, port: 80}]
`;

describe('the Service trace in zh-cn', () => {
  const client: TraceClient = { kind: 'workload', namespace: 'shop', workloadKind: 'Deployment', name: 'client' };

  it('words every box, the packet path and the headings in Chinese', () => {
    const zh = traceText('zh-cn');
    assert.match(
      zh,
      /\n {2}web\n {6}供名字空间 shop 中的 Pod 使用（解析器会补上 shop\.svc\.cluster\.local）。\n {6}从其他名字空间访问：web\.shop\n {6}无论是否有 Pod 就绪，始终解析为集群 IP。\n/,
    );
    assert.match(zh, /这些 Pod 受就绪态探针把关：在探针通过之前，它们既不接收流量，也不会出现在 DNS 应答中。/);
    assert.match(zh, /容器 "main" 把 8080\/TCP 声明为 "http"。/);
    assert.match(
      zh,
      /\[仅限允许的对端\] NetworkPolicy web-in （有条件）\n {14}为入站选中了这些 Pod：只有其规则允许的连接才能通过。\n {14}规则 1：来自 1 个对端选择算符，端口 8080\/TCP。/,
    );
    assert.match(zh, /\n数据包路径，跨节点（flannel-vxlan）：\n {2}1\. DNS 查询：应用向 CoreDNS（kube-system 中的 Service kube-dns）查询 "web"/);
    assert.match(zh, /容器端口 8080：在端口 8080 上侦听的进程接受连接；应答沿原路返回，并由 conntrack 撤销 DNAT。/);
    assert.deepEqual(englishLines(zh), []);
  });

  it("words the client's verdicts and its egress in Chinese", () => {
    const zh = traceText('zh-cn', client);
    assert.match(
      zh,
      /^Service shop\/web\n客户端：✓ 来自shop\/client \(Deployment\)：1 个端点组中有 1 个允许此连接。\n {2}Deployment web: 允许 — ingress：shop\/web-in 规则 1 （shop\.yaml 第 \d+ 行）\n/,
    );
    assert.match(zh, /没有任何 NetworkPolicy 限制它的出站。/);
    assert.match(zh, /✓ 来自shop\/client \(Deployment\)：在 8080\/TCP 上允许。/);
    assert.deepEqual(englishLines(zh), []);
  });

  it('keeps the English trace as it was', () => {
    const en = traceText(undefined, client);
    assert.match(
      en,
      /^Service shop\/web\nClient: ✓ From shop\/client \(Deployment\): 1 of 1 endpoint group admits the connection\.\n {2}Deployment web: allowed — ingress: shop\/web-in rule 1 \(shop\.yaml line \d+\)\n/,
    );
    assert.match(en, /\n {6}From pods in namespace shop \(the resolver adds shop\.svc\.cluster\.local\)\.\n/);
    assert.match(en, /Rule 1: from 1 peer selector on 8080\/TCP\./);
    assert.match(
      en,
      /\n {2}8\. container port 8080: The process listening on port 8080 accepts the connection; replies retrace the path and conntrack undoes the DNAT\.\n/,
    );
  });

  it("words the Gateway's listener, route and backend boxes in Chinese", () => {
    const trace = (locale?: Locale) =>
      traceResultFor(
        analyzeTexts(
          [
            { uri: 'shop.yaml', text: shop },
            { uri: 'gateway.yaml', text: gateway },
          ],
          locale ? { locale } : {},
        ),
        { kind: 'Gateway', namespace: 'shop', name: 'edge' },
      )!.text;
    const zh = trace('zh-cn');
    assert.match(
      zh,
      /^Gateway shop\/edge\n\n侦听器：\n {2}edge · http 80\/HTTP shop\.example\.com\n {6}Gateway shop\/edge（类 envoy） 在 80\/HTTP 上为 shop\.example\.com 侦听。\n {6}接受来自名字空间 shop 的 HTTPRoute, GRPCRoute。\n {6}接受工作区中的 1 条路由。\n/,
    );
    assert.match(
      zh,
      /HTTPRoute site · 规则 1\n {8}匹配 PathPrefix \/。\n {8}主机名 shop\.example\.com。\n {8}按权重把它的请求发往 1 个后端。\n {6}--> \[权重 1\] Service web 端口 80（100%）\n/,
    );
    assert.match(zh, /2 个端点。/);
    assert.deepEqual(englishLines(zh), []);
    assert.match(
      trace(),
      /\n {6}Gateway shop\/edge \(class envoy\) listens on 80\/HTTP for shop\.example\.com\.\n {6}Admits HTTPRoute, GRPCRoute from namespace shop\.\n {6}Accepts 1 route of the workspace\.\n/,
    );
  });

  it("words an Istio Gateway's servers, route blocks and destinations in Chinese", () => {
    const dir = join(__dirname, '..', 'fixtures', 'e2e', 'istio');
    const sources = ['gateway.yaml', 'shop.yaml', 'ingressgateway.yaml'].map((f) => ({ uri: `file:///w/${f}`, text: readFileSync(join(dir, f), 'utf8') }));
    const trace = (locale?: Locale) =>
      traceResultFor(analyzeTexts(sources, locale ? { locale } : {}), { kind: 'IstioGateway', namespace: 'shop', name: 'public' })!.text;
    const zh = trace('zh-cn');
    assert.match(
      zh,
      /Istio Gateway shop\/public（网关 Pod：istio=ingressgateway）在 8080\/HTTP 上为 shop\.example\.com 侦听。\n {6}应用工作区中的 1 个 VirtualService。/,
    );
    assert.match(zh, /1 个目标，其中 1 个指向不存在的 Service（503）。/);
    assert.match(
      zh,
      /http\[1\]\.route\[0\]：把请求发送到 web\.shop 端口 80。\n {10}Istio 不会补全这个名称：请写成 web\.shop\.svc\.cluster\.local（否则返回 503）。/,
    );
    // a finding quoted in a box is the rule's message (in Chinese, quoting Envoy's "no cluster"); every other line is Chinese
    const finding = /^\s*(error|warning|information|hint) [a-z-]+: /;
    assert.ok(
      zh.split('\n').some((l) => finding.test(l) && /路由到主机/.test(l)),
      'the finding is in Chinese',
    );
    assert.deepEqual(
      englishLines(zh).filter((l) => !finding.test(l)),
      [],
    );
    const en = trace();
    assert.match(
      en,
      /Istio Gateway shop\/public \(gateway pods istio=ingressgateway\) listens on 8080\/HTTP for shop\.example\.com\.\n {6}Applies 1 VirtualService of the workspace\./,
    );
    assert.match(en, /1 destination, 1 of them to no Service \(503\)\./);
  });
});
