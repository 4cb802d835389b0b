// The parse floor: what `yaml` alone needs to parse every file, in this process, with the options the server's
// parser uses. No analysis can be faster than reading its input once.

import { parseAllDocuments } from 'yaml';
import { bestOf, type Timing } from './stats';

export function parseFloor(texts: readonly string[], runs: number): Timing {
  return bestOf(runs, () => {
    for (const t of texts) parseAllDocuments(t, { uniqueKeys: false, prettyErrors: false, strict: false, keepSourceTokens: false });
  });
}
