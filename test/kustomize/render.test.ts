// The native Kustomize renderer without Kustomize: what each transformer writes, where every rendered field maps
// back to (base line, patch line, the kustomization line of the setting that made it), the problems it reports
// instead of throwing, root discovery, and its own small helpers.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { diskReader } from '../../server/src/workspace/diskReader';
import { contentHash } from '../../server/src/kustomize/hash';
import { renderedObjects, renderKustomization, type FileReader } from '../../server/src/kustomize/render';
import { discoverKustomizations } from '../../server/src/kustomize/roots';
import { sha256Hex } from '../../server/src/kustomize/sha256';
import { fromJs } from '../../server/src/kustomize/tree';
import { relativeUri, resolveUri } from '../../server/src/kustomize/uriPath';
import { sourceOf, type RenderedUnit } from '../../server/src/model/rendered';
import { cpuClock } from '../helpers/cpuClock';

const fixtures = join(__dirname, '..', 'fixtures', 'kustomize');
const fsys = diskReader;
const uriOf = (rel: string) => pathToFileURL(join(fixtures, rel)).href;

function render(rel: string): RenderedUnit {
  return renderKustomization(fsys, uriOf(rel));
}

interface Obj {
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}

function objects(unit: RenderedUnit): Obj[] {
  assert.ok(unit.rendered, `not rendered: ${unit.problems.map((p) => p.message).join('; ')}`);
  return renderedObjects(unit.rendered.text) as Obj[];
}

function find(unit: RenderedUnit, kind: string, name: string): Obj {
  const o = objects(unit).find((x) => x.kind === kind && x.metadata.name === name);
  assert.ok(
    o,
    `${kind} ${name} in ${objects(unit)
      .map((x) => `${x.kind}/${x.metadata.name}`)
      .join(', ')}`,
  );
  return o;
}

/** Where the rendered text matched by the first group of `pattern` comes from: file (relative), its text there, via. */
function origin(unit: RenderedUnit, pattern: RegExp): { file: string; text: string; line: string; via?: string } {
  const text = unit.rendered!.text;
  const m = new RegExp(pattern.source, pattern.flags + 'd').exec(text);
  assert.ok(m && m[1] !== undefined && m.indices?.[1], `${pattern} in the rendered text:\n${text}`);
  const start = m.indices[1][0];
  const mapping = sourceOf(unit.rendered!, { start, end: start + m[1].length });
  assert.ok(mapping, `no mapping for ${m[1]}`);
  const src = fsys.read(mapping.uri) ?? '';
  const ls = src.lastIndexOf('\n', mapping.span.start - 1) + 1;
  const le = src.indexOf('\n', mapping.span.start);
  return {
    file: relativeUri(pathToFileURL(fixtures).href, mapping.uri),
    text: src.slice(mapping.span.start, mapping.span.end),
    line: src.slice(ls, le < 0 ? undefined : le).trim(),
    via: mapping.via,
  };
}

