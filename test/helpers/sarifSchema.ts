// Validates a SARIF log against the SARIF 2.1.0 JSON Schema (test/fixtures/sarif/, see its README) with the pinned ajv.

import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

let validate: ReturnType<Ajv['compile']> | undefined;

/** The schema's violations in `log`, one line each; empty when it is valid. */
export function sarifViolations(log: unknown): string[] {
  if (!validate) {
    const schema = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'sarif', 'sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<string, unknown>;
    // The schema is written for JSON Schema draft-04, whose `id` draft-07 (ajv's default) spells `$id`; the keywords it
    // uses mean the same in both. One of its patterns is valid only without the `u` flag, as draft-04 regexes were.
    const { $schema: _draft, id, ...rest } = schema;
    validate = new Ajv({
      allErrors: true,
      strict: false,
      unicodeRegExp: false,
      formats: {
        // RFC 3986: an absolute URI has a scheme; a reference may be relative
        uri: /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/,
        'uri-reference': /^[^\s]*$/,
        'date-time': (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s),
      },
    }).compile({ ...rest, $id: id as string });
  }
  if (validate(log)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}
