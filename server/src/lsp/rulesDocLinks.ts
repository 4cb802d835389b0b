// Where a diagnostic's code links to: its section of the docs/rules.md shipped inside the extension, opened at the
// rule's heading (`file:///…/docs/rules.md#L35`). A link to a web page could point at nothing; this file is there.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** code → link, for every `## <code>` heading of the rules doc found beside the server; empty when there is none. */
export function rulesDocLinks(serverDir: string): ReadonlyMap<string, string> {
  // The bundle runs from dist/, the sources (tests) from server/src/lsp/.
  const doc = [join(serverDir, '..', 'docs', 'rules.md'), join(serverDir, '..', '..', '..', 'docs', 'rules.md')].find((p) => existsSync(p));
  const links = new Map<string, string>();
  if (!doc) return links;
  const href = pathToFileURL(doc).href;
  readFileSync(doc, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const m = /^## ([a-z0-9-]+)\s*$/.exec(line);
      if (m) links.set(m[1], `${href}#L${i + 1}`);
    });
  return links;
}