describe('Kustomize rendering: transformers', () => {
  it('namespace, namePrefix and nameSuffix, with the name references Kustomize rewrites', () => {
    const prod = render('shop/overlays/prod');
    const names = objects(prod).map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);
    assert.deepEqual(names, [
      'Namespace//prod',
      'ConfigMap/prod/prod-web-config-v2-2t659dt87g',
      'Secret/prod/prod-web-secret-v2-ckd59g56hk',
      'Service/prod/prod-db-v2',
      'Service/prod/prod-web-v2',
      'Deployment/prod/prod-web-v2',
      'StatefulSet/prod/prod-db-v2',
      'Ingress/prod/prod-web-v2',
    ]);
    const ing = find(prod, 'Ingress', 'prod-web-v2').spec as {
      defaultBackend: { service: { name: string } };
      rules: { http: { paths: { backend: { service: { name: string } } }[] } }[];
    };
    assert.equal(ing.defaultBackend.service.name, 'prod-web-v2');
    assert.equal(ing.rules[0].http.paths[0].backend.service.name, 'prod-web-v2');
    assert.equal(find(prod, 'StatefulSet', 'prod-db-v2').spec?.serviceName, 'prod-db-v2');
    const pod = JSON.stringify(find(prod, 'Deployment', 'prod-web-v2').spec);
    assert.match(pod, /"configMapRef":\{"name":"prod-web-config-v2-2t659dt87g"\}/);
    assert.match(pod, /"secretKeyRef":\{"name":"prod-web-secret-v2-ckd59g56hk","key":"token"\}/);
    assert.match(pod, /"configMap":\{"name":"prod-web-config-v2-2t659dt87g"\}/);
    assert.match(JSON.stringify(find(prod, 'StatefulSet', 'prod-db-v2').spec), /"configMapKeyRef":\{"name":"prod-web-config-v2-2t659dt87g"/);
  });

  it('replicas and images', () => {
    const prod = render('shop/overlays/prod');
    const web = find(prod, 'Deployment', 'prod-web-v2').spec as { replicas: number; template: { spec: { containers: { image: string }[] } } };
    assert.equal(web.replicas, 3);
    assert.equal(web.template.spec.containers[0].image, 'registry.example/shop/web:1.1');
    const db = find(prod, 'StatefulSet', 'prod-db-v2').spec as { template: { spec: { containers: { image: string }[] } } };
    assert.equal(db.template.spec.containers[0].image, 'mirror.example/postgres@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef');
  });

  it('generators: literals, env files, files, behavior merge, generatorOptions, Secret types and hashes', () => {
    const dev = render('shop/overlays/dev');
    const cm = objects(dev).find((o) => o.kind === 'ConfigMap')!;
    assert.match(cm.metadata.name, /^dev-web-config-[a-z0-9]{10}$/);
    assert.deepEqual(cm.data, { LOG_LEVEL: 'debug', DB_HOST: 'db', FEATURE_X: 'on', TRACE: '1' });
    assert.deepEqual(cm.metadata.labels, { generated: 'yes' });
    const secret = objects(dev).find((o) => o.kind === 'Secret')! as Obj & { type: string };
    assert.equal(secret.type, 'kubernetes.io/opaque');
    assert.deepEqual(secret.data, { token: Buffer.from('dev-token\n').toString('base64') });
    const gen = render('generators');
    const noHash = objects(gen).find((o) => o.metadata.name === 'gen-no-hash');
    assert.ok(noHash, 'disableNameSuffixHash keeps the name');
    assert.deepEqual(noHash.metadata.labels, { kind: 'static' });
    const plain = objects(gen).find((o) => o.metadata.name.startsWith('gen-plain-'))!;
    assert.deepEqual(plain.data, { greeting: 'hello <world> & "friends"', quoted: 'single quoted', empty: '' });
  });

  it('the content hash is Kustomize’s: SHA-256 of the JSON of kind, data (and type for Secrets), first 10 hex digits re-lettered', () => {
    const cm = fromJs({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { DB_HOST: 'db', LOG_LEVEL: 'info' } });
    assert.equal(contentHash(cm), '2t659dt87g');
    for (const s of ['', 'abc', 'ü€😀'.repeat(50), 'x'.repeat(1000)]) assert.equal(sha256Hex(s), createHash('sha256').update(s).digest('hex'));
  });

  it('labels (includeSelectors, includeTemplates), commonLabels on selectors incl. NetworkPolicy, commonAnnotations', () => {
    const sel = render('labels/selectors');
    assert.deepEqual((find(sel, 'Service', 'api').spec as { selector: unknown }).selector, { app: 'api', team: 'payments' });
    assert.deepEqual((find(sel, 'Service', 'external').spec as { selector: unknown }).selector, { team: 'payments' });
    const np = find(sel, 'NetworkPolicy', 'api-ingress').spec as {
      podSelector: { matchLabels: unknown };
      ingress: { from: { podSelector?: { matchLabels: unknown } }[] }[];
      egress: { to: { podSelector: unknown }[] }[];
    };
    assert.deepEqual(np.podSelector.matchLabels, { app: 'api', team: 'payments' });
    assert.deepEqual(np.ingress[0].from[0].podSelector?.matchLabels, { role: 'client', team: 'payments' });
    assert.deepEqual(np.egress[0].to[0].podSelector, {}, 'an empty pod selector is not created');
    const tmpl = render('labels/templates');
    const dep = find(tmpl, 'Deployment', 'api') as Obj & { spec: { selector: { matchLabels: unknown }; template: { metadata: { labels: unknown } } } };
    assert.deepEqual(dep.spec.selector.matchLabels, { app: 'api' });
    assert.deepEqual(dep.spec.template.metadata.labels, { app: 'api', team: 'payments', env: 'staging' });
    assert.deepEqual(dep.metadata.labels, { tier: 'backend', team: 'payments', env: 'staging', owner: 'sre' });
    const common = render('labels/common');
    const cron = find(common, 'CronJob', 'report') as Obj & { spec: { jobTemplate: { metadata: { labels: unknown; annotations: unknown } } } };
    assert.deepEqual(cron.spec.jobTemplate.metadata.labels, { system: 'shop', version: '2' });
    assert.deepEqual(cron.spec.jobTemplate.metadata.annotations, { contact: 'sre@example.com', build: '42' });
  });

  it('patches: strategic merge (file, inline, target), JSON 6902 (inline, file, JSON), $patch delete and replace', () => {
    const unit = render('patches/overlay');
    const names = objects(unit).map((o) => `${o.kind}/${o.metadata.name}`);
    assert.ok(!names.includes('ConfigMap/staging-legacy'), '$patch: delete removes the object');
    const api = find(unit, 'Deployment', 'staging-api') as Obj & {
      spec: {
        replicas: number;
        template: { metadata: { annotations: unknown }; spec: { containers: { name: string; env?: unknown; args?: string[] }[]; tolerations?: unknown } };
      };
    };
    assert.equal(api.spec.replicas, 4);
    assert.deepEqual(
      api.spec.template.spec.containers.map((c) => c.name),
      ['sidecar', 'api'],
    );
    assert.deepEqual(api.spec.template.spec.containers[1].env, [
      { name: 'B', value: '20' },
      { name: 'C', value: '3' },
      { name: 'A', value: '1' },
    ]);
    assert.deepEqual(api.spec.template.spec.containers[1].args, ['--port=8080', '--verbose']);
    assert.equal(api.spec.template.spec.tolerations, undefined);
    assert.deepEqual(api.spec.template.metadata.annotations, { patched: 'yes' });
    const worker = find(unit, 'Deployment', 'staging-worker') as Obj & { spec: { template: { spec: { containers: { image: string; env: unknown }[] } } } };
    assert.equal(worker.spec.template.spec.containers[0].image, 'worker:2');
    assert.deepEqual(find(unit, 'ConfigMap', 'staging-settings').data, { a: '1', c: '3', d: '4', e: '1' });
    assert.equal((find(unit, 'Service', 'staging-api').spec as { ports: { port: number }[] }).ports[0].port, 8081);
    const replaced = find(render('replace/overlay'), 'NetworkPolicy', 'allow').spec as { podSelector: unknown; ingress: unknown };
    assert.deepEqual(replaced.podSelector, { matchLabels: { app: 'api-v2' } });
    assert.deepEqual(replaced.ingress, [{ from: [{ namespaceSelector: {} }] }]);
  });

  it('components add resources, generators, patches and labels to the overlay that lists them', () => {
    const unit = render('components/overlay');
    const names = objects(unit).map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`);
    assert.ok(names.includes('Service/observed/metrics-blue'), names.join(', '));
    const app = find(unit, 'Deployment', 'app-blue') as Obj & {
      spec: { template: { spec: { containers: { name: string; envFrom?: { configMapRef: { name: string } }[] }[] } } };
    };
    const exporter = app.spec.template.spec.containers.find((c) => c.name === 'exporter');
    assert.match(exporter?.envFrom?.[0].configMapRef.name ?? '', /^metrics-config-blue-[a-z0-9]{10}$/);
    assert.equal(app.metadata.labels?.monitored, 'true');
  });
});

describe('Kustomize rendering: source map', () => {
  it('maps base fields to base lines, settings’ values to the kustomization line that set them', () => {
    const prod = render('shop/overlays/prod');
    assert.deepEqual(origin(prod, /name: (prod-web-v2)\n {2}namespace: prod\nspec:\n {2}selector/), {
      file: 'shop/overlays/prod/kustomization.yaml',
      text: 'nameSuffix: -v2',
      line: 'nameSuffix: -v2',
      via: 'nameSuffix',
    });
    const ns = origin(prod, /kind: Service\nmetadata:\n {2}name: prod-db-v2\n {2}namespace: (prod)/);
    assert.equal(ns.file, 'shop/overlays/prod/kustomization.yaml');
    assert.equal(ns.line, 'namespace: prod');
    assert.equal(ns.via, 'namespace');
    const port = origin(prod, /targetPort: (http)/);
    assert.deepEqual([port.file, port.line, port.via], ['shop/base/web.yaml', 'targetPort: http', undefined]);
    const key = origin(prod, /(targetPort): http/);
    assert.equal(key.line, 'targetPort: http');
    const replicas = origin(prod, /replicas: (3)/);
    assert.deepEqual([replicas.file, replicas.line, replicas.via], ['shop/overlays/prod/kustomization.yaml', 'count: 3', 'replicas']);
    const image = origin(prod, /image: (registry\.example\/shop\/web:1\.1)/);
    assert.deepEqual([image.file, image.via], ['shop/overlays/prod/kustomization.yaml', 'images']);
    assert.equal(image.line, '- name: registry.example/shop/web');
    const hashed = origin(prod, /name: (prod-web-config-v2-2t659dt87g)\n {2}namespace/);
    assert.deepEqual([hashed.file, hashed.line, hashed.via], ['shop/base/kustomization.yaml', '- name: web-config', 'configMapGenerator']);
    const literal = origin(prod, /(DB_HOST): db/);
    assert.deepEqual([literal.file, literal.line], ['shop/base/kustomization.yaml', '- DB_HOST=db']);
    const ref = origin(prod, /serviceName: (prod-db-v2)/);
    assert.deepEqual([ref.file, ref.line, ref.via], ['shop/base/db.yaml', 'serviceName: db', 'nameSuffix']);
  });

  it('maps what vars, replacements and configured field specs wrote: the reference’s line, the source value’s line, the setting’s line', () => {
    const vars = render('vars/overlay');
    const self = origin(vars, /--self=(blue-board)/);
    assert.deepEqual([self.file, self.line, self.via], ['vars/base/app.yaml', '- --self=$(BOARD_SERVICE)', 'vars']);
    const replicas = origin(vars, /value: (3)/);
    assert.deepEqual([replicas.file, replicas.line, replicas.via], ['vars/overlay/replicas.yaml', 'value: $(WORKER_REPLICAS)', 'vars']);
    const replaced = render('replacements/base');
    const port = origin(replaced, /- port: (5433)/);
    assert.deepEqual([port.file, port.line, port.via], ['replacements/base/kustomization.yaml', '- DB_PORT=5433', 'replacements']);
    const configured = render('configurations/overlay');
    const ns = origin(configured, /targetNamespace: (tools)/);
    assert.deepEqual([ns.file, ns.line, ns.via], ['configurations/overlay/kustomization.yaml', 'namespace: tools', 'namespace']);
    const ref = origin(configured, /service:\n {10}name: (team-gadget-webhook)/);
    assert.deepEqual([ref.file, ref.line, ref.via], ['configurations/operator/crd.yaml', 'name: gadget-webhook', 'namePrefix']);
  });

  it('maps patched fields to the patch line: patch files, inline patches inside the kustomization, JSON operations', () => {
    const unit = render('patches/overlay');
    const mem = origin(unit, /memory: (256Mi)/);
    assert.deepEqual([mem.file, mem.line], ['patches/overlay/api-resources.yaml', 'memory: 256Mi']);
    const inline = origin(unit, /image: (sidecar:1)/);
    assert.deepEqual([inline.file, inline.line], ['patches/overlay/kustomization.yaml', 'image: sidecar:1']);
    const json = origin(unit, /port: (8081)/);
    assert.deepEqual([json.file, json.line], ['patches/overlay/service-ops.yaml', 'value: 8081']);
    const jsonInline = origin(unit, /image: (worker:2)/);
    assert.deepEqual([jsonInline.file, jsonInline.line], ['patches/overlay/kustomization.yaml', 'value: worker:2']);
    const psm = origin(unit, /c: ("3")/);
    assert.deepEqual([psm.file, psm.line], ['patches/overlay/kustomization.yaml', 'c: "3"']);
    const base = origin(unit, /(containerPort): 8080/);
    assert.deepEqual([base.file, base.line], ['patches/base/workloads.yaml', '- containerPort: 8080']);
  });

  it('lists every file a build reads', () => {
    const inputs = render('shop/overlays/dev').inputs.map((u) => relativeUri(pathToFileURL(fixtures).href, u));
    assert.deepEqual(inputs, [
      'shop/base/db.yaml',
      'shop/base/ingress.yaml',
      'shop/base/kustomization.yaml',
      'shop/base/web.yaml',
      'shop/overlays/dev/dev.env',
      'shop/overlays/dev/kustomization.yaml',
      'shop/overlays/dev/token.txt',
    ]);
  });
});

describe('Kustomize rendering: problems instead of exceptions', () => {
  const expected = JSON.parse(readFileSync(join(fixtures, 'problems', 'expected.json'), 'utf8')) as Record<string, { code: string; line: string }>;
  for (const [name, want] of Object.entries(expected))
    it(`${name}: ${want.code} on "${want.line.trim()}"`, () => {
      const unit = render(join('problems', name));
      assert.equal(unit.rendered, undefined);
      assert.equal(unit.problems.length, 1, JSON.stringify(unit.problems));
      const p = unit.problems[0];
      assert.equal(p.code, want.code);
      assert.equal(p.severity, want.code === 'kustomize-not-rendered' ? 'information' : 'error');
      const text = fsys.read(p.uri) ?? '';
      const ls = text.lastIndexOf('\n', p.span.start - 1) + 1;
      const le = text.indexOf('\n', p.span.start);
      assert.equal(text.slice(ls, le < 0 ? undefined : le), want.line);
      assert.ok(p.message.length > 20, p.message);
    });

  it('names the file of a generator entry KEY=PATH that is not there, not the entry', () => {
    const unit = render(join('problems', 'generator-file-key'));
    assert.match(unit.problems[0]?.message ?? '', /cannot read the file 'missing-kubeconfig'/);
  });

  it('never throws and never hangs on deep nesting, self-inclusion or hostile YAML', () => {
    const files = new Map<string, string>();
    const dirs = new Map<string, string[]>();
    const add = (uri: string, text: string) => {
      files.set(uri, text);
      const dir = uri.slice(0, uri.lastIndexOf('/'));
      dirs.set(dir, [...(dirs.get(dir) ?? []), uri.slice(uri.lastIndexOf('/') + 1)]);
    };
    for (let i = 0; i < 100; i++) add(`file:///deep/k${i}/kustomization.yaml`, `resources:\n- ../k${i + 1}\n`);
    add('file:///deep/k100/kustomization.yaml', 'resources: []\n');
    add('file:///self/kustomization.yaml', 'resources:\n- .\n');
    add('file:///bomb/kustomization.yaml', 'resources:\n- a.yaml\n');
    add('file:///bomb/a.yaml', 'a: &a [x, x]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nkind: ConfigMap\nmetadata: {name: m}\n' + '['.repeat(5000));
    add('file:///weird/kustomization.yaml', 'resources: 7\nnamePrefix: [1]\n');
    add('file:///expand/kustomization.yaml', 'resources:\n- a.yaml\n');
    const levels = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    add(
      'file:///expand/a.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\ndata:\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n' +
        levels
          .slice(1)
          .map(
            (l, i) =>
              `  ${l}: &${l} [${Array(10)
                .fill('*' + levels[i])
                .join(', ')}]\n`,
          )
          .join(''),
    );
    add('file:///nested/kustomization.yaml', 'resources:\n- a.yaml\n');
    add('file:///nested/a.yaml', 'kind: ConfigMap\nmetadata: {name: m}\ndata: ' + '['.repeat(3000) + ']'.repeat(3000) + '\n');
    add('file:///unread/kustomization.yaml', 'resources:\n- big.yaml\n');
    dirs.set('file:///unread', [...(dirs.get('file:///unread') ?? []), 'big.yaml']);
    const reader: FileReader = { read: (u) => files.get(u), list: (d) => dirs.get(d) };
    const unread = renderKustomization(reader, 'file:///unread').problems[0];
    assert.deepEqual(
      [unread.code, unread.severity],
      ['kustomize-not-rendered', 'information'],
      'a file in its folder that cannot be read is not a failed build',
    );
    for (const root of ['file:///deep/k0', 'file:///self', 'file:///bomb', 'file:///weird', 'file:///missing', 'file:///expand', 'file:///nested']) {
      const cpuMs = cpuClock();
      const unit = renderKustomization(reader, root);
      assert.ok(cpuMs() < 3000, `${root} took ${cpuMs()} ms`);
      assert.equal(unit.rendered, undefined, root);
      assert.ok(unit.problems.length === 1 && unit.problems[0].message, root);
    }
  });
});

