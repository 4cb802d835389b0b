// Severity is applied once, by the engine: the per-code setting reaches rule findings and parse problems alike, so
// the editor and the CLI show the same levels.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { findingsOfProblems } from '../../server/src/project/helmFindings';
import { messages } from '../../server/src/l10n/l10n';

const broken = { uri: 'file:///w/broken.yaml', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [a\n' };
const orphan = {
  uri: 'file:///w/svc.yaml',
  text: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: api\n  namespace: shop\nspec:\n  selector:\n    app: apii\n  ports:\n    - port: 80\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n  namespace: shop\nspec:\n  selector:\n    matchLabels:\n      app: api\n  template:\n    metadata:\n      labels:\n        app: api\n    spec:\n      containers:\n        - name: api\n          image: api:1\n',
};
const levels = (rules: Record<string, 'error' | 'warning' | 'information' | 'hint' | 'off'>) =>
  // Separate workspaces: a file that does not parse leaves what it may hold unknown, and rules stay quiet then.
  [broken, orphan].flatMap((file) => diagnosticsFor(analyzeTexts([file], { rules })).map((f) => `${f.code} ${f.severity}`)).sort();

describe('configured severities', () => {
  it('default levels: a YAML syntax error is an error, the selector a warning', () => {
    const all = levels({});
    assert.ok(all.includes('yaml-syntax error'), all.join(', '));
    assert.ok(all.includes('service-selector-no-match warning'), all.join(', '));
  });

  it('overrides reach parse problems as they reach rules', () => {
    const all = levels({ 'yaml-syntax': 'hint', 'service-selector-no-match': 'error' });
    assert.ok(all.includes('yaml-syntax hint') && !all.includes('yaml-syntax error'), all.join(', '));
    assert.ok(all.includes('service-selector-no-match error'), all.join(', '));
  });

  it('`off` removes parse problems and rule findings', () => {
    const all = levels({ 'yaml-syntax': 'off', 'service-selector-no-match': 'off' });
    assert.ok(!all.some((l) => l.startsWith('yaml-syntax ') || l.startsWith('service-selector-no-match ')), all.join(', '));
  });

  it('the problems of Helm renders follow the same settings', () => {
    const problems = [
      {
        uri: 'file:///w/chart/Chart.yaml',
        span: { start: 0, end: 4 },
        code: 'helm-failed',
        severity: 'error' as const,
        message: 'helm template failed: a missing value',
      },
      {
        uri: 'file:///w/chart/Chart.yaml',
        span: { start: 0, end: 4 },
        code: 'helm-not-rendered',
        severity: 'information' as const,
        message: 'helm was not found, so the chart is not checked',
      },
    ];
    assert.deepEqual(
      findingsOfProblems(problems, {}, messages(undefined)).map((f) => `${f.code} ${f.severity}`),
      ['helm-failed error', 'helm-not-rendered information'],
    );
    assert.deepEqual(
      findingsOfProblems(problems, { 'helm-failed': 'warning', 'helm-not-rendered': 'off' }, messages(undefined)).map((f) => `${f.code} ${f.severity}`),
      ['helm-failed warning'],
    );
  });
});
