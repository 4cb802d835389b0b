// A key written twice in one mapping: reported (kubectl apply rejects the object under its default strict field
// validation) and read as the API server's non-strict decoding reads it, the later value winning; both parse paths
// agree; YAML that is not a manifest stays silent.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isService } from '../../server/src/model/resources';
import { parseManifest } from '../../server/src/model/parseManifest';
import { duplicateKeys } from '../robustness/hostileShapes';

describe('duplicate mapping keys', () => {
  it('are reported at the later key, and the later value is the one analysed', () => {
    for (const fastPath of [true, false]) {
      const m = parseManifest('file:///d.yaml', duplicateKeys, { defaultNamespace: 'default', fastPath });
      const s = m.resources[0];
      assert.ok(isService(s));
      assert.equal(s.name, 'second');
      assert.deepEqual([...(s.selector ?? [])], [['app', 'two']]);
      const problems = m.problems.filter((p) => /set twice/.test(p.message));
      assert.equal(problems.length, 2);
      assert.deepEqual(
        problems.map((p) => duplicateKeys.slice(p.span.start, p.span.end)),
        ['name', 'app'],
      );
      assert.match(problems[0].message, /"name" is set twice in this mapping \(first at the related place, again here\)\. kubectl apply rejects the object/);
      // the first key, as a related place (line 4)
      assert.deepEqual(
        problems[0].related?.map((r) => [duplicateKeys.slice(0, r.span.start).split('\n').length, duplicateKeys.slice(r.span.start, r.span.end), r.message]),
        [[4, 'name', '"name" is first set here']],
      );
      assert.equal(problems[0].severity, 'error');
    }
  });

  it('in YAML that is not a Kubernetes object say nothing', () => {
    const m = parseManifest('file:///ci.yaml', 'on: push\non: pull_request\njobs: {}\n', { defaultNamespace: 'default' });
    assert.deepEqual(m.problems, []);
  });
});
