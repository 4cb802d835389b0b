// DNS records → the `dns --format json` document. `answer` is in the chosen language, as `check`'s `message` is: an
// answer the manifests do not fix (`<cluster IP of …>`) is worded as the text output words it (recordsText.ts
// `answerText`); in any language but English each record also carries `englishAnswer`, the answer exactly as an
// English run prints it, for scripts that compare it (docs/localization.md). English output has no such field.

import { messages, type Locale } from '../l10n/l10n';
import type { DnsRecord } from './featureTypes';
import { answerText } from './recordsText';

export function recordsToJson(records: readonly DnsRecord[], locale?: Locale): string {
  const translated = locale !== undefined && locale !== 'en';
  const msg = messages(locale);
  const out = records.map((r) => ({
    name: r.name,
    type: r.type,
    answer: translated ? answerText(r.answer, msg) : r.answer,
    ...(translated && { englishAnswer: r.answer }),
    condition: r.condition,
    resource: { kind: r.resource.kind, namespace: r.resource.namespace, name: r.resource.name },
  }));
  return JSON.stringify({ records: out }, null, 2) + '\n';
}
