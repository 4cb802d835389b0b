// The source map of an analysis with a Kustomize build and two Helm value sets: places, the trace, the Service list and
// findings on every render go back to the lines that made them, in one map per analysis and set of renders.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { listServices } from '../../server/src/features/serviceList';
import { traceResultFor } from '../../server/src/features/traceResult';
import { discoverCharts, renderUri } from '../../server/src/model/helmCharts';
import { mapHelmOutput } from '../../server/src/model/helmMapping';
import { lineIndexesOf } from '../../server/src/model/lineIndex';
import { sourceMapOf, type HelmRender } from '../../server/src/project/sourceMap';

const w = 'file:///w';
const service = (name: string, app: string) =>
  ['apiVersion: v1', 'kind: Service', 'metadata:', `  name: ${name}`, 'spec:', '  selector:', `    app: ${app}`, '  ports:', '    - port: 80', ''].join('\n');
const deployment = (name: string) =>
  [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  selector:',
    '    matchLabels:',
    `      app: ${name}`,
    '  template:',
    '    metadata:',
    '      labels:',
    `        app: ${name}`,
    '    spec:',
    '      containers:',
    `        - name: ${name}`,
    '          image: x:1',
    '',
  ].join('\n');

const files: Record<string, string> = {
  [`${w}/kust/base/kustomization.yaml`]: 'resources:\n  - web.yaml\n',
  [`${w}/kust/base/web.yaml`]: `${service('web', 'web')}---\n${deployment('web')}`,
  [`${w}/kust/prod/kustomization.yaml`]: 'namespace: shop\nresources:\n  - ../base\n',
  [`${w}/charts/api/Chart.yaml`]: 'apiVersion: v2\nname: api\nversion: 0.1.0\n',
  [`${w}/charts/api/values.yaml`]: 'replicas: 1\n',
  [`${w}/charts/api/ci/prod-values.yaml`]: 'replicas: 2\n',
  // the template has no expressions: helm prints it as it is; its selector has a typo of the Deployment's label
  [`${w}/charts/api/templates/svc.yaml`]: `${service('api', 'apii')}---\n${deployment('api')}`,
};
const textOf = (u: string) => files[u];
const discovery = discoverCharts(Object.keys(files), textOf, { namespace: 'default' });
const chart = discovery.charts[0];
const renders = new Map<string, HelmRender>(
  chart.valueSets.map((valueSet) => {
    const output = `---\n# Source: api/templates/svc.yaml\n${service('api', 'apii')}---\n# Source: api/templates/svc.yaml\n${deployment('api')}`;
    const { rendered } = mapHelmOutput(output, chart, discovery.charts, valueSet, textOf);
    const unit = {
      kind: 'helm',
      id: `helm:${chart.root}#${valueSet.id}`,
      label: valueSet.label,
      definedBy: chart.chartYaml,
      inputs: [],
      rendered,
      problems: [],
    } as const;
    return [renderUri(chart, valueSet), { chart, valueSet, unit }];
  }),
);
const manifests = Object.entries(files)
  .filter(([u]) => u.includes('/kust/'))
  .map(([uri, text]) => ({ uri, text }));
const analysis = analyzeTexts([...manifests, ...[...renders].map(([uri, r]) => ({ uri, text: r.unit.rendered!.text, defaultNamespace: 'default' }))]);
const linesOf = lineIndexesOf(Object.entries(files).map(([uri, text]) => ({ uri, text })));
const input = { analysis, renders, charts: discovery, lines: (u: string) => (files[u] === undefined ? undefined : linesOf(u)) };
const map = sourceMapOf(input);
const build = `${w}/kust/prod/kustomization.yaml#rendered`;
const template = `${w}/charts/api/templates/svc.yaml`;
const lineOf = (uri: string, needle: string) => files[uri].slice(0, files[uri].indexOf(needle)).split('\n').length - 1;

