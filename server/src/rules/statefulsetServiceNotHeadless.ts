// statefulset-service-not-headless: the governing Service of a StatefulSet has a cluster IP, so per-pod names are not spec-compliant.

import { messages } from '../l10n/l10n';
import { at, isMap, type YMap } from '../model/yamlTree';
import type { Fix, TextEdit } from './finding';
import { firstPodName, statefulSetsWithService } from './governingService';
import { insertMapEntry } from './insertMapEntry';
import { refOf } from './refOf';
import { defineRule } from './rule';
import { treeOf } from '../model/trees';
import { statefulSetExample } from './ruleExamples';

export const statefulsetServiceNotHeadless = defineRule({
  code: 'statefulset-service-not-headless',
  subjects: ['workloads'],
  defaultSeverity: 'warning',
  title: 'Governing Service of a StatefulSet is not headless',
  description: `StatefulSets require a **headless** governing Service (\`clusterIP: None\`) for their pods' network identity. With a cluster IP, names like \`web-0.nginx.default.svc.cluster.local\` are answered only by CoreDNS as an extension: the Kubernetes DNS specification, kube-dns and zone transfers do not have them, and SRV records point at the Service's virtual IP instead of each pod (semantics §2.3 (4), §2.1 S5). Clients that discover their peers through DNS (databases, queues, consensus systems) then see one address instead of the members.

\`clusterIP\` cannot be changed on an existing Service: delete and recreate the Service after adding \`clusterIP: None\`. NodePort and LoadBalancer Services cannot be headless (semantics §6.1); give the StatefulSet a separate headless Service for its identity.`,
  examples: { bad: statefulSetExample({ notHeadless: true }), good: statefulSetExample() },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const { statefulSet: sts, service } of statefulSetsWithService(subjects, lookup)) {
      // An ExternalName Service is reported by statefulset-service-not-selecting: it has no endpoints at all.
      if (!service || service.headless || service.type === 'ExternalName') continue;
      const canBeHeadless = service.type === 'ClusterIP';
      const advice = canBeHeadless
        ? msg('Set clusterIP: None on Service "{0}"; clusterIP cannot be changed on an existing Service, so it must be deleted and recreated.', service.name)
        : msg(
            'A {0} Service cannot be headless; create a separate headless Service (clusterIP: None) for the StatefulSet and point serviceName at it (which means recreating the StatefulSet).',
            service.type,
          );
      const fixes: Fix[] = [];
      const text = lookup.fileText(service.uri);
      const edit = canBeHeadless && text ? makeHeadless(service.uri, text, treeOf(service)) : undefined;
      if (edit)
        fixes.push({
          title: msg('Make Service "{0}" headless (clusterIP: None; recreate the Service to apply)', service.name),
          edits: [edit],
          isPreferred: true,
        });
      yield {
        uri: sts.uri,
        span: sts.serviceNameSpan ?? sts.nameSpan,
        message: msg(
          'Service "{0}", which governs StatefulSet "{1}", has a cluster IP. Per-pod names such as {2} then work only with CoreDNS (not per the DNS specification), and SRV records point at the Service\'s virtual IP instead of each pod, so members that discover their peers through DNS see one address instead of each other. {3}',
          service.name,
          sts.name,
          firstPodName(sts, service.name, config.clusterDomain),
          advice,
        ),
        resource: refOf(sts),
        related: [{ uri: service.uri, span: service.clusterIPSpan ?? service.nameSpan, message: msg('Service "{0}" has a cluster IP', service.name) }],
        fixes,
      };
    }
  },
});

function makeHeadless(uri: string, text: string, root: YMap): TextEdit | undefined {
  const spec = at(root, 'spec');
  if (!isMap(spec) || spec.entries.has('clusterIPs')) return undefined;
  const existing = spec.entries.get('clusterIP');
  if (existing) return { uri, span: existing.value.span, newText: 'None' };
  return insertMapEntry(uri, text, spec, 'clusterIP: None');
}
