// service-selector-no-match: a Service selector that matches no pod template in its namespace, with the near misses that explain why.

import { hasPlaceholder } from '../model/placeholder';
import { isControllerLabel, isGeneratedLabel } from '../model/podLabels';
import type { Service, Workload } from '../model/resources';
import type { Span } from '../model/span';
import { closestName } from './closestName';
import type { Fix, FindingDraft, RelatedInfo } from './finding';
import { refOf } from './refOf';
import { asLabelSelector, describeNearMiss, describeOwned, isDecisive, selectorEvidence, type NearMiss } from './selectorEvidence';
import { defineRule, type Lookup } from './rule';
import { yamlScalar } from './yamlScalar';
import { joinSentences, messages, type Msg } from '../l10n/l10n';

/** Near misses beyond this many are left out of the message. */
const maxListed = 3;

export const serviceSelectorNoMatch = defineRule({
  code: 'service-selector-no-match',
  subjects: ['services'],
  defaultSeverity: 'warning',
  traceHop: 'endpoints',
  title: 'Service selector matches no pods in its namespace',
  description: `A Service sends traffic to the pods whose labels contain **every** key/value pair of its \`selector\`, and only to pods in the Service's own namespace (semantics §1.1). When no pod template in that namespace carries all of them, the Service gets no endpoints: connections to its cluster IP fail and a headless Service's name does not resolve. Kubernetes does not check this when you apply the Service.

The message names the likely cause, from one evidence model shared by the selector rules (network-semantics §9.0): a workload whose label value the selector's is a typo of (\`release: stabel\` vs \`release: stable\`), or its value with a part added or left out (\`web\` vs \`web-app\`); the same value under another key (\`app: web\` where the pods have \`app.kubernetes.io/name: web\`, \`name\`, \`k8s-app\`); all labels but one of several; a key no pod template has; or a workload in another namespace that would match. The quick fix changes the selector value or key to the workload's. With none of these, a selector that matches nothing in a namespace these manifests deploy workloads into, next to the Service (its folder or a sibling folder, or the same build), is reported too, naming those workloads.

A typo or a swapped key is reported whatever else is in the namespace. Otherwise the rule stays quiet when the answer is unknown (network-semantics §9): when a custom resource in the namespace is of a kind an operator turns into pods (a Prometheus, an Elasticsearch, a RabbitmqCluster, a database cluster, or any kind whose CustomResourceDefinition in scope has a pod template) or a deployer's manifests land there (an Argo CD Application, a Flux HelmRelease); a ServiceMonitor, a Certificate or an Istio VirtualService make no pods and change nothing. It stays quiet too when the selector uses a label whose value a controller generates (\`pod-template-hash\`, \`controller-revision-hash\`, \`controller-uid\`); when these manifests deploy no workload into the namespace next to the Service, or only workloads that carry none of the selector's label keys (the pods then follow another labelling convention and come from another repository, a chart or \`kubectl -n\`); in a system namespace such as kube-system; when the selector matches the pods of a variant the Service's file is never applied with (a file that replaces one Service of an install, applied on top of it); and when a Service written without a namespace matches workloads written into another namespace (it lands where it is applied, and \`kubectl apply -n\` puts it next to them). Labels the controllers add count as pod labels: \`statefulset.kubernetes.io/pod-name\` and \`apps.kubernetes.io/pod-index\` select one StatefulSet pod each, \`job-name\` and \`batch.kubernetes.io/job-name\` a Job's pods.`,
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
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const service of subjects.services) {
      // semantics §1.1 (1): an ExternalName Service never gets endpoints, so its selector is never used.
      if (!service.selector || service.type === 'ExternalName') continue;
      if (lookup.workloadsMatching(service.namespace, service.selector).length) continue;
      const finding = explainNoMatch(lookup, service, service.selector, msg);
      if (finding) yield finding;
    }
  },
});

/**
 * The finding, judged by the evidence model (rules/selectorEvidence.ts, semantics §9.0): a workload that comes close
 * to the selector is reported whatever else is in scope; with none, matching pods in a namespace of their own, or a
 * namespace these manifests own (they deploy workloads there, next to the Service) without positive evidence of an
 * outside supplier. Otherwise the pods may come from elsewhere (another repository, a chart, an operator): undefined.
 */