describe('what Kustomize does not rewrite', () => {
  function problemLines(rel: string): string[] {
    const unit = render(rel);
    assert.ok(unit.rendered, 'the build renders');
    return unit.problems.map((p) => {
      const text = fsys.read(p.uri) ?? '';
      const ls = text.lastIndexOf('\n', p.span.start - 1) + 1;
      const le = text.indexOf('\n', p.span.start);
      return `${p.code} ${relativeUri(pathToFileURL(fixtures).href, p.uri)}: ${text.slice(ls, le < 0 ? undefined : le).trim()}`;
    });
  }

  it('fires on DNS names in env values, args and ConfigMap data, Gateway API references and namespace selectors the build moved', () => {
    assert.deepEqual(problemLines('not-rewritten/prod'), [
      'kustomize-name-not-rewritten not-rewritten/base/app.yaml: - --backend=http://api:80/v1',
      'kustomize-name-not-rewritten not-rewritten/base/app.yaml: value: http://api.shop.svc.cluster.local:80',
      'kustomize-name-not-rewritten not-rewritten/base/app.yaml: upstream: api.shop.svc:80',
      'kustomize-name-not-rewritten not-rewritten/base/app.yaml: kubernetes.io/metadata.name: shop',
      'kustomize-name-not-rewritten not-rewritten/base/routes.yaml: - name: public',
      'kustomize-name-not-rewritten not-rewritten/base/routes.yaml: - name: api',
    ]);
    const unit = render('not-rewritten/prod');
    const fqdn = unit.problems.find((p) => p.message.startsWith('"api.shop.svc.cluster.local'))!;
    assert.equal(fqdn.severity, 'warning');
    assert.match(fqdn.message, /the build of .*prod renamed it to prod-api and moved it to namespace prod.*it would be prod-api\.prod\.svc\.cluster\.local/);
  });

  it('stays quiet when the build renames nothing, and on names of Services it did not touch', () => {
    assert.deepEqual(problemLines('not-rewritten/plain'), []);
    assert.deepEqual(problemLines('not-rewritten/base'), []);
    assert.ok(!problemLines('not-rewritten/prod').some((l) => l.includes('monitoring') || l.includes('search.example.com')));
  });
});

