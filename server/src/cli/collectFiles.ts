// PATH arguments → the YAML files to analyse: files are read as given, folders are walked for *.yaml / *.yml.
// The only module of the CLI that touches the file system; every read goes through readBounded (a regular file,
// within the size limit; inside the given folder for files found by walking it).

import { realpathSync, readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join, sep } from 'node:path';
import type { SourceText } from '../features/analyzeTexts';
import { messages, say, type Msg } from '../l10n/l10n';
import { readBounded, reasonOf } from '../workspace/readBounded';

/** Files larger than this are not Kubernetes manifests anyone edits by hand; they are skipped with a note. */
export const maxFileBytes = 1024 * 1024;

const skippedFolders: ReadonlySet<string> = new Set(['node_modules', '.git']);

export interface CollectedFiles {
  /** `uri` is the path as found from the given PATH (e.g. `examples/api.yaml`), which is also what the output shows. */
  readonly sources: readonly SourceText[];
  /** One line each, for stderr: files and folders passed over. */
  readonly notes: readonly string[];
  readonly tooLarge: number;
}

export interface CollectError {
  readonly error: string;
}

/** The manifests under `paths`; the notes and errors in the words of `msg`. */
export function collectFiles(paths: readonly string[], msg: Msg = messages(undefined)): CollectedFiles | CollectError {
  const sources: SourceText[] = [];
  const notes: string[] = [];
  const seenFiles = new Set<string>();
  const seenFolders = new Set<string>();
  let tooLarge = 0;
  const realFolders = new Map<string, string>();

  const readOne = (display: string, stats: Stats, roots: readonly string[] | undefined): void => {
    if (seenFiles.has(identityOf(stats))) return;
    seenFiles.add(identityOf(stats));
    if (stats.size > maxFileBytes) {
      tooLarge++;
      notes.push(msg('skipped {0}: {1} MB is larger than the 1 MB limit', display, (stats.size / maxFileBytes).toFixed(1)));
      return;
    }
    const read = readBounded(display, { maxBytes: maxFileBytes, roots, realFolders });
    if (read.ok) sources.push({ uri: display, text: read.text });
    else {
      if (read.refusal === 'too-large') tooLarge++;
      notes.push(msg('skipped {0}', say(read.reason, msg)));
    }
  };

  /** A YAML file the folder listing says is a regular file (no link): read without a stat of its own. */
  const readListed = (display: string, roots: readonly string[]): void => {
    const read = readBounded(display, { maxBytes: maxFileBytes, roots, realFolders, listedAsFile: true });
    if (read.ok) {
      if (seenFiles.has(read.identity)) return;
      seenFiles.add(read.identity);
      sources.push({ uri: display, text: read.text });
    } else if (read.refusal === 'too-large') {
      // Stat again for the size in the note (a rare case).
      const size = sizeOf(display);
      tooLarge++;
      notes.push(
        size === undefined
          ? msg('skipped {0}: it is larger than the 1 MB limit', display)
          : msg('skipped {0}: {1} MB is larger than the 1 MB limit', display, (size / maxFileBytes).toFixed(1)),
      );
    } else notes.push(msg('skipped {0}', say(read.reason, msg)));
  };

  const walk = (folder: string, stats: Stats, root: readonly string[]): void => {
    // A symlink back to an ancestor would otherwise be walked forever.
    if (seenFolders.has(identityOf(stats))) return;
    seenFolders.add(identityOf(stats));
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (err) {
      notes.push(msg('skipped {0}: {1}', folder, reasonOf(err, msg)));
      return;
    }
    for (const e of entries) {
      const name = e.name;
      const path = join(folder, name);
      const yaml = /\.ya?ml$/i.test(name);
      // What the listing tells needs no stat: a regular YAML file is read at once, other files are passed over.
      if (e.isFile()) {
        if (yaml) readListed(path, root);
        continue;
      }
      if (!e.isDirectory() && !e.isSymbolicLink() && !yaml) continue;
      let stats: Stats;
      try {
        stats = statSync(path);
      } catch (err) {
        notes.push(msg('skipped {0}: {1}', path, reasonOf(err, msg)));
        continue;
      }
      if (stats.isDirectory()) {
        // A link to a folder outside the folders given is not walked: its file names are never listed (a cloned
        // repository's `etc -> /etc` must not show what the machine holds), as its files are never read.
        if (e.isSymbolicLink() && !linkStaysInside(path, root)) {
          notes.push(msg('skipped {0}: a link to a folder outside the folders checked', path));
          continue;
        }
        if (!skippedFolders.has(name)) walk(path, stats, root);
      } else if (/\.ya?ml$/i.test(name)) {
        // FIFOs, devices and links leading out of the folder are named and passed over, never opened.
        if (stats.isFile()) readOne(path, stats, root);
        else notes.push(msg('skipped {0}: not a regular file', path));
      }
    }
  };

  for (const given of paths) {
    let stats: Stats;
    try {
      stats = statSync(given);
    } catch (err) {
      return { error: msg('cannot read {0}: {1}', given, reasonOf(err, msg)) };
    }
    if (stats.isDirectory()) walk(join(given), stats, [realpathSync.native(given)]);
    else if (stats.isFile()) {
      // A file named on the command line is read wherever its links lead: the user chose it.
      const read = readBounded(given, { maxBytes: maxFileBytes });
      if (seenFiles.has(identityOf(stats))) continue;
      seenFiles.add(identityOf(stats));
      if (read.ok) sources.push({ uri: given, text: read.text });
      else if (read.refusal === 'too-large') {
        tooLarge++;
        notes.push(msg('skipped {0}: {1} MB is larger than the 1 MB limit', given, (stats.size / maxFileBytes).toFixed(1)));
      } else return { error: say(read.reason, msg) };
    } else
      return { error: msg('{0} is not a regular file or a folder ({1}); give the path of a manifest or of a folder of manifests', given, kindOf(stats, msg)) };
  }
  return { sources, notes, tooLarge };
}

/** Whether a linked folder resolves inside one of the checked folders (their real paths). */
function linkStaysInside(path: string, roots: readonly string[]): boolean {
  let real: string;
  try {
    real = realpathSync.native(path);
  } catch {
    return false;
  }
  return roots.some((r) => real === r || real.startsWith(r.endsWith(sep) ? r : r + sep));
}

export function isCollectError<T extends object>(x: T | CollectError): x is CollectError {
  return 'error' in x;
}

/** The same file reached twice (two PATH arguments, a symlink) is read once (readBounded.ts `identity` is the same). */
function identityOf(stats: Stats): string {
  return `${stats.dev}:${stats.ino}`;
}

function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

function kindOf(st: Stats, msg: Msg): string {
  if (st.isFIFO()) return msg('a named pipe');
  if (st.isCharacterDevice() || st.isBlockDevice()) return msg('a device');
  if (st.isSocket()) return msg('a socket');
  return msg('not a file');
}
