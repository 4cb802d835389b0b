// Each finding of `check` with its identity and fingerprint (computed in features/findingIdentity.ts, the one place).

import type { SourceText } from '../features/analyzeTexts';
import { findingIdentities, fingerprintsOf } from '../features/findingIdentity';
import type { Analysis, Finding } from './featureTypes';
import type { IdentifiedResult } from './findingsSarif';

export function identify(findings: readonly Finding[], analysis: Analysis, sources: readonly SourceText[]): IdentifiedResult[] {
  const texts = new Map(sources.map((s) => [s.uri, s.text]));
  const identities = findingIdentities(findings, analysis, (uri) => texts.get(uri));
  const fingerprints = fingerprintsOf(identities);
  return findings.map((finding, i) => ({ finding, identity: identities[i], fingerprint: fingerprints[i] }));
}