describe('Kustomize roots', () => {
  function walk(dir: string, out: string[] = []): string[] {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p, out);
      else out.push(pathToFileURL(p).href);
    }
    return out;
  }

  it('finds the kustomizations no other one includes, the files each reads, and the files that are patches', () => {
    const layout = discoverKustomizations(
      walk(join(fixtures, 'shop')).concat(walk(join(fixtures, 'components')), walk(join(fixtures, 'patches'))),
      fsys,
      pathToFileURL(fixtures).href,
    );
    const rel = (u: string) => relativeUri(pathToFileURL(fixtures).href, u);
    assert.deepEqual(layout.folders.map(rel), [
      'components/base',
      'components/monitoring',
      'components/overlay',
      'patches/base',
      'patches/overlay',
      'shop/base',
      'shop/overlays/dev',
      'shop/overlays/prod',
    ]);
    assert.deepEqual(
      layout.roots.map((r) => rel(r.dir)),
      ['components/overlay', 'patches/overlay', 'shop/overlays/dev', 'shop/overlays/prod'],
    );
    assert.deepEqual(
      layout.roots.map((r) => r.unit.label),
      ['components/overlay', 'patches/overlay', 'shop/overlays/dev', 'shop/overlays/prod'],
    );
    const prod = layout.roots.find((r) => rel(r.dir) === 'shop/overlays/prod')!;
    assert.ok(prod.reads.map(rel).includes('shop/base/web.yaml'));
    assert.ok(prod.unit.rendered);
    assert.deepEqual([...layout.patchFiles].map(rel).sort(), [
      'patches/overlay/api-resources.yaml',
      'patches/overlay/delete-legacy.yaml',
      'patches/overlay/service-ops.yaml',
      'patches/overlay/settings-ops.json',
    ]);
  });

  it('resolves paths inside URIs without the path module', () => {
    assert.equal(resolveUri('file:///a/b/overlays/prod', '../../base'), 'file:///a/b/base');
    assert.equal(resolveUri('file:///a', './x/./y/../z.yaml'), 'file:///a/x/z.yaml');
    assert.equal(resolveUri('file:///a', '../../../../x'), 'file:///x');
    assert.equal(relativeUri('file:///a/b/c', 'file:///a/d/e.yaml'), '../../d/e.yaml');
  });
});

