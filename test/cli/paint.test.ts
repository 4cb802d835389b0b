// Colour only on a terminal, and never when NO_COLOR is set (the spawned CLI never has a terminal, so this is in-process).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { colourWanted, paintFor } from '../../server/src/cli/paint';

describe('colour', () => {
  it('is wanted only on a terminal without NO_COLOR', () => {
    assert.equal(colourWanted(true, {}), true);
    assert.equal(colourWanted(true, { NO_COLOR: '1' }), false);
    assert.equal(colourWanted(true, { NO_COLOR: '' }), true, 'an empty NO_COLOR does not count (no-color.org)');
    assert.equal(colourWanted(false, {}), false);
  });

  it('wraps text in ANSI codes only when enabled', () => {
    assert.equal(paintFor(false).red('error'), 'error');
    assert.equal(paintFor(true).red('error'), '\u001b[31merror\u001b[39m');
  });
});
