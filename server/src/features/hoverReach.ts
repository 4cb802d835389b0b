// The reach hover of a workload (docs/networkpolicy-semantics.md): which NetworkPolicies select its pods, who can reach
// them and whom they can reach, each answer with the rule that decides it and its line; and the code lens summary of a
// NetworkPolicy ("selects 3 workloads · admits 2 · egress limited").

import { messages, say, type Msg } from '../l10n/l10n';
import type { Analysis } from '../analysis/analysis';
import {
  egressCandidates,
  ingressCandidates,
  inWorkloadOrder,
  listedWorkloadCount,
  podMatch,
  policiesFor,
  portSetText,
  reach,
  side,
  type Endpoint,
  type ListedEnd,
  type ReachResult,
  type RuleRef,
} from '../analysis/reach';
import { isWorkloadFragment } from '../analysis/unknowns';
import type { NetworkPolicy, Workload } from '../model/resources';
import type { Span } from '../model/span';
import { code, joined, lines, md, plural, text, type Md, mdMessages, type MdMsg } from './markdown';

/** At most this many connections are listed per direction; the rest are counted. */
const shownMax = 8;

/** 1-based line of an offset in the file a resource was read from. */
function lineOf(r: { readonly source: { readonly text: string } }, span: Span): number {
  let n = 1;
  const t = r.source.text;
  for (let i = t.indexOf('\n'); i !== -1 && i < span.start; i = t.indexOf('\n', i + 1)) n++;
  return n;
}

function fileOf(uri: string): string {
  return uri.slice(uri.lastIndexOf('/') + 1);
}

/** `api-from-web` ingress rule 0 (policies.yaml line 12) */
function ruleText(msg: MdMsg, ref: RuleRef, here: string): Md {
  const rules = ref.direction === 'ingress' ? ref.policy.ingress : ref.policy.egress;
  const span = ref.rule !== undefined ? rules[ref.rule].span : ref.policy.nameSpan;
  const where =
    ref.policy.uri === here ? msg('line {0}', lineOf(ref.policy, span)) : msg('{0} line {1}', text(fileOf(ref.policy.uri)), lineOf(ref.policy, span));
  return ref.rule !== undefined
    ? msg('{0} {1} rule {2} ({3})', code(ref.policy.name), text(ref.direction), ref.rule + 1, where)
    : msg('{0} isolates for {1} and admits none of it ({2})', code(ref.policy.name), text(ref.direction), where);
}

function endText(msg: MdMsg, e: ListedEnd, from: Workload): Md {
  if (e.kind === 'external') return msg('outside the cluster');
  const w = e.workload;
  return w.namespace === from.namespace ? md`${text(w.kind)} ${code(w.name)}` : msg('{0} {1} in {2}', text(w.kind), code(w.name), code(w.namespace));
}

function verdictLine(msg: MdMsg, e: ListedEnd, w: Workload, r: ReachResult): Md {
  const ports = code(portSetText(r.ports));
  const rules = r.because.map((b) => ruleText(msg, b, w.uri));
  const by = rules.length ? md` — ${joined(rules, '; ')}` : md``;
  // an MdMsg is the locale's Msg (markdown.ts mdMessages): the reason is worded by it, then escaped
  if (r.verdict === 'unknown')
    return msg(
      '- {0}: unknown on {1} because {2}{3}',
      endText(msg, e, w),
      ports,
      text(r.unknownBecause ? say(r.unknownBecause, msg as unknown as Msg) : ''),
      by,
    );
  return msg('- {0} on {1}{2}', endText(msg, e, w), ports, by);
}

/** The peers of a workload in its scope: every other workload, and external. */
function peersOf(analysis: Analysis, w: Workload): ListedEnd[] {
  return [
    ...analysis.cluster.workloads
      .filter((x) => x !== w && !isWorkloadFragment(x) && !(x.namespace === w.namespace && x.name === w.name && x.kind === w.kind))
      .map((x): ListedEnd => ({ kind: 'workload', workload: x })),
    { kind: 'external' },
  ];
}

function samePeer(x: Workload, w: Workload): boolean {
  return x === w || (x.namespace === w.namespace && x.name === w.name && x.kind === w.kind);
}

/**
 * The peers a direction asks about: with `candidates` (the ends the label index says `w`'s rules of that direction
 * may admit), only those and external, in the cluster's order, and how many other peers there are (denied without
 * asking); otherwise every peer.
 */
function askedPeers(
  analysis: Analysis,
  w: Workload,
  candidates: ReadonlySet<Workload> | undefined,
): { readonly asked: readonly ListedEnd[]; readonly skipped: number } {
  if (!candidates) return { asked: peersOf(analysis, w), skipped: 0 };
  // The cluster's count and order, kept per snapshot and made of its namespaces' shares (analysis/reach.ts).
  const whole = listedWorkloadCount(analysis.cluster);
  const own = analysis.cluster.workloadsIn(w.namespace).filter((x) => samePeer(x, w) && !isWorkloadFragment(x)).length;
  const picked = inWorkloadOrder(
    analysis.cluster,
    [...candidates].filter((x) => !samePeer(x, w) && !isWorkloadFragment(x)),
  );
  const asked: ListedEnd[] = [...picked.map((x): ListedEnd => ({ kind: 'workload', workload: x })), { kind: 'external' }];
  return { asked, skipped: whole - own - picked.length };
}

