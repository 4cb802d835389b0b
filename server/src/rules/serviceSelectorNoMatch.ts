// service-selector-no-match: a Service selector that matches no pod template in its namespace, with the near misses that explain why.

import type { Service, Workload } from '../model/resources';
import { unmatchedPairs } from '../model/selector';
import type { Span } from '../model/span';
import { closestName, isNearMiss } from './closestName';
import type { Fix, FindingDraft, RelatedInfo } from './finding';
import { refOf } from './refOf';
import { isControllerLabel } from '../model/podLabels';
import { defineRule, type Lookup } from './rule';
import { yamlScalar } from './yamlScalar';

/** Near misses beyond this many are left out of the message. */
const maxListed = 3;

export const serviceSelectorNoMatch = defineRule({
  code: 'service-selector-no-match',
  subjects: ['services'],
  defaultSeverity: 'warning',
  traceHop: 'endpoints',
  title: 'Service selector matches no pods in its namespace',
  description: `A Service sends traffic to the pods whose labels contain **every** key/value pair of its \`selector\`, and only to pods in the Service's own namespace (semantics §1.1). When no pod template in that namespace carries all of them, the Service gets no endpoints: connections to its cluster IP fail and a headless Service's name does not resolve. Kubernetes does not check this when you apply the Service.

The message names the likely cause: a value that is one typo away from a real label (\`release: stabel\` vs \`release: stable\`), a key that no pod template has, or a workload in another namespace that would match. The quick fix changes the selector value to the near-miss label value.

Stays quiet when the answer is unknown (network-semantics §9): when a custom resource in the namespace may be turned into pods by an operator (a Prometheus, an Elasticsearch, a database cluster), when the selector uses a label whose value a controller generates (\`pod-template-hash\`, \`controller-revision-hash\`, \`controller-uid\`), and when nothing in scope shows what the selector was meant to match (no workload within one label of it, no close label key, no match in another namespace): the pods may then come from another repository, a chart or \`kubectl -n\`. Labels the controllers add count as pod labels: \`statefulset.kubernetes.io/pod-name\` and \`apps.kubernetes.io/pod-index\` select one StatefulSet pod each, \`job-name\` and \`batch.kubernetes.io/job-name\` a Job's pods.`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web, release: stabel}
  ports: [{port: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, release: stable}}
    spec:
      containers: [{name: web, image: nginx, ports: [{containerPort: 80}]}]`,
    good: `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web, release: stable}
  ports: [{port: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, release: stable}}
    spec:
      containers: [{name: web, image: nginx, ports: [{containerPort: 80}]}]`,
  },
  *check({ subjects, lookup }) {
    for (const service of subjects.services) {
      // semantics §1.1 (1): an ExternalName Service never gets endpoints, so its selector is never used.
      if (!service.selector || service.type === 'ExternalName') continue;
      if (lookup.workloadsMatching(service.namespace, service.selector).length) continue;
      // Pods an operator makes, or labels a controller generates, are unknown here (semantics §9.2).
      if (lookup.podsUnknown(service.namespace, service.selector.keys())) continue;
      const finding = explainNoMatch(lookup, service, service.selector);
      if (finding) yield finding;
    }
  },
});

/** A workload that carries every selector pair but one. */
interface NearMiss {
  readonly workload: Workload;
  readonly key: string;
  readonly wanted: string;
  /** The workload's value for the key; undefined when it lacks the key. */
  readonly has?: string;
}

/**
 * The finding, when the manifests show what the selector was meant to match: a workload within one label of it, a
 * label key a template spells differently, or matching pods in a namespace of their own. Without such evidence the
 * pods may come from elsewhere (another repository, a chart, `kubectl -n`): unknown, so undefined.
 */
function explainNoMatch(lookup: Lookup, service: Service, selector: ReadonlyMap<string, string>): FindingDraft | undefined {
  const ns = service.namespace;
  const local = lookup.workloadsIn(ns);
  const misses: NearMiss[] = [];
  for (const workload of local) {
    const wrong = onlyMismatch(selector, workload.template.labels);
    if (wrong) misses.push({ workload, key: wrong[0], wanted: wrong[1], has: workload.template.labels.get(wrong[0]) });
  }
  const typos: NearMiss[] = [];
  const differing: NearMiss[] = [];
  const lacking: NearMiss[] = [];
  for (const m of misses) {
    if (m.has === undefined) lacking.push(m);
    else if (isNearMiss(m.wanted, m.has)) typos.push(m);
    else differing.push(m);
  }
  const localKeys = labelKeysOf(local);
  // With no workloads in the namespace at all, "no template has this key" says nothing useful.
  // Controller labels are on no template (model/podLabels.ts): their absence there says nothing.
  const missingKeys = local.length ? [...selector.keys()].filter((k) => !localKeys.has(k) && !isControllerLabel(k)) : [];
  // semantics §1.1 (3): pods are listed only in the Service's namespace, so a match elsewhere never becomes an endpoint.
  // A workload written without a namespace lands wherever it is applied, possibly here: no evidence either way.
  const elsewhere = [...lookup.namespaces()].filter((n) => n !== ns).flatMap((n) => lookup.workloadsMatching(n, selector));
  if (elsewhere.some((w) => !w.namespaceExplicit)) return undefined;
  const guessed = missingKeys.filter((k) => closestName(k, localKeys));
  // A workload within one label is evidence only when it shares another label with the selector; a value that is a
  // typo of the workload's, or one of the two a prefix of the other (`api`, `api-v2`), is evidence on its own.
  const shares = selector.size > 1;
  const renamed = differing.some((m) => m.has!.startsWith(m.wanted) || m.wanted.startsWith(m.has!));
  if (!typos.length && !renamed && !(shares && (differing.length || lacking.length)) && !guessed.length && !elsewhere.length) return undefined;

  const text = lookup.fileText(service.uri);
  const parts = [`The selector ${formatPairs(selector)} matches no pod template in namespace "${ns}", so Service "${service.name}" gets no endpoints and connections to it fail.`];
  const related: RelatedInfo[] = [];
  const fixes: Fix[] = [];
  const spans = service.selectorEntrySpans;
  if (!local.length) parts.push(`There are no workloads in namespace "${ns}" at all.`);

  for (const m of typos.slice(0, maxListed)) {
    parts.push(`${describe(m.workload)} has ${m.key}: ${m.has}; "${m.wanted}" looks like a typo of "${m.has}".`);
    related.push(labelInfo(m.workload, m.key, `${describe(m.workload)} has ${m.key}: ${m.has}`));
  }
  for (const m of differing.slice(0, maxListed)) {
    parts.push(`${describe(m.workload)} has every other label but ${m.key}: ${m.has}.`);
    related.push(labelInfo(m.workload, m.key, `${describe(m.workload)} has ${m.key}: ${m.has}`));
  }
  for (const m of lacking.slice(0, maxListed)) {
    if (missingKeys.includes(m.key)) continue;
    if (isControllerLabel(m.key)) {
      parts.push(`${describe(m.workload)} has every other label, but none of its pods carries ${m.key}: ${m.wanted}${m.workload.kind === 'StatefulSet' ? ` (its pods are ${podRange(m.workload)})` : ''}.`);
      related.push({ uri: m.workload.uri, span: m.workload.nameSpan, message: `The pods of ${describe(m.workload)}` });
      continue;
    }
    parts.push(`${describe(m.workload)} has every other label but no "${m.key}" label.`);
    related.push({ uri: m.workload.uri, span: m.workload.template.labelsSpan ?? m.workload.nameSpan, message: `${describe(m.workload)} has no "${m.key}" label` });
  }
  for (const key of missingKeys) {
    const guess = closestName(key, localKeys);
    parts.push(`No pod template in namespace "${ns}" has the label key "${key}"${guess ? ` (did you mean "${guess.name}"?)` : ''}.`);
    const keySpan = spans.get(key)?.key;
    if (!guess || !keySpan || !text) continue;
    const renamed = new Map([...selector].map(([k, v]) => [k === key ? guess.name : k, v]));
    if (lookup.workloadsMatching(ns, renamed).length) fixes.push({ title: `Change selector key "${key}" to "${guess.name}"`, edits: [{ uri: service.uri, span: keySpan, newText: guess.name }] });
  }
  for (const w of elsewhere.slice(0, maxListed)) {
    parts.push(`${describe(w)} in namespace "${w.namespace}" has these labels, but a selector only selects pods in the Service's own namespace.`);
    related.push({ uri: w.uri, span: w.template.labelsSpan ?? w.nameSpan, message: `${describe(w)} matches this selector, but it is in namespace "${w.namespace}", not "${ns}"` });
  }
  if (parts.length === 1 && local.length) parts.push(`No workload there comes within one label of it; compare the selector with the labels under spec.template.metadata.labels of the workload this Service should reach.`);

  const valueFixes = new Map<string, Fix>();
  for (const m of [...typos, ...differing]) {
    const valueSpan = spans.get(m.key)?.value;
    const id = `${m.key}\u0000${m.has}`;
    if (!valueSpan || valueFixes.has(id)) continue;
    valueFixes.set(id, { title: `Change selector ${m.key} to "${m.has}" (the label of ${describe(m.workload)})`, edits: [{ uri: service.uri, span: valueSpan, newText: yamlScalar(m.has!) }] });
  }
  fixes.unshift(...valueFixes.values());

  return {
    uri: service.uri,
    span: primarySpan(service, typos, missingKeys, differing, lacking),
    message: parts.join(' '),
    resource: refOf(service),
    related,
    fixes: fixes.length === 1 ? [{ ...fixes[0], isPreferred: true }] : fixes,
  };
}

