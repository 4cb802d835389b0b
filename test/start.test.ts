// `npm start` stops, with everything it started, on SIGINT, SIGTERM and SIGHUP sent to npm, and when npm itself is
// killed. The start script's way of running and stopping (package.json's `start` command, scripts/lifecycle.mjs,
// `stopProcessGroup` of scripts/codeServer.mjs) runs here on a stand-in for code-server: a detached process with a
// child in its group and one in a session of its own, as code-server's terminals are. Starting the real code-server
// needs Chromium's packages and a packaged extension, which the end-to-end tests have.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from './helpers/bundle';
import { processState } from './helpers/processes';
import { tempDir } from './helpers/tempDirs';

const startScript = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;

/** A folder whose package.json runs, as `npm start`, the project's start command on the stand-in start script. */
function standIn(): string {
  const dir = tempDir('kube-netlens-start-');
  const below = [
    "const { spawn } = require('node:child_process');",
    "const idle = [process.execPath, '-e', 'setInterval(() => {}, 1000)'];",
    "const inGroup = spawn(idle[0], idle.slice(1), { stdio: 'ignore' });",
    "const ownSession = spawn('setsid', idle, { stdio: 'ignore' });",
    'console.log(JSON.stringify([inGroup.pid, ownSession.pid]));',
    'setInterval(() => {}, 1000);',
  ].join('\n');
  writeFileSync(
    join(dir, 'start.mjs'),
    [
      "import { spawn } from 'node:child_process';",
      `import { stopWhenAsked } from ${JSON.stringify(join(repoRoot, 'scripts', 'lifecycle.mjs'))};`,
      `import { stopProcessGroup } from ${JSON.stringify(join(repoRoot, 'scripts', 'codeServer.mjs'))};`,
      `const server = spawn(process.execPath, ['-e', ${JSON.stringify(below)}], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });`,
      "server.stdout.once('data', (d) => console.log(JSON.stringify({ start: process.pid, server: server.pid, below: JSON.parse(String(d)) })));",
      'stopWhenAsked(async (reason) => { console.log(`stopping: ${reason}`); await stopProcessGroup(server); process.exit(0); });',
    ].join('\n'),
  );
  const script = startScript.replace('scripts/start.mjs', JSON.stringify(join(dir, 'start.mjs')));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'start-stand-in', private: true, scripts: { start: script } }));
  return dir;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !processState(pid).startsWith('Z');
}

async function startAndStop(signal: NodeJS.Signals): Promise<void> {
  const npm = spawn('npm', ['start', '--silent'], { cwd: standIn(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  npm.stdout.on('data', (d) => (out += String(d)));
  npm.stderr.on('data', (d) => (out += String(d)));
  const pids: number[] = [];
  try {
    for (const deadline = Date.now() + 30_000; !/^\{.*\}$/m.test(out); await sleep(50)) {
      assert.ok(Date.now() < deadline, `the stand-in did not start:\n${out}`);
    }
    const started = JSON.parse(/^\{.*\}$/m.exec(out)![0]) as { start: number; server: number; below: number[] };
    pids.push(started.start, started.server, ...started.below);
    assert.ok(pids.every(alive), `every process runs before the ${signal}`);
    process.kill(npm.pid!, signal);
    for (const deadline = Date.now() + 15_000; pids.some(alive); await sleep(100)) {
      assert.ok(Date.now() < deadline, `after ${signal} to npm, still running: ${pids.filter(alive).join(', ')}\n${out}`);
    }
  } finally {
    for (const pid of [npm.pid!, ...pids]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
    npm.stdout.destroy();
    npm.stderr.destroy();
  }
}

describe('npm start', () => {
  it("runs the start script in place of npm's shell, so npm's signals reach it, and stops when asked", () => {
    assert.match(startScript, /^exec node scripts\/start\.mjs$/);
    assert.match(readFileSync(join(repoRoot, 'scripts', 'start.mjs'), 'utf8'), /stopWhenAsked\(/);
  });

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`stops with everything it started on ${signal} to npm`, () => startAndStop(signal));
  }

  it('stops with everything it started when npm is killed', () => startAndStop('SIGKILL'));
});
