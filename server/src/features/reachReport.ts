// What `kube-netlens reach` reports (docs/networkpolicy-semantics.md, netpol §8): one verdict between two endpoints,
// or the connectivity list of every workload in scope, in the JSON shape docs/reach.md documents (keep it stable).

import type { Analysis } from '../analysis/analysis';
import {
  asProtocol,
  ingressCandidates,
  isAll,
  portSetText,
  reach,
  type Endpoint,
  type ListedEnd,
  type PortQuery,
  type PortSet,
  type ReachResult,
  type RuleRef,
} from '../analysis/reach';
import type { Workload } from '../model/resources';
import type { Span } from '../model/span';
import { isWorkloadFragment } from '../analysis/unknowns';
import { messages, say, type Msg } from '../l10n/l10n';

export type ReachPeerJson =
  | { readonly namespace: string; readonly kind: string; readonly name: string }
  | { readonly external: true }
  | { readonly namespace: string; readonly anyPod: true };
export type ReachPortsJson = 'all' | readonly { readonly protocol: string; readonly port: number; readonly endPort?: number }[];

export interface ReachConnectionJson {
  readonly from: ReachPeerJson;
  readonly to: ReachPeerJson;
  readonly verdict: ReachResult['verdict'];
  readonly ports: ReachPortsJson;
  readonly because: readonly {
    readonly policy: { readonly namespace: string; readonly name: string };
    readonly direction: 'ingress' | 'egress';
    readonly rule?: number;
  }[];
  readonly unknownBecause?: string;
}

/** One connection with what text output needs besides the JSON: where each deciding rule is written. */
export interface ReachConnection {
  readonly json: ReachConnectionJson;
  /** Parallel to `json.because`: the rule's place (or the policy's name when it isolates without a rule that admits). */
  readonly places: readonly { readonly uri: string; readonly span: Span }[];
  /** np-guard's spelling of the ports: `All Connections`, `TCP 8050,UDP 53`. */
  readonly portsText: string;
}

export interface ReachEnd {
  readonly endpoint: Endpoint;
  /** The analysis (apply scope) the workload is in; undefined for external. */
  readonly analysis?: Analysis;
}

/**
 * `external`, `NAMESPACE/*` (any pod of the namespace, its labels not given), `NAMESPACE/KIND/NAME` or `NAMESPACE/NAME`
 * of a workload → the endpoint, or a message saying why not.
 */
export function resolveReachRef(analysis: Analysis, ref: string): ReachEnd | { readonly error: string } {
  const msg = messages(analysis.config.locale);
  if (ref.toLowerCase() === 'external') return { endpoint: { kind: 'external' } };
  const any = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/\*$/.exec(ref);
  if (any) return { endpoint: { kind: 'namespace', namespace: any[1] } };
  const parts = ref.split('/');
  if ((parts.length !== 2 && parts.length !== 3) || parts.some((p) => !p)) {
    return { error: msg("'{0}' is not NAMESPACE/NAME or NAMESPACE/KIND/NAME of a workload, NAMESPACE/* (any pod of a namespace), or external", ref) };
  }
  const namespace = parts[0];
  const name = parts[parts.length - 1];
  const kind = parts.length === 3 ? parts[1].toLowerCase() : undefined;
  const found: { w: Workload; a: Analysis }[] = [];
  for (const scope of analysis.scopes()) {
    for (const w of scope.analysis.cluster.workloadsIn(namespace)) {
      if (w.name !== name || (kind && w.kind.toLowerCase() !== kind) || isWorkloadFragment(w)) continue;
      if (!found.some((f) => f.w.kind === w.kind)) found.push({ w, a: scope.analysis });
    }
  }
  if (found.length === 1) return { endpoint: { kind: 'workload', workload: found[0].w }, analysis: found[0].a };
  if (found.length > 1)
    return {
      error: msg(
        "'{0}' names several workloads ({1}); say which with NAMESPACE/KIND/NAME",
        ref,
        found.map((f) => `${namespace}/${f.w.kind}/${name}`).join(', '),
      ),
    };
  const all = analysis.cluster.workloads.filter((w) => !isWorkloadFragment(w));
  const inNamespace = all.filter((w) => w.namespace === namespace).map((w) => `${namespace}/${w.kind}/${w.name}`);
  const sameName = all.filter((w) => w.name === name).map((w) => `${w.namespace}/${w.kind}/${w.name}`);
  if (sameName.length) return { error: msg('no workload {0} in the given files; did you mean {1}?', ref, [...new Set(sameName)].slice(0, 5).join(', ')) };
  if (inNamespace.length)
    return { error: msg('no workload {0} in the given files; namespace {1} has {2}', ref, namespace, [...new Set(inNamespace)].slice(0, 5).join(', ')) };
  return {
    error: all.length
      ? msg('no workload {0} in the given files, and no workload in namespace {1}', ref, namespace)
      : msg('no workload {0} in the given files: the given files define no workload at all', ref),
  };
}

