// The one runner of external tools (workspace/externalTool.ts): a run read the same way whether it is made alone
// (synchronously or not) or in a batch through the child process: its status, a timeout, a process that could not
// start, output over the cap.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getPriority } from 'node:os';
import { backgroundNice, runTool, runToolBatchSync, runToolSync, type ToolExit } from '../../server/src/workspace/externalTool';

const sh = { executable: '/bin/sh', timeoutMs: 1500, maxBuffer: 100, env: process.env };
const cases: [string, string[], Partial<ToolExit>][] = [
  ['a run that succeeds', ['-c', 'printf hi; printf warn >&2'], { status: 0, stdout: 'hi', stderr: 'warn', timedOut: false }],
  ['a run that fails', ['-c', 'printf no >&2; exit 3'], { status: 3, stderr: 'no', timedOut: false }],
  ['output over the cap', ['-c', 'head -c 500 /dev/zero'], { status: null, stdout: '', tooLarge: true }],
  ['a run past its timeout', ['-c', 'sleep 5'], { status: null, timedOut: true }],
];

function assertLike(exit: ToolExit, want: Partial<ToolExit>, what: string) {
  for (const [k, v] of Object.entries(want)) assert.deepEqual(exit[k as keyof ToolExit], v, `${what}: ${k}`);
  assert.equal(exit.spawnError, undefined, `${what}: it started`);
}

describe('external tool runner', () => {
  for (const [what, args, want] of cases) {
    it(`reads ${what} alike alone, without blocking and in a batch`, async () => {
      assertLike(runToolSync(sh, args), want, `${what}, synchronously`);
      assertLike(await runTool(sh, args), want, `${what}, without blocking`);
    });
  }

  it('runs a tool without blocking at a lower priority than its own (the language server stays responsive)', async () => {
    // the 19th field of /proc/PID/stat is the process's nice value; read after a pause, once the priority is set
    const nice = ['-c', 'sleep 0.3; cut -d" " -f19 /proc/$$/stat'];
    const own = getPriority();
    const exit = await runTool({ ...sh, maxBuffer: 1000 }, nice);
    assert.equal(exit.status, 0, exit.stderr);
    assert.equal(Number(exit.stdout.trim()), Math.min(19, own + backgroundNice), 'the tool runs nicer than the server');
    // the command line waits for its tools: they keep its priority
    assert.equal(Number(runToolSync({ ...sh, maxBuffer: 1000 }, nice).stdout.trim()), own);
  });

  it('gives a batch the exits of its runs in order, as when made one by one', () => {
    const exits = runToolBatchSync(
      sh,
      cases.map(([, args]) => args),
      2,
    );
    assert.equal(exits.length, cases.length);
    cases.forEach(([what, , want], i) => assertLike(exits[i], want, `${what}, in a batch`));
  });

  it('says when the executable could not be started', async () => {
    const missing = { ...sh, executable: '/nonexistent/tool' };
    for (const exit of [runToolSync(missing, []), await runTool(missing, []), ...runToolBatchSync(missing, [[], []], 2)]) {
      assert.equal(exit.timedOut, false);
      assert.match(exit.spawnError ?? '', /ENOENT/);
    }
  });
});
