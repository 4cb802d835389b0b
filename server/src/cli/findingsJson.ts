// Findings → the `check --format json` document: 0-based LSP-style ranges, files as found from the given PATH, and
// each finding's identity with its fingerprint (features/findingIdentity.ts).

import type { IdentifiedResult } from './findingsSarif';
import type { RangeOf } from './positions';

export function findingsToJson(findings: readonly IdentifiedResult[], rangeOf: RangeOf, extra: Readonly<Record<string, unknown>> = {}): string {
  const diagnostics = findings.map(({ finding: f, identity, fingerprint, others }) => ({
    file: f.uri,
    range: rangeOf(f.uri, f.span),
    severity: f.severity,
    code: f.code,
    message: f.message,
    resource: f.resource ? { kind: f.resource.kind, namespace: f.resource.namespace, name: f.resource.name } : null,
    related: (f.related ?? []).map((r) => ({ file: r.uri, range: rangeOf(r.uri, r.span), message: r.message })),
    identity,
    fingerprint,
    // a finding several builds or value sets share: the identities of the others (docs/ci.md, "Finding identity")
    ...(others?.length && { otherIdentities: others.map((o) => ({ identity: o.identity, fingerprint: o.fingerprint })) }),
  }));
  return JSON.stringify({ diagnostics, ...extra }, null, 2) + '\n';
}