describe('Kustomize rendering: a field not evaluated here stops the build where Kustomize would read it', () => {
  function reader(files: Record<string, string>): FileReader {
    const dirs = new Map<string, string[]>();
    for (const uri of Object.keys(files)) {
      let d = uri;
      while (d.lastIndexOf('/') > 'file://'.length) {
        const name = d.slice(d.lastIndexOf('/') + 1);
        d = d.slice(0, d.lastIndexOf('/'));
        const names = dirs.get(d) ?? [];
        if (!names.includes(name)) dirs.set(d, [...names, name]);
      }
    }
    return { read: (u) => files[u], list: (d) => dirs.get(d) };
  }
  const service = 'apiVersion: v1\nkind: Service\nmetadata: {name: web}\n';
  const problemOf = (files: Record<string, string>, root: string) => {
    const unit = renderKustomization(reader(files), root);
    assert.equal(unit.rendered, undefined);
    assert.equal(unit.problems.length, 1);
    return unit.problems[0];
  };

  it('a resource outside the root is refused before the Helm charts are (accumulateResources comes first)', () => {
    const p = problemOf(
      { 'file:///r/shared.yaml': service, 'file:///r/app/kustomization.yaml': 'resources:\n- ../shared.yaml\nhelmCharts:\n- name: web\n' },
      'file:///r/app',
    );
    assert.equal(p.code, 'kustomize-render-failed');
    assert.match(p.message, /security; file .*shared\.yaml' is not in or below/);
  });

  it('a missing resource is refused before replacements, in a base as in the root', () => {
    const p = problemOf(
      {
        'file:///b/base/kustomization.yaml': 'replacements:\n- path: r.yaml\nresources:\n- gone.yaml\n',
        'file:///b/kustomization.yaml': 'resources:\n- base\n',
      },
      'file:///b',
    );
    assert.equal(p.code, 'kustomize-render-failed');
    assert.match(p.message, /gone\.yaml/);
  });

  it('a transformer configuration file that is not there fails the build; one with a field not read here is not evaluated', () => {
    const missing = problemOf(
      { 'file:///c/web.yaml': service, 'file:///c/kustomization.yaml': 'resources:\n- web.yaml\nconfigurations:\n- conf/kinds.yaml\n' },
      'file:///c',
    );
    assert.equal(missing.code, 'kustomize-render-failed');
    assert.match(missing.message, /conf\/kinds\.yaml/);
    const present = problemOf(
      {
        'file:///c/web.yaml': service,
        'file:///c/conf/kinds.yaml': 'images:\n- path: spec/runner/image\n  kind: Job\n',
        'file:///c/kustomization.yaml': 'resources:\n- web.yaml\nconfigurations:\n- conf/kinds.yaml\n',
      },
      'file:///c',
    );
    assert.equal(present.code, 'kustomize-not-rendered');
  });

  it('with every resource loading, the field is still not evaluated (and the first such field in the file is named)', () => {
    const p = problemOf(
      { 'file:///d/web.yaml': service, 'file:///d/kustomization.yaml': 'validators: []\nresources:\n- web.yaml\nreplacements: []\n' },
      'file:///d',
    );
    assert.equal(p.code, 'kustomize-not-rendered');
    assert.match(p.message, /validator plugins are not run/);
  });

  it('a base with a field not evaluated here stops the build only after the resources listed after it: a remote one or a missing file is what is said, as Kustomize says it', () => {
    const base = {
      'file:///e/base/web.yaml': service,
      'file:///e/base/conf.yaml': 'images:\n- path: spec/runner/image\n  kind: Job\n',
      'file:///e/base/kustomization.yaml': 'resources:\n- web.yaml\nconfigurations:\n- conf.yaml\n',
    };
    const remote = problemOf({ ...base, 'file:///e/root/kustomization.yaml': 'resources:\n- ../base\n- https://example.invalid/app.yaml\n' }, 'file:///e/root');
    assert.equal(remote.code, 'kustomize-not-rendered');
    assert.match(remote.message, /remote resource 'https:\/\/example\.invalid\/app\.yaml'/);
    const missing = problemOf({ ...base, 'file:///e/root/kustomization.yaml': 'resources:\n- ../base\n- gone.yaml\n' }, 'file:///e/root');
    assert.equal(missing.code, 'kustomize-render-failed');
    assert.match(missing.message, /gone\.yaml/);
    // with nothing after it failing, the base's field is what stops the build
    const alone = problemOf({ ...base, 'file:///e/root/kustomization.yaml': 'resources:\n- ../base\n' }, 'file:///e/root');
    assert.equal(alone.code, 'kustomize-not-rendered');
    assert.match(alone.message, /the transformer configuration 'conf\.yaml' is not read here: images/);
    // Kustomize goes on to the components too: a remote resource in one is the refusal
    const component = problemOf(
      {
        ...base,
        'file:///e/aso/kustomization.yaml': 'kind: Component\nresources:\n- https://example.invalid/operator.yaml\n',
        'file:///e/root/kustomization.yaml': 'resources:\n- ../base\ncomponents:\n- ../aso\n',
      },
      'file:///e/root',
    );
    assert.match(component.message, /remote resource 'https:\/\/example\.invalid\/operator\.yaml'/);
  });
});

describe('Kustomize rendering: cluster-scoped as Kustomize’s built-in schema knows it, by group and version', () => {
  it('the namespace transformer skips a kind only in the versions that schema has it cluster-scoped', () => {
    const doc = (apiVersion: string, kind: string, name: string) => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: ${name}\n  namespace: old\n`;
    const objectsText = [
      doc('flowcontrol.apiserver.k8s.io/v1beta1', 'FlowSchema', 'fs-beta'),
      doc('flowcontrol.apiserver.k8s.io/v1', 'FlowSchema', 'fs-v1'),
      doc('rbac.authorization.k8s.io/v1', 'ClusterRole', 'role'),
      doc('rbac.authorization.k8s.io/v1alpha1', 'ClusterRole', 'role-alpha'),
      doc('example.com/v1', 'ClusterRole', 'look-alike'),
      doc('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy', 'policy'),
      doc('storage.k8s.io/v1', 'StorageClass', 'fast'),
    ].join('---\n');
    const files: Record<string, string> = { 'file:///ns/all.yaml': objectsText, 'file:///ns/kustomization.yaml': 'namespace: new\nresources:\n- all.yaml\n' };
    const reader: FileReader = { read: (u) => files[u], list: (d) => (d === 'file:///ns' ? ['all.yaml', 'kustomization.yaml'] : undefined) };
    const namespaces = Object.fromEntries(objects(renderKustomization(reader, 'file:///ns')).map((o) => [o.metadata.name, o.metadata.namespace]));
    assert.deepEqual(namespaces, { 'fs-beta': 'old', 'fs-v1': 'new', role: 'old', 'role-alpha': 'new', 'look-alike': 'new', policy: 'new', fast: 'old' });
  });
});

describe('Kustomize rendering: a path outside the root that is not there', () => {
  it('is refused as missing, as Kustomize resolves a path before its load restrictor looks; one that is there is refused by the restrictor', () => {
    const files: Record<string, string> = {
      'file:///o/shared.yaml': 'apiVersion: v1\nkind: Service\nmetadata: {name: web}\n',
      'file:///o/app/kustomization.yaml': 'resources:\n- ../gone\n',
      'file:///o/app2/kustomization.yaml': 'resources:\n- ../shared.yaml\n',
    };
    const dirs: Record<string, string[]> = {
      'file:///o': ['shared.yaml', 'app', 'app2'],
      'file:///o/app': ['kustomization.yaml'],
      'file:///o/app2': ['kustomization.yaml'],
    };
    const reader: FileReader = { read: (u) => files[u], list: (d) => dirs[d], realUri: (u) => (files[u] !== undefined || dirs[u] ? u : undefined) };
    const missing = renderKustomization(reader, 'file:///o/app').problems;
    assert.equal(missing.length, 1);
    assert.match(missing[0].message, /'\.\.\/gone' is neither a file nor a folder/);
    const outside = renderKustomization(reader, 'file:///o/app2').problems;
    assert.equal(outside.length, 1);
    assert.match(outside[0].message, /security; file .*shared\.yaml' is not in or below/);
  });
});

describe('Kustomize rendering: a JSON patch test of null', () => {
  const run = (ops: string) => {
    const files: Record<string, string> = {
      'file:///jp/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: x\n',
      'file:///jp/p.yaml': ops,
      'file:///jp/kustomization.yaml': 'resources:\n- cm.yaml\npatches:\n- path: p.yaml\n  target:\n    kind: ConfigMap\n',
    };
    return renderKustomization(
      { read: (u) => files[u], list: (d) => (d === 'file:///jp' ? ['cm.yaml', 'p.yaml', 'kustomization.yaml'] : undefined) },
      'file:///jp',
    );
  };
  it('passes on a member that is not there (as evanphx/json-patch, Kustomize’s), and fails on one that is or whose parent is not', () => {
    assert.deepEqual(find(run('- op: test\n  path: /data/b\n  value: null\n- op: add\n  path: /data/b\n  value: two\n'), 'ConfigMap', 'c').data, {
      a: 'x',
      b: 'two',
    });
    assert.match(run('- op: test\n  path: /data/a\n  value: null\n').problems[0]?.message ?? '', /test of '\/data\/a' failed/);
    assert.equal(run('- op: test\n  path: /spec/x\n  value: null\n').rendered, undefined);
  });
});
