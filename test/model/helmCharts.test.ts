// Chart discovery (pure: URIs and texts in, charts out), the template line index, and the helm settings.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discoverCharts, resolveUri } from '../../server/src/model/helmCharts';
import { indexTemplate, mapHelmOutput } from '../../server/src/model/helmMapping';
import { sourceOf } from '../../server/src/model/rendered';
import { readSettings } from '../../server/src/workspace/settings';
import { cpuClock } from '../helpers/cpuClock';

const w = 'file:///w';
const files: Record<string, string> = {
  [`${w}/shop/Chart.yaml`]:
    'apiVersion: v2\nname: shop\nversion: 1.0.0\ndependencies:\n  - name: cache\n    version: 0.1.0\n  - name: queue\n    version: ~2.0.0\n  - name: search\n    version: 1.0.0\n',
  [`${w}/shop/values.yaml`]: 'a: 1\n',
  [`${w}/shop/ci/prod-values.yaml`]: 'a: 2\n',
  [`${w}/shop/ci/notes.yaml`]: 'not a value set: true\n',
  [`${w}/shop/templates/svc.yaml`]: 'apiVersion: v1\nkind: Service\n',
  [`${w}/shop/templates/sub/cm.yaml`]: 'apiVersion: v1\nkind: ConfigMap\n',
  [`${w}/shop/charts/cache/Chart.yaml`]: 'apiVersion: v2\nname: cache\nversion: 0.1.0\n',
  [`${w}/shop/charts/cache/templates/sts.yaml`]: 'kind: StatefulSet\n',
  [`${w}/shop/charts/queue-2.0.3.tgz`]: '',
  [`${w}/legacy/Chart.yaml`]: 'name: legacy\nversion: 0.1.0\n',
  [`${w}/legacy/requirements.yaml`]: 'dependencies:\n  - name: db\n    version: 1.0.0\n',
  [`${w}/legacy/templates/a.yaml`]: 'kind: Service\n',
  [`${w}/other/Chart.yaml`]: 'apiVersion: v3\nname: other\n',
  [`${w}/other/templates/x.yaml`]: 'kind: Service\n',
  [`${w}/plain/templates/y.yaml`]: 'kind: Service\n',
};
const textOf = (u: string) => files[u];

