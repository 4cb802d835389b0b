// The one evidence model of the rules whose label selector matches no pods (semantics §9.0): the workloads that come
// close to the selector (a typo of a value, the same value under another key, all labels but one of several), the
// workloads that match in another namespace, and whether the manifests own the namespace (they deploy workloads there,
// next to the selector's file). A near miss is reported whatever else is in scope; "nothing near" is reported only in
// an owned namespace without positive evidence of an outside supplier (lookup.podsUnknown).

import { selectorRejection } from './workloadSelectorMismatch';
import { isControllerLabel } from '../model/podLabels';
import type { Workload } from '../model/resources';
import { selectorMatches, type LabelSelector } from '../model/selector';
import { isProviderNamespace } from '../analysis/resolveName';
import { localityOf } from '../analysis/unknowns';
import { renderSource } from '../model/rendered';
import { editDistance, isTypo } from './closestName';
import type { RelatedInfo } from './finding';
import type { Lookup } from './rule';
import type { Msg } from '../l10n/l10n';

/**
 * How a workload comes close to a selector, closest first: `typo` (one value a typo of the pods', or the pods' with a
 * part added or left out after a separator: `web` for `web-app`), `key` (the pods carry
 * the value under another key: `app` ↔ `app.kubernetes.io/name`, `name`, `k8s-app`, or a typo of the key), `value`
 * (all labels but one of several, that one with another value) and `lacking` (all labels but one of several, that
 * one absent).
 */
export type Closeness = 'typo' | 'key' | 'value' | 'lacking';

export interface NearMiss {
  readonly workload: Workload;
  readonly closeness: Closeness;
  /** The selector's key at fault, and the value it wants. */
  readonly key: string;
  readonly wanted: string;
  /** The pods' value for `key` (typo, value), or for `podKey` (key). */
  readonly has?: string;
  /** For `key`: the key under which the pods carry the wanted value. */
  readonly podKey?: string;
  /** Why the API server rejects the workload, when it does (semantics §9.4): it makes no pods either way. */
  readonly rejected?: string;
}

export interface SelectorEvidence {
  /** Close workloads in the selector's namespace, closest first, at most one per workload. */
  readonly near: readonly NearMiss[];
  /** Workloads in other namespaces (written with their namespace) that the selector would match. */
  readonly elsewhere: readonly Workload[];
  /**
   * The workloads the manifests deploy into the namespace next to the subject (its folder or a sibling folder, or the
   * same build): evidence that the namespace is owned, so "nothing matches" is a finding. Empty when not owned.
   */
  readonly owned: readonly Workload[];
  /**
   * Workloads the selector matches in a variant the subject's scope does not see (a file written to replace one of
   * that variant's objects, applied on top of it): the selector is not wrong, its pods are there. Rules stay quiet.
   */
  readonly inVariants: readonly Workload[];
}

/** Keys under which applications commonly carry their name: a selector written with one while the pods use another is a swap. */
const nameKeys: readonly string[] = [
  'app',
  'app.kubernetes.io/name',
  'name',
  'k8s-app',
  'app.kubernetes.io/instance',
  'component',
  'app.kubernetes.io/component',
  'run',
];

/**
 * The subject of a selector: its file and namespace, and whether the namespace is written (a subject written without
 * one lands wherever it is applied).
 */
export interface SelectorSubject {
  readonly uri: string;
  readonly namespace: string;
  readonly namespaceExplicit?: boolean;
}

/** The evidence for a selector of `subject` (its file and namespace) that matches no workload in that namespace. */
export function selectorEvidence(lookup: Lookup, subject: SelectorSubject, selector: LabelSelector, msg: Msg): SelectorEvidence {
  const ns = subject.namespace;
  const local = lookup.workloadsIn(ns);
  const near: NearMiss[] = [];
  for (const w of local) {
    const m = closeness(selector, w);
    if (m) near.push(m);
  }
  // Without a near miss in scope, one in a variant the file is never applied with, when decisive: a file written
  // for that variant's pods (a Service replacing one of its objects) with a typo of their labels.
  if (!near.length) {
    for (const w of lookup.workloadsInVariants(ns)) {
      const m = closeness(selector, w);
      if (m && isDecisive(m)) near.push(m);
    }
  }
  // A subject written without a namespace lands where it is applied: next to the pods written in its own folder, of
  // whatever namespace (a build that folder defines puts them into its own). A decisive miss of those pods stays a
  // miss wherever the subject is applied (semantics §9.0); a selector that matches one of them is not wrong.
  if (!near.length && subject.namespaceExplicit === false) {
    const beside = lookup.workloadsInFolderOf(subject.uri).filter((w) => w.namespace !== ns);
    if (!beside.some((w) => selectorMatches(selector, w.template.labels))) {
      for (const w of beside) {
        const m = closeness(selector, w);
        if (m && isDecisive(m)) near.push(m);
      }
    }
  }
  near.sort((a, b) => rank(a) - rank(b));
  // semantics §9.4: a rejected workload never exists; its near miss says both (item: rejected objects).
  if (near.length) {
    const w = near[0].workload;
    const rejected = lookup.rejected(w.kind, w.namespace, w.name) ?? selectorRejection(w, msg);
    if (rejected) near[0] = { ...near[0], rejected };
  }
  const elsewhere: Workload[] = [];
  for (const other of lookup.namespaces()) {
    if (other === ns) continue;
    for (const w of lookup.workloadsSelectedBy(other, selector)) if (w.namespaceExplicit) elsewhere.push(w);
  }
  return { near, elsewhere, owned: ownedBy(subject, local, selector), inVariants: lookup.workloadsSelectedInVariants(ns, selector) };
}

