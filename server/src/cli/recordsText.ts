// DNS records → one table per namespace: name, type, answer, when it resolves, and the object it comes from.

import type { Msg } from '../l10n/l10n';
import type { DnsCondition, DnsRecord } from './featureTypes';
import type { Paint } from './paint';
import { terminalSafe } from './terminalText';

function conditionText(condition: DnsCondition, msg: Msg): string {
  switch (condition) {
    case 'always':
      return msg('always');
    case 'while-ready':
      return msg('while a pod is ready');
    case 'coredns-only':
      return msg('CoreDNS only');
    case 'config-dependent':
      return msg('needs Corefile option');
  }
}

/**
 * An answer the manifests do not fix is a description in angle brackets (analysis/dnsRecords.ts), kept in English in
 * the records and their JSON; the table says it in the reader's language. A literal (an IP, a name) is as it is.
 */
export function answerText(answer: string, msg: Msg): string {
  let m: RegExpExecArray | null;
  if ((m = /^<pod IP of (\S+) (.+)>$/.exec(answer))) return msg('<pod IP of {0} {1}>', m[1], m[2]);
  if ((m = /^<pod IPs of (\S+) (.+)>$/.exec(answer))) return msg('<pod IPs of {0} {1}>', m[1], m[2]);
  if ((m = /^<cluster IP of (.+), allocated when it is created>$/.exec(answer))) return msg('<cluster IP of {0}, allocated when it is created>', m[1]);
  if ((m = /^<cluster IPv6 of (.+), allocated when it is created>$/.exec(answer))) return msg('<cluster IPv6 of {0}, allocated when it is created>', m[1]);
  if ((m = /^(.*) \(one per ready pod of (\S+) (.+)\)$/.exec(answer))) return msg('{0} (one per ready pod of {1} {2})', m[1], m[2], m[3]);
  return answer;
}

/** Columns a terminal gives a text: East Asian wide and full-width characters take two. */
function displayWidth(s: string): number {
  let n = 0;
  for (const ch of s)
    n +=
      /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(
        ch,
      )
        ? 2
        : 1;
  return n;
}

export function recordsToText(records: readonly DnsRecord[], paint: Paint, msg: Msg): string {
  if (!records.length) return msg('No DNS names: the files define no Service, and no pod with a resolvable hostname.') + '\n';
  const byNamespace = new Map<string, DnsRecord[]>();
  for (const r of records) {
    const list = byNamespace.get(r.resource.namespace);
    if (list) list.push(r);
    else byNamespace.set(r.resource.namespace, [r]);
  }
  const header = [msg('NAME'), msg('TYPE'), msg('ANSWER'), msg('RESOLVES'), msg('FROM')];
  const blocks: string[] = [];
  for (const ns of [...byNamespace.keys()].sort()) {
    const rows = byNamespace
      .get(ns)!
      .map((r) =>
        [r.name, r.type, answerText(r.answer, msg), conditionText(r.condition, msg), `${r.resource.kind} ${r.resource.name}`].map((c) => terminalSafe(c)),
      );
    const widths = header.map((h, i) => Math.max(displayWidth(h), ...rows.map((row) => displayWidth(row[i]))));
    const format = (row: readonly string[]) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i] - displayWidth(cell))))
        .join('  ')
        .trimEnd();
    blocks.push([paint.bold(msg('namespace {0}', terminalSafe(ns))), `  ${paint.dim(format(header))}`, ...rows.map((row) => `  ${format(row)}`)].join('\n'));
  }
  return blocks.join('\n\n') + '\n';
}
