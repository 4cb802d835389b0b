import { readFileSync } from 'node:fs';
import { sarifViolations } from './helpers/sarifSchema';
const s = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const r = s.runs[0].results;
const fp = new Set(r.map((x: { partialFingerprints: Record<string, string> }) => x.partialFingerprints['kubeNetlensIdentity/v1']));
const byRule: Record<string, number> = {};
for (const x of r) byRule[x.ruleId] = (byRule[x.ruleId] ?? 0) + 1;
console.log(
  'violations',
  sarifViolations(s).length,
  'results',
  r.length,
  'unique fps',
  fp.size,
  'suppressed',
  r.filter((x: { suppressions?: unknown }) => x.suppressions).length,
  JSON.stringify(byRule),
);
