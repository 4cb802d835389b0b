// The text-level pieces behind the rules' fixes: near-miss names, YAML scalars, map insertions, and new documents.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { analyzeTexts } from '../server/src/features/analyzeTexts';
import { at, isMap } from '../server/src/model/yamlTree';
import { closestName, editDistance } from '../server/src/rules/closestName';
import { insertMapEntry } from '../server/src/rules/insertMapEntry';
import { runRules } from '../server/src/engine/evaluate';
import { statefulsetServiceMissing } from '../server/src/rules/statefulsetServiceMissing';
import { yamlScalar } from '../server/src/rules/yamlScalar';
import { applyFix } from './helpers/applyFix';
import { treeOf } from '../server/src/model/trees';

describe('closestName', () => {
  it('counts a swap of neighbouring letters as one edit', () => {
    assert.equal(editDistance('stabel', 'stable'), 1);
    assert.equal(editDistance('ngnix', 'nginx'), 1);
    assert.equal(editDistance('', 'abc'), 3);
  });
  it('suggests a clear near miss and nothing for unrelated names', () => {
    assert.deepEqual(closestName('ngnix', ['nginx', 'redis', 'api']), { name: 'nginx', distance: 1, clear: true });
    assert.equal(closestName('billing', ['nginx', 'redis']), undefined);
  });
  it('is not clear when two candidates are equally close', () => {
    assert.equal(closestName('web', ['wen', 'wea'])?.clear, false);
  });
});

describe('yamlScalar', () => {
  it('quotes strings that YAML would read as something else', () => {
    for (const v of ['stable', 'app.kubernetes.io/name', '2', 'true', 'no', 'null', '1.5', '', 'a: b', '-x', '0x1f']) {
      assert.equal(parse(`k: ${yamlScalar(v)}`).k, v, `round trip of ${JSON.stringify(v)}`);
    }
    assert.equal(yamlScalar('stable'), 'stable');
  });
});

describe('insertMapEntry', () => {
  const specOf = (text: string) => {
    const a = analyzeTexts([{ uri: 'file:///s.yaml', text }]);
    const spec = at(treeOf(a.cluster.services[0]), 'spec');
    assert.ok(isMap(spec));
    return spec;
  };
  const insert = (text: string) => {
    const edit = insertMapEntry('file:///s.yaml', text, specOf(text), 'clusterIP: None');
    assert.ok(edit);
    return applyFix([{ uri: 'file:///s.yaml', text }], { title: 't', edits: [edit] })[0].text;
  };
  it('adds a block entry at the indentation of the first key', () => {
    const out = insert('apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n    ports:\n      - port: 80\n');
    assert.equal(parse(out).spec.clusterIP, 'None');
    assert.equal(parse(out).spec.ports[0].port, 80);
  });
  it('adds a flow entry inside braces, also into an empty mapping', () => {
    assert.equal(parse(insert('apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec: {ports: [{port: 80}]}\n')).spec.clusterIP, 'None');
    assert.deepEqual(parse(insert('apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec: {}\n')).spec, { clusterIP: 'None' });
  });
  it('keeps Windows line endings', () => {
    const out = insert('apiVersion: v1\r\nkind: Service\r\nmetadata: {name: a}\r\nspec:\r\n  ports:\r\n    - port: 80\r\n');
    assert.ok(!/[^\r]\n/.test(out), 'a bare newline was inserted');
    assert.equal(parse(out).spec.clusterIP, 'None');
  });
});

describe('creating the headless Service of a StatefulSet', () => {
  const sts = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec:
  serviceName: nginx
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, version: "2"}}
    spec:
      containers: [{name: web, image: nginx, ports: [{name: http, containerPort: 80}, {containerPort: 9000, protocol: UDP}]}]`;
  const created = (text: string) => {
    const sources = [{ uri: 'file:///w.yaml', text }];
    const fix = runRules(analyzeTexts(sources), [statefulsetServiceMissing])[0].fixes!.find((f) => f.title.startsWith('Create'));
    assert.ok(fix, 'no create fix offered');
    const fixed = applyFix(sources, fix);
    assert.deepEqual(runRules(analyzeTexts(fixed), [statefulsetServiceMissing]), []);
    return analyzeTexts(fixed).cluster;
  };
  it('appends a document when the StatefulSet is last and the file has no final newline', () => {
    const [svc] = created(sts).services;
    assert.equal(svc.name, 'nginx');
    assert.ok(svc.headless);
    assert.deepEqual([...svc.selector!], [['app', 'web']]);
    assert.deepEqual(
      svc.ports.map((p) => [p.name, p.port, p.protocol]),
      [
        ['http', 80, 'TCP'],
        ['udp-9000', 9000, 'UDP'],
      ],
    );
  });
  it('inserts between documents, keeping the next one intact', () => {
    const next = '\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: after}\ndata: {a: b}\n';
    const cluster = created(sts + next);
    assert.equal(cluster.services.length, 1);
    assert.deepEqual(
      cluster.configMaps.map((c) => c.name),
      ['after'],
    );
    assert.deepEqual(cluster.files[0].problems, []);
  });
});
