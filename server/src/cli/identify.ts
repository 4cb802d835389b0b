// Each finding of `check` with its identity and fingerprint (computed in features/findingIdentity.ts, the one place);
// a finding several renders share with those of the other builds or value sets too.

import type { SourceText } from '../features/analyzeTexts';
import { findingIdentitySets, fingerprintsOf } from '../features/findingIdentity';
import type { Analysis, Finding } from './featureTypes';
import type { IdentifiedResult } from './findingsSarif';

export function identify(findings: readonly Finding[], analysis: Analysis, sources: readonly SourceText[]): IdentifiedResult[] {
  const texts = new Map(sources.map((s) => [s.uri, s.text]));
  const sets = findingIdentitySets(findings, analysis, (uri) => texts.get(uri));
  // repeated identities are counted over every identity, in output order (features/findingIdentity.ts fingerprintsOf)
  const fingerprints = fingerprintsOf(sets.flat());
  let next = 0;
  return findings.map((finding, i) => {
    const ids = sets[i].map((identity) => ({ identity, fingerprint: fingerprints[next++] }));
    return { finding, ...ids[0], ...(ids.length > 1 && { others: ids.slice(1) }) };
  });
}
