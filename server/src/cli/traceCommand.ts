// `kube-netlens trace NAMESPACE/SERVICE`: how a request reaches the Service's pods, as a tree, JSON or Mermaid; and
// `kube-netlens trace gateway/NAMESPACE/NAME` (or httproute/…, tcproute/…): from a Gateway's listeners, or a route's,
// through the routes to their Services; `trace istio-gateway/NAMESPACE/NAME` or `virtualservice/…`: from an Istio
// Gateway's servers, or a VirtualService, through its route blocks and destinations to their Services.

import { messages, type Msg } from '../l10n/l10n';
import { resolveReachRef } from '../features/reachReport';
import { traceResultFor } from '../features/traceResult';
import type { TraceClient } from '../protocol';
import { isGateway, isRoute } from '../model/gatewayApi';
import { isIstioGateway, isVirtualService } from '../model/istio';
import type { Resource } from '../model/resources';
import { analyzePaths } from './analyzePaths';
import { withConfigFile } from './configFile';
import { closeNames } from '../features/closeNames';
import { isCollectError } from './collectFiles';
import { analyzeWithCharts } from './chartFindings';
import { helmOptionError } from './helmCharts';
import { failure, note, type CommandResult, type Terminal } from './commandResult';
import type { TraceRequest } from './parseArgs';
import { terminalOutput } from './terminalText';

export function traceCommand(asked: TraceRequest, terminal: Terminal): CommandResult {
  const configured = withConfigFile(asked);
  if ('error' in configured) return failure(configured.error);
  const request = configured.request;
  const msg = messages(request.locale);
  const helmError = helmOptionError(request);
  if (helmError) return failure(helmError);
  const loaded = analyzePaths(request);
  if (isCollectError(loaded)) return failure(loaded.error);
  const { kind, namespace, name } = request.target;
  // Services of Helm charts count too, with their places on template lines (the source map's)
  const charts = analyzeWithCharts(loaded, request, terminal.env);
  // --from: the client the Service trace checks NetworkPolicies for (netpol §1).
  let client: TraceClient | undefined;
  if (request.from !== undefined) {
    const end = resolveReachRef(charts.analysis, request.from);
    if ('error' in end) return failure(msg('--from: {0}', end.error), loaded.notes);
    const e = end.endpoint;
    client = e.kind === 'workload' ? { kind: 'workload', namespace: e.workload.namespace, workloadKind: e.workload.kind, name: e.workload.name } : e;
  }
  // NAMESPACE/NAME is a Service, or a Gateway when no Service has that name.
  const found =
    traceResultFor(charts.analysis, { kind: kind ?? 'Service', namespace, name, ...(client ? { client } : {}) }) ??
    (kind || client ? undefined : traceResultFor(charts.analysis, { kind: 'Gateway', namespace, name })) ??
    // gateway/NS/NAME names an Istio Gateway when no Gateway API Gateway has that name.
    ((kind === 'Gateway' || !kind) && !client ? traceResultFor(charts.analysis, { kind: 'IstioGateway', namespace, name }) : undefined);
  if (!found) {
    const message =
      kind && kind !== 'Service'
        ? unknownMessage(
            msg,
            kind,
            namespace,
            name,
            charts.analysis.cluster.resources.filter((r) =>
              kind === 'IstioGateway'
                ? isIstioGateway(r)
                : kind === 'VirtualService'
                  ? isVirtualService(r)
                  : r.kind === kind && (isGateway(r) || isRoute(r) || isIstioGateway(r)),
            ),
          )
        : unknownMessage(msg, 'Service', namespace, name, charts.analysis.cluster.services);
    return failure(message, loaded.notes);
  }
  // places on renders (a Kustomize build, a Helm release) go to the lines that made them
  const trace = charts.sourceMap.trace(found);
  const stdout =
    request.format === 'json'
      ? JSON.stringify(trace.graph, null, 2) + '\n'
      : request.format === 'mermaid'
        ? terminalOutput(ensureNewline(trace.mermaid), false)
        : terminalOutput(ensureNewline(trace.text), false);
  return { exitCode: 0, stdout, stderr: loaded.notes.map(note) };
}

function unknownMessage(msg: Msg, kind: string, namespace: string, name: string, services: readonly Resource[]): string {
  const wanted = `${namespace}/${name}`;
  if (!services.length) return msg('no {0} {1}: the given files define no {0} at all', kind, wanted);
  const all = [...new Set(services.map((s) => `${s.namespace}/${s.name}`))];
  // The same name in another namespace is the likeliest slip, then names a few keystrokes away.
  const sameName = all.filter((s) => s.endsWith(`/${name}`));
  const close = [...new Set([...sameName, ...closeNames(wanted, all)])].slice(0, 5);
  if (close.length) return msg('no {0} {1} in the given files; did you mean {2}?', kind, wanted, close.join(', '));
  const inNamespace = all.filter((s) => s.startsWith(`${namespace}/`)).slice(0, 5);
  if (inNamespace.length) return msg('no {0} {1} in the given files; namespace {2} has {3}', kind, wanted, namespace, inNamespace.join(', '));
  return msg('no {0} {1} in the given files, and no {0} in namespace {2}', kind, wanted, namespace);
}

function ensureNewline(s: string): string {
  return s.endsWith('\n') ? s : s + '\n';
}
