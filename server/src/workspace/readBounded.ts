// The one way the server and the command line read a manifest from disk: a regular file, inside the allowed roots
// once every link is resolved, at most `maxBytes` long, read without ever blocking on it.
//
// A path can name a FIFO (opening it blocks until a writer comes), a device (`/dev/zero` never ends), or a link to
// the process's own standard input or output (`/proc/self/fd/0`: reading it steals protocol frames). None of these
// is opened: links are resolved first, the target must be a regular file inside a root, the file is opened with
// O_NONBLOCK and O_NOFOLLOW (so a swap between the check and the open cannot lead elsewhere), checked again on the
// open descriptor, and read into a buffer sized from the cap, never from what the file claims.

import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, sep } from 'node:path';
import { messages, type Msg } from '../l10n/l10n';

export type ReadRefusal = 'missing' | 'not-regular' | 'outside-roots' | 'too-large' | 'unreadable';

export type BoundedRead =
  | {
      readonly ok: true;
      readonly text: string;
      readonly realPath: string;
      /** The file read, as `<device>:<inode>` of the open file: the same file reached by two paths has one. */
      readonly identity: string;
    }
  | { readonly ok: false; readonly refusal: ReadRefusal; readonly message: string };

export interface ReadLimits {
  readonly maxBytes: number;
  /** Real paths (links resolved) a file must lie in; undefined allows any place (a path the user named). */
  readonly roots?: readonly string[];
  /**
   * Real paths of the folders resolved so far, for one pass over many files (indexing a workspace): a file that is not
   * itself a link then costs one `lstat` instead of resolving every folder above it again. Reuse it only within one
   * pass: a folder replaced by a link later is seen by the next pass.
   */
  readonly realFolders?: Map<string, string>;
  /**
   * The path was listed by `readdir` as a regular file, not a link (workspace/discoverFiles.ts): its own `lstat` is
   * skipped. The open still refuses to follow a link (a file replaced by one since is then resolved as any link is),
   * and the open file is checked as always.
   */
  readonly listedAsFile?: boolean;
}

export function readBounded(path: string, limits: ReadLimits): BoundedRead {
  let real: string;
  let before: Stats | undefined;
  try {
    // The path itself first: a regular file that is not a link lies where its folder really is.
    const own = limits.listedAsFile ? undefined : lstatSync(path);
    if (own?.isSymbolicLink()) {
      real = realpathSync.native(path);
      before = statSync(real);
    } else {
      real = realFolder(dirname(path), limits.realFolders) + sep + basename(path);
      before = own;
    }
  } catch (err) {
    return refuse(codeOf(err) === 'ENOENT' ? 'missing' : 'unreadable', `cannot resolve ${path}: ${reasonOf(err)}`);
  }
  if (limits.roots && !limits.roots.some((r) => real === r || real.startsWith(r.endsWith(sep) ? r : r + sep))) {
    return refuse('outside-roots', `${path} leads outside the workspace; it is not read`);
  }
  // Refused before the open where it is known already; the open file is checked below in any case.
  if (before && !before.isFile()) return refuse('not-regular', `${path} is not a regular file (${kindOf(before)}); it is not read`);
  if (before && before.size > limits.maxBytes) return refuse('too-large', tooLarge(path, before.size, limits.maxBytes));
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    // Listed as a file, a link now: resolved and checked like any link.
    if (limits.listedAsFile && codeOf(err) === 'ELOOP') return readBounded(path, { ...limits, listedAsFile: false });
    return refuse(codeOf(err) === 'ENOENT' ? 'missing' : 'unreadable', `cannot read ${path}: ${reasonOf(err)}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return refuse('not-regular', `${path} is not a regular file (${kindOf(st)}); it is not read`);
    if (st.size > limits.maxBytes) return refuse('too-large', tooLarge(path, st.size, limits.maxBytes));
    // Sized from what the file claims, grown (never past one byte more than the cap) when it holds more: a file that
    // grew since the check, or one whose size the system does not report.
    let buf = Buffer.allocUnsafe(Math.min(st.size, limits.maxBytes) + 1);
    let got = 0;
    for (;;) {
      if (got === buf.length) {
        if (buf.length > limits.maxBytes) break;
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, limits.maxBytes + 1));
        buf.copy(bigger, 0, 0, got);
        buf = bigger;
      }
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n <= 0) break;
      got += n;
      // All the open file held when checked: done, without a read to find the end (a file that grows now is read
      // again when the editor reports the change).
      if (got === st.size) break;
    }
    if (got > limits.maxBytes) return refuse('too-large', tooLarge(path, got, limits.maxBytes));
    return { ok: true, text: buf.toString('utf8', 0, got), realPath: real, identity: `${st.dev}:${st.ino}` };
  } catch (err) {
    return refuse('unreadable', `cannot read ${path}: ${reasonOf(err)}`);
  } finally {
    closeSync(fd);
  }
}

function realFolder(folder: string, cache: Map<string, string> | undefined): string {
  const known = cache?.get(folder);
  if (known !== undefined) return known;
  const real = realpathSync.native(folder);
  cache?.set(folder, real);
  return real;
}

/** The roots as real paths (links resolved), for `ReadLimits.roots`; roots that do not exist are left out. */
export function realRoots(folders: readonly string[]): string[] {
  const out: string[] = [];
  for (const f of folders) {
    try {
      out.push(realpathSync.native(f));
    } catch {
      // a folder that is gone holds nothing to read
    }
  }
  return out;
}

function refuse(refusal: ReadRefusal, message: string): BoundedRead {
  return { ok: false, refusal, message };
}

function tooLarge(path: string, size: number, max: number): string {
  return `${path} is ${(size / 1024).toFixed(0)} KB, larger than the ${(max / 1024).toFixed(0)} KB limit; it is not read`;
}

function kindOf(st: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

function codeOf(err: unknown): string | undefined {
  return (err as { code?: string }).code;
}

export function reasonOf(err: unknown, msg: Msg = messages(undefined)): string {
  switch (codeOf(err)) {
    case 'ENOENT':
      return msg('no such file or folder');
    case 'EACCES':
    case 'EPERM':
      return msg('permission denied');
    case 'ENOTDIR':
      return msg('not a folder');
    case 'ELOOP':
      return msg('too many levels of symbolic links');
    case 'EISDIR':
      return msg('is a folder');
    default:
      return err instanceof Error ? err.message : String(err);
  }
}
