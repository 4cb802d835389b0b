// `kube-netlens reach [PATH...]`: NetworkPolicy reach (docs/networkpolicy-semantics.md). With `--from REF --to REF`
// one verdict and its reasons; without them the connectivity list of the workloads in scope, np-guard style. The JSON
// shape is documented in docs/reach.md and kept stable.

import { connectivityList, defaultReachLimit, parsePortQuery, reachBetween, resolveReachRef, type ReachConnection } from '../features/reachReport';
import { messages, type Msg } from '../l10n/l10n';
import { lineIndexesOf } from '../model/lineIndex';
import { analyzePaths } from './analyzePaths';
import { analyzeWithCharts } from './chartFindings';
import { textOutput } from './checkCommand';
import { isCollectError } from './collectFiles';
import { withConfigFile } from './configFile';
import { failure, note, type CommandResult, type Terminal } from './commandResult';
import { helmOptionError } from './helmCharts';
import type { Paint } from './paint';
import type { ReachRequest } from './parseArgs';
import { terminalSafe } from './terminalText';

export function reachCommand(asked: ReachRequest, terminal: Terminal): CommandResult {
  // the config file applies as to check (namespace, files, Kustomize roots, Helm releases); reach has no findings to ignore
  const configured = withConfigFile(asked);
  if ('error' in configured) return failure(configured.error);
  const request = configured.request;
  const msg = messages(request.locale);
  const helmError = helmOptionError(request);
  if (helmError) return failure(helmError);
  const port = request.port === undefined ? undefined : parsePortQuery(request.port, msg);
  if (port && 'error' in port) return failure(port.error);
  const loaded = analyzePaths(request);
  if (isCollectError(loaded)) return failure(loaded.error);
  const { analysis } = analyzeWithCharts(loaded, request, terminal.env);
  const texts = new Map(loaded.sources.map((s) => [s.uri, s.text]));
  const linesOf = lineIndexesOf(loaded.sources);
  const lineOf = (uri: string, offset: number) => (texts.has(uri) ? `${uri}:${linesOf(uri).positionAt(offset).line + 1}` : uri);
  let connections: readonly ReachConnection[];
  let total: number | undefined;
  if (request.from !== undefined && request.to !== undefined) {
    const from = resolveReachRef(analysis, request.from);
    if ('error' in from) return failure(msg('--from: {0}', from.error), loaded.notes);
    const to = resolveReachRef(analysis, request.to);
    if ('error' in to) return failure(msg('--to: {0}', to.error), loaded.notes);
    if (from.endpoint.kind === 'external' && to.endpoint.kind === 'external')
      return failure(msg('--from and --to are both external: NetworkPolicies govern pods, so name a workload on at least one side'), loaded.notes);
    if (to.endpoint.kind === 'namespace')
      return failure(
        msg('--to: NAMESPACE/* names any pod of a namespace, whose ports are not given; name a workload (NAMESPACE/NAME) or external'),
        loaded.notes,
      );
    const one = reachBetween(analysis, from, to, port);
    if ('error' in one) return failure(one.error, loaded.notes);
    connections = [one];
  } else ({ connections, total } = connectivityList(analysis, port, request.limit ?? defaultReachLimit));
  const stdout =
    request.format === 'json'
      ? JSON.stringify({ connections: connections.map((c) => c.json), ...(total !== undefined && { total }) }, null, 2) + '\n'
      : textOutput(terminal, (paint) =>
          request.from !== undefined ? verdictText(connections[0], lineOf, paint, msg) : listText(connections, total ?? connections.length, paint, msg),
        );
  return { exitCode: 0, stdout, stderr: loaded.notes.map(note) };
}

function ends(c: ReachConnection): string {
  const end = (p: ReachConnection['json']['from']) =>
    'external' in p ? 'external' : 'anyPod' in p ? `${p.namespace}/*` : `${p.namespace}/${p.name}[${p.kind}]`;
  return terminalSafe(`${end(c.json.from)} => ${end(c.json.to)}`);
}

/** One verdict: the line np-guard would print, then each deciding rule with its place. */
function verdictText(c: ReachConnection, lineOf: (uri: string, offset: number) => string, paint: Paint, msg: Msg): string {
  const j = c.json;
  const head = j.verdict === 'allowed' ? paint.cyan('allowed') : j.verdict === 'denied' ? paint.red('denied') : paint.yellow('unknown');
  const lines = [`${head}: ${ends(c)}${j.verdict === 'denied' ? '' : ` : ${c.portsText}`}`];
  if (!j.because.length && j.verdict === 'allowed') lines.push(`  ${msg('no NetworkPolicy isolates either end, so every connection is allowed')}`);
  j.because.forEach((b, i) => {
    const where = paint.dim(`(${terminalSafe(lineOf(c.places[i].uri, c.places[i].span.start))})`);
    const policy = terminalSafe(`${b.policy.namespace}/${b.policy.name}`);
    lines.push(
      b.rule !== undefined
        ? `  ${msg('{0}: NetworkPolicy {1} {0} rule {2} admits it {3}', b.direction, policy, b.rule, where)}`
        : `  ${msg('{0}: NetworkPolicy {1} isolates the pods for {0} and no rule of it admits this {2}', b.direction, policy, where)}`,
    );
  });
  if (j.unknownBecause) lines.push(`  ${msg('unknown because {0}', terminalSafe(j.unknownBecause))}`);
  return lines.join('\n') + '\n';
}

/** The connectivity list: allowed connections, then the unknown ones with their reason; then how many are not listed. */
function listText(connections: readonly ReachConnection[], total: number, paint: Paint, msg: Msg): string {
  const allowed = connections.filter((c) => c.json.verdict === 'allowed');
  const unknown = connections.filter((c) => c.json.verdict === 'unknown');
  const lines = allowed.map((c) => `${ends(c)} : ${c.portsText}`);
  if (!allowed.length) lines.push(paint.dim(msg('no connection is allowed for certain')));
  if (unknown.length) {
    lines.push('', paint.yellow(msg('unknown (the manifests cannot tell):')));
    for (const c of unknown) lines.push(`${ends(c)} : ${c.portsText} ${paint.dim(`(${terminalSafe(c.json.unknownBecause ?? '')})`)}`);
  }
  if (total > connections.length)
    lines.push(
      '',
      paint.yellow(
        msg(
          '{0} more connections are not listed: these are the first {1} of {2}. --limit N lists more (0: all), --from and --to ask about one pair.',
          total - connections.length,
          connections.length,
          total,
        ),
      ),
    );
  return lines.join('\n') + '\n';
}
