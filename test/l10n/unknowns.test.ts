// The reasons why something is unknown (analysis/unknowns.ts, the suppliers of model/suppliers.ts), worded in the
// analysis locale: a dns-name-unresolved reason in zh-cn is Chinese through and through, and English is unchanged.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import type { Locale } from '../../server/src/l10n/l10n';

const yaml = (...docs: string[]) => docs.join('\n---\n');

const service = (name: string, ns: string, selector: string, headless = false) => `apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: ${ns}}
spec:
  selector: ${selector}${headless ? '\n  clusterIP: None' : ''}
  ports: [{port: 80}]`;

/** Each case: its files, the name asked from namespace `from`, a Chinese part and an English part of the reason. */
const cases: readonly {
  readonly title: string;
  readonly files: Record<string, string>;
  readonly name: string;
  readonly from: string;
  readonly zh: string;
  readonly en: string;
}[] = [
  {
    title: 'pods an operator makes',
    files: {
      'mq.yaml': yaml(
        service('mq', 'shop', '{app: mq}'),
        'apiVersion: rabbitmq.com/v1beta1\nkind: RabbitmqCluster\nmetadata: {name: mq, namespace: shop}\nspec: {replicas: 3}',
      ),
    },
    name: 'mq-0.mq.shop',
    from: 'shop',
    zh: '名字空间 "shop" 中的 RabbitmqCluster "mq"（rabbitmq.com/v1beta1）是定制资源，Operator 会把它转换为 Pod，这样的 Pod 可能就来自它',
    en: 'the RabbitmqCluster "mq" (rabbitmq.com/v1beta1) in namespace "shop" is a custom resource that an operator turns into pods, and such pods may come from it',
  },
  {
    title: 'a Service of a Helm release outside the manifests',
    files: {
      'sm.yaml':
        'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: adapter, namespace: observability, labels: {release: metrics}}\nspec:\n  selector: {matchLabels: {app: x}}\n  endpoints: [{port: https}]',
    },
    name: 'metrics-server.observability.svc',
    from: 'observability',
    zh: '带有 release: metrics，这是一个不在这些清单之内的 Helm release 的标签，而该 release 的 Service 都命名为 "metrics-…"',
    en: 'carries release: metrics, the label of a Helm release these manifests do not hold, and that release names its Services "metrics-…"',
  },
  {
    title: 'a deployer that applies manifests kept elsewhere',
    files: {
      'app.yaml': 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: shop, namespace: argocd}\nspec:\n  destination: {namespace: shop}',
      'svc.yaml': service('web', 'shop', '{app: web}'),
    },
    name: 'cart.shop',
    from: 'shop',
    zh: '它会把保存在别处的清单部署到名字空间 "shop"，这样的 Service 可能随它一起创建',
    en: 'is a custom resource that deploys manifests kept elsewhere into namespace "shop", and may come with such a Service',
  },
  {
    title: 'a namespace of routing only',
    files: {
      'ing.yaml':
        'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: edge, namespace: edge}\nspec:\n  rules: [{host: a.example.com, http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}}]',
    },
    name: 'web.edge',
    from: 'edge',
    zh: '清单在名字空间 "edge" 中没有 Service，也没有工作负载，只有路由，因此其中的应用是从别处部署的',
    en: 'the manifests hold no Service and no workload in namespace "edge", only routing, so its applications are deployed from elsewhere',
  },
  {
    title: 'a label the controller generates',
    files: {
      'svc.yaml':
        service('web', 'shop', '{pod-template-hash: abc}', true) +
        '\n---\n' +
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: other, namespace: shop}\nspec:\n  selector: {matchLabels: {app: other}}\n  template:\n    metadata: {labels: {app: other}}\n    spec: {containers: [{name: c, image: i}]}',
    },
    name: 'web.shop',
    from: 'shop',
    zh: '"pod-template-hash" 标签的值由控制器生成，任何清单都无从得知',
    en: 'the controller generates the value of the "pod-template-hash" label, so no manifest can know it',
  },
  {
    title: 'pod labels a tool fills in later',
    files: {
      'svc.yaml':
        service('web', 'shop', '{app: web}') +
        '\n---\n' +
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: other, namespace: shop}\nspec:\n  selector: {matchLabels: {app: "${APP}"}}\n  template:\n    metadata: {labels: {app: "${APP}"}}\n    spec: {containers: [{name: c, image: i}]}',
    },
    name: 'web-0.web.shop',
    from: 'shop',
    zh: 'Deployment "other" 的 Pod 标签由工具稍后填入（占位符），因此无法知道哪些 Pod 带有哪些标签',
    en: 'Deployment "other" has pod labels that a tool fills in later (placeholders), so which pods carry which labels is unknown',
  },
  {
    title: 'a chart without a render',
    files: { 'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 1.0.0', 'svc.yaml': service('other', 'shop', '{app: other}') },
    name: 'web.shop',
    from: 'shop',
    zh: '目录 "web" 中的 chart 没有渲染（原因见它的 Chart.yaml），而它可能定义了这个 Service',
    en: 'the chart in folder "web" is not rendered (its Chart.yaml says why), and it may define it',
  },
];

function reason(files: Record<string, string>, name: string, from: string, locale?: Locale): { unknown?: boolean; reason?: string } {
  const a = analyzeTexts(
    Object.entries(files).map(([uri, text]) => ({ uri, text })),
    locale ? { locale } : {},
  );
  return a.resolveName(name, from);
}

/** The prose of a reason: quoted names and the kind before them, code spans, label pairs, kinds and API versions removed. */
function prose(text: string): string {
  return text
    .replace(/\b[A-Z]\w*(?= ")/g, ' ')
    .replace(/"[^"]*"/g, ' ')
    .replace(/`[^`]*`/g, ' ')
    .replace(/[\w.-]+\/[\w.-]+/g, ' ')
    .replace(/release: \w+/g, ' ')
    .replace(/\b[A-Z][a-z]+[A-Z]\w*\b/g, ' ')
    .replace(/\b(Service|Pod|Helm|Operator|Deployment|Chart\.yaml|chart|release)\b/g, ' ');
}

describe('unknown reasons in zh-cn', () => {
  for (const c of cases) {
    it(c.title, () => {
      const en = reason(c.files, c.name, c.from);
      assert.equal(en.unknown, true, JSON.stringify(en));
      assert.ok(en.reason?.includes(c.en), en.reason);
      const zh = reason(c.files, c.name, c.from, 'zh-cn');
      assert.equal(zh.unknown, true, JSON.stringify(zh));
      assert.ok(zh.reason?.includes(c.zh), zh.reason);
      assert.doesNotMatch(prose(zh.reason!), /\b(the|because|is|are|not|and|may|so|that|it|its)\b|[a-z]{3,}/i, zh.reason);
    });
  }
});
