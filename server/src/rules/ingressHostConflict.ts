// ingress-host-conflict: the same host and path claimed by two Ingresses of the same class.

import { messages } from '../l10n/l10n';
import type { Ingress, IngressPath } from '../model/resources';
import { sameApplyUnit } from './applyUnit';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const ingressHostConflict = defineRule({
  code: 'ingress-host-conflict',
  subjects: ['ingresses'],
  defaultSeverity: 'warning',
  title: 'Two Ingresses of one class claim the same host and path',
  description: `An ingress controller merges the rules of every Ingress of its class, in every namespace. When two Ingresses applied together (in one file, one folder, one Kustomize build or one Helm release) claim the same host, path and path type, only one of them gets the requests: ingress-nginx keeps the rule of the Ingress created first (the oldest \`creationTimestamp\`), other controllers have rules of their own, so which backend answers depends on the order the objects were created in, and the other rule is silently ignored. The finding is on each of the two Ingresses, with the other as the related place. Ingresses of different classes (\`ingressClassName\` or the \`kubernetes.io/ingress.class\` annotation), canary Ingresses (\`nginx.ingress.kubernetes.io/canary: "true"\`, which are meant to share a host and path), and Ingresses of different folders (often independent examples or environments) or of variants that are never applied together are not compared.`,
  examples: {
    bad: `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop}
spec:
  ingressClassName: nginx
  rules:
    - host: shop.example.com
      http:
        paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop-v2}
spec:
  ingressClassName: nginx
  rules:
    - host: shop.example.com
      http:
        paths: [{path: /, pathType: Prefix, backend: {service: {name: web-v2, port: {number: 80}}}}]`,
    good: `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop}
spec:
  ingressClassName: nginx
  rules:
    - host: shop.example.com
      http:
        paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop-v2}
spec:
  ingressClassName: nginx
  rules:
    - host: shop.example.com
      http:
        paths: [{path: /v2, pathType: Prefix, backend: {service: {name: web-v2, port: {number: 80}}}}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const ing of subjects.ingresses) {
      if (isCanary(ing)) continue;
      const reported = new Set<Ingress>();
      for (const p of ing.paths) {
        for (const other of lookup.ingressesClaiming(p.host ?? '')) {
          if (other === ing || reported.has(other) || isCanary(other) || (other.namespace === ing.namespace && other.name === ing.name)) continue;
          if ((other.ingressClassName ?? '') !== (ing.ingressClassName ?? '') || !sameApplyUnit(ing.uri, other.uri)) continue;
          const theirs = other.paths.find((q) => sameClaim(p, q));
          if (!theirs) continue;
          reported.add(other);
          const where = `${p.host ?? msg('every host')}${p.path.startsWith('/') ? '' : ' '}${p.path} (${p.pathType ?? 'ImplementationSpecific'})`;
          const cls = ing.ingressClassName ? msg('class "{0}"', ing.ingressClassName) : msg('the default class');
          yield {
            uri: ing.uri,
            span: p.pathSpan ?? ing.nameSpan,
            message:
              other.namespace !== ing.namespace
                ? msg(
                    'Ingress "{0}" and Ingress "{1}" in namespace "{2}" both claim {3} for {4}: the controller merges them and keeps only one rule (ingress-nginx the one of the Ingress created first), so requests go to Service "{5}" or to Service "{6}" depending on the order they were created in. Give one of them another host or path, or merge them.',
                    ing.name,
                    other.name,
                    other.namespace,
                    where,
                    cls,
                    p.backend.serviceName ?? '?',
                    theirs.backend.serviceName ?? '?',
                  )
                : msg(
                    'Ingress "{0}" and Ingress "{1}" both claim {2} for {3}: the controller merges them and keeps only one rule (ingress-nginx the one of the Ingress created first), so requests go to Service "{4}" or to Service "{5}" depending on the order they were created in. Give one of them another host or path, or merge them.',
                    ing.name,
                    other.name,
                    where,
                    cls,
                    p.backend.serviceName ?? '?',
                    theirs.backend.serviceName ?? '?',
                  ),
            resource: refOf(ing),
            related: [{ uri: other.uri, span: theirs.pathSpan ?? other.nameSpan, message: msg('Ingress "{0}" claims the same host and path', other.name) }],
          };
        }
      }
    }
  },
});

function isCanary(ing: Ingress): boolean {
  return ing.annotations.get('nginx.ingress.kubernetes.io/canary') === 'true';
}

function sameClaim(a: IngressPath, b: IngressPath): boolean {
  return (
    (a.host ?? '').toLowerCase() === (b.host ?? '').toLowerCase() &&
    a.path === b.path &&
    (a.pathType ?? 'ImplementationSpecific') === (b.pathType ?? 'ImplementationSpecific')
  );
}
