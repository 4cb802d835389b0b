// The one place tests call the DNS record and name-resolution API: records of a fixture, goldens, and resolution from a namespace.

import { analyzeTexts } from '../../server/src/features/analyzeTexts';
import type { Analysis, DnsRecord } from '../../server/src/analysis/analysis';
import type { AnalysisConfig } from '../../server/src/model/config';
import { checkGolden } from './checkGolden';
import { loadFixture } from './fixture';

export function analysisOf(fixturePath: string, config?: Partial<AnalysisConfig>): Analysis {
  return analyzeTexts(loadFixture(fixturePath).sources, config);
}

/** Records as the CLI prints them (no spans), in a stable order. */
export function dnsRecordsOf(
  fixturePath: string,
  config?: Partial<AnalysisConfig>,
): { name: string; type: string; answer: string; condition: string; resource: string; note?: string }[] {
  return analysisOf(fixturePath, config).dnsRecords().map(plain);
}

function plain(r: DnsRecord) {
  return {
    name: r.name,
    type: r.type,
    answer: r.answer,
    condition: r.condition,
    resource: `${r.resource.kind}/${r.resource.namespace}/${r.resource.name}`,
    ...(r.note ? { note: r.note } : {}),
  };
}

export function checkDnsGolden(fixturePath: string, goldenPath: string, config?: Partial<AnalysisConfig>): void {
  checkGolden(goldenPath, dnsRecordsOf(fixturePath, config));
}

/** Every record name of the fixture, lower case. */
export function dnsNamesOf(fixturePath: string, config?: Partial<AnalysisConfig>): Set<string> {
  return new Set(dnsRecordsOf(fixturePath, config).map((r) => r.name.toLowerCase()));
}

/** The records `dnsRecordsFor` gives one resource (`Kind/namespace/name`). */
export function dnsRecordsForResource(fixturePath: string, ref: string, config?: Partial<AnalysisConfig>): { name: string; type: string; condition: string }[] {
  const a = analysisOf(fixturePath, config);
  const [kind, ns, name] = ref.split('/');
  const r = a.cluster.get(kind, ns, name)[0];
  if (!r) throw new Error(`no ${ref} in ${fixturePath}`);
  return a.dnsRecordsFor(r).map((x) => ({ name: x.name, type: x.type, condition: x.condition }));
}

export interface ResolvedRow {
  readonly resolves: boolean;
  readonly fqdn?: string;
  readonly service?: string;
  readonly portKnown?: boolean;
  readonly unknown?: boolean;
  readonly reason?: string;
  readonly suggestion?: string;
  readonly warning?: string;
}

/** resolveName from a client namespace, reduced to what tests compare. */
export function resolveFrom(analysis: Analysis, name: string, fromNamespace: string): ResolvedRow {
  const r = analysis.resolveName(name, fromNamespace);
  return {
    resolves: r.resolves,
    ...(r.fqdn ? { fqdn: r.fqdn } : {}),
    ...(r.service ? { service: `${r.service.namespace}/${r.service.name}` } : {}),
    ...(r.portKnown !== undefined ? { portKnown: r.portKnown } : {}),
    ...(r.unknown ? { unknown: true } : {}),
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.suggestion ? { suggestion: r.suggestion } : {}),
    ...(r.warning ? { warning: r.warning } : {}),
  };
}