/** `8080`, `53/UDP`, `8080/tcp` → the port query, or a message. */
export function parsePortQuery(text: string, msg: Msg = messages(undefined)): PortQuery | { readonly error: string } {
  const m = /^(\d{1,5})(?:\/([A-Za-z]+))?$/.exec(text);
  const port = m ? Number(m[1]) : NaN;
  const protocol = m?.[2] === undefined ? 'TCP' : asProtocol(m[2]);
  if (!m || port < 1 || port > 65535) return { error: msg("--port '{0}' is not PORT or PORT/PROTOCOL with PORT 1-65535 (e.g. 8080, 53/UDP)", text) };
  if (!protocol) return { error: msg("--port '{0}': the protocol must be TCP, UDP or SCTP", text) };
  return { port, protocol };
}

function peerJson(e: Endpoint): ReachPeerJson {
  if (e.kind === 'namespace') return { namespace: e.namespace, anyPod: true };
  return e.kind === 'external' ? { external: true } : { namespace: e.workload.namespace, kind: e.workload.kind, name: e.workload.name };
}

export function peerText(e: Endpoint): string {
  if (e.kind === 'namespace') return `${e.namespace}/*`;
  return e.kind === 'external' ? 'external' : `${e.workload.namespace}/${e.workload.name}[${e.workload.kind}]`;
}

function portsJson(s: PortSet): ReachPortsJson {
  if (isAll(s)) return 'all';
  return [...s].flatMap(([protocol, ranges]) => ranges.map(([a, b]) => ({ protocol, port: a, ...(b !== a ? { endPort: b } : {}) })));
}

function connection(from: Endpoint, to: Endpoint, r: ReachResult, msg: Msg): ReachConnection {
  const place = (ref: RuleRef) => {
    const rules = ref.direction === 'ingress' ? ref.policy.ingress : ref.policy.egress;
    return { uri: ref.policy.uri, span: ref.rule !== undefined ? rules[ref.rule].span : (ref.policy.nameSpan ?? ref.policy.span) };
  };
  return {
    json: {
      from: peerJson(from),
      to: peerJson(to),
      verdict: r.verdict,
      ports: r.verdict === 'denied' ? [] : portsJson(r.ports),
      because: r.because.map((b) => ({
        policy: { namespace: b.policy.namespace, name: b.policy.name },
        direction: b.direction,
        ...(b.rule !== undefined ? { rule: b.rule } : {}),
      })),
      ...(r.unknownBecause && r.verdict !== 'denied' ? { unknownBecause: say(r.unknownBecause, msg) } : {}),
    },
    places: r.because.map(place),
    portsText: r.verdict === 'denied' ? 'No Connections' : portSetText(r.ports),
  };
}

/** One verdict between two endpoints; both workloads must be in one apply scope. */
export function reachBetween(analysis: Analysis, from: ReachEnd, to: ReachEnd, port?: PortQuery): ReachConnection | { readonly error: string } {
  const scoped = from.analysis ?? to.analysis ?? analysis;
  const msg = messages(analysis.config.locale);
  if (from.analysis && to.analysis && from.analysis !== to.analysis) {
    return {
      error: msg('the two workloads are in different variants of the workspace (files that are never applied together), so no connection between them exists'),
    };
  }
  return connection(from.endpoint, to.endpoint, reach(scoped.cluster, from.endpoint, to.endpoint, port), msg);
}