describe('the source map of an analysis with Kustomize and Helm renders', () => {
  it('is made once per analysis and set of renders', () => {
    assert.equal(sourceMapOf({ ...input }), map);
    assert.notEqual(sourceMapOf({ ...input, renders: new Map() }), map);
  });

  it('maps a place in a Kustomize build to the base line and one in a Helm render to the template line', () => {
    const web = analysis.cluster.services.find((s) => s.name === 'web')!;
    assert.equal(web.uri, build);
    const inBase = map.location(web.uri, web.selectorSpan!);
    assert.equal(inBase.uri, `${w}/kust/base/web.yaml`);
    assert.match(files[inBase.uri].slice(inBase.span.start, inBase.span.end), /^selector:\n {4}app: web\n/);
    const api = analysis.cluster.services.find((s) => s.name === 'api')!;
    const inTemplate = map.location(api.uri, api.nameSpan);
    assert.deepEqual([inTemplate.uri, files[template].slice(inTemplate.span.start, inTemplate.span.end)], [template, 'api']);
    const plain = { start: 1, end: 2 };
    assert.deepEqual(map.location(`${w}/plain.yaml`, plain), { uri: `${w}/plain.yaml`, span: plain });
  });

  it("puts a trace's Service and nodes on source lines, for either renderer", () => {
    const web = traceResultFor(analysis, { namespace: 'shop', name: 'web', uri: build })!;
    assert.equal(web.graph.service.source?.uri, build);
    const mappedWeb = map.trace(web);
    assert.deepEqual(
      [mappedWeb.graph.service.source?.uri, mappedWeb.graph.service.source?.line],
      [`${w}/kust/base/web.yaml`, lineOf(`${w}/kust/base/web.yaml`, '  name: web')],
    );
    assert.ok(mappedWeb.graph.nodes.every((n) => !n.source || !n.source.uri.includes('#')));
    const workload = mappedWeb.graph.nodes.find((n) => n.kind === 'workload')!;
    assert.deepEqual(
      [workload.source?.uri, workload.source?.line],
      [`${w}/kust/base/web.yaml`, lineOf(`${w}/kust/base/web.yaml`, '  name: web\nspec:\n  selector:\n    matchLabels')],
    );
    const api = traceResultFor(analysis, { namespace: 'default', name: 'api', uri: [...renders.keys()][0] })!;
    const mappedApi = map.trace(api);
    assert.deepEqual([mappedApi.graph.service.source?.uri, mappedApi.graph.service.source?.line], [template, lineOf(template, '  name: api')]);
  });

  it("lists a build's Service with where it is written, and a Service two value sets render once, naming both", () => {
    const listed = map.services(listServices(analysis));
    const web = listed.filter((s) => s.name === 'web');
    assert.equal(web.length, 1);
    assert.equal(web[0].source?.uri, build, 'the place in the build, which a trace request names');
    assert.deepEqual([web[0].definedAt?.uri, web[0].definedAt?.line], [`${w}/kust/base/web.yaml`, lineOf(`${w}/kust/base/web.yaml`, '  name: web')]);
    const api = listed.filter((s) => s.name === 'api');
    assert.equal(api.length, 1);
    assert.equal(api[0].source?.uri, template);
    // named in the order the list has them
    const order = listServices(analysis)
      .filter((x) => x.name === 'api')
      .map((x) => renders.get(x.source!.uri)!.valueSet.label.replace(/^values /, ''));
    assert.equal(api[0].release, `release api, value sets ${order.join(' and ')}`);
  });

  it('maps findings on Helm renders to the template, one finding naming both value sets', () => {
    const found = map.findings(diagnosticsFor(analysis)).filter((f) => f.code === 'service-selector-no-match');
    const api = found.filter((f) => f.uri === template);
    assert.equal(api.length, 1, JSON.stringify(found, null, 2));
    assert.match(api[0].message, /\nin release api, value sets values\.yaml and ci\/prod-values\.yaml: rendered `apii`$/);
    assert.ok(found.every((f) => !f.uri.includes('#')));
  });
});
