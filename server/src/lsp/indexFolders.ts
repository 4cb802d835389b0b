// Reads every matching manifest of the workspace folders into the workspace, reporting progress as it goes.

import type { WorkDoneProgressReporter } from 'vscode-languageserver/node';
import { discoverFiles, pauser } from '../workspace/discoverFiles';
import { readBounded, realRoots } from '../workspace/readBounded';
import { fileUri } from '../workspace/uri';
import type { FileOptions } from '../workspace/settings';

export interface IndexResult {
  readonly texts: ReadonlyMap<string, string>;
  readonly tooLarge: readonly string[];
}

/**
 * `onText` sees each text as soon as it is read (the server parses it there). Files are read with synchronous calls
 * in slices of a few milliseconds with a turn of the event loop between them: a promise per small file costs more
 * than reading it.
 */
export async function indexFolders(
  folders: readonly string[],
  options: FileOptions,
  progress: WorkDoneProgressReporter,
  isCancelled: () => boolean,
  onText?: (uri: string, text: string) => void,
  onCount?: (done: number, total: number) => void,
): Promise<IndexResult | undefined> {
  const found = await Promise.all(folders.map((f) => discoverFiles(f, options)));
  const files = found.flatMap((d) => d.files);
  const tooLarge: string[] = [];
  const roots = realRoots(folders);
  const maxBytes = options.maxSizeKB * 1024;
  const texts = new Map<string, string>();
  const realFolders = new Map<string, string>();
  const pause = pauser();
  let done = 0;
  for (const path of files) {
    const p = pause();
    if (p) await p;
    if (isCancelled()) return undefined;
    // Only regular files inside the folders, within the size limit (a file deleted since it was listed is not there).
    const read = readBounded(path, { maxBytes, roots, realFolders, listedAsFile: true });
    if (read.ok) {
      const uri = fileUri(path);
      texts.set(uri, read.text);
      onText?.(uri, read.text);
    } else if (read.refusal === 'too-large') tooLarge.push(fileUri(path));
    done++;
    if (done % 50 === 0 || done === files.length) {
      progress.report(Math.round((done / files.length) * 100), `${done}/${files.length} files`);
      onCount?.(done, files.length);
    }
  }
  return isCancelled() ? undefined : { texts, tooLarge };
}
