// The data the CLI prints, named through the features it calls: the dependency rule keeps cli/ off analysis/ and rules/.

import type { analyzeTexts } from '../features/analyzeTexts';
import type { diagnosticsFor } from '../features/diagnostics';

export type Analysis = ReturnType<typeof analyzeTexts>;
export type Finding = ReturnType<typeof diagnosticsFor>[number];
export type DnsRecord = ReturnType<Analysis['dnsRecords']>[number];
export type DnsCondition = DnsRecord['condition'];

export type { LocalizedRuleInfo, RuleInfo } from '../features/ruleCatalog';
