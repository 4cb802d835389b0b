// The command line grows its heap as the language server does: the flag cli/main.ts sets when it starts is one of
// the server's Node options (protocol.ts serverNodeOptions), so the two cannot drift apart.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cliHeapFlags } from '../../server/src/cli/heap';
import { serverNodeOptions } from '../../server/src/protocol';

describe('the CLI heap', () => {
  it("grows the old generation as the language server's options say", () => {
    assert.ok(serverNodeOptions.includes(cliHeapFlags), `${cliHeapFlags} is not among ${serverNodeOptions.join(' ')}`);
  });
});
