// Reads every matching manifest of the workspace folders into the workspace, reporting progress as it goes.

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { WorkDoneProgressReporter } from 'vscode-languageserver/node';
import { discoverFiles, pauser } from '../workspace/discoverFiles';
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
export async function indexFolders(folders: readonly string[], options: FileOptions, progress: WorkDoneProgressReporter, isCancelled: () => boolean, onText?: (uri: string, text: string) => void): Promise<IndexResult | undefined> {
  const found = await Promise.all(folders.map((f) => discoverFiles(f, options)));
  const files = found.flatMap((d) => d.files);
  const tooLarge = found.flatMap((d) => d.tooLarge).map((p) => pathToFileURL(p).href);
  const texts = new Map<string, string>();
  const pause = pauser();
  let done = 0;
  for (const f of files) {
    await pause();
    if (isCancelled()) return undefined;
    try {
      const uri = pathToFileURL(f.path).href;
      const text = readFileSync(f.path, 'utf8');
      texts.set(uri, text);
      onText?.(uri, text);
    } catch {
      // a file deleted between listing and reading is simply not there
    }
    done++;
    if (done % 50 === 0 || done === files.length) progress.report(Math.round((done / files.length) * 100), `${done}/${files.length} files`);
  }
  return isCancelled() ? undefined : { texts, tooLarge };
}
