// An edit of a file no Kustomize build reads hands the last builds back (kustomize/applyUnits.ts `unread`); every
// other edit goes through the whole decision again. Either way the findings are those of a fresh analysis.

import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { diagnosticsFor, diagnosticsFromScratch } from '../../server/src/engine/evaluate';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { createWorkspace } from '../../server/src/workspace/workspace';

const root = 'file:///unread-edits';

const deployment = (name: string, label: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  selector: {matchLabels: {app: ${label}}}
  template:
    metadata: {labels: {app: ${label}}}
    spec: {containers: [{name: a, image: a, ports: [{name: http, containerPort: 8080}]}]}
`;
const service = (name: string, selector: string) => `apiVersion: v1
kind: Service
metadata: {name: ${name}}
spec:
  selector: {app: ${selector}}
  ports: [{port: 80, targetPort: http}]
`;

function initial(): Map<string, string> {
  return new Map([
    [`${root}/base/kustomization.yaml`, 'resources: [web.yaml]\n'],
    [`${root}/base/web.yaml`, `${deployment('web', 'web')}---\n${service('web', 'web')}`],
    [`${root}/overlays/a/kustomization.yaml`, 'resources: [../../base]\nnamePrefix: a-\n'],
    [
      `${root}/overlays/b/kustomization.yaml`,
      'resources: [../../base, extra.yaml]\nnamePrefix: b-\nconfigMapGenerator:\n- name: settings\n  literals: [URL=http://b-web:80]\n',
    ],
    [`${root}/overlays/b/extra.yaml`, service('extra', 'web')],
    // not evaluated natively (a label selector in a replacement): the real Kustomize's build is asked for on every snapshot
    [
      `${root}/replaced/kustomization.yaml`,
      'resources: [svc.yaml]\nreplacements:\n- source: {kind: Service, name: r}\n  targets:\n  - select: {kind: Service, labelSelector: example.org/none=none}\n',
    ],
    [`${root}/replaced/svc.yaml`, service('r', 'web')],
    [`${root}/plain/app.yaml`, `${deployment('api', 'api')}---\n${service('api', 'api')}`],
    [
      `${root}/plain/other.yaml`,
      `${service('other', 'nothing')}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: callers}\ndata: {URL: "http://api.default.svc.cluster.local:80"}\n`,
    ],
  ]);
}

describe('Kustomize builds over edits of files no build reads', () => {
  it('the same findings as a fresh analysis after each edit, and the builds handed back while only plain files change', () => {
    const texts = initial();
    const ws = createWorkspace();
    ws.replaceDisk(new Map(texts), []);
    let snap = ws.snapshot();
    const fresh = () => diagnosticsFromScratch(analyzeTexts([...texts].map(([uri, text]) => ({ uri, text }))));
    assert.deepEqual(diagnosticsFor(snap.analysis), fresh());
    const rendered = () => snap.analysis.cluster.files.filter((f) => f.rendered);
    const builds = rendered();
    assert.equal(builds.length, 2, 'one rendered file per overlay (the root the real Kustomize would build is not rendered)');
    let version = 1;
    const edit = (path: string, text: string) => {
      const uri = `${root}/${path}`;
      texts.set(uri, text);
      ws.open(uri, text, ++version);
      snap = ws.snapshot();
      assert.deepEqual(diagnosticsFor(snap.analysis, snap.earlier), fresh(), `after the edit of ${path}`);
    };
    const wanted = snap.kustomizeWanted.map((u) => u.definedBy);
    assert.deepEqual(wanted, [`${root}/replaced/kustomization.yaml`]);
    // plain files: the builds are the same objects
    edit('plain/app.yaml', `${deployment('api', 'api-v2')}---\n${service('api', 'api')}`);
    assert.deepEqual(
      snap.kustomizeWanted.map((u) => u.definedBy),
      wanted,
      'the real build is still wanted',
    );
    assert.ok(diagnosticsFor(snap.analysis, snap.earlier).some((f) => f.code === 'service-selector-no-match' && f.uri.endsWith('plain/app.yaml')));
    assert.deepEqual(rendered(), builds, 'an edit of a plain file renders nothing again');
    edit('plain/other.yaml', service('other', 'api'));
    // the real Kustomize's build arrives (a stand-in here): a plain edit then takes the whole way, and the build is
    // wanted once, not once per attempt
    const [native] = snap.kustomizeWanted;
    ws.setKustomizeBuilds(new Map([[native.definedBy, { ...native }]]));
    edit('plain/app.yaml', `${deployment('api', 'api')}---\n${service('api', 'api')}`);
    assert.deepEqual(
      snap.kustomizeWanted.map((u) => u.definedBy),
      wanted,
      'wanted once',
    );
    assert.deepEqual(rendered(), builds);
    // a file a build reads, a kustomization, a file in a kustomization's folder: rendered again
    edit('base/web.yaml', `${deployment('web', 'web')}---\n${service('web', 'wbe')}`);
    assert.notDeepEqual(rendered(), builds, 'an edit of a base renders its overlays again');
    assert.ok(diagnosticsFor(snap.analysis, snap.earlier).some((f) => f.code === 'service-selector-no-match' && f.uri.endsWith('base/web.yaml')));
    edit('plain/app.yaml', `${deployment('api', 'api-v3')}---\n${service('api', 'api')}`);
    edit('overlays/a/kustomization.yaml', 'resources: [../../base]\nnamePrefix: aa-\n');
    edit('overlays/b/extra.yaml', service('extra', 'nothing'));
    edit('base/web.yaml', `${deployment('web', 'web')}---\n${service('web', 'web')}`);
    edit('plain/other.yaml', service('other', 'nothing'));
    // a plain file that comes and goes (the list of URIs changes)
    const added = `${root}/plain/added.yaml`;
    texts.set(added, service('added', 'web'));
    ws.open(added, texts.get(added)!, ++version);
    snap = ws.snapshot();
    assert.deepEqual(diagnosticsFor(snap.analysis, snap.earlier), fresh(), 'after a file came');
    edit('plain/app.yaml', `${deployment('api', 'api')}---\n${service('api', 'api')}`);
  });
});