/**
 * The workloads that make the subject's namespace owned (semantics §9.0): those deployed next to it. A system
 * namespace is never owned (the cluster's installer runs workloads there), and a selector that uses a label key none
 * of those workloads carries follows another convention than theirs: its pods come from elsewhere (a chart, an
 * add-on), so it is no evidence either.
 */
function ownedBy(subject: { readonly uri: string; readonly namespace: string }, local: readonly Workload[], selector: LabelSelector): readonly Workload[] {
  if (isProviderNamespace(subject.namespace)) return [];
  const owned = local.filter((w) => besides(subject.uri, w.uri));
  for (const key of selector.matchLabels.keys()) if (!owned.some((w) => w.template.labels.has(key))) return [];
  return owned;
}

/**
 * Whether a near miss is evidence on its own, reported even beside positive evidence of an outside supplier: a typo
 * of a value or a swapped key (semantics §9.0). A renamed value (`metrics` for `metrics-exporter`) or all labels but
 * one may as well be another component's pods: reported only where nothing outside may supply the pods.
 */
export function isDecisive(m: NearMiss): boolean {
  return m.closeness === 'key' || (m.closeness === 'typo' && isTypo(m.wanted, m.has!));
}

/** An equality selector (a Service's) in the shape of a label selector. */
export function asLabelSelector(selector: ReadonlyMap<string, string>, spans: LabelSelector['labelSpans'], span: LabelSelector['span']): LabelSelector {
  return { matchLabels: selector, matchExpressions: [], labelSpans: spans, span };
}

/** "none with app: payments" / "Deployment "web" has app: wbe …": the words for a miss, used by every selector rule. */
export function describeNearMiss(m: NearMiss, msg: Msg): string {
  const words = nearMissWords(m, msg);
  return m.rejected
    ? msg('{0} Besides, {1}, so it makes no pods at all until that is fixed, and even then this selector would not match them.', words, m.rejected)
    : words;
}

function nearMissWords(m: NearMiss, msg: Msg): string {
  const w = `${m.workload.kind} "${m.workload.name}"`;
  switch (m.closeness) {
    case 'typo':
      return isTypo(m.wanted, m.has!)
        ? msg('{0} has {1}: {2}; "{3}" looks like a typo of "{2}".', w, m.key, m.has!, m.wanted)
        : msg(
            '{0} has {1}: {2}, which differs from "{3}" only by "{4}".',
            w,
            m.key,
            m.has!,
            m.wanted,
            m.has!.length > m.wanted.length ? m.has!.slice(m.wanted.length) : m.wanted.slice(m.has!.length),
          );
    case 'key':
      return msg('{0} labels its pods {1}: {2}; the selector has the key "{3}" where the pods have "{1}".', w, m.podKey!, m.wanted, m.key);
    case 'value':
      return msg('{0} has every other label, but {1}: {2}.', w, m.key, m.has!);
    case 'lacking':
      return isControllerLabel(m.key)
        ? msg('{0} has every other label, but none of its pods carries {1}: {2}.', w, m.key, m.wanted)
        : msg('{0} has every other label but no "{1}" label.', w, m.key);
  }
}

/** "4 workloads (Deployment "a", StatefulSet "b", …)": the evidence that a namespace is owned. */
export function describeOwned(owned: readonly Workload[], ns: string, selectorText: string, msg: Msg): string {
  const named = owned
    .slice(0, 3)
    .map((w) => `${w.kind} "${w.name}"`)
    .join(', ');
  if (owned.length > 3)
    return msg(
      'These manifests deploy {0} workloads into namespace "{1}" ({2}, and {3} more), none of whose pods has {4}.',
      owned.length,
      ns,
      named,
      owned.length - 3,
      selectorText,
    );
  return owned.length === 1
    ? msg('These manifests deploy {0} workload into namespace "{1}" ({2}), none of whose pods has {3}.', owned.length, ns, named, selectorText)
    : msg('These manifests deploy {0} workloads into namespace "{1}" ({2}), none of whose pods has {3}.', owned.length, ns, named, selectorText);
}