function directionLines(analysis: Analysis, w: Workload, direction: 'ingress' | 'egress'): Md[] {
  const msg = mdMessages(analysis.config.locale);
  const self: Endpoint = { kind: 'workload', workload: w };
  const shown: Md[] = [];
  let denied = 0;
  let more = 0;
  // The ends `w`'s rules of this direction cannot admit are denied without asking (the label index finds the others).
  const { asked, skipped } = askedPeers(analysis, w, direction === 'ingress' ? ingressCandidates(analysis.cluster, w) : egressCandidates(analysis.cluster, w));
  denied += skipped;
  for (const peer of asked) {
    const r = direction === 'ingress' ? reach(analysis.cluster, peer, self) : reach(analysis.cluster, self, peer);
    if (r.verdict === 'denied') {
      denied++;
      continue;
    }
    if (shown.length < shownMax) shown.push(verdictLine(msg, peer, w, r));
    else more++;
  }
  if (more) shown.push(msg('- and {0} more', more));
  if (denied)
    shown.push(
      msg(
        '- denied: {0}',
        direction === 'ingress'
          ? plural(denied, msg('{0} other source', denied), msg('{0} other sources', denied))
          : plural(denied, msg('{0} other destination', denied), msg('{0} other destinations', denied)),
      ),
    );
  if (!shown.length) shown.push(msg('- nothing'));
  return shown;
}

/**
 * Kept per analysis, which is one snapshot's (the next snapshot's analysis is another object, so an edit anywhere
 * that changes a policy, a workload's labels or a namespace's labels makes a new answer; no time limit is involved).
 */
const hoverMemo = new WeakMap<Analysis, WeakMap<Workload, Md>>();

/** The hover on a workload's name or kind: its policies and its connections in both directions. */
export function workloadReachHover(analysis: Analysis, w: Workload): Md {
  let byWorkload = hoverMemo.get(analysis);
  if (!byWorkload) hoverMemo.set(analysis, (byWorkload = new WeakMap()));
  let found = byWorkload.get(w);
  if (!found) byWorkload.set(w, (found = reachHoverOf(analysis, w)));
  return found;
}

function reachHoverOf(analysis: Analysis, w: Workload): Md {
  const msg = mdMessages(analysis.config.locale);
  const out: Md[] = [msg('**{0}** {1}: NetworkPolicy reach', text(w.kind), code(w.name)), md``];
  const ingress = policiesFor(analysis.cluster, w, 'ingress');
  const egress = policiesFor(analysis.cluster, w, 'egress');
  const selecting = [...new Set([...ingress.sure, ...egress.sure])];
  if (!selecting.length && !ingress.maybe.length && !egress.maybe.length) {
    out.push(msg("No NetworkPolicy selects these pods, so every connection to and from them is allowed (unless the other end's policies say otherwise)."));
  } else {
    const types = (p: NetworkPolicy) => {
      const i = ingress.sure.includes(p);
      const e = egress.sure.includes(p);
      return i && e ? msg('ingress and egress') : i ? msg('ingress') : e ? msg('egress') : md``;
    };
    out.push(
      msg(
        'Selected by {0}.',
        joined(
          selecting.map(
            (p) =>
              md`${code(p.name)} (${types(p)}, ${p.uri === w.uri ? msg('line {0}', lineOf(p, p.nameSpan)) : msg('{0} line {1}', text(fileOf(p.uri)), lineOf(p, p.nameSpan))})`,
          ),
          ', ',
        ),
      ),
    );
    for (const m of [...ingress.maybe, ...egress.maybe])
      out.push(msg('Perhaps selected by {0}: {1}.', code(m.p.name), text(say(m.why, messages(analysis.config.locale)))));
  }
  out.push(md``, msg('**Who can reach it**'));
  if (!ingress.sure.length && !ingress.maybe.length) out.push(msg('- any pod whose egress allows it, and outside the cluster: ingress is not isolated'));
  else out.push(...directionLines(analysis, w, 'ingress'));
  out.push(md``, msg('**Whom it can reach**'));
  if (!egress.sure.length && !egress.maybe.length) out.push(msg('- any pod whose ingress admits it, and outside the cluster: egress is not limited'));
  else out.push(...directionLines(analysis, w, 'egress'));
  return lines(out);
}

/** The lens above a NetworkPolicy: how many workloads it selects, how many peers it admits, whether it limits egress. */
export function policyLens(analysis: Analysis, np: NetworkPolicy): string {
  const selected = analysis.cluster.workloadsIn(np.namespace).filter((w) => !isWorkloadFragment(w) && podMatch(np.podSelector, w).m === 'yes');
  const msg = messages(analysis.config.locale);
  const parts = [selected.length === 1 ? msg('selects {0} workload', selected.length) : msg('selects {0} workloads', selected.length)];
  if (np.policyTypes.includes('Ingress')) {
    if (!np.ingress.length) parts.push(msg('denies all ingress'));
    else {
      // Sources this policy's own ingress rules admit to at least one of its pods (other policies aside).
      const admitted = new Set<string>();
      let external = false;
      for (const w of selected) {
        for (const peer of peersOf(analysis, w)) {
          const s = side(analysis.cluster, w, 'ingress', peer);
          if (!s.rules.some((r) => r.ref.policy === np && r.sure)) continue;
          if (peer.kind === 'external') external = true;
          else admitted.add(`${peer.workload.kind}/${peer.workload.namespace}/${peer.workload.name}`);
        }
      }
      parts.push(external ? msg('admits {0} and outside the cluster', admitted.size) : msg('admits {0}', admitted.size));
    }
  }
  if (np.policyTypes.includes('Egress')) parts.push(np.egress.length ? msg('egress limited') : msg('denies all egress'));
  return parts.join(' · ');
}
