// Offsets ↔ lines: the one line index and the memo every caller shares.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineIndex, lineIndexesOf, lineIndexMemo } from '../../server/src/model/lineIndex';

describe('line index', () => {
  it('counts LF, CRLF and lone CR line breaks and clamps out-of-range input', () => {
    const index = lineIndex('a\nbc\r\nd\re');
    assert.equal(index.lineCount, 4);
    assert.deepEqual(index.positionAt(3), { line: 1, character: 1 });
    assert.deepEqual(index.positionAt(8), { line: 3, character: 0 });
    assert.deepEqual(index.positionAt(99), { line: 3, character: 1 });
    assert.equal(index.offsetAt({ line: 1, character: 99 }), 6);
    assert.equal(index.offsetAt({ line: 9, character: 0 }), 9);
  });

  it('the memo keeps an index while the text stays, builds it again when it changes, and forgets pruned URIs', () => {
    const memo = lineIndexMemo();
    const first = memo.of('a', 'x\ny');
    assert.equal(memo.of('a', 'x\ny'), first);
    const changed = memo.of('a', 'x\ny\nz');
    assert.notEqual(changed, first);
    assert.equal(changed.lineCount, 3);
    memo.prune(() => false);
    assert.notEqual(memo.of('a', 'x\ny\nz'), changed);
  });

  it('lineIndexesOf answers by URI, with empty text for an unknown one', () => {
    const linesOf = lineIndexesOf([{ uri: 'a', text: 'x\ny' }]);
    assert.equal(linesOf('a'), linesOf('a'));
    assert.deepEqual(linesOf('a').positionAt(2), { line: 1, character: 0 });
    assert.equal(linesOf('b').lineCount, 1);
  });
});