/** The related place of a near miss: the pods' label at fault (the key they use, for a swapped key), or their labels. */
export function nearMissRelated(m: NearMiss, msg: Msg): RelatedInfo {
  const t = m.workload.template;
  const key = m.closeness === 'key' ? m.podKey! : m.key;
  const span = (m.closeness === 'lacking' ? undefined : t.labelSpans.get(key)?.value) ?? t.labelsSpan ?? m.workload.nameSpan;
  return { uri: m.workload.uri, span, message: msg('The pod labels of {0} "{1}"', m.workload.kind, m.workload.name) };
}

function rank(m: NearMiss): number {
  const base = { typo: 0, key: 10, value: 20, lacking: 30 }[m.closeness];
  return base + (m.closeness === 'typo' && m.has !== undefined ? Math.min(editDistance(m.wanted, m.has), 9) : 0);
}

/** How close one workload's pod labels come to the selector, or undefined when they are not close. */
function closeness(selector: LabelSelector, w: Workload): NearMiss | undefined {
  const labels = w.template.labels;
  let wrong: [string, string] | undefined;
  for (const [k, v] of selector.matchLabels) {
    if (labels.get(k) === v) continue;
    if (wrong) return undefined;
    wrong = [k, v];
  }
  if (!wrong) return undefined;
  const [key, wanted] = wrong;
  // The rest of the selector (its expressions too) must hold for the pods.
  const rest: LabelSelector = { ...selector, matchLabels: new Map([...selector.matchLabels].filter(([k]) => k !== key)) };
  if (!selectorMatches(rest, labels)) return undefined;
  const several = selector.matchLabels.size + selector.matchExpressions.length > 1;
  const has = labels.get(key);
  if (has !== undefined && (isTypo(wanted, has) || isRenamed(wanted, has))) return { workload: w, closeness: 'typo', key, wanted, has };
  // The wanted value under another key the selector does not use: a swapped or misspelled key.
  for (const [podKey, v] of labels) {
    if (v !== wanted || selector.matchLabels.has(podKey) || isControllerLabel(podKey)) continue;
    if (nameKeys.includes(podKey) && nameKeys.includes(key)) return { workload: w, closeness: 'key', key, wanted, podKey };
    if (isTypo(key, podKey) || lastSegment(key) === lastSegment(podKey)) return { workload: w, closeness: 'key', key, wanted, podKey };
  }
  if (!several) return undefined;
  return has === undefined ? { workload: w, closeness: 'lacking', key, wanted } : { workload: w, closeness: 'value', key, wanted, has };
}

/** One value the other with a part added after a separator: `web` for `web-app`, `api-v2` for `api`. */
function isRenamed(a: string, b: string): boolean {
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 3 && long.startsWith(short) && '-._'.includes(long[short.length]);
}

/** `app.kubernetes.io/name` → `name`. */
function lastSegment(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

/**
 * Whether a workload's file is next to the subject's: the same folder or a sibling folder (`k8s/services/` and
 * `k8s/deployments/`), or the same file (a Kustomize build or Helm render is one file).
 */
/**
 * Whether the manifests write Services of `namespace` next to the subject (its folder or a sibling folder, or the
 * same build): evidence that the namespace's Services are written here (semantics §9.0).
 */
export function servicesBeside(lookup: Lookup, subjectUri: string, namespace: string): boolean {
  if (isProviderNamespace(namespace)) return false;
  return lookup.servicesIn(namespace).some((s) => besides(subjectUri, s.uri));
}

/**
 * Whether a workload is of the subject's unit (semantics §9.0): a subject of a render (a Helm release, a Kustomize
 * build) has the workloads of that render as its unit, never those of a chart or folder beside it, which are installed
 * on their own; a workspace file has those written beside it.
 */
export function ofSameUnit(subjectUri: string, workloadUri: string): boolean {
  if (subjectUri.includes('#')) return subjectUri === workloadUri;
  return besides(subjectUri, workloadUri);
}

/** Whether an object is written beside the subject: in the subject's folder's parent tree (analysis/unknowns.ts localityOf). */
function besides(subjectUri: string, workloadUri: string): boolean {
  if (subjectUri === workloadUri) return true;
  const parent = localityOf(subjectUri);
  return parent !== '' && renderSource(workloadUri).startsWith(`${parent}/`);
}
