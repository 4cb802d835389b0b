// Reads every matching manifest of the workspace folders into the workspace, reporting progress as it goes.

import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { WorkDoneProgressReporter } from 'vscode-languageserver/node';
import { discoverFiles } from '../workspace/discoverFiles';
import type { FileOptions } from '../workspace/settings';

export interface IndexResult {
  readonly texts: ReadonlyMap<string, string>;
  readonly tooLarge: readonly string[];
}

/**
 * `onText` sees each text as soon as it is read, while the other reads go on in the background: the server parses
 * there, so reading and parsing overlap instead of adding up.
 */
export async function indexFolders(folders: readonly string[], options: FileOptions, progress: WorkDoneProgressReporter, isCancelled: () => boolean, onText?: (uri: string, text: string) => void): Promise<IndexResult | undefined> {
  const found = await Promise.all(folders.map((f) => discoverFiles(f, options)));
  const files = found.flatMap((d) => d.files);
  const tooLarge = found.flatMap((d) => d.tooLarge).map((p) => pathToFileURL(p).href);
  const texts = new Map<string, string>();
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      if (isCancelled()) return;
      const f = files[next++];
      try {
        const uri = pathToFileURL(f.path).href;
        const text = await readFile(f.path, 'utf8');
        texts.set(uri, text);
        if (!isCancelled()) onText?.(uri, text);
      } catch {
        // a file deleted between listing and reading is simply not there
      }
      done++;
      if (done % 50 === 0 || done === files.length) progress.report(Math.round((done / files.length) * 100), `${done}/${files.length} files`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return isCancelled() ? undefined : { texts, tooLarge };
}
