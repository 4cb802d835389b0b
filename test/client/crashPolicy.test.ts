// The restart policy for a crashing language server: a few restarts, then one stop, never a loop.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCrashPolicy } from '../../client/src/crashPolicy';

describe('crash policy', () => {
  it('restarts three times within the window, then gives up', () => {
    const p = createCrashPolicy(4, 180_000);
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((i) => p.crashed(i * 1000).action),
      ['restart', 'restart', 'restart', 'give-up', 'give-up'],
    );
  });
  it('forgets crashes older than the window', () => {
    const p = createCrashPolicy(4, 180_000);
    for (let i = 0; i < 3; i++) assert.equal(p.crashed(i).action, 'restart');
    assert.deepEqual(p.crashed(200_000), { action: 'restart', recent: 1 });
  });
  it('starts afresh after the user restarts the server', () => {
    const p = createCrashPolicy(2, 180_000);
    p.crashed(0);
    assert.equal(p.crashed(1).action, 'give-up');
    p.reset();
    assert.equal(p.crashed(2).action, 'restart');
  });
});
