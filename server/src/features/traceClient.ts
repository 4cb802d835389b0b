// A Service trace for a chosen client (docs/networkpolicy-semantics.md, netpol §1, §6, §9): who the client is, whether
// its egress and the pods' ingress admit its connection on the pod port each Service port lands on (after the
// targetPort mapping: policies are matched after kube-proxy's DNAT), and the rules that decide, named as the reach hover
// names them (policy, direction, 1-based rule number, file and line).

import type { Analysis } from '../analysis/analysis';
import { messages, say, type Msg } from '../l10n/l10n';
import { asProtocol, policiesFor, reach, type Endpoint, type ReachResult, type RuleRef } from '../analysis/reach';
import { isWorkloadFragment } from '../analysis/unknowns';
import type { NetworkPolicy, Workload } from '../model/resources';
import type { Span } from '../model/span';
import type { TraceClient, TraceClientChoice, TraceReach } from '../protocol';

/** A client as a request names it, if it is well-formed (a request is data from outside: read it, never trust it). */
export function readTraceClient(v: unknown): TraceClient | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const c = v as Record<string, unknown>;
  const str = (x: unknown): x is string => typeof x === 'string' && x.length > 0 && x.length <= 253;
  if (c.kind === 'external') return { kind: 'external' };
  if (c.kind === 'namespace' && str(c.namespace)) return { kind: 'namespace', namespace: c.namespace };
  if (c.kind === 'workload' && str(c.namespace) && str(c.workloadKind) && str(c.name))
    return { kind: 'workload', namespace: c.namespace, workloadKind: c.workloadKind, name: c.name };
  return undefined;
}

/** The client as an end of a connection in this analysis (apply scope), or why it is not one. */
export function clientEnd(
  analysis: Analysis,
  client: TraceClient,
): { readonly end: Endpoint; readonly label: string } | { readonly missing: string; readonly label: string } {
  const msg = messages(analysis.config.locale);
  if (client.kind === 'external') return { end: { kind: 'external' }, label: msg('outside the cluster') };
  if (client.kind === 'namespace') return { end: { kind: 'namespace', namespace: client.namespace }, label: msg('any pod in namespace {0}', client.namespace) };
  const label = `${client.namespace}/${client.name} (${client.workloadKind})`;
  const w = analysis.cluster.workloadsIn(client.namespace).find((x) => x.kind === client.workloadKind && x.name === client.name && !isWorkloadFragment(x));
  return w
    ? { end: { kind: 'workload', workload: w }, label }
    : { missing: msg('{0} {1}/{2} is not in the files applied with this Service', client.workloadKind, client.namespace, client.name), label };
}

/** The clients the picker offers: the workloads of the scope, outside the cluster, and any pod of each namespace. */
export function clientChoices(analysis: Analysis): TraceClientChoice[] {
  const { cluster } = analysis;
  const msg = messages(analysis.config.locale);
  const seen = new Set<string>();
  const workloads: TraceClientChoice[] = [];
  for (const w of cluster.workloads) {
    const key = `${w.namespace}/${w.kind}/${w.name}`;
    if (isWorkloadFragment(w) || seen.has(key)) continue;
    seen.add(key);
    workloads.push({
      client: { kind: 'workload', namespace: w.namespace, workloadKind: w.kind, name: w.name },
      label: `${w.namespace}/${w.name}`,
      description: w.kind,
    });
  }
  workloads.sort((a, b) => (a.label === b.label ? (a.description! < b.description! ? -1 : 1) : a.label < b.label ? -1 : 1));
  const namespaces = [...cluster.namespaces].sort().map((namespace): TraceClientChoice => ({
    client: { kind: 'namespace', namespace },
    label: msg('any pod in namespace {0}', namespace),
    description: msg('labels not given'),
  }));
  return [{ client: { kind: 'external' }, label: msg('outside the cluster'), description: msg('an address outside the cluster') }, ...workloads, ...namespaces];
}

/** 1-based line of an offset in the file a policy was read from. */
function lineOf(p: NetworkPolicy, span: Span): number {
  const t = p.source.text;
  let n = 1;
  for (let i = t.indexOf('\n'); i !== -1 && i < span.start; i = t.indexOf('\n', i + 1)) n++;
  return n;
}

