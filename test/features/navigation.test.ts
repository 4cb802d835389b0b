// Definition, references, completion, code lenses and code actions over small `$0` fixtures.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { codeActionsAt } from '../../server/src/features/codeActions';
import { codeLensesFor } from '../../server/src/features/codeLenses';
import { completionAt } from '../../server/src/features/completion';
import { definitionAt } from '../../server/src/features/definition';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { referencesAt } from '../../server/src/features/references';
import { cursorIn, parseFixture } from '../helpers/fixture';

const workspace = `# file: svc.yaml
apiVersion: v1
kind: Service
metadata: {name: nginx, namespace: web}
spec:
  clusterIP: None
  selector: {app: nginx}
  ports: [{name: http, port: 80, targetPort: web}]
---
apiVersion: v1
kind: Service
metadata: {name: api, namespace: web}
spec:
  selector: {app: api}
  ports: [{name: http, port: 80}]
# file: sts.yaml
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: site, namespace: web}
spec:
  serviceName: nginx
  replicas: 3
  selector: {matchLabels: {app: nginx}}
  template:
    metadata:
      labels: {app: nginx}
    spec:
      containers:
      - name: nginx
        image: nginx
        ports: [{name: web, containerPort: 8080}]
        env:
        - {name: UPSTREAM, value: "http://api.web:80/v1"}
# file: ing.yaml
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: site, namespace: web}
spec:
  defaultBackend:
    service:
      name: nginx
      port: {name: http}
`;

/** The analysis of the workspace with `$0` placed at `needle` + `delta` in file `name`. */
function at(name: string, needle: string, delta: number, text = workspace) {
  const fx = parseFixture(text);
  const src = fx.sources.find((s) => s.uri.endsWith(name))!;
  const i = src.text.indexOf(needle);
  assert.ok(i >= 0, needle);
  const { text: clean, offset } = cursorIn(src.text.slice(0, i + delta) + '$0' + src.text.slice(i + delta));
  const sources = fx.sources.map((s) => (s === src ? { uri: s.uri, text: clean } : s));
  return { analysis: analyzeTexts(sources), uri: src.uri, offset, text: clean, sources };
}

const where = (locs: readonly { uri: string; span: { start: number } }[], sources: readonly { uri: string; text: string }[]) =>
  locs.map((l) => {
    const t = sources.find((s) => s.uri === l.uri)!.text;
    return `${l.uri.split('/').pop()}:${t.slice(l.span.start).split('\n')[0]}`;
  });

describe('definition', () => {
  it('serviceName → the Service', () => {
    const c = at('sts.yaml', 'serviceName: nginx', 14);
    assert.deepEqual(where(definitionAt(c.analysis, c.uri, c.offset), c.sources), ['svc.yaml:nginx, namespace: web}']);
  });
  it('selector → the selected pod template labels', () => {
    const c = at('svc.yaml', 'app: nginx', 6);
    assert.deepEqual(where(definitionAt(c.analysis, c.uri, c.offset), c.sources), ['sts.yaml:app: nginx}']);
  });
  it("a Service port's targetPort or name → the container port it resolves to, one per workload", () => {
    const onTarget = at('svc.yaml', 'targetPort: web', 13);
    assert.deepEqual(where(definitionAt(onTarget.analysis, onTarget.uri, onTarget.offset), onTarget.sources), ['sts.yaml:web, containerPort: 8080}]']);
    const onName = at('svc.yaml', 'name: http, port: 80, targetPort: web', 7);
    assert.deepEqual(where(definitionAt(onName.analysis, onName.uri, onName.offset), onName.sources), ['sts.yaml:web, containerPort: 8080}]']);
  });
  it('Ingress backend port → the Service port', () => {
    const c = at('ing.yaml', 'name: http', 7);
    assert.deepEqual(where(definitionAt(c.analysis, c.uri, c.offset), c.sources), ['svc.yaml:{name: http, port: 80, targetPort: web}]']);
  });
  it('a host name in an env value → the Service it resolves to', () => {
    const c = at('sts.yaml', 'api.web', 1);
    assert.deepEqual(where(definitionAt(c.analysis, c.uri, c.offset), c.sources), ['svc.yaml:api, namespace: web}']);
  });
});

describe('references', () => {
  it('a Service → StatefulSets, Ingress backends and its declaration', () => {
    const c = at('svc.yaml', 'name: nginx', 7);
    assert.deepEqual(where(referencesAt(c.analysis, c.uri, c.offset, true), c.sources), [
      'svc.yaml:nginx, namespace: web}',
      'sts.yaml:nginx',
      'ing.yaml:nginx',
    ]);
  });
  it('a Service → host names in free text', () => {
    const c = at('svc.yaml', 'name: api', 7);
    assert.deepEqual(where(referencesAt(c.analysis, c.uri, c.offset, false), c.sources), ['sts.yaml:api.web:80/v1"}']);
  });
  it('pod template labels → the Services and workload selectors that select them', () => {
    const c = at('sts.yaml', 'labels: {app', 10);
    assert.deepEqual(where(referencesAt(c.analysis, c.uri, c.offset, false), c.sources), ['svc.yaml:{app: nginx}', 'sts.yaml:{matchLabels: {app: nginx}}']);
  });
});

