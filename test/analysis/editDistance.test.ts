// The bounded edit distance behind "did you mean" suggestions gives up early but never changes an answer: it agrees
// with the full distance within its bound, and the suggestions built on it equal a search that measures everything.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  closestName as closestWritten,
  editDistance as bandedFull,
  editDistanceWithin,
  maxCandidates,
  maxComparedLength,
} from '../../server/src/analysis/closestName';
import { closestName, isNearMiss } from '../../server/src/rules/closestName';
import { cpuClock } from '../helpers/cpuClock';

/** The whole optimal-string-alignment table, the definition the banded computation must agree with. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

// Few letters, so that close names (swaps, case changes, prefixes) come up often.
const name = fc.stringMatching(/^[abAB-]{0,9}$/);
const names = fc.array(name, { maxLength: 8 });

/** The suggestion as defined: the first closest candidate by full distance, offered only when it is a near miss. */
function measuredEverything(written: string, candidates: readonly string[]) {
  let best: string | undefined;
  let bestDistance = Infinity;
  let ties = 0;
  for (const c of new Set(candidates)) {
    if (c === written) continue;
    const d = editDistance(written, c);
    if (d < bestDistance) [best, bestDistance, ties] = [c, d, 0];
    else if (d === bestDistance) ties++;
  }
  if (best === undefined) return undefined;
  const near = best.toLowerCase() === written.toLowerCase() || bestDistance <= Math.max(1, Math.floor(Math.max(written.length, best.length) / 3));
  return near ? { name: best, distance: bestDistance, clear: ties === 0 } : undefined;
}

describe('editDistanceWithin', () => {
  it('is the full distance when that is within the bound, and one more than the bound otherwise', () => {
    fc.assert(
      fc.property(name, name, fc.nat(10), (a, b, max) => {
        const full = editDistance(a, b);
        assert.equal(editDistanceWithin(a, b, max), full <= max ? full : max + 1);
      }),
      { seed: 20261129, numRuns: 2000 },
    );
  });
  it('agrees with the whole table on longer names and wider bounds', () => {
    const longer = fc.stringMatching(/^[ab]{0,40}$/);
    fc.assert(
      fc.property(longer, longer, fc.nat(12), (a, b, max) => {
        const full = editDistance(a, b);
        assert.equal(editDistanceWithin(a, b, max), full <= max ? full : max + 1);
        assert.equal(bandedFull(a, b), full);
      }),
      { seed: 20261201, numRuns: 1500 },
    );
  });
  it('takes time in proportion to the bound times the length, not the square of the length', () => {
    const a = 'x'.repeat(200_000);
    const b = 'x'.repeat(100_000) + 'y' + 'x'.repeat(99_999);
    const cpuMs = cpuClock();
    assert.equal(editDistanceWithin(a, b, 3), 1);
    assert.ok(cpuMs() < 500, `${cpuMs()} ms`);
  });
  it('counts a swap of neighbours once and an insertion at either end once', () => {
    assert.equal(editDistanceWithin('stabel', 'stable', 1), 1);
    assert.equal(editDistanceWithin('web', 'webs', 0), 1);
    assert.equal(editDistanceWithin('', 'abc', 5), 3);
    assert.equal(editDistanceWithin('abcdef', 'ghijkl', 2), 3);
  });
});

describe('closest names with a bounded search', () => {
  it('suggest what measuring every candidate fully suggests', () => {
    fc.assert(
      fc.property(name, names, (written, candidates) => {
        assert.deepEqual(closestName(written, candidates), measuredEverything(written, candidates));
      }),
      { seed: 20261129, numRuns: 2000 },
    );
  });
  it('never compare names longer than any Kubernetes name, and measure at most the candidate cap', () => {
    const long = 'a'.repeat(30_000);
    const cpuMs = cpuClock();
    assert.equal(closestName(long, [long + 'b', long.slice(1)]), undefined);
    assert.equal(isNearMiss(long, long + 'b'), false);
    assert.equal(closestWritten(long, [long + 'b']), undefined);
    assert.equal(closestName('web', ['x'.repeat(maxComparedLength + 1), 'wep'])?.name, 'wep');
    const many = Array.from({ length: maxCandidates * 20 }, (_, i) => `name-${i}`);
    assert.ok(closestName('name-1x', many));
    assert.ok(cpuMs() < 1000, `${cpuMs()} ms`);
  });
  it('find a name that differs only in case however far apart the letters are', () => {
    assert.deepEqual(closestName('ABCDEF', ['abcdef', 'ABCDEFGHIJKLM']), { name: 'abcdef', distance: 6, clear: true });
    assert.equal(isNearMiss('ABCDEF', 'abcdef'), true);
  });
  it('judge a near miss as the full distance does', () => {
    fc.assert(
      fc.property(name, name, (a, b) => {
        const expected = a !== b && (a.toLowerCase() === b.toLowerCase() || editDistance(a, b) <= Math.max(1, Math.floor(Math.max(a.length, b.length) / 3)));
        assert.equal(isNearMiss(a, b), expected);
      }),
      { seed: 20261129, numRuns: 2000 },
    );
  });
  it('pick the DNS suggestion a full measurement picks', () => {
    const scored = (wanted: string, candidates: readonly string[]) => {
      const w = wanted.toLowerCase();
      let best: string | undefined;
      let bestScore = Infinity;
      for (const c of candidates) {
        const l = c.toLowerCase();
        if (l === w) continue;
        const d = editDistance(w, l);
        const limit = Math.max(1, Math.min(3, Math.floor(Math.max(w.length, l.length) / 3)));
        const score = d <= limit ? d : l.startsWith(w) || w.startsWith(l) ? limit + 1 + Math.abs(l.length - w.length) : Infinity;
        if (score < bestScore || (score === bestScore && best !== undefined && c < best)) [best, bestScore] = [c, score];
      }
      return best;
    };
    fc.assert(
      fc.property(name, names, (wanted, candidates) => {
        assert.equal(closestWritten(wanted, candidates), scored(wanted, candidates));
      }),
      { seed: 20261129, numRuns: 2000 },
    );
  });
});
