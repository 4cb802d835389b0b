// workload-selector-mismatch: a controller whose spec.selector is missing, empty, or does not match its own pod template labels.

import { isWorkloadFragment } from '../analysis/unknowns';
import type { Workload } from '../model/resources';
import { formatSelector, selectorIsEmpty, selectorMatches, unmatchedPairs, type LabelSelector } from '../model/selector';
import type { FindingDraft } from './finding';
import { refOf } from './refOf';
import { defineRule } from './rule';
import { messages, type Msg } from '../l10n/l10n';

/** apps/v1 controllers must declare a non-empty selector (semantics §6.4 for StatefulSets; the same rule applies to the others). */
const selectorRequired = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet']);

export const workloadSelectorMismatch = defineRule({
  code: 'workload-selector-mismatch',
  subjects: ['workloads'],
  defaultSeverity: 'error',
  title: "A workload's selector is missing or does not match its own pod labels",
  description: `Deployments, ReplicaSets, StatefulSets and DaemonSets must have a non-empty \`spec.selector\`, and it must match
\`spec.template.metadata.labels\`: the controller finds its pods by that selector. The API server rejects the object otherwise
(\`selector\` does not match template \`labels\`, network-semantics §6.4). ReplicationControllers and Jobs may omit the selector
(it defaults to the template labels), but one that is written must match too.
Stays quiet for a fragment, a controller with no selector and no pod labels at all (network-semantics §9): created new it
would be rejected, so it is written to be merged by \`kubectl apply\` into an object already in the cluster (an overlay
that scales a live StatefulSet to zero), whose selector the manifests do not show.`,
  examples: {
    bad: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: frontend
    spec:
      containers:
        - name: web
          image: nginx`,
    good: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx`,
  },
  *check({ subjects, config }) {
    const msg = messages(config.locale);
    for (const w of subjects.workloads) {
      if (w.kind === 'Pod' || w.kind === 'CronJob') continue;
      // No selector and no pod labels: a fragment merged into a live object, whose selector is unknown.
      if (isWorkloadFragment(w)) continue;
      const finding = checkWorkload(w, msg);
      if (finding) yield finding;
    }
  },
});

/**
 * Why the API server rejects the workload for its selector, in the words of rejectionReason (analysis/validation), or
 * undefined: for the messages of rules whose subject depends on the workload's pods (semantics §9.4).
 */
export function selectorRejection(w: Workload, msg: Msg): string | undefined {
  const f = checkWorkload(w, msg);
  if (!f) return undefined;
  if (!w.selector) return msg('{0} "{1}" is rejected by the API server (its spec.selector is missing)', w.kind, w.name);
  if (selectorIsEmpty(w.selector)) return msg('{0} "{1}" is rejected by the API server (its spec.selector is empty)', w.kind, w.name);
  return msg('{0} "{1}" is rejected by the API server (its spec.selector does not match its own pod template labels)', w.kind, w.name);
}

function checkWorkload(w: Workload, msg: Msg): FindingDraft | undefined {
  const selector = w.selector;
  const required = selectorRequired.has(w.kind);
  if (!selector) {
    if (!required) return undefined;
    return {
      uri: w.uri,
      span: w.selectorSpan ?? w.nameSpan,
      message: w.template.labels.size
        ? msg(
            'spec.selector: Required value — a {0} must say which pods it owns; add spec.selector.matchLabels with labels from the pod template ({1}).',
            w.kind,
            labelList(w),
          )
        : msg('spec.selector: Required value — a {0} must say which pods it owns; add spec.selector.matchLabels with labels from the pod template.', w.kind),
      resource: refOf(w),
    };
  }
  if (selectorIsEmpty(selector)) {
    // A ReplicationController's or Job's empty selector is defaulted from the template labels.
    if (!required) return undefined;
    return {
      uri: w.uri,
      span: selector.span,
      message: w.template.labels.size
        ? msg(
            'spec.selector: Invalid value — an empty selector is invalid for a {0}: it would claim every pod in the namespace. List the pod template labels it should match ({1}).',
            w.kind,
            labelList(w),
          )
        : msg(
            'spec.selector: Invalid value — an empty selector is invalid for a {0}: it would claim every pod in the namespace. List the pod template labels it should match.',
            w.kind,
          ),
      resource: refOf(w),
    };
  }
  if (selectorMatches(selector, w.template.labels)) return undefined;
  const related = [
    {
      uri: w.uri,
      span: w.template.labelsSpan ?? w.template.span,
      message: w.template.labels.size
        ? msg("The pod template's labels: {0}", [...w.template.labels].map(([k, v]) => `${k}=${v}`).join(', '))
        : msg('The pod template has no labels'),
    },
  ];
  return {
    uri: w.uri,
    span: firstMismatch(selector, w.template.labels) ?? selector.span,
    message: msg(
      "spec.template.metadata.labels: Invalid value — `selector` does not match template `labels`: the selector ({0}) does not select this {1}'s own pods, so the API server rejects it. Make the template labels satisfy the selector.",
      formatSelector(selector),
      w.kind,
    ),
    resource: refOf(w),
    related,
  };
}

/** The matchLabels entry the template lacks or contradicts, so the finding points at the term to fix. */
function firstMismatch(selector: LabelSelector, labels: ReadonlyMap<string, string>) {
  const [wrong] = unmatchedPairs(selector.matchLabels, labels);
  if (wrong) return selector.labelSpans.get(wrong[0])?.value;
  for (const r of selector.matchExpressions) {
    const single: LabelSelector = { ...selector, matchLabels: new Map(), matchExpressions: [r] };
    if (!selectorMatches(single, labels)) return r.span;
  }
  return undefined;
}

function labelList(w: Workload): string {
  return [...w.template.labels].map(([k, v]) => `${k}: ${v}`).join(', ');
}
