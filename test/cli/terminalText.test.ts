// What reaches a terminal holds no control character from a name or a path: each is shown as a visible escape,
// the product's own colour sequences excepted.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { terminalOutput, terminalSafe } from '../../server/src/cli/terminalText';

// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('terminal text', () => {
  it('escapes C0, DEL, C1 and bidirectional controls visibly, and keeps everything else', () => {
    assert.equal(terminalSafe('a\u001b]0;t\u0007b\u009b\u202ec\u007f'), 'a\\x1B]0;t\\x07b\\x9B\\u202Ec\\x7F');
    assert.equal(terminalSafe('line\nnext'), 'line\\nnext');
    assert.equal(terminalSafe('line\nnext', true), 'line\nnext');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => {
        assert.ok(!unsafe.test(terminalSafe(s, true)));
        assert.equal(
          terminalSafe(s, true).replace(/\\(x[0-9A-F]{2}|u[0-9A-F]{4})/g, ''),
          s.replace(new RegExp(unsafe.source, 'g'), '').replace(/\\(x[0-9A-F]{2}|u[0-9A-F]{4})/g, ''),
        );
      }),
      { seed: 20261201, numRuns: 500 },
    );
  });

  it('keeps only the colour sequences of a coloured output', () => {
    assert.equal(terminalOutput('\u001b[1mfile\u001b[22m: \u001b]8;;x\u0007', true), '\u001b[1mfile\u001b[22m: \\x1B]8;;x\\x07');
    assert.equal(terminalOutput('\u001b[1mfile\u001b[22m', false), '\\x1B[1mfile\\x1B[22m');
  });
});