/** `egress: web-out rule 1 (policies.yaml line 12)`, or for a policy that isolates and admits none of it, says so. */
export function ruleText(ref: RuleRef, msg: Msg = messages(undefined)): string {
  const p = ref.policy;
  const rules = ref.direction === 'ingress' ? p.ingress : p.egress;
  const span = ref.rule !== undefined ? rules[ref.rule].span : (p.nameSpan ?? p.span);
  // A build's or a render's objects have no file of their own to point at a line in: the name says which policy.
  const where = p.uri.includes('#') ? '' : ` ${msg('({0} line {1})', p.uri.slice(p.uri.lastIndexOf('/') + 1), lineOf(p, span))}`;
  const name = `${p.namespace}/${p.name}`;
  return ref.rule !== undefined
    ? `${msg('{0}: {1} rule {2}', ref.direction, name, ref.rule + 1)}${where}`
    : `${msg('{0}: {1} admits none of it', ref.direction, name)}${where}`;
}

/**
 * The client's connection to a workload's pods on one pod port (protocol of the Service port), and the pods' ingress
 * policies whose rules decide it (for the edges to the policies' boxes).
 */
export function portReach(
  analysis: Analysis,
  client: Endpoint,
  clientLabel: string,
  to: Workload,
  protocol: string,
  port: number,
): { readonly reach: TraceReach; readonly ingressDeciders: ReadonlySet<NetworkPolicy> } {
  const proto = asProtocol(protocol) ?? 'TCP';
  const r = reach(analysis.cluster, client, { kind: 'workload', workload: to }, { protocol: proto, port });
  const msg = messages(analysis.config.locale);
  const ingressDeciders = new Set(r.because.filter((b) => b.direction === 'ingress' && b.rule !== undefined).map((b) => b.policy));
  return {
    reach: { verdict: r.verdict, text: sentence(r, clientLabel, `${port}/${proto}`, msg), because: r.because.map((b) => ruleText(b, msg)) },
    ingressDeciders,
  };
}

function sentence(r: ReachResult, client: string, port: string, msg: Msg): string {
  if (r.verdict === 'allowed')
    return r.because.length
      ? `✓ ${msg('From {0}: allowed on {1}.', client, port)}`
      : `✓ ${msg('From {0}: allowed on {1}; no NetworkPolicy isolates either end.', client, port)}`;
  if (r.verdict === 'denied') return `✖ ${msg('From {0}: blocked on {1} by NetworkPolicy.', client, port)}`;
  return `◐ ${msg('From {0}: unknown on {1}, because {2}.', client, port, r.unknownBecause ? say(r.unknownBecause, msg) : msg('the manifests cannot tell'))}`;
}

/** The verdict of several hops together: allowed when one is, denied when all are, else unknown. */
export function combined(reaches: readonly TraceReach[]): TraceReach['verdict'] | undefined {
  if (!reaches.length) return undefined;
  if (reaches.some((r) => r.verdict === 'allowed')) return 'allowed';
  if (reaches.every((r) => r.verdict === 'denied')) return 'denied';
  return 'unknown';
}

/** What the client node says about the client's own egress. */
export function clientEgressText(analysis: Analysis, client: Endpoint): string {
  const msg = messages(analysis.config.locale);
  if (client.kind === 'external')
    return msg(
      "An address outside the cluster: only the pods' ingress policies apply, matched on the address they see (through a node port with externalTrafficPolicy Cluster, or an Ingress controller, that is a node's or the controller pod's, not the client's).",
    );
  if (client.kind === 'namespace') {
    const limiting = (analysis.cluster.objectsIn(client.namespace)?.networkPolicies ?? []).filter((p) => p.policyTypes.includes('Egress'));
    return limiting.length
      ? msg('Its egress may be limited by {0}, as its labels decide (they are not given).', limiting.map((p) => p.name).join(', '))
      : msg('No NetworkPolicy of namespace {0} limits egress.', client.namespace);
  }
  const { sure, maybe } = policiesFor(analysis.cluster, client.workload, 'egress');
  if (!sure.length && !maybe.length) return msg('No NetworkPolicy limits its egress.');
  return msg('Its egress is limited by {0}.', [...sure, ...maybe.map((m) => m.p)].map((p) => p.name).join(', '));
}
