// A fold over a cluster's file list (model/fileFolds.ts): memoized by the list, carried over to an edit's list only
// when every file that differs counts for nothing; otherwise worked out again.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileFold } from '../../server/src/model/fileFolds';
import type { ManifestFile } from '../../server/src/model/parseManifest';

const file = (uri: string, text = ''): ManifestFile => ({ uri, text, resources: [], problems: [], manifestDocuments: 0 });

/** The URIs of the files whose text says `chart`, and how many times the fold was worked out. */
function counting() {
  let runs = 0;
  const fold = fileFold(
    (f) => f.text.includes('chart'),
    (files) => {
      runs++;
      return files.filter((f) => f.text.includes('chart')).map((f) => f.uri);
    },
  );
  return { fold, runs: () => runs };
}

describe('a fold over a file list', () => {
  const plain = [file('a.yaml', 'x'), file('b.yaml', 'chart'), file('c.yaml', 'y')];

  it('is worked out once per list', () => {
    const { fold, runs } = counting();
    assert.deepEqual(fold(plain), ['b.yaml']);
    assert.deepEqual(fold(plain), ['b.yaml']);
    assert.equal(runs(), 1);
  });

  it('keeps its value for an edit of a file that counts for nothing, before and after', () => {
    const { fold, runs } = counting();
    fold(plain);
    const edited = [plain[0], plain[1], file('c.yaml', 'z')];
    assert.equal(fold(edited), fold(plain));
    assert.equal(runs(), 1);
  });

  it('is worked out again when the edited file counts now, or counted before', () => {
    const { fold, runs } = counting();
    fold(plain);
    const now = [plain[0], plain[1], file('c.yaml', 'a chart')];
    assert.deepEqual(fold(now), ['b.yaml', 'c.yaml']);
    assert.equal(runs(), 2);
    const gone = [now[0], file('b.yaml', 'nothing'), now[2]];
    assert.deepEqual(fold(gone), ['c.yaml']);
    assert.equal(runs(), 3);
  });

  it('is worked out afresh when many files differ, whether or not they count', () => {
    const { fold, runs } = counting();
    const many = Array.from({ length: 100 }, (_, i) => file(`f${i}.yaml`, 'x'));
    fold(many);
    assert.equal(fold(many.map((f) => file(f.uri, 'y'))).length, 0);
    assert.equal(runs(), 2);
  });

  it('is worked out again when files come, go or change places', () => {
    const { fold, runs } = counting();
    fold(plain);
    assert.deepEqual(fold([...plain, file('d.yaml', 'chart')]), ['b.yaml', 'd.yaml']);
    assert.deepEqual(fold([plain[0], plain[1]]), ['b.yaml']);
    assert.deepEqual(fold([plain[1], plain[0], plain[2]]), ['b.yaml']);
    assert.deepEqual(fold([plain[0], file('e.yaml', 'x'), plain[2]]), []);
    assert.equal(runs(), 5);
  });
});
