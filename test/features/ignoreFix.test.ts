// "Ignore <code> here…" (features/ignoreFix.ts): the annotation goes where the object's metadata is written, in its
// style; a value already there gets the new line added; the result reads back as the suppression it means.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { ignoreFixesAt } from '../../server/src/features/ignoreFix';
import { applySuppressions } from '../../server/src/features/suppressions';
import { ignoreAnnotationValue } from '../../server/src/protocol';

const service = (metadata: string) => `apiVersion: v1
kind: Service
${metadata}
spec:
  selector: {app: nothing}
  ports: [{port: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: main, image: nginx}]}
`;

/** The text after the fix for service-selector-no-match with `reason`, and what the suppressions then make of it. */
function ignored(text: string, reason: string): { text: string; ignored: string[] } {
  const analysis = analyzeTexts([{ uri: 'a.yaml', text }]);
  const findings = diagnosticsFor(analysis);
  const finding = findings.find((f) => f.code === 'service-selector-no-match')!;
  const [fix] = ignoreFixesAt(findings, analysis, 'a.yaml', finding.span).filter((f) => f.code === 'service-selector-no-match');
  assert.ok(fix, 'a fix is offered');
  const after = text.slice(0, fix.span.start) + fix.before + ignoreAnnotationValue(fix, reason) + fix.after + text.slice(fix.span.end);
  const again = analyzeTexts([{ uri: 'a.yaml', text: after }]);
  return { text: after, ignored: applySuppressions(diagnosticsFor(again), again).ignored.map((i) => `${i.finding.code}: ${i.reason}`) };
}

