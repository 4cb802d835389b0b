// endpoints-not-mirrored: manual Endpoints that never reach EndpointSlices, so DNS and kube-proxy never see them (semantics §1.2).

import { messages } from '../l10n/l10n';
import { at, entry } from '../model/yamlTree';
import { refOf } from './refOf';
import { defineRule } from './rule';
import { treeOf } from '../model/trees';
import { legacyDbService, withLegacyDbEndpoints } from './ruleExamples';

const skipMirrorLabel = 'endpointslice.kubernetes.io/skip-mirror';

export const endpointsNotMirrored = defineRule({
  code: 'endpoints-not-mirrored',
  subjects: ['endpoints'],
  defaultSeverity: 'warning',
  title: 'Manual Endpoints that are not mirrored to EndpointSlices',
  description: `CoreDNS and kube-proxy read EndpointSlices, not Endpoints. Hand-written \`Endpoints\` are copied into EndpointSlices only
when the Service of the same name has **no selector** and the Endpoints do not carry the label \`${skipMirrorLabel}: "true"\`
(network-semantics §1.2). For a Service with a selector, the control plane computes the endpoints from the selected pods and
overwrites hand-written ones. Either remove the Service's selector (to use the manual addresses) or remove the Endpoints.`,
  examples: {
    bad: withLegacyDbEndpoints(`apiVersion: v1
kind: Service
metadata: {name: legacy-db}
spec: {selector: {app: legacy-db}, ports: [{port: 5432}]}
---
apiVersion: v1
kind: Pod
metadata: {name: legacy-db, labels: {app: legacy-db}}
spec: {containers: [{name: pg, image: postgres, ports: [{containerPort: 5432}]}]}`),
    good: withLegacyDbEndpoints(legacyDbService),
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const ep of subjects.endpoints) {
      const svc = lookup.service(ep.namespace, ep.name);
      if (!svc) continue;
      if (svc.selector && svc.type !== 'ExternalName') {
        yield {
          uri: ep.uri,
          span: ep.nameSpan,
          message: msg(
            'Service "{0}" has a selector, so its endpoints are computed from the pods it selects: these hand-written addresses are overwritten and never mirrored into EndpointSlices, so neither DNS nor kube-proxy use them. Remove the Service\'s selector to use these addresses, or delete this object.',
            svc.name,
          ),
          resource: refOf(ep),
          related: [{ uri: svc.uri, span: svc.selectorSpan ?? svc.nameSpan, message: msg('The selector of Service "{0}"', svc.name) }],
        };
        continue;
      }
      const label = entry(at(treeOf(ep), 'metadata', 'labels'), skipMirrorLabel);
      if (label && ep.labels.get(skipMirrorLabel) === 'true') {
        yield {
          uri: ep.uri,
          span: label.keySpan,
          message: msg(
            'The {0}: "true" label stops these Endpoints from being copied into EndpointSlices, so DNS and kube-proxy never see these addresses and Service "{1}" has no endpoints. Remove the label unless EndpointSlices for it are written by hand.',
            skipMirrorLabel,
            svc.name,
          ),
          resource: refOf(ep),
          related: [{ uri: svc.uri, span: svc.nameSpan, message: msg('Service "{0}" gets no endpoints from these Endpoints', svc.name) }],
        };
      }
    }
  },
});
