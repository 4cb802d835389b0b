// `kube-netlens trace NAMESPACE/SERVICE`: how a request reaches the Service's pods, as a tree, JSON or Mermaid.

import { mapTraceSources } from '../features/renderedFindings';
import { traceResultFor } from '../features/traceResult';
import { lineIndex } from '../model/lineIndex';
import type { Service } from '../model/resources';
import { analyzePaths } from './analyzePaths';
import { closeNames } from './closeNames';
import { isCollectError } from './collectFiles';
import { analyzeWithCharts } from './chartFindings';
import { helmOptionError } from './helmCharts';
import { failure, note, type CommandResult, type Terminal } from './commandResult';
import type { TraceRequest } from './parseArgs';

export function traceCommand(request: TraceRequest, terminal: Terminal): CommandResult {
  const helmError = helmOptionError(request);
  if (helmError) return failure(helmError);
  const loaded = analyzePaths(request);
  if (isCollectError(loaded)) return failure(loaded.error);
  const { namespace, name } = request.target;
  // Services of Helm charts count too, with their places on template lines
  const charts = analyzeWithCharts(loaded, request, terminal.env);
  const found = traceResultFor(charts.analysis, { namespace, name });
  if (!found) return failure(unknownServiceMessage(namespace, name, charts.analysis.cluster.services), loaded.notes);
  const texts = new Map(loaded.sources.map((s) => [s.uri, s.text]));
  const renders = new Map(charts.units.map((u) => [u.renderedUri, u]));
  const trace = mapTraceSources(found, renders, (uri) => (texts.has(uri) ? lineIndex(texts.get(uri)!) : undefined));
  const stdout =
    request.format === 'json' ? JSON.stringify(trace.graph, null, 2) + '\n'
    : request.format === 'mermaid' ? ensureNewline(trace.mermaid)
    : ensureNewline(trace.text);
  return { exitCode: 0, stdout, stderr: loaded.notes.map(note) };
}

function unknownServiceMessage(namespace: string, name: string, services: readonly Service[]): string {
  const wanted = `${namespace}/${name}`;
  if (!services.length) return `no Service ${wanted}: the given files define no Service at all`;
  const all = [...new Set(services.map((s) => `${s.namespace}/${s.name}`))];
  // The same name in another namespace is the likeliest slip, then names a few keystrokes away.
  const sameName = all.filter((s) => s.endsWith(`/${name}`));
  const close = [...new Set([...sameName, ...closeNames(wanted, all)])].slice(0, 5);
  if (close.length) return `no Service ${wanted} in the given files; did you mean ${close.join(', ')}?`;
  const inNamespace = all.filter((s) => s.startsWith(`${namespace}/`)).slice(0, 5);
  if (inNamespace.length) return `no Service ${wanted} in the given files; namespace ${namespace} has ${inNamespace.join(', ')}`;
  return `no Service ${wanted} in the given files, and no Service in namespace ${namespace}`;
}

function ensureNewline(s: string): string {
  return s.endsWith('\n') ? s : s + '\n';
}
