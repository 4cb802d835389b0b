// gateway-listener-not-found: a parentRef's sectionName or port selects no listener of its Gateway (no port of its Service).

import { joinSentences, messages } from '../l10n/l10n';
import { attachToGateway, parentTarget, servicePortOfParent } from '../analysis/gatewayRoutes';
import type { Fix, FindingDraft } from './finding';
import { closestName } from './closestName';
import { listenerLabel, listOf, routeLabel } from './gatewayWording';
import { refOf } from './refOf';
import { defineRule } from './rule';
import { edgeGateway } from './ruleExamples';

export const gatewayListenerNotFound = defineRule({
  code: 'gateway-listener-not-found',
  subjects: ['routes'],
  defaultSeverity: 'warning',
  title: 'A parentRef names a listener (or port) its parent does not have',
  description: `A parentRef's \`sectionName\` names one listener of the Gateway (for a Service parent, one port name), and its \`port\` selects the listeners on that port; when both are set, a listener must match both (*gateway semantics §G2*, \`ParentReference\`). When nothing matches, the route is not accepted for that parent (reason \`NoMatchingParent\`) and serves no traffic through it. A Gateway written only in folders below the route's (another example's, in a documentation folder) is not known to be applied with the route, so the rule stays quiet there (*gateway semantics §G2*).`,
  examples: {
    bad: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec:
  parentRefs: [{name: edge, sectionName: htps}]
---
${edgeGateway()}`,
    good: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec:
  parentRefs: [{name: edge, sectionName: http}]
---
${edgeGateway()}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const route of subjects.routes) {
      for (const ref of route.parentRefs) {
        if (ref.sectionName === undefined && ref.port === undefined) continue;
        const target = parentTarget(lookup, route, ref);
        const span = ref.sectionNameSpan ?? ref.portSpan ?? ref.span;
        const section = ref.sectionName !== undefined ? `sectionName "${ref.sectionName}"` : undefined;
        const portWanted = ref.port !== undefined ? msg('port {0}', ref.port) : undefined;
        const wanted = section && portWanted ? msg('{0} and {1}', section, portWanted) : (section ?? portWanted ?? '');
        if (target.kind === 'gateway') {
          const gateway = target.gateway;
          if (attachToGateway(lookup, route, ref, target).outcome !== 'no-listener') continue;
          const names = gateway.listeners.map((l) => l.name).filter((n): n is string => n !== undefined);
          const guess = ref.sectionName !== undefined ? closestName(ref.sectionName, names) : undefined;
          const has = gateway.listeners.length
            ? listOf(
                gateway.listeners.map((l) => listenerLabel(l, msg)),
                msg,
              )
            : msg('none');
          const fixes: Fix[] =
            guess && ref.sectionNameSpan
              ? [
                  {
                    title: msg('Attach to listener "{0}"', guess.name),
                    edits: [{ uri: route.uri, span: ref.sectionNameSpan, newText: guess.name }],
                    isPreferred: guess.clear || undefined,
                  },
                ]
              : [];
          const finding: FindingDraft = {
            uri: route.uri,
            span,
            message: joinSentences([
              msg(
                '{0} attaches to Gateway "{1}" with {2}, but no listener of that Gateway matches (its listeners: {3}), so the route is not attached through this parentRef (reason NoMatchingParent) and gets no traffic from it.',
                routeLabel(route),
                gateway.name,
                wanted,
                has,
              ),
              ...(guess ? [msg('Did you mean "{0}"?', guess.name)] : []),
            ]),
            resource: refOf(route),
            related: [{ uri: gateway.uri, span: gateway.listenersSpan ?? gateway.nameSpan, message: msg('The listeners of Gateway "{0}"', gateway.name) }],
            fixes,
          };
          yield finding;
        } else if (target.kind === 'service') {
          const service = target.service;
          if (servicePortOfParent(service, ref)) continue;
          const names = service.ports.map((p) => p.name).filter((n): n is string => n !== undefined);
          const guess = ref.sectionName !== undefined ? closestName(ref.sectionName, names) : undefined;
          const has = service.ports.length ? service.ports.map((p) => (p.name ? `${p.port} (${p.name})` : `${p.port}`)).join(', ') : msg('none');
          yield {
            uri: route.uri,
            span,
            message: joinSentences([
              msg(
                '{0} attaches to Service "{1}" with {2}, but that Service has no such port (its ports: {3}); for a Service parent sectionName is a port name. The mesh does not apply the route.',
                routeLabel(route),
                service.name,
                wanted,
                has,
              ),
              ...(guess ? [msg('Did you mean "{0}"?', guess.name)] : []),
            ]),
            resource: refOf(route),
            related: [{ uri: service.uri, span: service.portsSpan ?? service.nameSpan, message: msg('The ports of Service "{0}"', service.name) }],
            fixes:
              guess && ref.sectionNameSpan
                ? [
                    {
                      title: msg('Use port "{0}"', guess.name),
                      edits: [{ uri: route.uri, span: ref.sectionNameSpan, newText: guess.name }],
                      isPreferred: guess.clear || undefined,
                    },
                  ]
                : [],
          };
        }
      }
    }
  },
});
