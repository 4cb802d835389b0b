// PATH arguments → the YAML files to analyse: files are read as given, folders are walked for *.yaml / *.yml.
// The only module of the CLI that touches the file system.

import { readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { SourceText } from '../features/analyzeTexts';

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

  const readOne = (display: string, stats: Stats): void => {
    if (seenFiles.has(identityOf(stats))) return;
    seenFiles.add(identityOf(stats));
    if (stats.size > maxFileBytes) {
      tooLarge++;
      notes.push(`skipped ${display}: ${(stats.size / maxFileBytes).toFixed(1)} MB is larger than the 1 MB limit`);
      return;
    }
    sources.push({ uri: display, text: readFileSync(display, 'utf8') });
  };

  const walk = (folder: string, stats: Stats): void => {
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
        if (!skippedFolders.has(name)) walk(path, stats);
      } else if (stats.isFile() && /\.ya?ml$/i.test(name)) {
        try {
          readOne(path, stats);
        } catch (err) {
          notes.push(`skipped ${path}: ${reasonOf(err)}`);
        }
      }
    }
  };

  for (const given of paths) {
    try {
      const stats = statSync(given);
      if (stats.isDirectory()) walk(join(given), stats);
      else readOne(given, stats);
    } catch (err) {
      return { error: `cannot read ${given}: ${reasonOf(err)}` };
    }
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

function reasonOf(err: unknown): string {
  const code = (err as { code?: string }).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'not a folder';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'EISDIR':
      return 'is a folder';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}
