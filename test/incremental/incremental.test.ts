// Incremental diagnostics equal a from-scratch evaluation: after random edit sequences over a small multi-namespace
// workspace (labels, selectors, serviceNames, ports, DNS names in ConfigMaps, Endpoints and EndpointSlices,
// namespaces, Gateways, HTTPRoutes, ReferenceGrants and Secrets, pods with hostname and subdomain, custom resources (operator kinds that make pods, kinds that make none, a CRD with a pod template, a GitOps deployer), pods labelled under another key, short DNS names, rejected objects, per-pod selectors, files in
// sibling folders that become variants (by differing definitions or by controllers claiming each other's pods), workload fragments, deleted and new files, broken YAML), the findings of each snapshot, evaluated from the previous ones, equal those of every rule run once
// over the final texts, whatever the file order; the cluster built from the previous one equals one built afresh.
// Evaluations run in steps (as the server runs them) may be left half-way when an edit arrives, resumed later or
// never: every one that finishes equals a from-scratch evaluation of its own snapshot.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { analyzeTexts, type SourceText } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor, diagnosticsFromScratch, diagnosticsSteps } from '../../server/src/features/diagnostics';
import type { Cluster } from '../../server/src/model/cluster';
import type { Resource } from '../../server/src/model/resources';
import type { Finding } from '../../server/src/rules/finding';
import { createWorkspace } from '../../server/src/workspace/workspace';

const namespaces = ['shop', 'db', 'ops'];
const names = ['api', 'db', 'web'];
const apps = ['api', 'db', 'web', 'apii'];
const portNames = ['web', 'metrics', 'http'];

const ns = fc.constantFrom(...namespaces);
const name = fc.constantFrom(...names);
const app = fc.constantFrom(...apps);

// `1db` is a name the API server rejects (semantics §9.4); `pod` selects one StatefulSet pod by its controller label.
const service = fc
  .record({
    name: fc.constantFrom(...names, '1db'),
    ns,
    app,
    headless: fc.boolean(),
    port: fc.constantFrom(80, 8080),
    target: fc.constantFrom('web', 'http', '8080'),
    nodePort: fc.constantFrom(0, 0, 30001),
    noSelector: fc.constantFrom(false, false, false, true),
    pod: fc.constantFrom('', '', '', 'db-0', 'api-1'),
  })
  .map((s) =>
    [
      'apiVersion: v1',
      'kind: Service',
      `metadata: {name: ${s.name}, namespace: ${s.ns}}`,
      'spec:',
      ...(s.nodePort ? ['  type: NodePort'] : s.headless ? ['  clusterIP: None'] : []),
      ...(s.noSelector ? [] : [`  selector: {app: ${s.app}${s.pod ? `, statefulset.kubernetes.io/pod-name: ${s.pod}` : ''}}`]),
      `  ports: [{name: p, port: ${s.port}, targetPort: ${s.target}${s.nodePort ? `, nodePort: ${s.nodePort}` : ''}}]`,
    ].join('\n'),
  );

// Two workloads with the same app label in different files claim each other's pods (their parts become variants);
// one with a `tier` label too is claimed by the others but does not claim theirs (one app's components, one scope).
const workload = fc
  .record({
    kind: fc.constantFrom('Deployment', 'StatefulSet'),
    name,
    ns,
    app,
    tier: fc.constantFrom('', '', 'worker'),
    serviceName: fc.constantFrom('api', 'db', 'dbb', ''),
    portName: fc.constantFrom(...portNames),
    port: fc.constantFrom(80, 8080),
    // an ingress controller's image: the Ingresses' backends must admit its pods (ingress-backend-policy-blocked)
    image: fc.constantFrom('c', 'c', 'c', 'registry.k8s.io/ingress-nginx/controller:v1.11.2'),
  })
  .map((w) =>
    [
      'apiVersion: apps/v1',
      `kind: ${w.kind}`,
      `metadata: {name: ${w.name}, namespace: ${w.ns}}`,
      'spec:',
      ...(w.kind === 'StatefulSet' && w.serviceName ? [`  serviceName: ${w.serviceName}`] : []),
      `  selector: {matchLabels: {app: ${w.app}${w.tier ? `, tier: ${w.tier}` : ''}}}`,
      '  template:',
      `    metadata: {labels: {app: ${w.app}${w.tier ? `, tier: ${w.tier}` : ''}}}`,
      `    spec: {containers: [{name: c, image: ${w.image}, ports: [{name: ${w.portName}, containerPort: ${w.port}}]}]}`,
    ].join('\n'),
  );

