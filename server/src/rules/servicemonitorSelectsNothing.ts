// servicemonitor-selects-nothing: a ServiceMonitor selector that misses a Service in scope by a typo of one label value.

import { messages, type Msg } from '../l10n/l10n';
import { isMonitoringVersion, isScrapeMonitor } from '../model/monitoring';
import type { Service } from '../model/resources';
import { selectorIsEmpty } from '../model/selector';
import { isTypo } from './closestName';
import { monitorNamespaces, selectedServices } from './monitorTargets';
import { refOf } from './refOf';
import { defineRule } from './rule';
import { serviceMonitorExample } from './ruleExamples';

export const servicemonitorSelectsNothing = defineRule({
  code: 'servicemonitor-selects-nothing',
  subjects: ['resources'],
  defaultSeverity: 'warning',
  title: 'ServiceMonitor selector misses its Service by a typo',
  description: `A ServiceMonitor's \`selector\` matches **Service labels** (\`metadata.labels\` of the Service, not its \`spec.selector\` nor the pods' labels) in the namespaces of its \`namespaceSelector\` (its own namespace by default, \`matchNames\`, or \`any: true\`). A selector that matches no Service scrapes nothing, and no error says so. Services are often made outside the manifests (a chart, an operator), so the rule reports only a selector that matches no Service in scope while a Service there carries all its labels but one, that one with a value a typo away (network-semantics §9.0), with the fix. Stays quiet for any other selector, an empty selector, and namespaces no manifest in scope describes.`,
  examples: { bad: serviceMonitorExample({ selector: 'apii' }), good: serviceMonitorExample() },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const r of subjects.resources) {
      if (!isMonitoringVersion(r.apiVersion) || !isScrapeMonitor(r) || r.kind !== 'ServiceMonitor' || !r.selector || selectorIsEmpty(r.selector)) continue;
      if (r.selector.matchExpressions.length || selectedServices(lookup, r).length) continue;
      const selector = r.selector;
      let near: { service: Service; key: string; has: string } | undefined;
      for (const ns of monitorNamespaces(lookup, r)) {
        for (const s of lookup.servicesIn(ns)) {
          const off = [...selector.matchLabels].filter(([k, v]) => s.labels.get(k) !== v);
          if (off.length !== 1) continue;
          const has = s.labels.get(off[0][0]);
          if (has !== undefined && isTypo(off[0][1], has)) near ??= { service: s, key: off[0][0], has };
        }
      }
      if (!near) continue;
      const span = selector.labelSpans.get(near.key)?.value ?? r.selectorSpan ?? r.nameSpan;
      yield {
        uri: r.uri,
        span,
        message: msg(
          'ServiceMonitor "{0}" selects Services labelled {1}: {2}, but no Service in {3} carries it, so nothing is scraped. Service "{4}" in namespace "{5}" carries {1}: {6}; did you mean "{6}"?',
          r.name,
          near.key,
          String(selector.matchLabels.get(near.key)),
          monitoredText(r.namespaceSelector.any, monitorNamespaces(lookup, r), msg),
          near.service.name,
          near.service.namespace,
          near.has,
        ),
        resource: refOf(r),
        related: [{ uri: near.service.uri, span: near.service.nameSpan, message: msg('Service "{0}" and its labels', near.service.name) }],
        fixes: selector.labelSpans.has(near.key)
          ? [{ title: msg('Select {0}: {1}', near.key, near.has), edits: [{ uri: r.uri, span, newText: near.has }], isPreferred: true }]
          : [],
      };
    }
  },
});

function monitoredText(any: boolean, namespaces: readonly string[], msg: Msg): string {
  if (any) return msg('any namespace');
  return namespaces.length === 1 ? msg('namespace "{0}"', namespaces[0]) : msg('namespaces {0}', namespaces.map((n) => `"${n}"`).join(', '));
}