/** The one selector pair the labels do not carry, when all the others are carried. */
function onlyMismatch(selector: ReadonlyMap<string, string>, labels: ReadonlyMap<string, string>): readonly [string, string] | undefined {
  const wrong = unmatchedPairs(selector, labels);
  return wrong.length === 1 ? wrong[0] : undefined;
}

/** The label keys of a namespace's pod templates, kept with its (unchanging) list of workloads. */
const keysOfWorkloads = new WeakMap<readonly Workload[], ReadonlySet<string>>();

function labelKeysOf(workloads: readonly Workload[]): ReadonlySet<string> {
  let keys = keysOfWorkloads.get(workloads);
  if (keys) return keys;
  const found = new Set<string>();
  for (const w of workloads) for (const k of w.template.labels.keys()) found.add(k);
  keysOfWorkloads.set(workloads, (keys = found));
  return keys;
}

/** The selector entry at fault: a typo'd value first, then a key no pod has, then a differing value, else the whole selector. */
function primarySpan(service: Service, typos: readonly NearMiss[], missingKeys: readonly string[], differing: readonly NearMiss[], lacking: readonly NearMiss[]): Span {
  const spans = service.selectorEntrySpans;
  const fallback = service.selectorSpan ?? service.nameSpan;
  if (typos.length) return spans.get(typos[0].key)?.value ?? fallback;
  if (missingKeys.length) return spans.get(missingKeys[0])?.key ?? fallback;
  if (differing.length) return spans.get(differing[0].key)?.value ?? fallback;
  const perPod = lacking.find((m) => isControllerLabel(m.key));
  if (perPod) return spans.get(perPod.key)?.value ?? fallback;
  return fallback;
}

function labelInfo(w: Workload, key: string, message: string): RelatedInfo {
  return { uri: w.uri, span: w.template.labelSpans.get(key)?.value ?? w.template.labelsSpan ?? w.nameSpan, message };
}

/** `web-0 to web-2`: the names of a StatefulSet's pods. */
function podRange(w: Workload): string {
  const n = w.replicas ?? 1;
  const first = `${w.name}-${w.ordinalsStart}`;
  return n <= 1 ? first : `${first} to ${w.name}-${w.ordinalsStart + n - 1}`;
}

function describe(w: Workload): string {
  return `${w.kind} "${w.name}"`;
}

function formatPairs(m: ReadonlyMap<string, string>): string {
  return [...m].map(([k, v]) => `${k}: ${v}`).join(', ');
}
