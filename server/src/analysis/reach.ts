// NetworkPolicy reach in both directions (docs/networkpolicy-semantics.md, cited as netpol §N): whether a connection
// from one endpoint (a workload's pods, or an address outside the cluster) to another is allowed, on which ports, and
// which policy rule decides it; "unknown" where the manifests cannot know (network-semantics §9).

import { asIs, phrase, type Phrase } from '../l10n/l10n';
import { filesByNamespace, objectsOfFile, type Cluster } from '../model/cluster';
import type { ManifestFile } from '../model/parseManifest';
import { hasPlaceholder } from '../model/placeholder';
import { isControllerLabel } from '../model/podLabels';
import {
  protocols,
  type NetworkPolicy,
  type PolicyPeer,
  type PolicyPort,
  type PolicyRule,
  type Protocol,
  type Resource,
  type Workload,
} from '../model/resources';
import { selectorMatches, type LabelSelector } from '../model/selector';
import { isWorkloadFragment } from './unknowns';

/** A set of ports: sorted, merged, inclusive ranges per protocol. */
export type PortSet = ReadonlyMap<Protocol, readonly (readonly [number, number])[]>;

/**
 * One end of a connection: a workload's pods, an address outside the cluster, or any pod of a namespace (`namespace`:
 * a pod whose labels are not given, as a trace's client "any pod in namespace X"; netpol §9).
 */
export type Endpoint =
  | { readonly kind: 'workload'; readonly workload: Workload }
  | { readonly kind: 'external' }
  /**
   * Pods of a namespace that no manifest describes: with `labels`, pods known to carry those labels (an ingress
   * controller named in the settings); without, any pod, whose labels are not given.
   */
  | { readonly kind: 'namespace'; readonly namespace: string; readonly labels?: ReadonlyMap<string, string> };

/** The ends a connectivity list and a hover enumerate: a workload, or outside the cluster. */
export type ListedEnd = Exclude<Endpoint, { kind: 'namespace' }>;

/** The ends policies select: a workload's pods, or any pod of a namespace. */
export type PodsEnd = Exclude<Endpoint, { kind: 'external' }>;

export type Direction = 'ingress' | 'egress';

/** A policy that decides, with the 0-based index of its rule; no rule: the policy isolates and admits none of it. */
export interface RuleRef {
  readonly policy: NetworkPolicy;
  readonly direction: Direction;
  readonly rule?: number;
}

export type Verdict = 'allowed' | 'denied' | 'unknown';

export interface ReachResult {
  readonly verdict: Verdict;
  /** Allowed ports (for "unknown": the ports that may be allowed). */
  readonly ports: PortSet;
  readonly because: readonly RuleRef[];
  /** Why (part of) the answer is unknown, worded in the reader's locale (l10n.ts `say`). */
  readonly unknownBecause?: Phrase;
}

export const allPorts: PortSet = new Map(protocols.map((p) => [p, [[1, 65535]] as const]));
const noPorts: PortSet = new Map();

// ---- port sets ----------------------------------------------------------------------------------------------------

function normalize(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = ranges
    .filter(([a, b]) => a <= b)
    .map(([a, b]): [number, number] => [a, b])
    .sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push(r);
  }
  return out;
}

export function union(...sets: PortSet[]): PortSet {
  const some = sets.filter((x) => x.size);
  if (some.length <= 1) return some[0] ?? noPorts;
  if (some.some((x) => x === allPorts)) return allPorts;
  const out = new Map<Protocol, [number, number][]>();
  for (const p of protocols) {
    const r = normalize(some.flatMap((s) => s.get(p) ?? []));
    if (r.length) out.set(p, r);
  }
  return out;
}

export function intersect(a: PortSet, b: PortSet): PortSet {
  if (a === allPorts) return b;
  if (b === allPorts) return a;
  if (!a.size || !b.size) return noPorts;
  const out = new Map<Protocol, [number, number][]>();
  for (const p of protocols) {
    const r: [number, number][] = [];
    for (const [x1, x2] of a.get(p) ?? [])
      for (const [y1, y2] of b.get(p) ?? []) {
        const lo = Math.max(x1, y1);
        const hi = Math.min(x2, y2);
        if (lo <= hi) r.push([lo, hi]);
      }
    if (r.length) out.set(p, normalize(r));
  }
  return out;
}

export function isEmpty(s: PortSet): boolean {
  return s.size === 0;
}

export function equalSets(a: PortSet, b: PortSet): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [p, ra] of a) {
    const rb = b.get(p);
    if (!rb || rb.length !== ra.length || ra.some(([x, y], i) => rb[i][0] !== x || rb[i][1] !== y)) return false;
  }
  return true;
}

export function isAll(s: PortSet): boolean {
  return equalSets(s, allPorts);
}

export function contains(s: PortSet, protocol: Protocol, port: number): boolean {
  return (s.get(protocol) ?? []).some(([a, b]) => port >= a && port <= b);
}

function single(protocol: Protocol, from: number, to = from): PortSet {
  return from <= to ? new Map([[protocol, [[from, to] as const]]]) : noPorts;
}

