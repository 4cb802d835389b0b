// gateway-parent-missing: a route's parentRef names no Gateway (or Service) in the namespace it resolves to.

import { joinSentences, messages } from '../l10n/l10n';
import { parentTarget } from '../analysis/gatewayRoutes';
import type { FindingDraft } from './finding';
import { closestName, isTypo } from './closestName';
import { routeLabel } from './gatewayWording';
import { refOf } from './refOf';
import { defineRule } from './rule';
import { edgeGateway } from './ruleExamples';

export const gatewayParentMissing = defineRule({
  code: 'gateway-parent-missing',
  subjects: ['routes'],
  defaultSeverity: 'warning',
  title: 'A route names a parent Gateway or Service that does not exist',
  description: `Each \`parentRefs\` entry of an HTTPRoute, GRPCRoute, TLSRoute, TCPRoute or UDPRoute names the Gateway (or, for a mesh, the Service) the route wants to attach to. Unset fields default to group \`gateway.networking.k8s.io\`, kind \`Gateway\` and the route's own namespace (*gateway semantics §G2*). When no such object exists, no controller accepts the route for that parent and none of its rules serve traffic there. A namespace that no manifest declares or populates is not judged: its objects are unknown.

Stays quiet when no Gateway in scope comes near the name (network-semantics §9): Gateways are often owned by the platform team and kept in another repository, so a parent the manifests do not show is unknown; a near miss of a Gateway that is there is reported as a typo, unless an unrendered Helm chart in scope or an operator's custom resource in the Gateway's namespace may make Gateways there (their names are unknown).`,
  examples: {
    bad: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: egde}]
  rules: [{backendRefs: [{name: web, port: 80}]}]
---
${edgeGateway('shop')}`,
    good: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: edge}]
  rules: [{backendRefs: [{name: web, port: 80}]}]
---
${edgeGateway('shop')}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const route of subjects.routes) {
      for (const ref of route.parentRefs) {
        const found = parentTarget(lookup, route, ref);
        // A parent something outside may supply is still reported when its name is a typo of one that is there.
        const target = found.kind === 'unknown' && found.outside ? ({ kind: 'missing', namespace: found.namespace, targetKind: 'Gateway' } as const) : found;
        if (target.kind !== 'missing' || !ref.nameSpan) continue;
        const name = ref.name!;
        let candidates: readonly { readonly name: string; readonly uri: string; readonly nameSpan: { start: number; end: number } }[] =
          target.targetKind === 'Gateway' ? lookup.gatewaysIn(target.namespace) : [...lookup.servicesIn(target.namespace)];
        let guess = closestName(
          name,
          candidates.map((c) => c.name),
        );
        // A route written to replace another file's route (applied on top of it) attaches to the Gateway that file
        // defines: a typo of its name is a typo (semantics §9.0), though the scope does not see it.
        if (!guess && target.targetKind === 'Gateway') {
          const variants = lookup.gatewaysInVariants(target.namespace);
          const near = closestName(
            name,
            variants.map((g) => g.name),
          );
          if (near && isTypo(name, near.name)) [candidates, guess] = [variants, near];
        }
        // Gateways are often owned by the platform team and live in another repository: a parent no manifest in
        // scope comes near is unknown, not missing (semantics §9.2). A typo of a Gateway that is there is reported,
        // beside anything that may supply Gateways (semantics §9.0).
        if (target.targetKind === 'Gateway' && !guess) continue;
        if (found.kind === 'unknown' && !isTypo(name, guess!.name)) continue;
        const closest = guess ? candidates.find((c) => c.name === guess.name) : undefined;
        const parts = [
          msg(
            '{0} names {1} "{2}" as its parent, but namespace "{3}" has no {1} of that name, so the route is not accepted for it (reason NoMatchingParent) and serves no traffic there.',
            routeLabel(route),
            target.targetKind,
            name,
            target.namespace,
          ),
        ];
        if (guess) parts.push(msg('Did you mean "{0}"?', guess.name));
        const finding: FindingDraft = {
          uri: route.uri,
          span: ref.nameSpan,
          message: joinSentences(parts),
          resource: refOf(route),
          related: closest
            ? [{ uri: closest.uri, span: closest.nameSpan, message: msg('{0} "{1}" has the closest name', target.targetKind, closest.name) }]
            : [],
          fixes: guess
            ? [
                {
                  title: msg('Change the parent to "{0}"', guess.name),
                  edits: [{ uri: route.uri, span: ref.nameSpan, newText: guess.name }],
                  isPreferred: guess.clear || undefined,
                },
              ]
            : [],
        };
        yield finding;
      }
    }
  },
});
