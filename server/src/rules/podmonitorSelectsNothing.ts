// podmonitor-selects-nothing: a PodMonitor whose selector matches no pod template in the namespaces it monitors.
//
// Its own code beside servicemonitor-selects-nothing, in the same family (`<kind>-selects-nothing`, like
// `<kind>-port-missing`): a PodMonitor selects pods by their labels, so it follows the pod-selector evidence model
// (rules/selectorEvidence.ts, semantics §9.0) that NetworkPolicies and Services follow, while a ServiceMonitor selects
// Services by their own labels (Services are often made by a chart: only a typo of a Service's label is reported).

import { isMonitoringVersion, isScrapeMonitor, monitoredNamespaces } from '../model/monitoring';
import { hasPlaceholder } from '../model/placeholder';
import { isGeneratedLabel } from '../model/podLabels';
import { formatSelector, selectorIsEmpty } from '../model/selector';
import { selectedWorkloads } from './monitorTargets';
import { selectorKeys } from './networkpolicySelectsNothing';
import { refOf } from './refOf';
import { defineRule } from './rule';
import { describeNearMiss, describeOwned, isDecisive, nearMissRelated, selectorEvidence, type NearMiss, type SelectorEvidence } from './selectorEvidence';
import { joinSentences, messages } from '../l10n/l10n';
import { podMonitorExample } from './ruleExamples';

export const podmonitorSelectsNothing = defineRule({
  code: 'podmonitor-selects-nothing',
  subjects: ['resources'],
  defaultSeverity: 'warning',
  title: 'PodMonitor selector matches no pods',
  description: `A PodMonitor scrapes the pods whose **labels** its \`selector\` matches, in the namespaces of its \`namespaceSelector\` (its own namespace by default, \`matchNames\`, or \`any: true\`). A selector that matches no pod scrapes nothing, and neither the operator nor Prometheus says so.

It follows the evidence model of the other pod selectors (network-semantics §9.0, like \`networkpolicy-selects-nothing\`): it reports a workload that comes close (a typo of a label value, the value under another key such as \`app\` for \`app.kubernetes.io/name\`, all labels but one of several) with the fix, pods that match in a namespace the \`namespaceSelector\` does not name, and, with \`matchNames\` or its own namespace, a namespace the manifests own (they deploy workloads carrying the selector's keys next to the PodMonitor) where nothing matches.

Stays quiet when the answer is unknown (network-semantics §9.2): nothing comes close and an operator's custom resource (or a chart not rendered) may make the pods, a generated label value (\`pod-template-hash\`), an empty selector (every pod), a selector that matches pods in another variant of the same files, and a namespace where the manifests deploy nothing that carries the selector's keys (a monitoring folder for pods installed from elsewhere). With \`any: true\` only a close workload is reported.`,
  examples: { bad: podMonitorExample({ selector: 'workr' }), good: podMonitorExample() },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const r of subjects.resources) {
      if (!isMonitoringVersion(r.apiVersion) || !isScrapeMonitor(r) || r.kind !== 'PodMonitor' || !r.selector || selectorIsEmpty(r.selector)) continue;
      if (selectedWorkloads(lookup, r).length) continue;
      const selector = r.selector;
      const keys = selectorKeys(selector);
      if (keys.some(isGeneratedLabel) || [...selector.matchLabels.values()].some(hasPlaceholder)) continue;
      const named = monitoredNamespaces(r);
      const namespaces = named ?? [...lookup.namespaces()];
      // One evidence per monitored namespace (semantics §9.0); pods in a variant never applied with this file: quiet.
      const evidences = namespaces.map((ns) => [ns, selectorEvidence(lookup, { uri: r.uri, namespace: ns }, selector, msg)] as [string, SelectorEvidence]);
      if (evidences.some(([, e]) => e.inVariants.length)) continue;
      const near: NearMiss | undefined = evidences.flatMap(([, e]) => e.near).sort((a, b) => Number(isDecisive(b)) - Number(isDecisive(a)))[0];
      // Pods an operator or an unrendered chart makes may carry the labels (semantics §9.2), unless a near miss is decisive.
      if (!(near && isDecisive(near)) && namespaces.some((ns) => lookup.podsUnknown(ns, keys, r.uri))) continue;
      const where = named
        ? named.length === 1
          ? msg('namespace "{0}"', named[0])
          : msg('namespaces {0}', named.map((n) => `"${n}"`).join(', '))
        : msg('any namespace');
      let hint: string;
      if (near) hint = describeNearMiss(near, msg);
      else if (!named) continue;
      else {
        // Elsewhere only when every monitored namespace is one the manifests describe: pods there are in scope.
        const elsewhere = named.every((ns) => lookup.namespaceExists(ns))
          ? [
              ...new Set(
                evidences
                  .flatMap(([, e]) => e.elsewhere)
                  .map((w) => w.namespace)
                  .filter((ns) => !named.includes(ns)),
              ),
            ]
          : [];
        const owned = evidences.find(([, e]) => e.owned.length);
        if (elsewhere.length) {
          const list = elsewhere.map((n) => `"${n}"`).join(', ');
          hint =
            elsewhere.length === 1
              ? msg('Pods with these labels exist in namespace {0}, which the namespaceSelector does not name.', list)
              : msg('Pods with these labels exist in namespaces {0}, which the namespaceSelector does not name.', list);
        } else if (owned) hint = describeOwned(owned[1].owned, owned[0], formatSelector(selector), msg);
        else continue;
      }
      const labelSpan = near
        ? selector.labelSpans.get(near.key)
        : selector.labelSpans.size === 1 && !selector.matchExpressions.length
          ? [...selector.labelSpans.values()][0]
          : undefined;
      const span = (near?.closeness === 'key' ? labelSpan?.key : labelSpan?.value) ?? r.selectorSpan ?? r.nameSpan;
      const fix =
        near && (near.closeness === 'typo' || near.closeness === 'value') && near.has !== undefined && labelSpan?.value
          ? {
              title: msg('Select {0}: {1}', near.key, near.has),
              edits: [{ uri: r.uri, span: labelSpan.value, newText: near.has }],
              isPreferred: isDecisive(near) || undefined,
            }
          : near?.closeness === 'key' && labelSpan?.key
            ? {
                title: msg('Select {0}: {1}', near.podKey!, near.wanted),
                edits: [{ uri: r.uri, span: labelSpan.key, newText: near.podKey! }],
                isPreferred: true,
              }
            : undefined;
      yield {
        uri: r.uri,
        span,
        message: joinSentences([
          msg(
            'PodMonitor "{0}" selects pods with {1} in {2}, but no pod template there matches, so nothing is scraped.',
            r.name,
            formatSelector(selector),
            where,
          ),
          hint,
        ]),
        resource: refOf(r),
        related: near ? [nearMissRelated(near, msg)] : undefined,
        fixes: fix ? [fix] : [],
      };
    }
  },
});