/** np-guard's spelling: `All Connections`, or `TCP 80,8080-8090,UDP 53`. */
export function portSetText(s: PortSet): string {
  if (
    s.size === protocols.length &&
    protocols.every((p) => {
      const r = s.get(p)!;
      return r.length === 1 && r[0][0] === 1 && r[0][1] === 65535;
    })
  )
    return 'All Connections';
  if (!s.size) return 'No Connections';
  return protocols
    .filter((p) => s.has(p))
    .map(
      (p) =>
        `${p} ${s
          .get(p)!
          .map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`))
          .join(',')}`,
    )
    .join(',');
}

export function asProtocol(p: string): Protocol | undefined {
  const u = p.toUpperCase();
  return protocols.find((x) => x === u);
}

// ---- one side of a connection --------------------------------------------------------------------------------------

type Match = { readonly m: 'yes' } | { readonly m: 'no' } | { readonly m: 'unknown'; readonly why: Phrase };
const yes: Match = { m: 'yes' };
const no: Match = { m: 'no' };

/** Namespace labels: a `kind: Namespace` manifest's, plus the automatic `kubernetes.io/metadata.name` (netpol §5). */
function namespaceMatch(cluster: Cluster, selector: LabelSelector, namespace: string): Match {
  const declared = cluster.declaredNamespaces.get(namespace);
  const keys = selectorKeys(selector);
  if (!declared && keys.some((k) => k !== 'kubernetes.io/metadata.name')) {
    // Without a manifest only the name label is known; the selector's verdict on the other keys is open.
    return {
      m: 'unknown',
      why: phrase(
        'namespace "{0}" has no manifest in scope, so whether it carries the labels {1} is unknown',
        namespace,
        keys
          .filter((k) => k !== 'kubernetes.io/metadata.name')
          .map((k) => `"${k}"`)
          .join(', '),
      ),
    };
  }
  return selectorMatches(selector, namespaceLabelsOf(cluster, namespace)) ? yes : no;
}

// Kept with the cluster's declared namespaces, which the next snapshot keeps while no Namespace object changes.
const namespaceLabelMemo = new WeakMap<ReadonlyMap<string, Resource>, Map<string, ReadonlyMap<string, string>>>();

function namespaceLabelsOf(cluster: Cluster, namespace: string): ReadonlyMap<string, string> {
  let byName = namespaceLabelMemo.get(cluster.declaredNamespaces);
  if (!byName) namespaceLabelMemo.set(cluster.declaredNamespaces, (byName = new Map()));
  let found = byName.get(namespace);
  if (!found)
    byName.set(namespace, (found = new Map([...(cluster.declaredNamespaces.get(namespace)?.labels ?? []), ['kubernetes.io/metadata.name', namespace]])));
  return found;
}

/** Whether a pod selector selects the workload's pods, by their template labels (controller labels are unknown). */
export function podMatch(selector: LabelSelector, w: Workload): Match {
  const keys = selectorKeys(selector);
  const controller = keys.find((k) => isControllerLabel(k) && !w.template.labels.has(k));
  if (controller) return { m: 'unknown', why: phrase('the selector reads the "{0}" label, which the controller sets on each pod', controller) };
  const placeholder = keys.find((k) => hasPlaceholder(w.template.labels.get(k) ?? ''));
  if (placeholder) return { m: 'unknown', why: phrase('{0} "{1}" has a placeholder as the value of its "{2}" label', w.kind, w.name, placeholder) };
  return selectorMatches(selector, w.template.labels) ? yes : no;
}

const keysMemo = new WeakMap<LabelSelector, readonly string[]>();

/** The label keys a selector reads, matchLabels first (made once per parsed selector: every pair of a list asks). */
function selectorKeys(selector: LabelSelector): readonly string[] {
  let found = keysMemo.get(selector);
  if (!found) keysMemo.set(selector, (found = [...selector.matchLabels.keys(), ...selector.matchExpressions.map((e) => e.key)]));
  return found;
}

/**
 * Whether a pod selector selects pods of a namespace no manifest describes: by their labels when they are given, else
 * only `{}` does for certain.
 */
export function anyPodMatch(selector: LabelSelector, namespace: string, labels?: ReadonlyMap<string, string>): Match {
  if (labels) return selectorMatches(selector, labels) ? yes : no;
  const keys = selectorKeys(selector);
  if (!keys.length) return yes;
  return {
    m: 'unknown',
    why: phrase(
      'the labels of "any pod in namespace {0}" are not given, and the selector reads {1}',
      namespace,
      [...new Set(keys)].map((k) => `"${k}"`).join(', '),
    ),
  };
}

function pods(selector: LabelSelector, e: PodsEnd): Match {
  return e.kind === 'workload' ? podMatch(selector, e.workload) : anyPodMatch(selector, e.namespace, e.labels);
}

function and(a: Match, b: Match): Match {
  if (a.m === 'no' || b.m === 'no') return no;
  if (a.m === 'unknown') return a;
  return b;
}

function or(ms: readonly Match[]): Match {
  if (ms.some((x) => x.m === 'yes')) return yes;
  return ms.find((x) => x.m === 'unknown') ?? no;
}

// netpol §5: 0.0.0.0/0 (or ::/0) minus private and reserved ranges still admits every address outside the cluster.
function coversAllExternal(block: NonNullable<PolicyPeer['ipBlock']>): boolean {
  if (block.cidr !== '0.0.0.0/0' && block.cidr !== '::/0') return false;
  return block.except.every((e) => {
    const [addr, len] = e.split('/');
    const bits = Number(len);
    if (!Number.isInteger(bits)) return false;
    const lower = addr.toLowerCase();
    if (lower.includes(':')) return lower.startsWith('fc') || lower.startsWith('fd') ? bits >= 7 : lower.startsWith('fe80:') ? bits >= 10 : false;
    const [a, b] = lower.split('.').map(Number);
    if (a === 10) return bits >= 8;
    if (a === 172 && b >= 16 && b <= 31) return bits >= 12;
    if (a === 192 && b === 168) return bits >= 16;
    if (a === 100 && b >= 64 && b <= 127) return bits >= 10;
    if (a === 169 && b === 254) return bits >= 16;
    if (a === 127) return bits >= 8;
    return false;
  });
}

/** One `from`/`to` entry against the other end of the connection (netpol §5). */
// Kept per cluster, peer and workload: every pair of a connectivity list asks the same peers about the same pods.
const peerMemo = new WeakMap<Cluster, WeakMap<PolicyPeer, WeakMap<Workload, Match>>>();

function peerMatch(cluster: Cluster, policy: NetworkPolicy, peer: PolicyPeer, other: Endpoint): Match {
  if (other.kind === 'workload') {
    let byPeer = peerMemo.get(cluster);
    if (!byPeer) peerMemo.set(cluster, (byPeer = new WeakMap()));
    let byWorkload = byPeer.get(peer);
    if (!byWorkload) byPeer.set(peer, (byWorkload = new WeakMap()));
    let m = byWorkload.get(other.workload);
    if (!m) byWorkload.set(other.workload, (m = computePeerMatch(cluster, policy, peer, other)));
    return m;
  }
  return computePeerMatch(cluster, policy, peer, other);
}

function computePeerMatch(cluster: Cluster, policy: NetworkPolicy, peer: PolicyPeer, other: Endpoint): Match {
  if (other.kind === 'external') {
    if (!peer.ipBlock) return no;
    if (coversAllExternal(peer.ipBlock)) return yes;
    const why = peer.ipBlock.except.length
      ? phrase(
          'only addresses in {0} except {1} are admitted, and which external address connects is not in the manifests',
          peer.ipBlock.cidr,
          peer.ipBlock.except.join(', '),
        )
      : phrase('only addresses in {0} are admitted, and which external address connects is not in the manifests', peer.ipBlock.cidr);
    return { m: 'unknown', why };
  }
  // ipBlock is for cluster-external addresses; pod IPs are not in the manifests (netpol §5).
  if (peer.ipBlock) return no;
  if (!peer.podSelector && !peer.namespaceSelector) return no;
  const namespace = other.kind === 'workload' ? other.workload.namespace : other.namespace;
  const ns = peer.namespaceSelector ? namespaceMatch(cluster, peer.namespaceSelector, namespace) : namespace === policy.namespace ? yes : no;
  if (ns.m === 'no') return no;
  return and(ns, peer.podSelector ? pods(peer.podSelector, other) : yes);
}

/** The ports one `ports` entry admits on the destination (netpol §6: named ports resolve on the destination's pods). */
export function portEntrySet(entry: PolicyPort, destination: Endpoint): PortSet {
  const protocol = asProtocol(entry.protocol);
  if (!protocol) return noPorts;
  if (entry.port === undefined) return single(protocol, 1, 65535);
  if (typeof entry.port === 'number') {
    if (entry.endPort !== undefined && entry.endPort < entry.port) return noPorts;
    return single(protocol, entry.port, entry.endPort ?? entry.port);
  }
  if (/^\d+$/.test(entry.port)) return single(protocol, Number(entry.port));
  // A named port resolves on the destination's pods: outside the cluster, or on pods not given, it names no port.
  if (destination.kind !== 'workload') return noPorts;
  const found = destination.workload.template.containers
    .flatMap((c) => c.ports)
    .filter((p) => p.name === entry.port && p.protocol === protocol && p.containerPort !== undefined);
  return union(...found.map((p) => single(protocol, p.containerPort!)));
}

const fixedPorts = new WeakMap<PolicyRule, PortSet>();
const namedPorts = new WeakMap<PolicyRule, WeakMap<Workload, PortSet>>();

function rulePorts(rule: PolicyRule, destination: Endpoint): PortSet {
  if (!rule.ports.length) return allPorts;
  const compute = () => union(...rule.ports.map((p) => portEntrySet(p, destination)));
  // Only named ports depend on the destination; numbers are the same for every pod.
  if (!rule.ports.some((p) => typeof p.port === 'string')) {
    let found = fixedPorts.get(rule);
    if (!found) fixedPorts.set(rule, (found = compute()));
    return found;
  }
  if (destination.kind !== 'workload') return compute();
  let byDestination = namedPorts.get(rule);
  if (!byDestination) namedPorts.set(rule, (byDestination = new WeakMap()));
  let found = byDestination.get(destination.workload);
  if (!found) byDestination.set(destination.workload, (found = compute()));
  return found;
}

/** What one direction of one workload admits from (ingress) or to (egress) the other end. */
export interface SideResult {
  /** Policies that select the pods for this direction (for certain or perhaps). */
  readonly isolating: readonly NetworkPolicy[];
  readonly isolated: boolean;
  readonly sure: PortSet;
  readonly maybe: PortSet;
  /** Rules that admit something, with what they admit for certain. */
  readonly rules: readonly { readonly ref: RuleRef; readonly ports: PortSet; readonly sure: boolean }[];
  readonly unknownBecause?: Phrase;
}

/**
 * Which policies select a workload's pods depends on its namespace's objects alone: kept with the cluster's partition
 * of that namespace (model/cluster.ts), which the next snapshot reuses while none of the namespace's files change and
 * replaces when one does (a policy added or edited), so the answer is never one of an earlier snapshot's.
 */
const selectionMemo = new WeakMap<object, WeakMap<Workload, Map<Direction, Selection>>>();

interface Selection {
  readonly sure: NetworkPolicy[];
  readonly maybe: { p: NetworkPolicy; why: Phrase }[];
}

/** Policies of the workload's namespace that select its pods for a direction (netpol §2, §3). */
export function policiesFor(
  cluster: Cluster,
  w: Workload,
  direction: Direction,
): { readonly sure: readonly NetworkPolicy[]; readonly maybe: readonly { p: NetworkPolicy; why: Phrase }[] } {
  const partition: object = cluster.objectsIn(w.namespace) ?? cluster;
  let byWorkload = selectionMemo.get(partition);
  if (!byWorkload) selectionMemo.set(partition, (byWorkload = new WeakMap()));
  let byDirection = byWorkload.get(w);
  if (!byDirection) byWorkload.set(w, (byDirection = new Map()));
  let found = byDirection.get(direction);
  if (!found) byDirection.set(direction, (found = selection(cluster, { kind: 'workload', workload: w }, direction)));
  return found;
}

/**
 * A namespace's policies whose policyTypes hold a type, in cluster order, indexed by the label pair their pod
 * selector requires: a pod selector's `matchLabels` are ANDed with its expressions (netpol §2), so a policy requiring
 * `app=web` can select only pods labelled `app=web`. Policies the index cannot answer for, listed in `always`: a
 * selector without `matchLabels` (`{}`, expressions alone), or one that reads a controller label (its value is the
 * controller's, not the template's: podMatch answers "unknown" for pods whose template lacks it).
 */
interface TypedPolicies {
  readonly list: readonly NetworkPolicy[];
  /** "key=value" → places in `list` of the policies whose first matchLabels pair that is */
  readonly byPair: ReadonlyMap<string, readonly number[]>;
  /** places in `list` of the policies every pod must be checked against */
  readonly always: readonly number[];
}

const noPolicies: TypedPolicies = { list: [], byPair: new Map(), always: [] };
const typedMemo = new WeakMap<object, Map<'Ingress' | 'Egress', TypedPolicies>>();

/** A namespace's policies of a type with their label index, kept with the namespace's partition (model/cluster.ts). */
function policiesOfType(cluster: Cluster, namespace: string, type: 'Ingress' | 'Egress'): TypedPolicies {
  const partition = cluster.objectsIn(namespace);
  if (!partition) return noPolicies;
  let byType = typedMemo.get(partition);
  if (!byType) typedMemo.set(partition, (byType = new Map()));
  let found = byType.get(type);
  if (!found) byType.set(type, (found = indexPolicies(partition.networkPolicies.filter((p) => p.policyTypes.includes(type)))));
  return found;
}

function indexPolicies(list: readonly NetworkPolicy[]): TypedPolicies {
  const byPair = new Map<string, number[]>();
  const always: number[] = [];
  list.forEach((p, i) => {
    const first = p.podSelector.matchLabels.entries().next();
    if (first.done || selectorKeys(p.podSelector).some(isControllerLabel)) always.push(i);
    else {
      const key = `${first.value[0]}=${first.value[1]}`;
      const at = byPair.get(key);
      if (at) at.push(i);
      else byPair.set(key, [i]);
    }
  });
  return { list, byPair, always };
}

/**
 * The policies that may select a workload's pods: those the index finds under one of its template's label pairs and
 * those it cannot answer for, in cluster order. Every other policy's selector requires a pair the template lacks, so
 * podMatch answers "no" for it, unless a template label's value is a placeholder (then its answer may be "unknown":
 * every policy is asked).
 */
function candidatePolicies(typed: TypedPolicies, w: Workload): readonly NetworkPolicy[] {
  if (!typed.list.length) return typed.list;
  const labels = w.template.labels;
  for (const v of labels.values()) if (hasPlaceholder(v)) return typed.list;
  let places: number[] | undefined;
  for (const [k, v] of labels) {
    const at = typed.byPair.get(`${k}=${v}`);
    if (at) (places ??= [...typed.always]).push(...at);
  }
  // Each policy is under one pair and a template has one value per key: no place is found twice.
  return (places ? places.sort((a, b) => a - b) : typed.always).map((i) => typed.list[i]);
}

function selection(cluster: Cluster, self: PodsEnd, direction: Direction): Selection {
  const type = direction === 'ingress' ? 'Ingress' : 'Egress';
  const found: Selection = { sure: [], maybe: [] };
  const typed = policiesOfType(cluster, namespaceOf(self), type);
  for (const p of self.kind === 'workload' ? candidatePolicies(typed, self.workload) : typed.list) {
    const m = pods(p.podSelector, self);
    if (m.m === 'yes') found.sure.push(p);
    else if (m.m === 'unknown') found.maybe.push({ p, why: m.why });
  }
  return found;
}

function namespaceOf(e: PodsEnd): string {
  return e.kind === 'workload' ? e.workload.namespace : e.namespace;
}

function selectionOf(cluster: Cluster, self: PodsEnd, direction: Direction): Selection | ReturnType<typeof policiesFor> {
  return self.kind === 'workload' ? policiesFor(cluster, self.workload, direction) : selection(cluster, self, direction);
}

/**
 * One direction: `self` is the pod whose policies apply (the destination for ingress, the source for egress),
 * `other` the far end, `destination` the end whose ports named ports resolve on.
 */
export function side(cluster: Cluster, self: Workload, direction: Direction, other: Endpoint): SideResult {
  return sideOf(cluster, { kind: 'workload', workload: self }, direction, other);
}

/**
 * Side results of a workload, per cluster, direction and the signature of the far end: which peer of each rule
 * matches it, for certain or not at all. Every far end with the same signature gets the same answer when the ports
 * do not depend on it (ingress: named ports resolve on the workload itself; egress: only without named ports), so
 * a connectivity list or a hover pays for each distinct answer once, not once per far end.
 */
const sideMemo = new WeakMap<Cluster, WeakMap<Workload, Map<string, SideResult>>>();
/** Side results that stand for every far end of their signature (and `openSide`): what `reach` may keep pairs of. */
const canonical = new WeakSet<SideResult>([]);

function sideOf(cluster: Cluster, self: PodsEnd, direction: Direction, other: Endpoint): SideResult {
  const { sure: definite, maybe: perhaps } = selectionOf(cluster, self, direction);
  if (!definite.length && !perhaps.length) return openSide;
  const isolating = [...definite, ...perhaps.map((x) => x.p)];
  // Every rule's peer match against the far end, computed once and read by the evaluation below.
  const matches = isolating.map((p) =>
    (direction === 'ingress' ? p.ingress : p.egress).map((rule) => (rule.peers.length ? or(rule.peers.map((q) => peerMatch(cluster, p, q, other))) : yes)),
  );
  const memoized =
    self.kind === 'workload' && (direction === 'ingress' || !isolating.some((p) => p.egress.some((r) => r.ports.some((x) => typeof x.port === 'string'))));
  let key: string | undefined;
  if (memoized && matches.every((ms) => ms.every((m) => m.m !== 'unknown'))) {
    key = `${direction}:${matches.map((ms) => ms.map((m) => (m.m === 'yes' ? 'y' : 'n')).join('')).join('|')}`;
    let byWorkload = sideMemo.get(cluster);
    if (!byWorkload) sideMemo.set(cluster, (byWorkload = new WeakMap()));
    let bySignature = byWorkload.get(self.workload);
    if (!bySignature) byWorkload.set(self.workload, (bySignature = new Map()));
    const found = bySignature.get(key);
    if (found) return found;
    const made = evaluateSide(self, direction, other, definite, perhaps, matches);
    bySignature.set(key, made);
    canonical.add(made);
    return made;
  }
  return evaluateSide(self, direction, other, definite, perhaps, matches);
}

function evaluateSide(
  self: PodsEnd,
  direction: Direction,
  other: Endpoint,
  definite: readonly NetworkPolicy[],
  perhaps: readonly { p: NetworkPolicy; why: Phrase }[],
  matches: readonly (readonly Match[])[],
): SideResult {
  const destination: Endpoint = direction === 'ingress' ? self : other;
  const rules: { ref: RuleRef; ports: PortSet; sure: boolean }[] = [];
  const selfText =
    self.kind === 'workload'
      ? asIs(`${self.workload.kind} "${self.workload.name}"`)
      : self.labels
        ? phrase('the pods labelled {0} in namespace "{1}"', [...self.labels].map(([k, v]) => `${k}=${v}`).join(','), self.namespace)
        : phrase('any pod in namespace "{0}"', self.namespace);
  let unknownBecause: Phrase | undefined =
    perhaps[0] && phrase('whether NetworkPolicy "{0}" selects {1} is unknown: {2}', perhaps[0].p.name, selfText, perhaps[0].why);
  const evaluate = (p: NetworkPolicy, ms: readonly Match[]): { sure: PortSet; maybe: PortSet } => {
    const list = direction === 'ingress' ? p.ingress : p.egress;
    let sure: PortSet = noPorts;
    let maybe: PortSet = noPorts;
    list.forEach((rule, i) => {
      const m = ms[i];
      if (m.m === 'no') return;
      const ports = rulePorts(rule, destination);
      if (isEmpty(ports)) return;
      rules.push({ ref: { policy: p, direction, rule: i }, ports, sure: m.m === 'yes' });
      if (m.m === 'yes') sure = union(sure, ports);
      else unknownBecause ??= m.why;
      maybe = union(maybe, ports);
    });
    return { sure, maybe };
  };
  const d = definite.map((p, i) => evaluate(p, matches[i]));
  const m = perhaps.map((x, i) => evaluate(x.p, matches[definite.length + i]));
  const isolating = [...definite, ...perhaps.map((x) => x.p)];
  const sure = definite.length ? union(...d.map((x) => x.sure)) : union(...m.map((x) => x.sure));
  const maybe = definite.length ? union(...d.map((x) => x.maybe), ...m.map((x) => x.maybe)) : allPorts;
  return { isolating, isolated: definite.length > 0, sure, maybe: union(maybe, sure), rules, ...(unknownBecause ? { unknownBecause } : {}) };
}

const openSide: SideResult = { isolating: [], isolated: false, sure: allPorts, maybe: allPorts, rules: [] };
canonical.add(openSide);

// ---- policies this tool recognises but does not evaluate (netpol §7) ----------------------------------------------

const otherPolicyKinds: readonly { readonly group: RegExp; readonly kind: string; readonly clusterWide: boolean }[] = [
  { group: /^policy\.networking\.k8s\.io\//, kind: 'AdminNetworkPolicy', clusterWide: true },
  { group: /^policy\.networking\.k8s\.io\//, kind: 'BaselineAdminNetworkPolicy', clusterWide: true },
  { group: /^policy\.networking\.k8s\.io\//, kind: 'ClusterNetworkPolicy', clusterWide: true },
  { group: /^cilium\.io\//, kind: 'CiliumNetworkPolicy', clusterWide: false },
  { group: /^cilium\.io\//, kind: 'CiliumClusterwideNetworkPolicy', clusterWide: true },
  { group: /^(crd\.)?projectcalico\.org\//, kind: 'NetworkPolicy', clusterWide: false },
  { group: /^(crd\.)?projectcalico\.org\//, kind: 'GlobalNetworkPolicy', clusterWide: true },
  { group: /^(crd\.)?projectcalico\.org\//, kind: 'StagedNetworkPolicy', clusterWide: false },
];

const otherKindNames = new Set(otherPolicyKinds.map((k) => k.kind));

/** AdminNetworkPolicies, Cilium and Calico policies in scope (recognised, not evaluated). */
export function otherPolicies(cluster: Cluster): readonly Resource[] {
  return clusterReach(cluster).others;
}

// ---- what reach reads of the whole cluster -------------------------------------------------------------------------

/** Where an object is in cluster order: its file, and its place among that file's objects of the list. */
interface Place {
  readonly file: ManifestFile;
  readonly place: number;
}

/**
 * One namespace's share of what reach reads of the whole cluster, made from the files holding its objects exactly as
 * the cluster's lists are (every object of those files in the namespace: `cluster.workloads` is every file's
 * workloads, in file order). Kept with the namespace's partition, which the next snapshot reuses while none of those
 * files changes: a snapshot after an edit remakes the shares of the namespaces the edit touched, and its totals cost a
 * pass over its namespaces, not over every object.
 */
interface NamespaceReach {
  /** Its AdminNetworkPolicies, Cilium and Calico policies, with their places among their files' objects. */
  readonly others: readonly { readonly r: Resource; readonly at: Place }[];
  /** Its workloads whose pods use the host network, with their places. */
  readonly hostNetwork: readonly { readonly r: Workload; readonly at: Place }[];
  /** How many of its workloads are not fragments. */
  readonly listed: number;
  /** Each of its workloads' place among its file's workloads. */
  readonly places: ReadonlyMap<Workload, Place>;
}

const namespaceReachMemo = new WeakMap<object, NamespaceReach>();
const noShare: NamespaceReach = { others: [], hostNetwork: [], listed: 0, places: new Map() };

function namespaceReach(cluster: Cluster, namespace: string): NamespaceReach {
  const partition = cluster.objectsIn(namespace);
  if (!partition) return noShare;
  let found = namespaceReachMemo.get(partition);
  if (found) return found;
  const others: { r: Resource; at: Place }[] = [];
  const hostNetwork: { r: Workload; at: Place }[] = [];
  const places = new Map<Workload, Place>();
  let listed = 0;
  for (const file of filesByNamespace(cluster).get(namespace) ?? []) {
    const { resources, workloads } = objectsOfFile(file);
    resources.forEach((r, place) => {
      if (r.namespace === namespace && otherKindNames.has(r.kind) && otherPolicyKinds.some((k) => k.kind === r.kind && k.group.test(r.apiVersion)))
        others.push({ r, at: { file, place } });
    });
    workloads.forEach((r, place) => {
      if (r.namespace !== namespace) return;
      const at = { file, place };
      // An object listed twice (a parsed file's object shared with another file): its first place.
      if (!places.has(r)) places.set(r, at);
      if (!isWorkloadFragment(r)) listed++;
      if (r.template.hostNetwork) hostNetwork.push({ r, at });
    });
  }
  namespaceReachMemo.set(partition, (found = { others, hostNetwork, listed, places }));
  return found;
}

/** Per cluster snapshot, made once at its first reach question from its namespaces' shares. */
interface ClusterReach {
  /** The other kinds of policy (otherPolicies), in cluster order. */
  readonly others: readonly Resource[];
  /** The workloads whose pods use the host network, in cluster order. */
  readonly hostNetwork: readonly Workload[];
  /** How many of `cluster.workloads` are not fragments. */
  readonly listed: number;
}

const clusterReachMemo = new WeakMap<Cluster, ClusterReach>();

function clusterReach(cluster: Cluster): ClusterReach {
  let found = clusterReachMemo.get(cluster);
  if (found) return found;
  const others: { r: Resource; at: Place }[] = [];
  const hostNetwork: { r: Workload; at: Place }[] = [];
  let listed = 0;
  for (const ns of filesByNamespace(cluster).keys()) {
    const share = namespaceReach(cluster, ns);
    others.push(...share.others);
    hostNetwork.push(...share.hostNetwork);
    listed += share.listed;
  }
  const inOrder = <T>(xs: { r: T; at: Place }[]): T[] => (xs.length > 1 ? byPlace(cluster, xs) : xs).map((x) => x.r);
  clusterReachMemo.set(cluster, (found = { others: inOrder(others), hostNetwork: inOrder(hostNetwork), listed }));
  return found;
}

/** Entries in cluster order: by their file's place among the cluster's files, then their place in it. */
function byPlace<T extends { readonly at: Place }>(cluster: Cluster, xs: readonly T[]): T[] {
  const files = cluster.files;
  return xs
    .map((x) => ({ x, rank: rankOf(files, x.at.file) }))
    .sort((a, b) => a.rank - b.rank || a.x.at.place - b.x.at.place)
    .map((y) => y.x);
}

/**
 * Makes a snapshot's reach indexes: the cluster's totals from its namespaces' shares, and each namespace's policies
 * indexed by type and label pair. Both are kept with the namespaces' partitions, so after an edit this remakes the
 * shares of the namespaces the edit touched and passes over the others' (the cluster's files and objects are not
 * read again); a reach question or hover then starts from them instead of building them.
 */
export function prepareReach(cluster: Cluster): void {
  clusterReach(cluster);
  for (const ns of filesByNamespace(cluster).keys()) {
    policiesOfType(cluster, ns, 'Ingress');
    policiesOfType(cluster, ns, 'Egress');
  }
}

/** How many workloads of the cluster are not fragments (the peers a hover counts, itself included). */
export function listedWorkloadCount(cluster: Cluster): number {
  return clusterReach(cluster).listed;
}

/**
 * Workloads of the cluster in its order (that of `cluster.workloads`: by file, then place in the file), found through
 * their namespaces' shares rather than a list of every workload; those that are not among the cluster's are left out.
 */
export function inWorkloadOrder(cluster: Cluster, ws: Iterable<Workload>): Workload[] {
  const keyed: { r: Workload; at: Place }[] = [];
  for (const r of ws) {
    const at = namespaceReach(cluster, r.namespace).places.get(r);
    if (at) keyed.push({ r, at });
  }
  return byPlace(cluster, keyed).map((x) => x.r);
}

/** The place of a file among a cluster's files (in URI order): a binary search, then the files of the same URI. */
function rankOf(files: readonly ManifestFile[], file: ManifestFile): number {
  let lo = 0;
  let hi = files.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const u = files[mid].uri;
    if (u === file.uri) {
      for (let i = mid; i >= 0 && files[i].uri === u; i--) if (files[i] === file) return i;
      for (let i = mid + 1; i < files.length && files[i].uri === u; i++) if (files[i] === file) return i;
      return -1;
    }
    if (u < file.uri) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The other policies that may govern pods of these namespaces. */
export function governingOthers(cluster: Cluster, namespaces: readonly string[]): readonly Resource[] {
  const all = otherPolicies(cluster);
  if (!all.length) return all;
  return all.filter((r) => {
    const k = otherPolicyKinds.find((x) => x.kind === r.kind && x.group.test(r.apiVersion))!;
    return k.clusterWide || namespaces.includes(r.namespace);
  });
}

export function describeOther(r: Resource): string {
  return `${r.kind} ${r.namespace && !/Cluster|Global|Admin/.test(r.kind) ? `${r.namespace}/` : ''}${r.name}`;
}

// ---- the verdict ---------------------------------------------------------------------------------------------------

export interface PortQuery {
  readonly protocol: Protocol;
  readonly port: number;
}

/** Whether `from` may open a connection to `to` (netpol §1, §8), optionally on one port. */
export function reach(cluster: Cluster, from: Endpoint, to: Endpoint, port?: PortQuery): ReachResult {
  // Most pairs of a connectivity list: neither end isolated, nothing else to consider.
  if (!port && !otherPolicies(cluster).length && isOpen(cluster, from, 'egress') && isOpen(cluster, to, 'ingress')) return openResult;
  const hostNetwork = [from, to].find((e): e is Extract<Endpoint, { kind: 'workload' }> => e.kind === 'workload' && e.workload.template.hostNetwork);
  const egress = from.kind !== 'external' ? sideOf(cluster, from, 'egress', to) : openSide;
  const ingress = to.kind !== 'external' ? sideOf(cluster, to, 'ingress', from) : openSide;
  // The verdict is a function of the two sides alone when no port is asked, no end uses the host network and no
  // other kind of policy is in scope: pairs of sides that stand for many ends are decided once per cluster.
  if (port || hostNetwork || otherPolicies(cluster).length || !canonical.has(egress) || !canonical.has(ingress))
    return verdictOf(cluster, from, to, egress, ingress, hostNetwork, port);
  let byIngress = pairMemo.get(cluster);
  if (!byIngress) pairMemo.set(cluster, (byIngress = new WeakMap()));
  let byEgress = byIngress.get(ingress);
  if (!byEgress) byIngress.set(ingress, (byEgress = new WeakMap()));
  let found = byEgress.get(egress);
  if (!found) byEgress.set(egress, (found = verdictOf(cluster, from, to, egress, ingress, undefined, undefined)));
  return found;
}

const pairMemo = new WeakMap<Cluster, WeakMap<SideResult, WeakMap<SideResult, ReachResult>>>();

function verdictOf(
  cluster: Cluster,
  from: Endpoint,
  to: Endpoint,
  egress: SideResult,
  ingress: SideResult,
  hostNetwork: Extract<Endpoint, { kind: 'workload' }> | undefined,
  port: PortQuery | undefined,
): ReachResult {
  const wanted = port ? single(port.protocol, port.port) : allPorts;
  const sure = intersect(intersect(egress.sure, ingress.sure), wanted);
  const maybe = intersect(intersect(egress.maybe, ingress.maybe), wanted);
  const others = governingOthers(
    cluster,
    [from, to].flatMap((e) => (e.kind === 'external' ? [] : [namespaceOf(e)])),
  );
  let unknownBecause = egress.unknownBecause ?? ingress.unknownBecause;
  if (hostNetwork)
    unknownBecause = phrase(
      '{0} "{1}" uses the host network, and NetworkPolicy does not define how host-network pods are treated',
      hostNetwork.workload.kind,
      hostNetwork.workload.name,
    );
  else if (others.length) {
    const named = others.slice(0, 3).map(describeOther).join(', ');
    unknownBecause =
      others.length > 3
        ? phrase('also governed by {0} and {1} more, which this tool recognises but does not evaluate', named, others.length - 3)
        : phrase('also governed by {0}, which this tool recognises but does not evaluate', named);
  }
  const certain = !hostNetwork && !others.length;
  // The rules that admit some of the ports (for an allowed verdict, only those whose peer matches for certain).
  const decided = (ports: PortSet, sureOnly = false): RuleRef[] =>
    [egress, ingress].flatMap((s) => s.rules.filter((r) => (!sureOnly || r.sure) && !isEmpty(intersect(r.ports, ports))).map((r) => r.ref));
  if (certain && !isEmpty(sure)) {
    return { verdict: 'allowed', ports: sure, because: decided(sure, true), ...(!equalSets(sure, maybe) && unknownBecause ? { unknownBecause } : {}) };
  }
  if (!certain) {
    // The NetworkPolicies' answer may not be the cluster's: a host-network pod, or policies evaluated beside them.
    const ports = isEmpty(maybe) ? wanted : maybe;
    return { verdict: 'unknown', ports, because: decided(ports), unknownBecause: unknownBecause! };
  }
  if (!isEmpty(maybe))
    return { verdict: 'unknown', ports: maybe, because: decided(maybe), unknownBecause: unknownBecause ?? phrase('the manifests cannot tell') };
  // Denied: name the isolating policies of each side that removes what the other side would admit.
  const because: RuleRef[] = [];
  const blocks = (s: SideResult, other: SideResult): boolean =>
    s.isolating.length > 0 &&
    (port ? !contains(s.maybe, port.protocol, port.port) : !equalSets(intersect(s.maybe, other.maybe), other.maybe) || isEmpty(s.maybe));
  if (blocks(egress, ingress)) because.push(...egress.isolating.map((p): RuleRef => ({ policy: p, direction: 'egress' })));
  if (blocks(ingress, egress)) because.push(...ingress.isolating.map((p): RuleRef => ({ policy: p, direction: 'ingress' })));
  if (!because.length)
    because.push(
      ...[
        ...egress.isolating.map((p): RuleRef => ({ policy: p, direction: 'egress' })),
        ...ingress.isolating.map((p): RuleRef => ({ policy: p, direction: 'ingress' })),
      ],
    );
  return { verdict: 'denied', ports: noPorts, because };
}

const openResult: ReachResult = { verdict: 'allowed', ports: allPorts, because: [] };

function isOpen(cluster: Cluster, e: Endpoint, direction: Direction): boolean {
  if (e.kind === 'external') return true;
  if (e.kind === 'workload' && e.workload.template.hostNetwork) return false;
  const p = selectionOf(cluster, e, direction);
  return !p.sure.length && !p.maybe.length;
}

/**
 * The workloads whose connections to `w` its ingress rules may admit (for certain or perhaps), found through the
 * cluster's label index; undefined when any workload may be admitted (`w` not isolated, a rule for every source, a
 * selection that is unknown, another kind of policy governing `w`), host-network workloads and those of namespaces
 * another kind of policy governs always among them (their verdict is unknown). Every other workload is denied by
 * `w`'s ingress policies: a connectivity list asks `reach` only about these.
 */
export function ingressCandidates(cluster: Cluster, w: Workload): ReadonlySet<Workload> | undefined {
  return candidates(cluster, w, 'ingress');
}

/**
 * The same for egress: the workloads `w`'s egress rules may admit connections to. Every other destination matches no
 * peer of them, so `w`'s egress side admits no port to it and the verdict is denied (netpol §3, §8), whatever its own
 * policies say.
 */
export function egressCandidates(cluster: Cluster, w: Workload): ReadonlySet<Workload> | undefined {
  return candidates(cluster, w, 'egress');
}

function candidates(cluster: Cluster, w: Workload, direction: Direction): ReadonlySet<Workload> | undefined {
  let byWorkload = candidateMemo.get(cluster);
  if (!byWorkload) candidateMemo.set(cluster, (byWorkload = new WeakMap()));
  let byDirection = byWorkload.get(w);
  if (!byDirection) byWorkload.set(w, (byDirection = new Map()));
  if (byDirection.has(direction)) return byDirection.get(direction);
  const found = computeCandidates(cluster, w, direction);
  byDirection.set(direction, found);
  return found;
}

const candidateMemo = new WeakMap<Cluster, WeakMap<Workload, Map<Direction, ReadonlySet<Workload> | undefined>>>();

/** The workloads whose pods use the host network, in cluster order. */
function hostNetworkWorkloads(cluster: Cluster): readonly Workload[] {
  return clusterReach(cluster).hostNetwork;
}

const namespaceSelectionMemo = new WeakMap<Cluster, WeakMap<LabelSelector, readonly string[]>>();

/** The namespaces a peer's namespaceSelector may select (for certain or perhaps), once per snapshot and selector. */
function namespacesSelected(cluster: Cluster, selector: LabelSelector): readonly string[] {
  let bySelector = namespaceSelectionMemo.get(cluster);
  if (!bySelector) namespaceSelectionMemo.set(cluster, (bySelector = new WeakMap()));
  let found = bySelector.get(selector);
  if (!found) bySelector.set(selector, (found = [...cluster.namespaces].filter((ns) => namespaceMatch(cluster, selector, ns).m !== 'no')));
  return found;
}

const unindexedMemo = new WeakMap<object, Map<string, boolean>>();

/**
 * Whether a selector on this label key may select pods of the namespace the label index does not know of: a
 * controller label a template does not write, or a placeholder as a template's value. Kept with the namespace's
 * partition (it depends on that namespace's workloads alone).
 */
function unindexed(cluster: Cluster, namespace: string, key: string): boolean {
  const partition: object = cluster.objectsIn(namespace) ?? cluster;
  let byKey = unindexedMemo.get(partition);
  if (!byKey) unindexedMemo.set(partition, (byKey = new Map()));
  let found = byKey.get(key);
  if (found === undefined) {
    const controller = isControllerLabel(key);
    byKey.set(
      key,
      (found = cluster.workloadsIn(namespace).some((x) => (controller && !x.template.labels.has(key)) || hasPlaceholder(x.template.labels.get(key) ?? ''))),
    );
  }
  return found;
}

function computeCandidates(cluster: Cluster, w: Workload, direction: Direction): ReadonlySet<Workload> | undefined {
  const { sure, maybe } = policiesFor(cluster, w, direction);
  if (!sure.length || maybe.length || w.template.hostNetwork) return undefined;
  // Another kind of policy governing `w`'s namespace makes every verdict with it unknown (netpol §7).
  const others = otherPolicies(cluster);
  if (others.length && governingOthers(cluster, [w.namespace]).length) return undefined;
  const out = new Set<Workload>();
  for (const policy of sure) {
    for (const rule of direction === 'ingress' ? policy.ingress : policy.egress) {
      if (!rule.peers.length) return undefined;
      for (const peer of rule.peers) {
        if (peer.ipBlock || (!peer.podSelector && !peer.namespaceSelector)) continue;
        const namespaces = peer.namespaceSelector ? namespacesSelected(cluster, peer.namespaceSelector) : [policy.namespace];
        for (const ns of namespaces) {
          const pods = peer.podSelector;
          const keys = pods ? selectorKeys(pods) : [];
          // A selection the label index cannot answer (controller labels, placeholders): every workload there.
          const all = !pods || keys.some((k) => unindexed(cluster, ns, k));
          for (const x of all ? cluster.workloadsIn(ns) : cluster.workloadsSelectedBy(ns, pods!)) out.add(x);
        }
      }
    }
  }
  // A host-network end is never denied for certain: a verdict with one is unknown (docs/networkpolicy-semantics.md §2).
  for (const x of hostNetworkWorkloads(cluster)) out.add(x);
  // Nor is one of a namespace another kind of policy governs (the cluster-wide kinds govern `w` too: answered above).
  for (const r of others) for (const x of cluster.workloadsIn(r.namespace)) out.add(x);
  return out;
}

/** Workloads whose pods take part in connections: every workload kind, Pods included. */
export function reachWorkloads(cluster: Cluster): readonly Workload[] {
  return cluster.workloads;
}
