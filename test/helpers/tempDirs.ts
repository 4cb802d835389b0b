// Temporary folders of a test file, removed when its process exits (also when a test failed or the exit guard ended
// the process): a test that makes one with `tempDir` cannot leave it behind.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});

/** A new folder `<temp dir>/<prefix>XXXXXX`, removed when the process exits. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
