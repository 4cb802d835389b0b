// Equality selectors: the one matcher and the "which pairs are missing" helper that rules and hovers share.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { equalityMatches, selectorMatches, unmatchedPairs, type LabelSelector } from '../../server/src/model/selector';

const labels = new Map([
  ['app', 'web'],
  ['tier', 'front'],
]);

describe('equality selectors', () => {
  it('match when every pair is carried; an empty selector matches everything', () => {
    assert.ok(equalityMatches(new Map([['app', 'web']]), labels));
    assert.ok(equalityMatches(new Map(), labels));
    assert.ok(!equalityMatches(new Map([['app', 'api']]), labels));
    assert.ok(!equalityMatches(new Map([['zone', 'a']]), labels));
  });

  it('list the pairs the labels lack or contradict, in selector order', () => {
    const selector = new Map([
      ['zone', 'a'],
      ['app', 'web'],
      ['tier', 'back'],
    ]);
    assert.deepEqual(unmatchedPairs(selector, labels), [
      ['zone', 'a'],
      ['tier', 'back'],
    ]);
    assert.deepEqual(unmatchedPairs(new Map([['app', 'web']]), labels), []);
  });

  it('matchLabels of a LabelSelector use the same matcher', () => {
    const s = (matchLabels: Map<string, string>): LabelSelector => ({ matchLabels, matchExpressions: [], labelSpans: new Map(), span: { start: 0, end: 0 } });
    for (const sel of [new Map([['app', 'web']]), new Map([['app', 'api']]), new Map<string, string>()])
      assert.equal(selectorMatches(s(sel), labels), equalityMatches(sel, labels));
  });
});