/**
 * Every ordered pair of distinct workloads in each apply scope, and each workload to and from external, whose verdict
 * is allowed or unknown (a pair not listed is denied), once per pair (the first scope that has it), in no order.
 * `visit` gets the pair's sort key (source, then destination).
 */
function eachConnection(analysis: Analysis, port: PortQuery | undefined, visit: (key: string, from: ListedEnd, to: ListedEnd, r: ReachResult) => void): void {
  const scopes = [...analysis.scopes()];
  // A pair can repeat only across scopes; one scope (a workspace without variants) needs no set of the keys seen.
  const seen = scopes.length > 1 ? new Set<string>() : undefined;
  const external: ListedEnd = { kind: 'external' };
  for (const scope of scopes) {
    const cluster = scope.analysis.cluster;
    const ends: ListedEnd[] = [
      ...cluster.workloads.filter((w) => !isWorkloadFragment(w)).map((workload): ListedEnd => ({ kind: 'workload', workload })),
      external,
    ];
    // Per destination, only the sources its ingress rules may admit (and external): the others are denied.
    const sourcesOf = (to: ListedEnd): readonly ListedEnd[] => {
      const candidates = to.kind === 'workload' ? ingressCandidates(cluster, to.workload) : undefined;
      return candidates ? ends.filter((e) => e.kind === 'external' || candidates.has(e.workload)) : ends;
    };
    for (const to of ends) {
      for (const from of sourcesOf(to)) {
        if (from === to) continue;
        if (
          from.kind === 'workload' &&
          to.kind === 'workload' &&
          from.workload.namespace === to.workload.namespace &&
          from.workload.name === to.workload.name &&
          from.workload.kind === to.workload.kind
        )
          continue;
        const r = reach(cluster, from, to, port);
        if (r.verdict === 'denied') continue;
        const key = `${peerText(from)}\u0000${peerText(to)}`;
        if (seen) {
          if (seen.has(key)) continue;
          seen.add(key);
        }
        visit(key, from, to, r);
      }
    }
  }
}

/** The whole connectivity list, sorted by source and destination (what `diff` compares). */
export function connectivity(analysis: Analysis, port?: PortQuery): readonly ReachConnection[] {
  return connectivityList(analysis, port, 0).connections;
}

/** The default bound of `kube-netlens reach`'s list: the list grows with the square of the workloads. */
export const defaultReachLimit = 10000;

/**
 * The first `limit` connections of the list in its order (0: all of them) and how many the list has. Only the first
 * `limit` are kept while the pairs are gone through (a bounded max-heap on the sort key), so the memory is bounded by
 * the limit, not by the list: 50,000 resources make millions of allowed pairs.
 */
export function connectivityList(
  analysis: Analysis,
  port: PortQuery | undefined,
  limit: number,
): { readonly connections: readonly ReachConnection[]; readonly total: number } {
  const msg = messages(analysis.config.locale);
  type Kept = { readonly key: string; readonly from: ListedEnd; readonly to: ListedEnd; readonly r: ReachResult };
  const heap: Kept[] = [];
  let total = 0;
  const above = (i: number, j: number) => heap[i].key > heap[j].key;
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j], heap[i]]);
  eachConnection(analysis, port, (key, from, to, r) => {
    total++;
    if (limit <= 0) {
      heap.push({ key, from, to, r });
      return;
    }
    if (heap.length === limit) {
      if (key >= heap[0].key) return;
      heap[0] = { key, from, to, r };
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const b = l + 1 < heap.length && above(l + 1, l) ? l + 1 : l;
        if (l >= heap.length || !above(b, i)) break;
        swap(i, b);
        i = b;
      }
      return;
    }
    heap.push({ key, from, to, r });
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!above(i, parent)) break;
      swap(i, parent);
      i = parent;
    }
  });
  heap.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { connections: heap.map((k) => connection(k.from, k.to, k.r, msg)), total };
}