describe('completion', () => {
  it("serviceName offers the namespace's Services, headless first", () => {
    const c = at('sts.yaml', 'serviceName: ', 13, workspace.replace('serviceName: nginx', 'serviceName: '));
    const items = completionAt(c.analysis, c.uri, c.text, c.offset).sort((a, b) => (a.sortText < b.sortText ? -1 : 1));
    assert.deepEqual(
      items.map((i) => `${i.label} (${i.detail})`),
      ['nginx (headless Service)', 'api (ClusterIP Service (not headless))'],
    );
  });
  it('targetPort offers the port names the selected containers declare', () => {
    const c = at(
      'svc.yaml',
      'targetPort: \n',
      12,
      workspace.replace('ports: [{name: http, port: 80, targetPort: web}]', 'ports:\n  - name: http\n    port: 80\n    targetPort: '),
    );
    assert.deepEqual(
      completionAt(c.analysis, c.uri, c.text, c.offset).map((i) => i.label),
      ['web'],
    );
  });
  it('selector keys offer labels that exist', () => {
    const c = at('svc.yaml', 'selector:\n    ', 14, workspace.replace('selector: {app: api}', 'selector:\n    '));
    const items = completionAt(c.analysis, c.uri, c.text, c.offset);
    assert.deepEqual(
      items.map((i) => i.label),
      ['app'],
    );
  });
});

describe('code lenses and code actions', () => {
  it('lenses summarise Services and name StatefulSet pods', () => {
    const c = at('svc.yaml', 'kind', 0);
    assert.deepEqual(
      codeLensesFor(c.analysis, c.uri).map((l) => l.title),
      ['3 endpoints · StatefulSet site ×3', 'Trace', 'no endpoints: selector matches no pods', 'Trace'],
    );
    const s = at('sts.yaml', 'kind', 0);
    assert.deepEqual(
      codeLensesFor(s.analysis, s.uri).map((l) => l.title),
      ['site-0…site-2.nginx'],
    );
  });
  it('a NetworkPolicy lens says what it selects, how many sources it admits and whether it limits egress', () => {
    const policies = `# file: np.yaml
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: api-in, namespace: shop}
spec:
  podSelector: {matchLabels: {tier: api}}
  policyTypes: [Ingress, Egress]
  ingress:
    - from: [{podSelector: {matchLabels: {app: web}}}, {podSelector: {matchLabels: {app: admin}}}]
  egress:
    - ports: [{port: 5432}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny, namespace: shop}
spec:
  podSelector: {matchLabels: {app: nothing}}
  policyTypes: [Ingress]
# file: apps.yaml
${['api', 'api2', 'web', 'admin', 'other']
  .map(
    (n) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${n}, namespace: shop}
spec:
  selector: {matchLabels: {app: ${n}}}
  template:
    metadata: {labels: {app: ${n}${n.startsWith('api') ? ', tier: api' : ''}}}
    spec: {containers: [{name: c, image: c}]}`,
  )
  .join('\n---\n')}
`;
    const p = at('np.yaml', 'kind', 0, policies);
    assert.deepEqual(
      codeLensesFor(p.analysis, p.uri).map((l) => l.title),
      ['selects 2 workloads · admits 2 · egress limited', 'selects 0 workloads · denies all ingress'],
    );
  });
  it('a StatefulSet lens never shows per-pod names that will not resolve (semantics §2.3)', () => {
    const typo = at('sts.yaml', 'kind', 0, workspace.replace('serviceName: nginx', 'serviceName: ngnix'));
    assert.deepEqual(
      codeLensesFor(typo.analysis, typo.uri).map((l) => l.title),
      ['no per-pod DNS names: no Service "ngnix"'],
    );
  });
  it('quick fixes come from findings overlapping the range, the preferred one first', () => {
    const c = at('sts.yaml', 'serviceName: ngnix', 13, workspace.replace('serviceName: nginx', 'serviceName: ngnix'));
    const findings = diagnosticsFor(c.analysis);
    const fixes = codeActionsAt(findings, c.uri, { start: c.offset, end: c.offset });
    assert.ok(fixes.length >= 1);
    assert.equal(fixes[0].fix.isPreferred, true);
    assert.equal(fixes[0].finding.code, 'statefulset-service-missing');
    assert.deepEqual(codeActionsAt(findings, c.uri, { start: 0, end: 1 }), []);
  });
});
