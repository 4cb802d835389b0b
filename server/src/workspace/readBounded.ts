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
import { asIs, messages, phrase, say, type Msg, type Phrase } from '../l10n/l10n';

export type ReadRefusal = 'missing' | 'not-regular' | 'outside-roots' | 'too-large' | 'unreadable';

export type BoundedRead =
  | {
      readonly ok: true;
      readonly text: string;
      readonly realPath: string;
      /** The file read, as `<device>:<inode>` of the open file: the same file reached by two paths has one. */
      readonly identity: string;
    }
  | {
      readonly ok: false;
      readonly refusal: ReadRefusal;
      /** Why, naming the path: a phrase of the catalogue, worded by whoever shows it (a plain string does not compile). */
      readonly reason: Phrase;
    };

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
    return refuse(codeOf(err) === 'ENOENT' ? 'missing' : 'unreadable', phrase('cannot resolve {0}: {1}', path, reasonPhrase(err)));
  }
  if (limits.roots && !limits.roots.some((r) => real === r || real.startsWith(r.endsWith(sep) ? r : r + sep))) {
    return refuse('outside-roots', phrase('{0} leads outside the workspace; it is not read', path));
  }
  // Refused before the open where it is known already; the open file is checked below in any case.
  if (before && !before.isFile()) return refuse('not-regular', phrase('{0} is not a regular file ({1}); it is not read', path, kindOf(before)));
  if (before && before.size > limits.maxBytes) return refuse('too-large', tooLarge(path, before.size, limits.maxBytes));
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    // Listed as a file, a link now: resolved and checked like any link.
    if (limits.listedAsFile && codeOf(err) === 'ELOOP') return readBounded(path, { ...limits, listedAsFile: false });
    return refuse(codeOf(err) === 'ENOENT' ? 'missing' : 'unreadable', phrase('cannot read {0}: {1}', path, reasonPhrase(err)));
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return refuse('not-regular', phrase('{0} is not a regular file ({1}); it is not read', path, kindOf(st)));
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
    return refuse('unreadable', phrase('cannot read {0}: {1}', path, reasonPhrase(err)));
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

function refuse(refusal: ReadRefusal, reason: Phrase): BoundedRead {
  return { ok: false, refusal, reason };
}

function tooLarge(path: string, size: number, max: number): Phrase {
  return phrase('{0} is {1} KB, larger than the {2} KB limit; it is not read', path, (size / 1024).toFixed(0), (max / 1024).toFixed(0));
}

function kindOf(st: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): Phrase {
  if (st.isDirectory()) return phrase('a folder');
  if (st.isFIFO()) return phrase('a named pipe');
  if (st.isCharacterDevice() || st.isBlockDevice()) return phrase('a device');
  if (st.isSocket()) return phrase('a socket');
  return phrase('not a file');
}

function codeOf(err: unknown): string | undefined {
  return (err as { code?: string }).code;
}

/** Why a file system call failed, in the words of `msg`. */
export function reasonOf(err: unknown, msg: Msg = messages(undefined)): string {
  return say(reasonPhrase(err), msg);
}

/** Why a file system call failed: the common error codes in words of the catalogue, any other as the system wrote it. */
export function reasonPhrase(err: unknown): Phrase {
  switch (codeOf(err)) {
    case 'ENOENT':
      return phrase('no such file or folder');
    case 'EACCES':
    case 'EPERM':
      return phrase('permission denied');
    case 'ENOTDIR':
      return phrase('not a folder');
    case 'ELOOP':
      return phrase('too many levels of symbolic links');
    case 'EISDIR':
      return phrase('is a folder');
    default:
      return asIs(err instanceof Error ? err.message : String(err));
  }
}
