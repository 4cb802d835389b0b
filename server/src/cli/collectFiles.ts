// PATH arguments → the YAML files to analyse: files are read as given, folders are walked for *.yaml / *.yml.
// The only module of the CLI that touches the file system; every read goes through readBounded (a regular file,
// within the size limit; inside the given folder for files found by walking it).

import { realpathSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { SourceText } from '../features/analyzeTexts';
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

export function collectFiles(paths: readonly string[]): CollectedFiles | CollectError {
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
      notes.push(`skipped ${display}: ${(stats.size / maxFileBytes).toFixed(1)} MB is larger than the 1 MB limit`);
      return;
    }
    const read = readBounded(display, { maxBytes: maxFileBytes, roots, realFolders });
    if (read.ok) sources.push({ uri: display, text: read.text });
    else {
      if (read.refusal === 'too-large') tooLarge++;
      notes.push(`skipped ${read.message}`);
    }
  };

  const walk = (folder: string, stats: Stats, root: readonly string[]): void => {
    // A symlink back to an ancestor would otherwise be walked forever.
    if (seenFolders.has(identityOf(stats))) return;
    seenFolders.add(identityOf(stats));
    let names: string[];
    try {
      names = readdirSync(folder).sort();
    } catch (err) {
      notes.push(`skipped ${folder}: ${reasonOf(err)}`);
      return;
    }
    for (const name of names) {
      const path = join(folder, name);
      let stats: Stats;
      try {
        stats = statSync(path);
      } catch (err) {
        notes.push(`skipped ${path}: ${reasonOf(err)}`);
        continue;
      }
      if (stats.isDirectory()) {
        if (!skippedFolders.has(name)) walk(path, stats, root);
      } else if (/\.ya?ml$/i.test(name)) {
        // FIFOs, devices and links leading out of the folder are named and passed over, never opened.
        if (stats.isFile()) readOne(path, stats, root);
        else notes.push(`skipped ${path}: not a regular file`);
      }
    }
  };

  for (const given of paths) {
    let stats: Stats;
    try {
      stats = statSync(given);
    } catch (err) {
      return { error: `cannot read ${given}: ${reasonOf(err)}` };
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
        notes.push(`skipped ${given}: ${(stats.size / maxFileBytes).toFixed(1)} MB is larger than the 1 MB limit`);
      } else return { error: read.message };
    } else return { error: `${given} is not a regular file or a folder (${kindOf(stats)}); give the path of a manifest or of a folder of manifests` };
  }
  return { sources, notes, tooLarge };
}

export function isCollectError<T extends object>(x: T | CollectError): x is CollectError {
  return 'error' in x;
}

/** The same file reached twice (two PATH arguments, a symlink) is read once. */
function identityOf(stats: Stats): string {
  return `${stats.dev}:${stats.ino}`;
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a named pipe';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}
