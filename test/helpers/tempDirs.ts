// Temporary folders of a test file, removed when its process exits (also when a test failed or the exit guard ended
// the process): a test that makes one with `tempDir` cannot leave it behind. The list is kept on the global object,
// so the copy of this module the exit guard loads (as an ES module) and the one test files load (as CommonJS) share
// it, and the folders are removed before the guard checks that the file left nothing (test/helpers/exitGuard.ts).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const key = Symbol.for('kube-netlens.test.tempDirs');
const shared = globalThis as { [key]?: string[] };

function registry(): string[] {
  let made = shared[key];
  if (!made) {
    const list: string[] = [];
    made = shared[key] = list;
    process.on('exit', () => {
      for (const dir of list) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    });
  }
  return made;
}
registry();

/** A new folder `<temp dir>/<prefix>XXXXXX`, removed when the process exits. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  registry().push(dir);
  return dir;
}
