// Finds the manifest files of a workspace folder: the regular files (never links) that the include/exclude globs
// select. The size limit is checked when a file is read (readBounded.ts checks the open file before reading it), so one
// huge generated file cannot stall indexing, and a file costs no system call here.
// The file system is read with synchronous calls, in slices of a few milliseconds with a turn of the event loop
// between them: thousands of small asynchronous calls cost more than the reading itself.

import { readdirSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { globMatcher } from './glob';
import type { FileOptions } from './settings';

export interface Discovery {
  /** Paths of regular files that were no symbolic links when listed (readBounded.ts `listedAsFile`), sorted. */
  readonly files: readonly string[];
}

export async function discoverFiles(folder: string, options: FileOptions): Promise<Discovery> {
  const include = globMatcher(options.include);
  const exclude = globMatcher(options.exclude);
  const files: string[] = [];
  const pending = [folder];
  const pause = pauser();
  while (pending.length) {
    const p = pause();
    if (p) await p;
    const dir = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable folders are passed over, like an editor's file explorer does
    }
    for (const e of entries) {
      const full = join(dir, e.name);
      const rel = relative(folder, full).split(sep).join('/');
      // Symbolic links are not followed: they can loop, and they can lead out of the workspace.
      if (e.isDirectory()) {
        if (!exclude(rel) && !exclude(`${rel}/`)) pending.push(full);
        continue;
      }
      if (e.isFile() && include(rel) && !exclude(rel)) files.push(full);
    }
  }
  files.sort();
  return { files };
}

/** Slice length of synchronous file-system work between two turns of the event loop. */
const sliceMs = 15;

/**
 * A function to call often: once a slice of work has run, it returns a promise to await, which resolves on the next
 * turn of the event loop; until then undefined (`const p = pause(); if (p) await p;`), so the work between two
 * turns costs no promise per file.
 */
export function pauser(): () => Promise<void> | undefined {
  let since = Date.now();
  return () => {
    if (Date.now() - since < sliceMs) return undefined;
    return new Promise<void>((done) =>
      setImmediate(() => {
        since = Date.now();
        done();
      }),
    );
  };
}
