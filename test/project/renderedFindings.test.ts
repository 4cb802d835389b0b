// Findings on rendered text → findings on the template lines: spans and related places mapped, fixes dropped, and
// the same finding from several value sets reported once naming them.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mapRenderedFindings, type RenderedFindings } from '../../server/src/project/helmFindings';
import type { Finding } from '../../server/src/rules/finding';

const text = 'kind: Service\nspec:\n  selector:\n    app: webb\n';
const at = text.indexOf('webb');
const value = { start: at, end: at + 4 };
const rendered = {
  text,
  mappings: [
    { rendered: { start: 0, end: text.length }, uri: 't/svc.yaml', span: { start: 0, end: 4 } },
    { rendered: value, uri: 't/svc.yaml', span: { start: 50, end: 60 }, via: 'values.yaml' },
  ],
};
const finding: Finding = {
  uri: 'helm:u',
  span: value,
  code: 'service-selector-no-match',
  severity: 'warning',
  message: 'no pods',
  related: [
    { uri: 'helm:u', span: { start: 0, end: 4 }, message: 'the Service' },
    { uri: 'plain.yaml', span: { start: 1, end: 2 }, message: 'a pod' },
  ],
  fixes: [{ title: 'fix', edits: [{ uri: 'helm:u', span: value, newText: 'web' }] }],
};
const unit = (context: string, f: Finding[] = [finding], body = text): RenderedFindings => ({
  renderedUri: 'helm:u',
  rendered: { ...rendered, text: body },
  context,
  fallbackUri: 'c/Chart.yaml',
  findings: f,
});

describe('rendered findings', () => {
  it('maps the span and related places to the template and drops fixes and findings elsewhere', () => {
    const [f, ...rest] = mapRenderedFindings([unit('release r, values.yaml', [finding, { ...finding, uri: 'plain.yaml' }])]);
    assert.equal(rest.length, 0);
    assert.deepEqual([f.uri, f.span], ['t/svc.yaml', { start: 50, end: 60 }]);
    assert.deepEqual(f.related, [{ uri: 't/svc.yaml', span: { start: 0, end: 4 }, message: 'the Service' }, finding.related![1]]);
    assert.equal(f.fixes, undefined);
    assert.equal(f.message, 'no pods\nin release r, values.yaml: rendered `webb`');
  });

  it('one finding for several value sets; each rendered value named when they differ; the chart when nothing maps', () => {
    const same = mapRenderedFindings([unit('release r, values.yaml'), unit('release r, values ci/a-values.yaml'), unit('release s, values.yaml')]);
    assert.deepEqual(
      same.map((f) => f.message),
      ['no pods\nin release r, values.yaml; release r, values ci/a-values.yaml; release s, values.yaml: rendered `webb`'],
    );
    const differ = mapRenderedFindings([
      unit('release r, values.yaml'),
      unit('release r, values ci/a-values.yaml', [finding], rendered.text.replace('webb', 'wubb')),
    ]);
    assert.deepEqual(
      differ.map((f) => f.message),
      ['no pods\nin release r, values.yaml: rendered `webb`\nin release r, values ci/a-values.yaml: rendered `wubb`'],
    );
    const [lost] = mapRenderedFindings([{ ...unit('release r, values.yaml'), rendered: { text: rendered.text, mappings: [] } }]);
    assert.deepEqual([lost.uri, lost.span], ['c/Chart.yaml', { start: 0, end: 0 }]);
  });

  it('maps a related place in another release to its template too', () => {
    const other = { ...unit('release s, values.yaml', []), renderedUri: 'helm:s', fallbackUri: 's/Chart.yaml' };
    const across: Finding = { ...finding, related: [{ uri: 'helm:s', span: value, message: 'the pods' }] };
    const [f] = mapRenderedFindings([unit('release r, values.yaml', [across]), other]);
    assert.deepEqual(f.related, [{ uri: 't/svc.yaml', span: { start: 50, end: 60 }, message: 'the pods' }]);
  });
});