describe('chart discovery', () => {
  const found = discoverCharts(Object.keys(files), textOf, {
    namespace: 'shop',
    base: w,
    releases: [{ chart: 'shop', name: 'shop-eu', namespace: 'eu', values: ['deploy/eu.yaml'], set: ['replicas=3'] }],
  });
  const chart = (root: string) => found.charts.find((c) => c.root === `${w}/${root}`)!;

  it('finds chart roots of apiVersion v1 and v2 (none for other versions) and their subcharts', () => {
    assert.deepEqual(
      found.charts.map((c) => [c.root.slice(w.length + 1), c.name, c.apiVersion, c.parent?.slice(w.length + 1)]),
      [
        ['legacy', 'legacy', 'v1', undefined],
        ['shop', 'shop', 'v2', undefined],
        ['shop/charts/cache', 'cache', 'v2', 'shop'],
      ],
    );
    assert.deepEqual(chart('shop').subcharts, [`${w}/shop/charts/cache`]);
    assert.deepEqual(chart('shop').packaged, [`${w}/shop/charts/queue-2.0.3.tgz`]);
  });

  it('tells which declared dependencies are present: a folder, a packaged .tgz, or missing (v2 in Chart.yaml, v1 in requirements.yaml)', () => {
    assert.deepEqual(
      chart('shop').dependencies.map((d) => [d.name, d.present]),
      [
        ['cache', true],
        ['queue', true],
        ['search', false],
      ],
    );
    const [db] = chart('legacy').dependencies;
    assert.equal(db.declaredIn, `${w}/legacy/requirements.yaml`);
    assert.equal(db.present, false);
    assert.equal(files[db.declaredIn].slice(db.span.start, db.span.end).trimEnd(), 'name: db\n    version: 1.0.0');
  });

  it('the templates of charts and subcharts are templates; a templates/ folder outside a chart is not', () => {
    assert.deepEqual([...found.templates].sort(), [
      `${w}/legacy/templates/a.yaml`,
      `${w}/shop/charts/cache/templates/sts.yaml`,
      `${w}/shop/templates/sub/cm.yaml`,
      `${w}/shop/templates/svc.yaml`,
    ]);
  });

  it('value sets: values.yaml alone, each ci/*-values.yaml, and the releases of the setting; none for a subchart', () => {
    assert.deepEqual(chart('shop').valueSets, [
      { id: 'values.yaml', label: 'values.yaml', release: 'shop', namespace: 'shop', valuesFiles: [], set: [] },
      {
        id: 'ci/prod-values.yaml',
        label: 'values ci/prod-values.yaml',
        release: 'shop',
        namespace: 'shop',
        valuesFiles: [`${w}/shop/ci/prod-values.yaml`],
        set: [],
      },
      {
        id: 'release shop-eu',
        label: 'release shop-eu, values ../deploy/eu.yaml, --set replicas=3',
        release: 'shop-eu',
        namespace: 'eu',
        valuesFiles: [`${w}/deploy/eu.yaml`],
        set: ['replicas=3'],
      },
    ]);
    assert.deepEqual(chart('shop/charts/cache').valueSets, []);
  });

  it('explicit values files replace the default value sets', () => {
    const only = discoverCharts(Object.keys(files), textOf, { namespace: 'x', valuesFiles: [`${w}/shop/ci/prod-values.yaml`] });
    assert.deepEqual(
      only.charts.find((c) => c.name === 'shop')!.valueSets.map((v) => v.label),
      ['values ci/prod-values.yaml'],
    );
  });

  it('resolves setting paths from the workspace folder', () => {
    assert.equal(resolveUri(w, './a/../b/c/'), `${w}/b/c`);
    assert.equal(resolveUri(w, '/abs/path'), '/abs/path');
    assert.equal(resolveUri(w, 'file:///x/y'), 'file:///x/y');
  });

  it('never throws on broken chart files', () => {
    const broken = { 'a/Chart.yaml': 'name: [unclosed', 'b/Chart.yaml': '\u0000\u0001', 'c/Chart.yaml': 'apiVersion: v2\n', 'd/Chart.yaml': '- a\n- b\n' };
    assert.deepEqual(discoverCharts(Object.keys(broken), (u) => broken[u as keyof typeof broken], { namespace: 'default' }).charts, []);
  });
});

