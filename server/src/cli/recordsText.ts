// DNS records → one table per namespace: name, type, answer, when it resolves, and the object it comes from.

import type { DnsCondition, DnsRecord } from './featureTypes';
import type { Paint } from './paint';
import { terminalSafe } from './terminalText';

const conditionText: Record<DnsCondition, string> = {
  always: 'always',
  'while-ready': 'while a pod is ready',
  'coredns-only': 'CoreDNS only',
  'config-dependent': 'needs Corefile option',
};

export function recordsToText(records: readonly DnsRecord[], paint: Paint): string {
  if (!records.length) return 'No DNS names: the files define no Service, and no pod with a resolvable hostname.\n';
  const byNamespace = new Map<string, DnsRecord[]>();
  for (const r of records) {
    const list = byNamespace.get(r.resource.namespace);
    if (list) list.push(r);
    else byNamespace.set(r.resource.namespace, [r]);
  }
  const header = ['NAME', 'TYPE', 'ANSWER', 'RESOLVES', 'FROM'];
  const blocks: string[] = [];
  for (const ns of [...byNamespace.keys()].sort()) {
    const rows = byNamespace.get(ns)!.map((r) => [r.name, r.type, r.answer, conditionText[r.condition], `${r.resource.kind} ${r.resource.name}`].map((c) => terminalSafe(c)));
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
    const format = (row: readonly string[]) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd();
    blocks.push([paint.bold(`namespace ${terminalSafe(ns)}`), `  ${paint.dim(format(header))}`, ...rows.map((row) => `  ${format(row)}`)].join('\n'));
  }
  return blocks.join('\n\n') + '\n';
}