const url = fc
  .record({
    svc: fc.constantFrom(...names, 'apj', 'db-0.db', 'h.db'),
    ns: fc.constantFrom(...namespaces, 'shopp'),
    port: fc.constantFrom(80, 8080, 5432),
    zone: fc.constantFrom('.cluster.local', ''),
    short: fc.constantFrom(false, false, true),
  })
  .map((u) => (u.short ? `http://${u.svc}.${u.ns}:${u.port}/x` : `http://${u.svc}.${u.ns}.svc${u.zone}:${u.port}/x`));
const configMap = fc
  .record({ name, ns, urls: fc.array(url, { minLength: 1, maxLength: 3 }) })
  .map((c) =>
    [
      'apiVersion: v1',
      'kind: ConfigMap',
      `metadata: {name: ${c.name}-config, namespace: ${c.ns}}`,
      'data:',
      ...c.urls.map((u, i) => `  URL_${i}: "${u}"`),
    ].join('\n'),
  );

// A pod with a hostname and subdomain (its per-pod name needs a headless Service or manual Endpoints elsewhere).
const pod = fc
  .record({ ns, app, sub: fc.constantFrom('api', 'db', 'h') })
  .map((p) =>
    [
      'apiVersion: v1',
      'kind: Pod',
      `metadata: {name: p-${p.app}, namespace: ${p.ns}, labels: {app: ${p.app}}}`,
      `spec: {hostname: h, subdomain: ${p.sub}, containers: [{name: c, image: c}]}`,
    ].join('\n'),
  );

