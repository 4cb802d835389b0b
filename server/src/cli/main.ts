// Entry point of `kube-netlens` (bundled to dist/cli.js): runs one command and writes its result.

import { setFlagsFromString } from 'node:v8';
import { cliHeapFlags } from './heap';
import { note } from './commandResult';
import { runCli } from './runCli';

function main(): void {
  // before anything large is allocated (heap.ts says why)
  setFlagsFromString(cliHeapFlags);
  // `kube-netlens check | head` closes the pipe early; that is not an error worth a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  let result;
  try {
    const progress = process.stderr.isTTY === true ? (text: string) => void process.stderr.write(text) : undefined;
    result = runCli(process.argv.slice(2), { stdoutIsTTY: process.stdout.isTTY === true, env: process.env, ...(progress && { progress }) });
  } catch (err) {
    // Only a bug lands here: user input errors are values.
    process.stderr.write(note(`internal error: ${err instanceof Error ? err.message : String(err)}`) + '\n');
    process.exitCode = 2;
    return;
  }
  for (const line of result.stderr) process.stderr.write(line + '\n');
  process.stdout.write(result.stdout);
  process.exitCode = result.exitCode;
}

main();
