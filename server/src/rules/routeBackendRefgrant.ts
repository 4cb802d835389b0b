// route-backend-refgrant: a cross-namespace backendRef (or a Gateway's certificateRef) that no ReferenceGrant allows.

import { messages, type Msg } from '../l10n/l10n';
import { grantFor } from '../analysis/gatewayRoutes';
import { gatewayGroup } from '../model/gatewayApi';
import { hasPlaceholder } from '../model/placeholder';
import type { Span } from '../model/span';
import type { Fix, FindingDraft } from './finding';
import { lineEndOf } from './insertMapEntry';
import { listenerLabel } from './gatewayWording';
import { defineRule, type Lookup } from './rule';
import { refOf } from './refOf';
import { backendLabel, backendSubjects, consequence } from './routeBackends';

export const routeBackendRefgrant = defineRule({
  code: 'route-backend-refgrant',
  subjects: ['routes', 'gateways'],
  defaultSeverity: 'warning',
  title: 'A cross-namespace backendRef or certificateRef has no ReferenceGrant',
  description: `A route may send traffic to a Service in another namespace, and a Gateway listener may use a certificate Secret of another namespace, only when a ReferenceGrant **in the target namespace** allows it: one of its \`from\` items must equal {group \`gateway.networking.k8s.io\`, the referring kind, the referring namespace} and one of its \`to\` items {group \`""\`, kind \`Service\` or \`Secret\`, the name or no name} (*gateway semantics §G6*). Without one the reference is refused (ResolvedRefs: False, reason RefNotPermitted): the backend's requests get HTTP 500, the listener has no certificate. A target namespace that no manifest populates is not judged. The quick fix adds the ReferenceGrant.`,
  examples: {
    bad: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  rules: [{backendRefs: [{name: api, namespace: backend, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: api, namespace: backend}
spec: {ports: [{port: 80}]}`,
    good: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  rules: [{backendRefs: [{name: api, namespace: backend, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: api, namespace: backend}
spec: {ports: [{port: 80}]}
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: shop-routes, namespace: backend}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: shop}]
  to: [{group: "", kind: Service, name: api}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const b of backendSubjects(subjects, lookup)) {
      if (!b.verdict.problems.includes('refgrant')) continue;
      const ns = b.verdict.namespace;
      const fix = grantFix(lookup, b.route.uri, b.route.kind, b.route.namespace, ns, 'Service', b.ref.name!, msg);
      yield {
        uri: b.route.uri,
        span: b.ref.namespaceSpan ?? b.ref.span,
        message: msg(
          '{0} in namespace "{1}" sends traffic to Service "{2}" in namespace "{3}", but no ReferenceGrant in "{3}" allows {4}s from "{1}" to reach it, so the reference is refused (reason RefNotPermitted) and {5}.',
          backendLabel(b),
          b.route.namespace,
          b.ref.name!,
          ns,
          b.route.kind,
          consequence(b, msg),
        ),
        resource: refOf(b.route),
        fixes: fix ? [fix] : [],
      };
    }
    for (const gateway of subjects.gateways) {
      for (const l of gateway.listeners) {
        for (const ref of l.tls?.certificateRefs ?? []) {
          if (ref.group !== '' || ref.kind !== 'Secret' || ref.name === undefined || ref.namespace === undefined || ref.namespace === gateway.namespace)
            continue;
          if (hasPlaceholder(ref.name) || hasPlaceholder(ref.namespace)) continue;
          const grant = grantFor(
            lookup,
            { group: gatewayGroup, kind: 'Gateway', namespace: gateway.namespace },
            { group: '', kind: 'Secret', namespace: ref.namespace, name: ref.name },
          );
          if (grant.allowed !== false) continue;
          const fix = grantFix(lookup, gateway.uri, 'Gateway', gateway.namespace, ref.namespace, 'Secret', ref.name, msg);
          const finding: FindingDraft = {
            uri: gateway.uri,
            span: (ref.namespaceSpan ?? ref.span) as Span,
            message: msg(
              '{0} of Gateway "{1}" uses Secret "{2}" in namespace "{3}", but no ReferenceGrant in "{3}" allows Gateways from "{4}" to read it, so the certificate is refused (reason RefNotPermitted) and the listener cannot serve TLS.',
              listenerLabel(l, msg),
              gateway.name,
              ref.name,
              ref.namespace,
              gateway.namespace,
            ),
            resource: refOf(gateway),
            fixes: fix ? [fix] : [],
          };
          yield finding;
        }
      }
    }
  },
});

/** Appends a ReferenceGrant in the target namespace to the referring object's file. */
function grantFix(
  lookup: Lookup,
  uri: string,
  fromKind: string,
  fromNamespace: string,
  toNamespace: string,
  toKind: string,
  toName: string,
  msg: Msg,
): Fix | undefined {
  const text = lookup.fileText(uri);
  if (text === undefined) return undefined;
  const eol = lineEndOf(text);
  const lead = text.length && !text.endsWith('\n') ? eol : '';
  const name = `${fromNamespace}-${fromKind.toLowerCase()}s`.slice(0, 63).replace(/-+$/, '');
  const doc = [
    '---',
    'apiVersion: gateway.networking.k8s.io/v1beta1',
    'kind: ReferenceGrant',
    'metadata:',
    `  name: ${name}`,
    `  namespace: ${toNamespace}`,
    'spec:',
    '  from:',
    '    - group: gateway.networking.k8s.io',
    `      kind: ${fromKind}`,
    `      namespace: ${fromNamespace}`,
    '  to:',
    '    - group: ""',
    `      kind: ${toKind}`,
    `      name: ${toName}`,
    '',
  ].join(eol);
  return {
    title: msg('Add a ReferenceGrant in namespace "{0}" for {1} "{2}"', toNamespace, toKind, toName),
    edits: [{ uri, span: { start: text.length, end: text.length }, newText: lead + doc }],
  };
}