function explainNoMatch(lookup: Lookup, service: Service, selector: ReadonlyMap<string, string>, msg: Msg): FindingDraft | undefined {
  const ns = service.namespace;
  // A label whose value a controller generates, or a value a tool fills in later, is unknown (semantics §9.1).
  if ([...selector].some(([k, v]) => isGeneratedLabel(k) || hasPlaceholder(v))) return undefined;
  // semantics §1.1 (3): pods are listed only in the Service's namespace, so a match elsewhere never becomes an endpoint.
  // A workload written without a namespace lands wherever it is applied, possibly here: no evidence either way.
  for (const other of lookup.namespaces()) {
    if (other !== ns && lookup.workloadsMatching(other, selector).some((w) => !w.namespaceExplicit)) return undefined;
  }
  const spans = service.selectorEntrySpans;
  const evidence = selectorEvidence(lookup, service, asLabelSelector(selector, spans, service.selectorSpan ?? service.nameSpan), msg);
  if (evidence.inVariants.length) return undefined;
  // A Service written without a namespace lands wherever it is applied: the namespace its pods are written into is
  // where it is meant to go (`kubectl apply -n`), as a StatefulSet's governing Service (semantics §9.2).
  if (!service.namespaceExplicit && evidence.elsewhere.length) return undefined;
  const near = evidence.near;
  const local = lookup.workloadsIn(ns);
  const localKeys = labelKeysOf(local);
  // Keys no template in the namespace has (controller labels are on no template, model/podLabels.ts), unless a
  // workload carries the wanted value under another key: that is said as a swapped key.
  const swapped = new Set(near.filter((m) => m.closeness === 'key').map((m) => m.key));
  // A near miss written beside a Service without a namespace, in another namespace (rules/selectorEvidence.ts): the
  // keys of this namespace's templates say nothing about the pods it is for.
  const away = near.find((m) => m.workload.namespace !== ns);
  const missingKeys = local.length && !away ? [...selector.keys()].filter((k) => !localKeys.has(k) && !isControllerLabel(k) && !swapped.has(k)) : [];
  // A key that is a typo of a template's key is evidence when the corrected selector matches a workload.
  const guessed = missingKeys.filter((k) => {
    const guess = closestName(k, localKeys);
    return guess !== undefined && lookup.workloadsMatching(ns, new Map([...selector].map(([key, v]) => [key === k ? guess.name : key, v]))).length > 0;
  });
  let owned: readonly Workload[] = [];
  if (!near.some(isDecisive) && !guessed.length) {
    // Nothing decisive: unknown when something outside may supply the pods (semantics §9.2).
    if (lookup.podsUnknown(ns, selector.keys(), service.uri)) return undefined;
    if (!near.length && !evidence.elsewhere.length) {
      if (!evidence.owned.length) return undefined;
      owned = evidence.owned;
    }
  }

  const text = lookup.fileText(service.uri);
  const parts = [
    msg(
      'The selector {0} matches no pod template in namespace "{1}", so Service "{2}" gets no endpoints and connections to it fail.',
      formatPairs(selector),
      ns,
      service.name,
    ),
  ];
  const related: RelatedInfo[] = [];
  for (const m of near.slice(0, maxListed)) {
    parts.push(describeNearMiss(m, msg));
    related.push(nearMissPlace(m, msg));
  }
  if (away)
    parts.push(
      msg(
        'Service "{0}" is written without a namespace, so it lands where it is applied; applied into namespace "{1}" next to {2} "{3}", it still selects none of its pods.',
        service.name,
        away.workload.namespace,
        away.workload.kind,
        away.workload.name,
      ),
    );
  const fixes: Fix[] = [];
  for (const key of missingKeys) {
    const guess = closestName(key, localKeys);
    parts.push(
      guess
        ? msg('No pod template in namespace "{0}" has the label key "{1}" (did you mean "{2}"?).', ns, key, guess.name)
        : msg('No pod template in namespace "{0}" has the label key "{1}".', ns, key),
    );
    const keySpan = spans.get(key)?.key;
    if (!guess || !keySpan || !text) continue;
    const renamed = new Map([...selector].map(([k, v]) => [k === key ? guess.name : k, v]));
    if (lookup.workloadsMatching(ns, renamed).length)
      fixes.push({ title: msg('Change selector key "{0}" to "{1}"', key, guess.name), edits: [{ uri: service.uri, span: keySpan, newText: guess.name }] });
  }
  for (const w of evidence.elsewhere.slice(0, maxListed)) {
    parts.push(msg('{0} in namespace "{1}" has these labels, but a selector only selects pods in the Service\'s own namespace.', describe(w), w.namespace));
    related.push({
      uri: w.uri,
      span: w.template.labelsSpan ?? w.nameSpan,
      message: msg('{0} matches this selector, but it is in namespace "{1}", not "{2}"', describe(w), w.namespace, ns),
    });
  }
  if (owned.length) {
    parts.push(describeOwned(owned, ns, formatPairs(selector), msg));
    parts.push(msg('Compare the selector with the labels under spec.template.metadata.labels of the workload this Service should reach.'));
  }
  fixes.unshift(...nearMissFixes(lookup, service, selector, near, msg));

  return {
    uri: service.uri,
    span: primarySpan(service, near, missingKeys, owned.length > 0),
    message: joinSentences(parts),
    resource: refOf(service),
    related,
    fixes: fixes.length === 1 ? [{ ...fixes[0], isPreferred: true }] : fixes,
  };
}