const others = fc.oneof(
  pod,
  // A fragment merged into a live StatefulSet: no selector, no pod labels, no image.
  fc
    .record({ ns, name })
    .map(
      (f) =>
        `apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: ${f.name}, namespace: ${f.ns}}\nspec:\n  replicas: 0\n  template: {spec: {containers: [{name: c}]}}`,
    ),
  // A custom resource: an operator may make pods and Services from it (semantics §9.2).
  ns.map((n) => `apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ${n}}\nspec: {size: 1}`),
  // The evidence model's suppliers (model/suppliers.ts): an operator kind that makes pods, a kind that makes none, a
  // CRD that gives Widget a pod template, a deployer whose manifests land in a namespace.
  ns.map((n) => `apiVersion: rabbitmq.com/v1beta1\nkind: RabbitmqCluster\nmetadata: {name: mq, namespace: ${n}}`),
  fc
    .record({ ns, app })
    .map(
      (m) =>
        `apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: sm, namespace: ${m.ns}}\nspec: {selector: {matchLabels: {app: ${m.app}}}, endpoints: [{port: http}]}`,
    ),
  fc.constant(
    `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {containers: {type: array}}}}}}}]`,
  ),
  ns.map(
    (n) =>
      `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: app, namespace: argocd}\nspec: {destination: {namespace: ${n}}, source: {repoURL: x, path: y}}`,
  ),
  // Pods that carry the app under another key (a selector written with \`app\` is a swapped key).
  fc
    .record({ ns, app, name })
    .map(
      (w) =>
        `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${w.name}-k, namespace: ${w.ns}}\nspec:\n  selector: {matchLabels: {app.kubernetes.io/name: ${w.app}}}\n  template:\n    metadata: {labels: {app.kubernetes.io/name: ${w.app}}}\n    spec: {containers: [{name: c, image: i, env: [{name: PEER_URL, value: "http://${w.app}x:80/"}]}]}`,
    ),
  ns.map((n) => `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${n}, labels: {team: ${n}}}`),
  fc
    .record({ ns, app })
    .map(
      (p) =>
        `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: np, namespace: ${p.ns}}\nspec:\n  podSelector: {matchLabels: {app: ${p.app}}}\n  policyTypes: [Ingress]`,
    ),
  // Peers selecting pods here or in namespaces chosen by label: whether any workload is selected is kept as an answer.
  fc
    .record({ ns, app, peer: app, team: fc.constantFrom('', ...namespaces) })
    .map(
      (p) =>
        `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: np-peers, namespace: ${p.ns}}\nspec:\n  podSelector: {matchLabels: {app: ${p.app}}}\n  ingress:\n    - from:\n        - podSelector: {matchLabels: {app: ${p.peer}}}${p.team ? `\n          namespaceSelector: {matchLabels: {team: ${p.team}}}` : ''}`,
    ),
  fc
    .record({ ns, name, port: fc.constantFrom(80, 8080) })
    .map(
      (i) =>
        `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: ing, namespace: ${i.ns}}\nspec:\n  rules: [{http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: ${i.name}, port: {number: ${i.port}}}}}]}}]`,
    ),
  fc
    .record({ ns, name })
    .map(
      (e) =>
        `apiVersion: v1\nkind: Endpoints\nmetadata: {name: ${e.name}, namespace: ${e.ns}}\nsubsets: [{addresses: [{ip: 10.0.0.1, hostname: h}], ports: [{port: 80}]}]`,
    ),
  fc
    .record({ ns, name })
    .map(
      (e) =>
        `apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: ${e.name}-s, namespace: ${e.ns}, labels: {kubernetes.io/service-name: ${e.name}}}\naddressType: IPv4\nendpoints: [{addresses: [10.0.0.2], hostname: h}]\nports: [{port: 5432}]`,
    ),
  fc
    .record({ ns, from: fc.constantFrom('Same', 'All', 'Selector'), team: fc.constantFrom(...namespaces), host: fc.constantFrom('', '"*.example.com"') })
    .map((g) =>
      [
        'apiVersion: gateway.networking.k8s.io/v1',
        'kind: Gateway',
        `metadata: {name: gw, namespace: ${g.ns}}`,
        'spec:',
        '  gatewayClassName: example',
        '  listeners:',
        `    - {name: http, port: 80, protocol: HTTP${g.host ? `, hostname: ${g.host}` : ''}, allowedRoutes: {namespaces: {from: ${g.from}${g.from === 'Selector' ? `, selector: {matchLabels: {team: ${g.team}}}` : ''}}}}`,
        '    - {name: https, port: 443, protocol: HTTPS, tls: {certificateRefs: [{name: cert}]}}',
      ].join('\n'),
    ),
  fc
    .record({
      ns,
      gwNs: fc.constantFrom(...namespaces, ''),
      section: fc.constantFrom('', 'http', 'htp'),
      host: fc.constantFrom('', 'a.example.com', 'example.com'),
      name,
      backendNs: fc.constantFrom(...namespaces, ''),
      port: fc.constantFrom(80, 8080, 0),
    })
    .map((r) =>
      [
        'apiVersion: gateway.networking.k8s.io/v1',
        'kind: HTTPRoute',
        `metadata: {name: route, namespace: ${r.ns}}`,
        'spec:',
        `  parentRefs: [{name: gw${r.gwNs ? `, namespace: ${r.gwNs}` : ''}${r.section ? `, sectionName: ${r.section}` : ''}}]`,
        ...(r.host ? [`  hostnames: [${r.host}]`] : []),
        `  rules: [{backendRefs: [{name: ${r.name}${r.backendNs ? `, namespace: ${r.backendNs}` : ''}${r.port ? `, port: ${r.port}` : ''}}]}]`,
      ].join('\n'),
    ),
  fc
    .record({ ns, fromNs: ns, name: fc.constantFrom(...names, '') })
    .map((g) =>
      [
        'apiVersion: gateway.networking.k8s.io/v1beta1',
        'kind: ReferenceGrant',
        `metadata: {name: grant, namespace: ${g.ns}}`,
        'spec:',
        `  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: ${g.fromNs}}]`,
        `  to: [{group: "", kind: Service${g.name ? `, name: ${g.name}` : ''}}]`,
      ].join('\n'),
    ),
  fc
    .record({ ns, name: fc.constantFrom('cert', 'crt') })
    .map((x) => `apiVersion: v1\nkind: Secret\nmetadata: {name: ${x.name}, namespace: ${x.ns}}\ntype: kubernetes.io/tls`),
  fc.constant('not: [valid'),
);