describe('template line index', () => {
  const template = [
    'apiVersion: v1',
    'kind: Service',
    'metadata:',
    '  name: {{ .Release.Name }}-web',
    '  labels:',
    '    {{- include "x.labels" . | nindent 4 }}',
    'spec:',
    '  {{- if .Values.headless }}',
    '  clusterIP: None',
    '  {{- end }}',
    '  selector:',
    '    app: {{ .Values.app }} # the pods',
    '  ports:',
    '    - name: http',
    '      port: 80',
    '    - name: admin',
    '      port: 81',
    '---',
    'kind: ConfigMap',
    '',
  ].join('\n');

  it('indexes keys by their path, passing over template actions, with each value text', () => {
    const idx = indexTemplate(template);
    const value = (path: string, i = 0) => {
      const k = idx.byPath.get(path)![i];
      return template.slice(k.valueSpan!.start, k.valueSpan!.end);
    };
    assert.equal(value('metadata.name'), '{{ .Release.Name }}-web');
    assert.equal(value('spec.clusterIP'), 'None');
    assert.equal(value('spec.selector.app'), '{{ .Values.app }}');
    assert.equal(value('spec.ports.port', 1), '81');
    assert.equal(idx.byPath.get('spec.ports.name')!.length, 2);
    assert.equal(idx.sections, 2);
    assert.equal(idx.byPath.get('kind')![1].section, 1);
  });

  it('maps rendered keys and values to their template lines, and what comes from an include to the enclosing key', () => {
    const chart = discoverCharts(['c/Chart.yaml', 'c/templates/svc.yaml'], (u) => (u === 'c/Chart.yaml' ? 'apiVersion: v2\nname: web\n' : template), {
      namespace: 'default',
    }).charts[0];
    const rendered =
      '---\n# Source: web/templates/svc.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: r-web\n  labels:\n    team: a\nspec:\n  selector:\n    app: shop\n  ports:\n    - name: http\n      port: 80\n    - name: admin\n      port: 81\n';
    const mapped = mapHelmOutput(rendered, chart, [chart], chart.valueSets[0], (u) => (u === 'c/templates/svc.yaml' ? template : undefined));
    const lineOf = (needle: string, nth = 0) => {
      let start = -1;
      for (let i = 0; i <= nth; i++) start = rendered.indexOf(needle, start + 1);
      const m = sourceOf(mapped.rendered, { start, end: start + needle.length })!;
      assert.equal(m.uri, 'c/templates/svc.yaml');
      assert.equal(m.via, 'values.yaml');
      return template.slice(0, m.span.start).split('\n').length;
    };
    assert.equal(lineOf('r-web'), 4);
    assert.equal(lineOf('shop'), 12);
    assert.equal(lineOf('81'), 17);
    assert.equal(lineOf('admin'), 16);
    // `team: a` comes from the include: the labels key
    assert.equal(lineOf('team: a'), 5);
    assert.deepEqual(
      mapped.documents.map((d) => d.templateUri),
      ['c/templates/svc.yaml'],
    );
  });
});

describe('helm settings', () => {
  const raw = {
    helm: {
      path: ' /opt/helm ',
      timeoutSeconds: 3,
      releases: [
        { chart: 'charts/shop', name: 'shop-eu', namespace: 'eu', values: ['eu.yaml', 7], set: ['a=1', 'nope'] },
        { chart: 'charts/shop', name: 'Bad_Name' },
        { name: 'no-chart' },
        'junk',
      ],
    },
  };

  it('reads path, timeout and releases in a trusted workspace, dropping malformed entries', () => {
    const h = readSettings(raw, true).helm;
    assert.equal(h.allowed, true);
    assert.equal(h.path, '/opt/helm');
    assert.equal(h.timeoutMs, 3000);
    assert.deepEqual(h.releases, [{ chart: 'charts/shop', name: 'shop-eu', namespace: 'eu', values: [], set: ['a=1'] }]);
    assert.equal(readSettings({ helm: { timeoutSeconds: -1 } }, true).helm.timeoutMs, 10_000);
  });

  it('ignores every helm setting, and forbids running helm, in an untrusted workspace', () => {
    assert.deepEqual(readSettings(raw).helm, { timeoutMs: 10_000, releases: [], allowed: false });
    assert.deepEqual(readSettings(raw, false).helm, readSettings(undefined).helm);
  });
});

describe('hostile chart text', () => {
  it('indexes a template with a megabyte-long line and maps output nested thousands of levels deep, quickly and without throwing', () => {
    const cpuMs = cpuClock();
    const long = `a${' '.repeat(1_000_000)}b\nkind: Service\n`;
    assert.deepEqual([...indexTemplate(long).byPath.keys()], ['kind']);
    const chart = discoverCharts(['c/Chart.yaml'], () => 'apiVersion: v2\nname: c\n', { namespace: 'default' }).charts[0];
    const deep = `# Source: c/templates/x.yaml\n${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    const mapped = mapHelmOutput(deep, chart, [chart], chart.valueSets[0], () => undefined);
    assert.deepEqual(mapped.rendered.mappings, []);
    assert.ok(cpuMs() < 2000, `took ${cpuMs()} ms`);
  });
});