describe('the "Ignore <code> here…" edit', () => {
  it('adds an annotations mapping to block metadata, at its keys’ indentation', () => {
    const r = ignored(service('metadata:\n  name: web'), 'pods come from an operator');
    assert.match(
      r.text,
      /^metadata:\n {2}annotations:\n {4}kube-netlens\.io\/ignore: "service-selector-no-match: pods come from an operator"\n {2}name: web\n/m,
    );
    assert.deepEqual(r.ignored, ['service-selector-no-match: pods come from an operator']);
  });

  it('adds the entry to annotations that exist, and to flow-style metadata', () => {
    assert.match(
      ignored(service('metadata:\n  name: web\n  annotations:\n    team: shop'), 'r').text,
      /annotations:\n {4}kube-netlens\.io\/ignore: "service-selector-no-match: r"\n {4}team: shop/,
    );
    const flow = ignored(service('metadata: {name: web}'), 'a reason: with a colon, "quotes" and a # hash');
    assert.match(
      flow.text,
      /^metadata: \{annotations: \{kube-netlens\.io\/ignore: "service-selector-no-match: a reason: with a colon, \\"quotes\\" and a # hash"\}, name: web\}/m,
    );
    assert.deepEqual(flow.ignored, ['service-selector-no-match: a reason: with a colon, "quotes" and a # hash']);
  });

  it('adds a line to an annotation that ignores other codes already', () => {
    const r = ignored(service('metadata:\n  name: web\n  annotations:\n    kube-netlens.io/ignore: "service-port-not-exposed: metrics port"'), 'later');
    assert.match(r.text, /kube-netlens\.io\/ignore: "service-port-not-exposed: metrics port\\nservice-selector-no-match: later"/);
    assert.deepEqual(r.ignored, ['service-selector-no-match: later']);
  });

  describe('on a workload’s pod template', () => {
    /** The text after "Ignore workload-selector-mismatch on the pod template…" with `reason`, and what is then ignored, by what. */
    function onTemplate(text: string, reason: string): { text: string; ignored: string[]; titles: string[] } {
      const analysis = analyzeTexts([{ uri: 'a.yaml', text }]);
      const findings = diagnosticsFor(analysis);
      const finding = findings.find((f) => f.code === 'workload-selector-mismatch');
      assert.ok(finding, JSON.stringify(findings.map((f) => f.code)));
      const fixes = ignoreFixesAt(findings, analysis, 'a.yaml', finding.span).filter((f) => f.code === 'workload-selector-mismatch');
      const fix = fixes.find((f) => f.title === 'Ignore workload-selector-mismatch on the pod template…');
      assert.ok(fix, JSON.stringify(fixes.map((f) => f.title)));
      const after = text.slice(0, fix.span.start) + fix.before + ignoreAnnotationValue(fix, reason) + fix.after + text.slice(fix.span.end);
      const again = analyzeTexts([{ uri: 'a.yaml', text: after }]);
      const ignored = applySuppressions(diagnosticsFor(again), again).ignored.map((i) => `${i.finding.code} by ${i.by}: ${i.reason}`);
      return { text: after, ignored, titles: fixes.map((f) => f.title) };
    }
    const deployment = (template: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: webb}
  template:
${template}`;

    it('offers the object’s metadata first, then the pod template, whose annotation then ignores the finding', () => {
      const r = onTemplate(deployment('    metadata:\n      labels: {app: web}\n    spec:\n      containers: [{name: main, image: nginx}]\n'), 'a migration');
      assert.deepEqual(r.titles, ['Ignore workload-selector-mismatch here…', 'Ignore workload-selector-mismatch on the pod template…']);
      assert.match(
        r.text,
        /\n {2}template:\n {4}metadata:\n {6}annotations:\n {8}kube-netlens\.io\/ignore: "workload-selector-mismatch: a migration"\n {6}labels: \{app: web\}\n/,
      );
      assert.match(r.text, /^metadata:\n {2}name: web\n/m, 'the Deployment’s own metadata is left as it was');
      assert.deepEqual(r.ignored, ['workload-selector-mismatch by annotation on the pod template of Deployment default/web: a migration']);
    });

    it('makes the pod template’s metadata when it has none, in block and flow style', () => {
      // no labels on the pods at all: the selector matches nothing the template makes
      const block = onTemplate(deployment('    spec:\n      containers: [{name: main, image: nginx}]\n'), 'generated');
      assert.match(
        block.text,
        /\n {2}template:\n {4}metadata:\n {6}annotations:\n {8}kube-netlens\.io\/ignore: "workload-selector-mismatch: generated"\n {4}spec:\n/,
      );
      assert.deepEqual(block.ignored, ['workload-selector-mismatch by annotation on the pod template of Deployment default/web: generated']);
      const flow = onTemplate(deployment('    {spec: {containers: [{name: main, image: nginx}]}}\n'), 'generated');
      assert.match(
        flow.text,
        /\n {2}template:\n {4}\{metadata: \{annotations: \{kube-netlens\.io\/ignore: "workload-selector-mismatch: generated"\}\}, spec: /,
      );
      assert.deepEqual(flow.ignored, ['workload-selector-mismatch by annotation on the pod template of Deployment default/web: generated']);
    });

    it('adds a line to a pod-template annotation that ignores other codes already', () => {
      const r = onTemplate(
        deployment(
          '    metadata:\n      labels: {app: web}\n      annotations:\n        kube-netlens.io/ignore: "hostnetwork-dns-policy: legacy"\n    spec:\n      containers: [{name: main, image: nginx}]\n',
        ),
        'later',
      );
      assert.match(r.text, /kube-netlens\.io\/ignore: "hostnetwork-dns-policy: legacy\\nworkload-selector-mismatch: later"/);
      assert.deepEqual(r.ignored, ['workload-selector-mismatch by annotation on the pod template of Deployment default/web: later']);
    });

    it('annotates a CronJob’s pod template under its jobTemplate', () => {
      // the API server rejects port 70000 (semantics §6): an api-validation finding on the CronJob
      const text = `apiVersion: batch/v1
kind: CronJob
metadata: {name: sync}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: main, image: registry.example/sync:1, ports: [{containerPort: 70000}]}]
`;
      const analysis = analyzeTexts([{ uri: 'a.yaml', text }]);
      const findings = diagnosticsFor(analysis);
      const finding = findings.find((f) => f.code === 'api-validation');
      assert.ok(finding, JSON.stringify(findings.map((f) => f.code)));
      const fix = ignoreFixesAt(findings, analysis, 'a.yaml', finding.span).find((f) => f.title === 'Ignore api-validation on the pod template…');
      assert.ok(fix);
      const after =
        text.slice(0, fix.span.start) + fix.before + ignoreAnnotationValue(fix, 'a test of the admission webhook') + fix.after + text.slice(fix.span.end);
      assert.match(
        after,
        /\n {6}template:\n {8}metadata:\n {10}annotations:\n {12}kube-netlens\.io\/ignore: "api-validation: a test of the admission webhook"\n {8}spec:\n/,
      );
      const again = analyzeTexts([{ uri: 'a.yaml', text: after }]);
      assert.deepEqual(
        applySuppressions(diagnosticsFor(again), again).ignored.map((i) => `${i.finding.code} by ${i.by}`),
        ['api-validation by annotation on the pod template of CronJob default/sync'],
      );
    });

    it('offers no pod-template choice on an object that has no pods (a Service)', () => {
      const text = service('metadata:\n  name: web');
      const analysis = analyzeTexts([{ uri: 'a.yaml', text }]);
      const findings = diagnosticsFor(analysis);
      const finding = findings.find((f) => f.code === 'service-selector-no-match')!;
      assert.deepEqual(
        ignoreFixesAt(findings, analysis, 'a.yaml', finding.span).map((f) => f.title),
        ['Ignore service-selector-no-match here…'],
      );
    });
  });
});