const fileText = fc.array(fc.oneof(service, workload, configMap, others), { minLength: 0, maxLength: 4 }).map((docs) => docs.join('\n---\n') + '\n');
// Files in sibling folders too: the same object written differently in two of them makes them variants (model/project.ts).
const uris = ['a', 'b', 'c', 'd', 'aws/a', 'gcp/a', 'gcp/b', 'x/e'].map((n) => `file:///w/${n}.yaml`);

const edit = fc.record({
  kind: fc.constantFrom('write', 'write', 'write', 'delete', 'open', 'close'),
  uri: fc.constantFrom(...uris),
  text: fileText,
  /** Whether a diagnostics pass runs after this edit (otherwise the next one covers several edits). */
  evaluate: fc.boolean(),
});

const canonical = (findings: readonly Finding[]) => findings.map((f) => JSON.stringify(f)).sort();

/** A cluster's lists and indexes as plain data, in their order, to compare one built from an earlier one with one built afresh. */
function clusterShape(c: Cluster) {
  const ref = (r: Resource) => `${r.uri}#${r.docIndex}:${r.kind}/${r.namespace}/${r.name}`;
  const labels = ['app=api', 'app=db', 'app=web', 'app=apii'];
  return {
    resources: c.resources.map(ref),
    lists: [c.services, c.workloads, c.endpoints, c.endpointSlices, c.ingresses, c.networkPolicies, c.configMaps].map((l) => l.map(ref)),
    namespaces: [...c.namespaces],
    declared: [...c.declaredNamespaces].map(([n, r]) => `${n}:${ref(r)}`),
    withObjects: [...c.namespacesWithObjects()],
    perNamespace: [...namespaces, 'default', 'shopp'].map((n) => ({
      services: c.servicesIn(n).map(ref),
      workloads: c.workloadsIn(n).map(ref),
      objects: c.objectsIn(n)?.resources.map(ref),
      named: names.map((x) => [c.service(n, x), ...c.get('Endpoints', n, x)].filter((r) => r !== undefined).map(ref)),
      matching: labels.map((l) => c.workloadsMatching(n, new Map([l.split('=') as [string, string]])).map(ref)),
    })),
    servicesNamed: names.map((x) => c.servicesNamed(x).map(ref)),
  };
}

