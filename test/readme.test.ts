// README.md works as written: every command of its `sh` code blocks runs, in the order the README gives them, on a
// fresh copy of the repository (the files git tracks, or would track, as they are in the checkout: no dist/, no
// .tools/, no .vscode-test/), and succeeds.
//
// A block the line right above marks `<!-- readme-test: not run (why) -->` is not run: the long-running ones
// (`npm start` serves until it is stopped, `./scripts/test.sh` is every check CI runs) and `npm ci`, whose work is
// done here by linking the checkout's node_modules into the copy (installing takes minutes and the network). Every
// other line that is not blank or a comment is one command, run with bash in the copy's root; a command fails the
// test when it exits with anything but 0, and the message names it with its output.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { before, describe, it } from 'node:test';
import { repoRoot } from './helpers/bundle';
import { tempDir } from './helpers/tempDirs';

interface Block {
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly commands: readonly string[];
  /** Why it is not run, or undefined when it is. */
  readonly notRun?: string;
}

/** The `sh` code blocks of a Markdown text, with the `readme-test: not run` mark of the line above each. */
export function shellBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell)\s*$/.test(lines[i])) continue;
    const start = i;
    const commands: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) {
      const command = lines[i].trim();
      if (command && !command.startsWith('#')) commands.push(command);
    }
    const mark = /^<!--\s*readme-test:\s*not run\s*\((.+)\)\s*-->\s*$/.exec(lines[start - 1] ?? '');
    blocks.push({ line: start + 1, commands, ...(mark ? { notRun: mark[1] } : {}) });
  }
  return blocks;
}

/** A copy of the repository as a fresh clone of the checkout would have it, with the checkout's node_modules linked. */
function freshCopy(): string {
  const copy = join(tempDir('kube-netlens-readme-'), 'kube-netlens');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    const from = join(repoRoot, file);
    // a file deleted in the checkout but not yet in git's index, or a link (node_modules itself is one in worktrees)
    if (!existsSync(from) || lstatSync(from).isSymbolicLink() || !lstatSync(from).isFile()) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(from, join(copy, file));
  }
  symlinkSync(realpathSync(join(repoRoot, 'node_modules')), join(copy, 'node_modules'));
  return copy;
}

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

describe('README.md', () => {
  const blocks = shellBlocks(readme);

  it('has shell blocks the test runs, and names why it does not run the others', () => {
    assert.ok(blocks.filter((b) => !b.notRun).length >= 2, 'runnable blocks');
    const notRun = blocks.filter((b) => b.notRun).flatMap((b) => b.commands.map((c) => c.replace(/\s+#.*/, '')));
    assert.deepEqual(notRun, ['npm ci', 'npm start', './scripts/test.sh']);
  });

  it('counts the planted mistakes of examples/ as examples/README.md lists them', () => {
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
    const planted = (JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'cli', 'examples-expected.json'), 'utf8')) as unknown[]).length;
    const said = /a small shop with (\w+) planted mistakes/.exec(readme)?.[1];
    assert.equal(said, words[planted], `README.md says "${said}" planted mistakes; examples/ has ${planted}`);
  });

  describe('every command runs as written, in order, on a fresh copy', () => {
    let copy = '';
    before(() => {
      copy = freshCopy();
    });
    for (const block of blocks.filter((b) => !b.notRun)) {
      for (const command of block.commands) {
        it(`README.md:${block.line}: ${command}`, () => {
          const r = spawnSync('bash', ['-c', command], {
            cwd: copy,
            encoding: 'utf8',
            timeout: 180_000,
            killSignal: 'SIGKILL',
            maxBuffer: 64 * 1024 * 1024,
            // npm writes no log file of its own into the home folder
            env: { ...process.env, npm_config_logs_max: '0', npm_config_update_notifier: 'false' },
          });
          assert.equal(r.status, 0, `\`${command}\` exited with ${r.status ?? r.signal}:\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
          assert.ok(r.stdout.trim(), `\`${command}\` printed nothing`);
        });
      }
    }
  });
});
