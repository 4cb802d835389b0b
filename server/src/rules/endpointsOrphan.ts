// endpoints-orphan: an Endpoints or EndpointSlice object that no Service of its name uses, so its addresses are never reached.

import { joinSentences, messages, type Msg } from '../l10n/l10n';
import type { Resource } from '../model/resources';
import type { Span } from '../model/span';
import { at, entry } from '../model/yamlTree';
import type { Fix } from './finding';
import { refOf } from './refOf';
import { defineRule, type Lookup } from './rule';
import { treeOf } from '../model/trees';
import { namesOf } from '../analysis/closestName';
import { closestName } from './closestName';
import { legacyDbService, withLegacyDbEndpoints } from './ruleExamples';

const serviceNameLabel = 'kubernetes.io/service-name';
const leaderAnnotation = 'control-plane.alpha.kubernetes.io/leader';

export const endpointsOrphan = defineRule({
  code: 'endpoints-orphan',
  subjects: ['endpoints', 'endpointSlices'],
  defaultSeverity: 'warning',
  title: 'Endpoints or an EndpointSlice that belong to no Service',
  description: `Manual endpoints are only used through a Service: an \`Endpoints\` object must have exactly the name of a Service in
the same namespace, and an \`EndpointSlice\` is tied to its Service only by the label \`${serviceNameLabel}\` (network-semantics §1.2).
Without such a Service, nothing routes to these addresses and no DNS name answers with them.`,
  examples: {
    bad: withLegacyDbEndpoints(),
    good: withLegacyDbEndpoints(legacyDbService),
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const ep of subjects.endpoints) {
      // Old-style leader-election locks are Endpoints objects that never belong to a Service (semantics §1.2: not mirrored either).
      if (lookup.service(ep.namespace, ep.name) || ep.annotations.has(leaderAnnotation)) continue;
      // A GlusterFS volume reads its servers from an Endpoints object by name, with no Service.
      if (lookup.workloadsIn(ep.namespace).some((w) => w.template.volumeEndpoints.includes(ep.name))) continue;
      const close = closestServiceName(lookup, ep.namespace, ep.name);
      yield {
        uri: ep.uri,
        span: ep.nameSpan,
        message: joinSentences([
          msg(
            'No Service named "{0}" exists in namespace "{1}", so these endpoints are never used: an Endpoints object only takes effect under the exact name of a Service.',
            ep.name,
            ep.namespace,
          ),
          ...suggestion(lookup, ep.namespace, ep.name, close, msg),
        ]),
        resource: refOf(ep),
        fixes: renameFixes(ep, ep.nameSpan, close, msg),
      };
    }
    for (const slice of subjects.endpointSlices) {
      const labelEntry = entry(at(treeOf(slice), 'metadata', 'labels'), serviceNameLabel);
      if (!slice.serviceName || !labelEntry) {
        yield {
          uri: slice.uri,
          span: slice.nameSpan,
          message: msg(
            "This EndpointSlice has no {0} label, so it belongs to no Service: nothing routes to its endpoints and no DNS name answers with them. Add the label with the Service's name.",
            serviceNameLabel,
          ),
          resource: refOf(slice),
        };
        continue;
      }
      if (lookup.service(slice.namespace, slice.serviceName)) continue;
      const close = closestServiceName(lookup, slice.namespace, slice.serviceName);
      yield {
        uri: slice.uri,
        span: labelEntry.value.span,
        message: joinSentences([
          msg(
            'The {0} label names Service "{1}", which does not exist in namespace "{2}", so this slice\'s endpoints are never used.',
            serviceNameLabel,
            slice.serviceName,
            slice.namespace,
          ),
          ...suggestion(lookup, slice.namespace, slice.serviceName, close, msg),
        ]),
        resource: refOf(slice),
        fixes: renameFixes(slice, labelEntry.value.span, close, msg),
      };
    }
  },
});

/** The sentence after the message: a close name, or the namespaces where a Service of that name is; none otherwise. */
function suggestion(lookup: Lookup, namespace: string, name: string, close: string | undefined, msg: Msg): string[] {
  if (close) return [msg('Did you mean "{0}"?', close)];
  const elsewhere = [...lookup.namespaces()].filter((ns) => ns !== namespace && lookup.service(ns, name));
  return elsewhere.length
    ? [
        msg(
          'A Service "{0}" exists in namespace {1}, but endpoints only count in the Service\'s own namespace.',
          name,
          elsewhere.map((n) => `"${n}"`).join(', '),
        ),
      ]
    : [];
}

function renameFixes(r: Pick<Resource, 'uri'>, span: Span, close: string | undefined, msg: Msg): Fix[] {
  return close ? [{ title: msg('Change to "{0}"', close), edits: [{ uri: r.uri, span, newText: close }], isPreferred: true }] : [];
}

/**
 * The Service name in the namespace that is a near miss of `name` (a typo), if exactly one is closest: the one
 * bounded search of analysis/closestName.ts (at most 1,000 Services measured, each in a band of the edit table).
 */
function closestServiceName(lookup: Lookup, namespace: string, name: string): string | undefined {
  const guess = closestName(name, namesOf(lookup.servicesIn(namespace)));
  return guess?.clear ? guess.name : undefined;
}