describe('incremental diagnostics', () => {
  it('equal a from-scratch evaluation after random edit sequences, in any file order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...uris), fileText), { maxLength: 6 }),
        fc.array(edit, { minLength: 1, maxLength: 12 }),
        (initial, edits) => {
          const ws = createWorkspace();
          const disk = new Map<string, string>(initial);
          const overlays = new Map<string, string>();
          ws.replaceDisk(disk, []);
          let snap = ws.snapshot();
          diagnosticsFor(snap.analysis, snap.earlier);
          let version = 0;
          for (const e of edits) {
            if (e.kind === 'write') {
              if (overlays.has(e.uri)) {
                overlays.set(e.uri, e.text);
                ws.change(e.uri, e.text, ++version);
              } else {
                disk.set(e.uri, e.text);
                ws.setDiskText(e.uri, e.text);
              }
            } else if (e.kind === 'delete') {
              disk.delete(e.uri);
              ws.deleteDiskText(e.uri);
            } else if (e.kind === 'open') {
              overlays.set(e.uri, e.text);
              ws.open(e.uri, e.text, ++version);
            } else {
              overlays.delete(e.uri);
              ws.close(e.uri);
            }
            snap = ws.snapshot();
            if (e.evaluate) diagnosticsFor(snap.analysis, snap.earlier);
          }
          const incremental = canonical(diagnosticsFor(snap.analysis, snap.earlier));
          const sources: SourceText[] = [...new Map([...disk, ...overlays])].map(([uri, text]) => ({ uri, text }));
          const scratch = analyzeTexts(sources);
          assert.deepEqual(clusterShape(snap.analysis.cluster), clusterShape(scratch.cluster));
          assert.deepEqual(incremental, canonical(diagnosticsFromScratch(scratch)));
          assert.deepEqual(incremental, canonical(diagnosticsFor(analyzeTexts([...sources].reverse()))));
        },
      ),
      { seed: 20261129, numRuns: 200 },
    );
  });

  it('equal a from-scratch evaluation when edits arrive while evaluations in steps are under way', () => {
    const action = fc.record({ edit, steps: fc.nat({ max: 6 }), then: fc.constantFrom('leave', 'leave', 'finish', 'sync', 'resume-older') });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...uris), fileText), { maxLength: 6 }),
        fc.array(action, { minLength: 1, maxLength: 10 }),
        (initial, actions) => {
          const ws = createWorkspace();
          const disk = new Map<string, string>(initial);
          const overlays = new Map<string, string>();
          ws.replaceDisk(disk, []);
          let snap = ws.snapshot();
          diagnosticsFor(snap.analysis, snap.earlier);
          /** Evaluations begun and not finished, with the analysis each is for. */
          const underWay: { steps: Generator<void, readonly Finding[]>; analysis: typeof snap.analysis }[] = [];
          const finish = (w: (typeof underWay)[number]) => {
            let r = w.steps.next();
            while (!r.done) r = w.steps.next();
            assert.deepEqual(canonical(r.value), canonical(diagnosticsFromScratch(w.analysis)));
          };
          let version = 0;
          for (const { edit: e, steps, then } of actions) {
            if (e.kind === 'write' || e.kind === 'open') {
              if (e.kind === 'open' || overlays.has(e.uri)) {
                overlays.set(e.uri, e.text);
                if (e.kind === 'open') ws.open(e.uri, e.text, ++version);
                else ws.change(e.uri, e.text, ++version);
              } else {
                disk.set(e.uri, e.text);
                ws.setDiskText(e.uri, e.text);
              }
            } else if (e.kind === 'delete') {
              disk.delete(e.uri);
              ws.deleteDiskText(e.uri);
            } else {
              overlays.delete(e.uri);
              ws.close(e.uri);
            }
            snap = ws.snapshot();
            const w = { steps: diagnosticsSteps(snap.analysis, snap.earlier), analysis: snap.analysis };
            let done = false;
            for (let i = 0; i < steps && !done; i++) done = !!w.steps.next().done;
            if (done) continue;
            if (then === 'finish') finish(w);
            else if (then === 'sync')
              assert.deepEqual(canonical(diagnosticsFor(snap.analysis, snap.earlier)), canonical(diagnosticsFromScratch(snap.analysis)));
            else if (then === 'resume-older' && underWay.length) finish(underWay.shift()!);
            // left half-way: superseded by the next edit's evaluation, or resumed later
            if (then !== 'finish') underWay.push(w);
          }
          const incremental = canonical(diagnosticsFor(snap.analysis, snap.earlier));
          const sources: SourceText[] = [...new Map([...disk, ...overlays])].map(([uri, text]) => ({ uri, text }));
          assert.deepEqual(incremental, canonical(diagnosticsFromScratch(analyzeTexts(sources))));
          // the ones left behind still finish with their own snapshot's findings
          for (const w of underWay) finish(w);
        },
      ),
      { seed: 20261201, numRuns: 150 },
    );
  });

  it('a file of many objects is checked in pieces that together find what the whole file does', () => {
    const ws = createWorkspace();
    const docs: string[] = [];
    for (let i = 0; i < 640; i++) {
      // a few names twice, a few selectors matching nothing (but close to a label: a typo), across the pieces
      const app = i % 97 === 0 ? `app-${i % 50}x` : `app-${i % 50}`;
      docs.push(
        `apiVersion: v1\nkind: Service\nmetadata: {name: s${i < 630 ? i : i - 300}, namespace: shop}\nspec:\n  selector: {app: ${app}}\n  ports: [{port: 80, targetPort: http}]`,
      );
      if (i % 3 === 0)
        docs.push(
          `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d${i}, namespace: shop}\nspec:\n  selector: {matchLabels: {app: app-${i % 50}}}\n  template:\n    metadata: {labels: {app: app-${i % 50}}}\n    spec: {containers: [{name: c, image: c, ports: [{name: http, containerPort: 8080}]}]}`,
        );
    }
    ws.replaceDisk(
      new Map([
        ['file:///w/many.yaml', docs.join('\n---\n') + '\n'],
        ['file:///w/db.yaml', 'apiVersion: v1\nkind: Service\nmetadata: {name: db, namespace: shop}\nspec: {selector: {app: app-1}, ports: [{port: 5432}]}\n'],
      ]),
      [],
    );
    const first = ws.snapshot();
    const steps = diagnosticsSteps(first.analysis, first.earlier);
    let n = 0;
    let r = steps.next();
    while (!r.done) {
      n++;
      r = steps.next();
    }
    assert.ok(n > 20, `${n} steps`);
    const scratch = canonical(diagnosticsFromScratch(first.analysis));
    assert.ok(scratch.some((f) => f.includes('duplicate-resource')) && scratch.some((f) => f.includes('service-selector-no-match')));
    assert.deepEqual(canonical(r.value), scratch);
    ws.setDiskText(
      'file:///w/db.yaml',
      'apiVersion: v1\nkind: Service\nmetadata: {name: s5, namespace: shop}\nspec: {selector: {app: app-2}, ports: [{port: 5432}]}\n',
    );
    const second = ws.snapshot();
    assert.deepEqual(canonical(diagnosticsFor(second.analysis, second.earlier)), canonical(diagnosticsFromScratch(second.analysis)));
  });

  it('re-runs only the checks whose inputs an edit touches', () => {
    const ws = createWorkspace();
    const svc = (sel: string) =>
      `apiVersion: v1\nkind: Service\nmetadata: {name: api, namespace: shop}\nspec:\n  selector: {app: ${sel}}\n  ports: [{port: 80}]\n`;
    const sts =
      'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db, namespace: ops}\nspec:\n  serviceName: dbb\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: d, image: d}]}\n';
    ws.replaceDisk(
      new Map([
        ['file:///w/a.yaml', svc('api')],
        ['file:///w/b.yaml', sts],
      ]),
      [],
    );
    const first = ws.snapshot();
    const before = diagnosticsFor(first.analysis, first.earlier);
    ws.setDiskText('file:///w/a.yaml', svc('apii'));
    const second = ws.snapshot();
    const after = diagnosticsFor(second.analysis, second.earlier);
    // The StatefulSet's finding read only namespace "ops" and Services named "dbb": it is the very object computed before.
    const missing = (fs: readonly Finding[]) => fs.find((f) => f.code === 'statefulset-service-missing');
    assert.ok(missing(before));
    assert.equal(missing(after), missing(before));
    assert.deepEqual(canonical(after), canonical(diagnosticsFromScratch(second.analysis)));
  });

  it('a Service added in another namespace reaches the findings that mention Services of that name', () => {
    const ws = createWorkspace();
    const sts =
      'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db, namespace: ops}\nspec:\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: d, image: d}]}\n';
    ws.replaceDisk(
      new Map([
        ['file:///w/b.yaml', sts],
        ['file:///w/c.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: shop}\n'],
      ]),
      [],
    );
    const first = ws.snapshot();
    diagnosticsFor(first.analysis, first.earlier);
    ws.setDiskText(
      'file:///w/a.yaml',
      'apiVersion: v1\nkind: Service\nmetadata: {name: db, namespace: shop}\nspec: {clusterIP: None, selector: {app: db}, ports: [{port: 80}]}\n',
    );
    const second = ws.snapshot();
    const after = diagnosticsFor(second.analysis, second.earlier);
    assert.match(after.find((f) => f.code === 'statefulset-service-missing')?.message ?? '', /exists in namespace "shop"/);
    assert.deepEqual(canonical(after), canonical(diagnosticsFromScratch(second.analysis)));
  });

  it('an ingress controller coming, changing or uncovered elsewhere reaches the Ingresses whose backends it cannot reach', () => {
    const ws = createWorkspace();
    const shop = [
      'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: ing, namespace: shop}\nspec:\n  rules: [{http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}}]',
      'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\nspec: {selector: {app: web}, ports: [{port: 80, targetPort: 8080}]}',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: web, ports: [{containerPort: 8080}]}]}',
      'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: web-in, namespace: shop}\nspec:\n  podSelector: {matchLabels: {app: web}}\n  ingress: [{from: [{podSelector: {matchLabels: {app: api}}}]}]',
    ].join('\n---\n');
    const controller = (image: string, name = 'ingress-nginx-controller') =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}, namespace: ingress-nginx}\nspec:\n  selector: {matchLabels: {app: ingress-nginx}}\n  template:\n    metadata: {labels: {app: ingress-nginx}}\n    spec: {containers: [{name: controller, image: ${image}}]}\n`;
    const nginx = 'registry.k8s.io/ingress-nginx/controller:v1.11.2';
    const blocked = (fs: readonly Finding[]) => fs.filter((f) => f.code === 'ingress-backend-policy-blocked').length;
    ws.replaceDisk(new Map([['file:///w/shop.yaml', shop + '\n']]), []);
    let snap = ws.snapshot();
    assert.equal(blocked(diagnosticsFor(snap.analysis, snap.earlier)), 0, 'no controller described: quiet');
    const step = (what: string, expected: number) => {
      snap = ws.snapshot();
      const found = diagnosticsFor(snap.analysis, snap.earlier);
      assert.equal(blocked(found), expected, what);
      assert.deepEqual(canonical(found), canonical(diagnosticsFromScratch(snap.analysis)), what);
    };
    ws.setDiskText('file:///w/ingress.yaml', controller(nginx));
    step('a controller added in another file and namespace', 1);
    ws.setDiskText('file:///w/ingress.yaml', controller('example/proxy:1'));
    step('its image changed to one that is no controller', 0);
    // Two definitions of one Deployment in one folder: lookups see the first; deleting it uncovers the controller.
    ws.setDiskText('file:///w/ingress.yaml', controller('example/proxy:1', 'edge'));
    ws.setDiskText('file:///w/zz-ingress.yaml', controller(nginx, 'edge'));
    snap = ws.snapshot();
    const shown = diagnosticsFor(snap.analysis, snap.earlier);
    assert.deepEqual(canonical(shown), canonical(diagnosticsFromScratch(snap.analysis)), 'two definitions');
    ws.deleteDiskText('file:///w/ingress.yaml');
    step('the first definition deleted', 1);
  });
});
