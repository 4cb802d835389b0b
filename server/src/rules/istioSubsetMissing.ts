// istio-subset-missing: a VirtualService destination subset that no DestinationRule for its host defines.

import { joinSentences, messages } from '../l10n/l10n';
import { isIstioNetworkingVersion, isVirtualService } from '../model/istio';
import { closestName } from './closestName';
import { firstRelated } from './finding';
import { istioTarget } from './istioTarget';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const istioSubsetMissing = defineRule({
  code: 'istio-subset-missing',
  subjects: ['resources'],
  defaultSeverity: 'warning',
  title: 'Istio destination subset is defined by no DestinationRule',
  description: `A destination's \`subset\` names a subset of the DestinationRule for the destination's host (the host read the Istio way, istio-semantics §I1, §I3): without one, Istio has no cluster for the subset and requests on that route fail with 503 (NR, no route). The same mistake is \`istioctl analyze\`'s IST0101 (ReferencedResourceNotFound, \`host+subset in destinationrule\`). A subset name that is a typo of a defined one is reported with the fix. Stays quiet when a variant the VirtualService's file is never applied with defines the subset (a file that shifts traffic between the subsets another file defines, applied on top of it), and when no DestinationRule for that host is in scope and the host is not a Service or ServiceEntry of these manifests (its rules are applied from elsewhere).`,
  examples: {
    bad: `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviews}
spec:
  hosts: [reviews]
  http:
    - route:
        - destination: {host: reviews, subset: v3}
---
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: reviews}
spec:
  host: reviews
  subsets:
    - {name: v1, labels: {version: v1}}
    - {name: v2, labels: {version: v2}}`,
    good: `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviews}
spec:
  hosts: [reviews]
  http:
    - route:
        - destination: {host: reviews, subset: v2}
---
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: reviews}
spec:
  host: reviews
  subsets:
    - {name: v1, labels: {version: v1}}
    - {name: v2, labels: {version: v2}}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const r of subjects.resources) {
      if (!isIstioNetworkingVersion(r.apiVersion) || !isVirtualService(r)) continue;
      for (const d of r.destinations) {
        if (d.host === undefined || d.subset === undefined || !d.subsetSpan) continue;
        const target = istioTarget(lookup, config, d.host, r.namespace);
        const rules = lookup.destinationRulesFor(target.fqdn);
        if (rules.some((dr) => dr.subsets.some((s) => s.name === d.subset))) continue;
        // A file applied on top of another that defines the subset (a traffic shift between versions): not wrong.
        if (lookup.destinationRulesInVariants(target.fqdn).some((dr) => dr.subsets.some((s) => s.name === d.subset))) continue;
        // No DestinationRule in scope for a host these manifests do not define: its rules live elsewhere.
        if (!rules.length && target.kind !== 'service' && target.kind !== 'entry') continue;
        const names = rules.flatMap((dr) => dr.subsets.flatMap((s) => (s.name ? [s.name] : [])));
        const guess = closestName(d.subset, names);
        const defined = names.length
          ? msg('the DestinationRules for it define {0}', names.map((n) => `"${n}"`).join(', '))
          : msg('no DestinationRule in scope is for {0}', target.fqdn);
        const { related } = firstRelated(rules, (dr) => ({
          uri: dr.uri,
          span: dr.hostSpan ?? dr.nameSpan,
          message: msg('DestinationRule "{0}" in namespace "{1}"', dr.name, dr.namespace),
        }));
        yield {
          uri: r.uri,
          span: d.subsetSpan,
          message: joinSentences([
            msg(
              'VirtualService "{0}" sends {1} to subset "{2}" of host "{3}", but {4}, so requests on this route fail with 503.',
              r.name,
              d.where,
              d.subset,
              d.host,
              defined,
            ),
            ...(guess ? [msg('Did you mean "{0}"?', guess.name)] : []),
          ]),
          resource: refOf(r),
          related,
          fixes: guess
            ? [
                {
                  title: msg('Change the subset to "{0}"', guess.name),
                  edits: [{ uri: r.uri, span: d.subsetSpan, newText: guess.name }],
                  isPreferred: guess.clear || undefined,
                },
              ]
            : [],
        };
      }
    }
  },
});
