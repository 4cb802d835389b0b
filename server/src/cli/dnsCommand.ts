// `kube-netlens dns`: the DNS names the manifests give rise to. Without --all, only names that resolve
// unconditionally or while a pod is ready (semantics §8.1, §8.2); --all adds CoreDNS-only and Corefile-dependent ones.

import { messages } from '../l10n/l10n';
import { analyzePaths } from './analyzePaths';
import { withConfigFile } from './configFile';
import { analyzeWithCharts } from './chartFindings';
import { helmOptionError } from './helmCharts';
import { isCollectError } from './collectFiles';
import { failure, note, type CommandResult, type Terminal } from './commandResult';
import type { DnsRecord } from './featureTypes';
import { textOutput } from './checkCommand';
import type { DnsRequest } from './parseArgs';
import { recordsToJson } from './recordsJson';
import { recordsToText } from './recordsText';

export function dnsCommand(asked: DnsRequest, terminal: Terminal): CommandResult {
  const configured = withConfigFile(asked);
  if ('error' in configured) return failure(configured.error);
  const request = configured.request;
  const helmError = helmOptionError(request);
  if (helmError) return failure(helmError);
  const loaded = analyzePaths(request);
  if (isCollectError(loaded)) return failure(loaded.error);
  // names of Helm charts' Services count too
  const { analysis } = analyzeWithCharts(loaded, request, terminal.env);
  const records = sortRecords(analysis.dnsRecords().filter((r) => request.all || r.condition === 'always' || r.condition === 'while-ready'));
  const stdout =
    request.format === 'json'
      ? recordsToJson(records, request.locale)
      : textOutput(terminal, (paint) => recordsToText(records, paint, messages(request.locale)));
  return { exitCode: 0, stdout, stderr: loaded.notes.map(note) };
}

function sortRecords(records: readonly DnsRecord[]): DnsRecord[] {
  const key = (r: DnsRecord) => [r.resource.namespace, r.resource.name, r.name, r.type];
  return [...records].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  });
}
