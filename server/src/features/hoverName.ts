// The hover of a host name written in an env value, command/args item or ConfigMap data: what it resolves to
// from that namespace through the pod's search list (semantics §3.3), or exactly why it does not.

import type { Analysis } from '../analysis/analysis';
import { describeType, recordLine } from './hoverService';
import { bounded, code, escape } from './markdown';
import type { NameAt } from './nameToken';

export function nameHover(analysis: Analysis, at: NameAt, fromNamespace: string): string {
  const r = at.resolution;
  const out = [`**DNS name** ${code(at.token.text)} looked up from namespace ${code(fromNamespace)} (${code(at.value.where)})`, ''];
  if (!r.resolves || !r.service) {
    // semantics §9: what the manifests cannot know is said as unknown, never as "does not resolve".
    out.push(r.unknown ? `Unknown: ${escape(r.reason ?? 'the manifests do not describe what answers this name.')}` : `Does not resolve: ${escape(r.reason ?? 'no Service in the manifests answers this name.')}`);
    return out.join('\n');
  }
  const s = r.service;
  out.push(`Resolves as ${code(r.fqdn ?? r.host)} to Service ${code(s.name)} in ${code(s.namespace)}: ${describeType(s)}.`);
  if (r.port !== undefined) {
    if (r.portKnown === false) {
      const ports = s.ports.map((p) => p.port).filter((p) => p !== undefined).join(', ');
      out.push('', `⚠ Port ${r.port} is not a port of this Service${ports ? ` (its ports: ${ports})` : ''}; connections to it are refused or time out.`);
    } else out.push('', `Port ${r.port} is a port of this Service.`);
  }
  const records = r.records.length ? r.records : analysis.dnsRecordsFor(s).filter((x) => x.name === r.fqdn);
  if (records.length) out.push('', ...bounded(records, 5, recordLine));
  return out.join('\n');
}
