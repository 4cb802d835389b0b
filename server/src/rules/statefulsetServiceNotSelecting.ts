// statefulset-service-not-selecting: the governing Service exists but does not select the StatefulSet's pods, so they get no hostnames in DNS.

import { messages, type Msg } from '../l10n/l10n';
import type { Service, Workload } from '../model/resources';
import { unmatchedPairs } from '../model/selector';
import type { Fix } from './finding';
import { firstPodName, selectsTemplate, statefulSetsWithService } from './governingService';
import { refOf } from './refOf';
import { defineRule, type Lookup } from './rule';
import { yamlScalar } from './yamlScalar';
import { statefulSetExample } from './ruleExamples';

export const statefulsetServiceNotSelecting = defineRule({
  code: 'statefulset-service-not-selecting',
  subjects: ['workloads'],
  defaultSeverity: 'warning',
  title: "Governing Service does not select the StatefulSet's pods",
  description: `A StatefulSet pod's stable name (\`web-0.nginx.default.svc.cluster.local\`) exists only while the pod is an endpoint of the governing Service: the Service's selector must be non-empty and every pair must be among the pod template's labels (semantics §1.1, §2.3 (2), §2.2 P2). A Service with no selector (or \`selector: {}\`) gets no hostnames unless its Endpoints are written by hand with \`hostname\`, and an ExternalName Service never has endpoints.`,
  examples: { bad: statefulSetExample({ serviceSelector: 'nginx' }), good: statefulSetExample() },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const { statefulSet: sts, service } of statefulSetsWithService(subjects, lookup)) {
      if (!service || selectsTemplate(service, sts)) continue;
      const reason = whyNotSelecting(lookup, service, sts, msg);
      if (!reason) continue;
      const fixes: Fix[] = [];
      const text = lookup.fileText(service.uri);
      // Only retarget a selector that reaches no pods at all; one that serves another workload is left to the author.
      const selectsOthers = service.selector !== undefined && lookup.workloadsMatching(service.namespace, service.selector).length > 0;
      if (service.selector && service.type !== 'ExternalName' && text && !selectsOthers) {
        // Values that differ from the template label can be aligned; a key the template lacks cannot.
        const edits = unmatchedPairs(service.selector, sts.template.labels)
          .filter(([k]) => sts.template.labels.has(k))
          .map(([k]) => ({ uri: service.uri, span: service.selectorEntrySpans.get(k)!.value, newText: yamlScalar(sts.template.labels.get(k)!) }));
        const allKeysPresent = [...service.selector.keys()].every((k) => sts.template.labels.has(k));
        if (edits.length && allKeysPresent)
          fixes.push({ title: msg('Change the selector of Service "{0}" to match the pods of StatefulSet "{1}"', service.name, sts.name), edits });
      }
      yield {
        uri: sts.uri,
        span: sts.serviceNameSpan ?? sts.nameSpan,
        message: msg(
          'Service "{0}" governs StatefulSet "{1}" but {2}, so the pods are not its endpoints and names such as {3} will not resolve. {4}',
          service.name,
          sts.name,
          reason,
          firstPodName(sts, service.name, config.clusterDomain),
          adviceFor(service, sts, msg),
        ),
        resource: refOf(sts),
        related: [
          {
            uri: service.uri,
            span: service.selectorSpan ?? service.nameSpan,
            message: service.selector
              ? msg('Service "{0}" selects {1}', service.name, [...service.selector].map(([k, v]) => `${k}: ${v}`).join(', '))
              : msg('Service "{0}" has no selector', service.name),
          },
          { uri: sts.uri, span: sts.template.labelsSpan ?? sts.nameSpan, message: msg('The pods of StatefulSet "{0}" carry these labels', sts.name) },
        ],
        fixes,
      };
    }
  },
});

/** Why the Service does not select the pods, as a clause; undefined when manual endpoints give the pods hostnames anyway. */
function whyNotSelecting(lookup: Lookup, service: Service, sts: Workload, msg: Msg): string | undefined {
  if (service.type === 'ExternalName') return msg('it is an ExternalName Service, which never has endpoints');
  if (!service.selector) {
    // semantics §2.3 (2): a selector-less Service can still carry hostnames through hand-written endpoints.
    const withHostnames = lookup.endpointsOf(service).manual.some((m) => m.mirrored && m.addresses.some((a) => a.hostname));
    if (withHostnames) return undefined;
    return service.selectorEmpty ? msg('its selector is empty ({}), which counts as no selector') : msg('it has no selector');
  }
  const missing = unmatchedPairs(service.selector, sts.template.labels);
  const shown = missing.map(([k, v]) =>
    sts.template.labels.has(k)
      ? msg('{0}: {1} (the pods have {0}: {2})', k, v, sts.template.labels.get(k)!)
      : msg('{0}: {1} (the pods have no "{0}" label)', k, v),
  );
  return msg('its selector requires {0}', shown.join(', '));
}

function adviceFor(service: Service, sts: Workload, msg: Msg): string {
  const labels = sts.selector?.matchLabels.size ? sts.selector.matchLabels : sts.template.labels;
  const pairs = [...labels].map(([k, v]) => `${k}: ${v}`).join(', ');
  if (service.type === 'ExternalName')
    return msg(
      'Point serviceName at a headless Service that selects the pods ({0}); serviceName cannot be changed, so the StatefulSet must be recreated.',
      pairs,
    );
  if (!service.selector) return msg('Give Service "{0}" the selector {1}.', service.name, pairs);
  return msg('Change the selector of Service "{0}" so that every pair is among the pod labels ({1}).', service.name, pairs);
}
