// Every hover, rendered with markdown-it (the renderer VS Code uses), over workspaces in which every field a hover shows
// holds an injection payload: links, autolinks, images, reference-style links, HTML tags and entities, backticks that
// try to leave a code span. The rendered HTML may hold no image, no raw HTML and no link but the product's own trace
// link, whose arguments decode to an existing Service.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import MarkdownIt from 'markdown-it';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { hoverAt } from '../../server/src/features/hover';

const payloads = [
  '[x](https://evil.test/a)',
  '![i](https://evil.test/t.png)',
  '<https://evil.test/auto>',
  'https://evil.test/linkify',
  'www.evil.test',
  '[r][1]\n\n[1]: https://evil.test/ref',
  '<img src=https://evil.test/h.png onerror=alert(1)>',
  '&lt;b&gt;&#x3C;script&#x3E;',
  '``` `` x',
  '`)[y](https://evil.test/b)`',
  ')](command:workbench.action.terminal.new)',
  '<b>bold</b>',
  '*a* _b_ __c__',
];

/** A YAML double-quoted scalar holding `s` exactly. */
const q = (s: string) => JSON.stringify(s);

function workspace(p: string): { uri: string; text: string }[] {
  const v = q(p);
  const svc = `apiVersion: v1
kind: Service
metadata:
  name: ${v}
  namespace: ${v}
spec:
  selector: {app: ${v}, ${q(`k${p}`)}: x}
  type: NodePort
  externalTrafficPolicy: ${v}
  sessionAffinity: ${v}
  publishNotReadyAddresses: true
  externalIPs: [${v}]
  ports:
  - {name: ${v}, port: 80, protocol: ${v}, targetPort: ${v}, appProtocol: ${v}}
  - {name: b, port: 81, protocol: TCP, targetPort: 8080}
---
apiVersion: v1
kind: Service
metadata: {name: ext, namespace: ${v}}
spec: {type: ExternalName, externalName: ${v}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: ${v}, namespace: ${v}}
spec:
  serviceName: ${v}
  selector: {matchLabels: {app: ${v}}}
  template:
    metadata: {labels: {app: ${v}, ${q(`k${p}`)}: x}}
    spec:
      hostname: ${v}
      subdomain: ${v}
      containers:
      - name: ${v}
        image: x
        ports: [{name: ${v}, containerPort: 8080, protocol: ${v}}]
        env: [{name: A, value: ${q(`http://${p}:80/`)}}, {name: B, value: ${q(`${p}.${p}.svc:80`)}}]
        args: [${q(`--peer=${p}-0.${p}`)}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: ${v}, namespace: ${v}}
spec:
  rules:
  - host: ${v}
    http:
      paths:
      - {path: ${q(`/${p}`)}, pathType: Prefix, backend: {service: {name: ${v}, port: {name: ${v}}}}}
      - {path: /b, pathType: Prefix, backend: {service: {name: ${q(`${p}x`)}, port: {number: 81}}}}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: ${v}, namespace: ${v}}
spec:
  podSelector: {matchLabels: {app: ${v}}}
  policyTypes: [${v}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ${v}}
data: {url: ${q(`${p}:80`)}, other: ${q(`${p}x.${p}`)}}
`;
  return [{ uri: 'file:///ws/hostile.yaml', text: svc }];
}

const renderer = new MarkdownIt({ html: false, linkify: true });
/** The tags markdown-it makes from the Markdown the product writes; anything else came from a manifest. */
const ownTags = new Set(['p', 'strong', 'em', 'code', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'ul', 'li', 'a', 'br']);

describe('hover Markdown with hostile manifest text', () => {
  it('renders no image, no HTML and no link except the trace link, at every offset of every payload workspace', () => {
    let hovers = 0;
    for (const p of payloads) {
      const sources = workspace(p);
      const analysis = analyzeTexts(sources);
      const services = new Set(analysis.cluster.services.map((s) => JSON.stringify([{ namespace: s.namespace, name: s.name }])));
      const text = sources[0].text;
      const seen = new Set<string>();
      for (let offset = 0; offset < text.length; offset++) {
        const h = hoverAt(analysis, sources[0].uri, offset);
        if (!h || seen.has(h.markdown)) continue;
        seen.add(h.markdown);
        hovers++;
        const html = renderer.render(h.markdown);
        const where = `payload ${JSON.stringify(p)} at offset ${offset}:\n${h.markdown}\n→ ${html}`;
        assert.ok(!/<img\b/i.test(html), `an image: ${where}`);
        for (const m of html.matchAll(/<\/?([a-zA-Z][\w-]*)/g)) assert.ok(ownTags.has(m[1].toLowerCase()), `a <${m[1]}> tag: ${where}`);
        for (const m of html.matchAll(/<a\b[^>]*href="([^"]*)"/g)) {
          const href = m[1].replace(/&amp;/g, '&');
          assert.ok(
            href.startsWith('command:kubeNetlens.traceService?') || href.startsWith('command:kubeNetlens.serviceDetails?'),
            `a link to ${href}: ${where}`,
          );
          const args = decodeURIComponent(href.slice(href.indexOf('?') + 1));
          assert.ok(services.has(args), `trace link arguments ${args} name an existing Service: ${where}`);
        }
      }
    }
    assert.ok(hovers > payloads.length * 8, `hovers shown: ${hovers}`);
  });
});
