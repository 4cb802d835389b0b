// statefulset-service-missing: a StatefulSet whose serviceName names no Service in its namespace (or is empty), so its pods get no DNS names.

import { joinSentences, messages, type Msg } from '../l10n/l10n';
import type { Service, Workload } from '../model/resources';
import { at, isMap } from '../model/yamlTree';
import { closestName } from './closestName';
import type { Fix, TextEdit } from './finding';
import { firstPodName, selectsTemplate, statefulSetsWithService } from './governingService';
import { createHeadlessService } from './fixes/createHeadlessService';
import { insertMapEntry } from './insertMapEntry';
import { refOf } from './refOf';
import { defineRule, type Lookup } from './rule';
import { treeOf } from '../model/trees';
import { namesOf } from '../analysis/closestName';
import { isWorkloadFragment } from '../analysis/unknowns';
import { statefulSetExample } from './ruleExamples';

export const statefulsetServiceMissing = defineRule({
  code: 'statefulset-service-missing',
  subjects: ['workloads'],
  defaultSeverity: 'warning',
  title: 'StatefulSet serviceName names no Service',
  description: `Each StatefulSet pod gets the stable DNS name \`<pod>.<serviceName>.<namespace>.svc.<zone>\` (for example \`web-0.nginx.default.svc.cluster.local\`) only if a Service named exactly \`spec.serviceName\` exists in the StatefulSet's namespace and selects its pods (semantics §2.3). The API server does not validate \`serviceName\` at all (semantics §6.4), so a typo is silent: the pods start, but peers cannot find each other by name.

\`serviceName\` cannot be changed on an existing StatefulSet (semantics §6.4): fixing it means recreating the StatefulSet (\`kubectl delete statefulset --cascade=orphan\`, then apply), or creating the Service under the name the StatefulSet already uses. The quick fixes offer both: the closest existing Service name, or a new headless Service built from the StatefulSet's labels and ports.

Stays quiet when the Service may be created by something the manifests do not show (network-semantics §9.2): an operator (a custom resource in the namespace) or a Service written without a namespace; a close name is still reported. When the Service exists but the API server rejects it, the message says so: it never exists. A StatefulSet written as a fragment (no selector, no pod labels), which \`kubectl apply\` merges into the live StatefulSet, keeps the live serviceName: no finding about a missing one.`,
  examples: { bad: statefulSetExample({ serviceName: 'ngnix' }), good: statefulSetExample() },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const { statefulSet: sts, service } of statefulSetsWithService(subjects, lookup)) {
      if (service) continue;
      const text = lookup.fileText(sts.uri);
      if (!sts.serviceName) {
        // A fragment merged into a live StatefulSet keeps the live serviceName (which cannot change anyway).
        if (isWorkloadFragment(sts)) continue;
        const podNameLike = `${sts.name}-${sts.ordinalsStart}.<service>.${sts.namespace}.svc.${config.clusterDomain}`;
        yield {
          uri: sts.uri,
          span: sts.serviceNameSpan ?? sts.nameSpan,
          message: sts.serviceNameSpan
            ? msg(
                'StatefulSet "{0}" has an empty serviceName, so its pods get no stable DNS names (like {1}) and cannot find each other by name. Set serviceName to a headless Service that selects the pods; serviceName cannot be changed later, so the StatefulSet must be recreated to add it.',
                sts.name,
                podNameLike,
              )
            : msg(
                'StatefulSet "{0}" has no serviceName, so its pods get no stable DNS names (like {1}) and cannot find each other by name. Set serviceName to a headless Service that selects the pods; serviceName cannot be changed later, so the StatefulSet must be recreated to add it.',
                sts.name,
                podNameLike,
              ),
          resource: refOf(sts),
          fixes: text ? adoptServiceFixes(lookup, sts, text, msg) : [],
        };
        continue;
      }
      const name = sts.serviceName;
      const guess = closestName(name, namesOf(lookup.servicesIn(sts.namespace)));
      // An operator may create the Service, or a Service written without a namespace may be applied here (semantics §9.2).
      if (!guess && lookup.serviceUnknown(sts.namespace, name, sts.uri)) continue;
      const elsewhere = lookup.servicesNamed(name).filter((s) => s.name === name && s.namespace !== sts.namespace);
      // semantics §9.4: a Service the API server rejects does not exist; say why.
      const rejected = lookup.rejected('Service', sts.namespace, name);
      const parts = [
        rejected
          ? msg(
              '{0}, so it never exists, and the pods of StatefulSet "{1}" get no stable DNS names: {2} will not resolve.',
              rejected,
              sts.name,
              firstPodName(sts, name, config.clusterDomain),
            )
          : msg(
              'No Service named "{0}" exists in namespace "{1}", so the pods of StatefulSet "{2}" get no stable DNS names: {3} will not resolve.',
              name,
              sts.namespace,
              sts.name,
              firstPodName(sts, name, config.clusterDomain),
            ),
      ];
      if (guess) parts.push(msg('Did you mean "{0}"?', guess.name));
      if (elsewhere.length)
        parts.push(
          msg(
            'A Service "{0}" exists in namespace "{1}", but the governing Service must be in the StatefulSet\'s own namespace.',
            name,
            elsewhere[0].namespace,
          ),
        );
      parts.push(
        rejected
          ? msg('Fix the Service (see its api-validation error).')
          : msg('serviceName cannot be changed on an existing StatefulSet, so either recreate the StatefulSet or create the Service "{0}".', name),
      );
      const fixes: Fix[] = [];
      if (guess && sts.serviceNameSpan) {
        fixes.push({
          title: msg('Change serviceName to "{0}"', guess.name),
          edits: [{ uri: sts.uri, span: sts.serviceNameSpan, newText: guess.name }],
          isPreferred: guess.clear || undefined,
        });
      }
      const create = text && !rejected ? createHeadlessService(sts, name, text) : undefined;
      if (create) fixes.push({ title: msg('Create headless Service "{0}" for StatefulSet "{1}"', name, sts.name), edits: [create] });
      const closest = guess ? lookup.service(sts.namespace, guess.name) : undefined;
      yield {
        uri: sts.uri,
        span: sts.serviceNameSpan ?? sts.nameSpan,
        message: joinSentences(parts),
        resource: refOf(sts),
        related: [
          ...(closest ? [{ uri: closest.uri, span: closest.nameSpan, message: msg('Service "{0}" has the closest name', closest.name) }] : []),
          ...elsewhere
            .slice(0, 1)
            .map((s) => ({ uri: s.uri, span: s.nameSpan, message: msg('Service "{0}" is in namespace "{1}", not "{2}"', s.name, s.namespace, sts.namespace) })),
        ],
        fixes,
      };
    }
  },
});

/** For a StatefulSet without serviceName: point it at the one headless Service in its namespace that selects its pods. */
function adoptServiceFixes(lookup: Lookup, sts: Workload, text: string, msg: Msg): Fix[] {
  const candidates = lookup.servicesIn(sts.namespace).filter((s: Service) => s.headless && selectsTemplate(s, sts));
  if (candidates.length !== 1) return [];
  const name = candidates[0].name;
  let edit: TextEdit | undefined;
  if (sts.serviceNameSpan) edit = { uri: sts.uri, span: sts.serviceNameSpan, newText: name };
  else {
    const spec = at(treeOf(sts), 'spec');
    if (isMap(spec)) edit = insertMapEntry(sts.uri, text, spec, `serviceName: ${name}`);
  }
  return edit ? [{ title: msg('Set serviceName to "{0}"', name), edits: [edit], isPreferred: true }] : [];
}
