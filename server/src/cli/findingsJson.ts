// Findings → the `check --format json` document: 0-based LSP-style ranges, files as found from the given PATH.

import type { Finding } from './featureTypes';
import type { RangeOf } from './positions';

export function findingsToJson(findings: readonly Finding[], rangeOf: RangeOf): string {
  const diagnostics = findings.map((f) => ({
    file: f.uri,
    range: rangeOf(f.uri, f.span),
    severity: f.severity,
    code: f.code,
    message: f.message,
    resource: f.resource ? { kind: f.resource.kind, namespace: f.resource.namespace, name: f.resource.name } : null,
    related: (f.related ?? []).map((r) => ({ file: r.uri, range: rangeOf(r.uri, r.span), message: r.message })),
  }));
  return JSON.stringify({ diagnostics }, null, 2) + '\n';
}