/** Where a near miss shows: the pods' label at fault, or their labels, or the workload. */
function nearMissPlace(m: NearMiss, msg: Msg): RelatedInfo {
  const w = m.workload;
  if (m.closeness === 'lacking' && isControllerLabel(m.key))
    return {
      uri: w.uri,
      span: w.nameSpan,
      message: w.kind === 'StatefulSet' ? msg('The pods of {0} ({1})', describe(w), podRange(w, msg)) : msg('The pods of {0}', describe(w)),
    };
  if (m.closeness === 'lacking') return { uri: w.uri, span: w.template.labelsSpan ?? w.nameSpan, message: msg('{0} has no "{1}" label', describe(w), m.key) };
  if (m.closeness === 'key') return labelInfo(w, m.podKey!, msg('{0} has {1}: {2}', describe(w), m.podKey!, m.wanted));
  return labelInfo(w, m.key, msg('{0} has {1}: {2}', describe(w), m.key, m.has!));
}

/** One fix per distinct change: the pods' value for a typo or a differing value, the pods' key for a swapped key. */
function nearMissFixes(lookup: Lookup, service: Service, selector: ReadonlyMap<string, string>, near: readonly NearMiss[], msg: Msg): Fix[] {
  const fixes = new Map<string, Fix>();
  for (const m of near) {
    const entry = service.selectorEntrySpans.get(m.key);
    if (!entry) continue;
    if (m.closeness === 'key') {
      const id = `key\u0000${m.key}\u0000${m.podKey}`;
      const renamed = new Map([...selector].map(([k, v]) => [k === m.key ? m.podKey! : k, v]));
      if (!fixes.has(id) && lookup.workloadsMatching(service.namespace, renamed).length)
        fixes.set(id, {
          title: msg('Change selector key "{0}" to "{1}" (the label key of {2})', m.key, m.podKey!, describe(m.workload)),
          edits: [{ uri: service.uri, span: entry.key, newText: m.podKey! }],
        });
      continue;
    }
    if (m.closeness !== 'typo' && m.closeness !== 'value') continue;
    const id = `${m.key}\u0000${m.has}`;
    if (!fixes.has(id))
      fixes.set(id, {
        title: msg('Change selector {0} to "{1}" (the label of {2})', m.key, m.has!, describe(m.workload)),
        edits: [{ uri: service.uri, span: entry.value, newText: yamlScalar(m.has!) }],
      });
  }
  return [...fixes.values()];
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

/** The selector entry at fault: the closest miss's value (its key, for a swapped key), then a key no pod has, else the whole selector. */
function primarySpan(service: Service, near: readonly NearMiss[], missingKeys: readonly string[], owned: boolean): Span {
  const spans = service.selectorEntrySpans;
  const fallback = service.selectorSpan ?? service.nameSpan;
  const first = near[0];
  const at = (m: NearMiss) => (m.closeness === 'key' ? spans.get(m.key)?.key : spans.get(m.key)?.value);
  if (first && first.closeness !== 'lacking') return at(first) ?? fallback;
  if (missingKeys.length) return spans.get(missingKeys[0])?.key ?? fallback;
  const perPod = near.find((m) => isControllerLabel(m.key));
  if (perPod) return at(perPod) ?? fallback;
  // in an owned namespace, a selector of one label: its value is what matches nothing there
  if (owned && spans.size === 1) return [...spans.values()][0].value;
  return fallback;
}

function labelInfo(w: Workload, key: string, message: string): RelatedInfo {
  return { uri: w.uri, span: w.template.labelSpans.get(key)?.value ?? w.template.labelsSpan ?? w.nameSpan, message };
}

/** `web-0 to web-2`: the names of a StatefulSet's pods. */
function podRange(w: Workload, msg: Msg): string {
  const n = w.replicas ?? 1;
  const first = `${w.name}-${w.ordinalsStart}`;
  return n <= 1 ? first : msg('{0} to {1}', first, `${w.name}-${w.ordinalsStart + n - 1}`);
}

function describe(w: Workload): string {
  return `${w.kind} "${w.name}"`;
}

function formatPairs(m: ReadonlyMap<string, string>): string {
  return [...m].map(([k, v]) => `${k}: ${v}`).join(', ');
}
