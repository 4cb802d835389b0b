// DNS records → the `dns --format json` document.

import type { DnsRecord } from './featureTypes';

export function recordsToJson(records: readonly DnsRecord[]): string {
  const out = records.map((r) => ({
    name: r.name,
    type: r.type,
    answer: r.answer,
    condition: r.condition,
    resource: { kind: r.resource.kind, namespace: r.resource.namespace, name: r.resource.name },
  }));
  return JSON.stringify({ records: out }, null, 2) + '\n';
}
