// externaldns-hostname-conflict: two LoadBalancer Services applied together that ask ExternalDNS to publish the same name.

import { messages } from '../l10n/l10n';
import { hostnameAnnotation, publishedNames } from '../analysis/externalDns';
import { sameApplyUnit } from './applyUnit';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const externaldnsHostnameConflict = defineRule({
  code: 'externaldns-hostname-conflict',
  subjects: ['services'],
  defaultSeverity: 'warning',
  title: 'Two LoadBalancer Services publish the same ExternalDNS name',
  description: `ExternalDNS publishes the names of a LoadBalancer Service's \`${hostnameAnnotation}\` annotation (a comma-separated list) as records pointing at that Service's load balancer. Two Services asking for the same name have two different load balancers, and a name has one owner: ExternalDNS keeps the records of one Service (the first by its resource label when the record is created, then its owner) and leaves the other's traffic on the wrong load balancer, with only a log line about the conflict. The finding is on each of the two Services, with the other as the related place. Only Services applied together (one file, one folder, one Kustomize build or Helm release) are compared; other Service types (which ExternalDNS publishes only with flags of its own) and Ingresses (which share their controller's load balancer) are not.`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata:
  name: web
  annotations: {external-dns.alpha.kubernetes.io/hostname: shop.example.com}
spec:
  type: LoadBalancer
  selector: {app: web}
  ports: [{port: 443}]
---
apiVersion: v1
kind: Service
metadata:
  name: web-next
  annotations: {external-dns.alpha.kubernetes.io/hostname: shop.example.com}
spec:
  type: LoadBalancer
  selector: {app: web-next}
  ports: [{port: 443}]`,
    good: `apiVersion: v1
kind: Service
metadata:
  name: web
  annotations: {external-dns.alpha.kubernetes.io/hostname: shop.example.com}
spec:
  type: LoadBalancer
  selector: {app: web}
  ports: [{port: 443}]
---
apiVersion: v1
kind: Service
metadata:
  name: web-next
  annotations: {external-dns.alpha.kubernetes.io/hostname: next.shop.example.com}
spec:
  type: LoadBalancer
  selector: {app: web-next}
  ports: [{port: 443}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const s of subjects.services) {
      if (s.type !== 'LoadBalancer') continue;
      for (const name of publishedNames(s)) {
        const other = lookup
          .servicesPublishing(name)
          .find((o) => o !== s && o.type === 'LoadBalancer' && !(o.namespace === s.namespace && o.name === s.name) && sameApplyUnit(s.uri, o.uri));
        if (!other) continue;
        yield {
          uri: s.uri,
          span: s.nameSpan,
          message:
            other.namespace !== s.namespace
              ? msg(
                  'Service "{0}" and Service "{1}" in namespace "{2}" both ask ExternalDNS to publish {3} (annotation {4}), each with a load balancer of its own; a name has one owner, so ExternalDNS keeps the records of only one of them and the other\'s clients reach the wrong load balancer. Give each Service its own name.',
                  s.name,
                  other.name,
                  other.namespace,
                  name,
                  hostnameAnnotation,
                )
              : msg(
                  'Service "{0}" and Service "{1}" both ask ExternalDNS to publish {2} (annotation {3}), each with a load balancer of its own; a name has one owner, so ExternalDNS keeps the records of only one of them and the other\'s clients reach the wrong load balancer. Give each Service its own name.',
                  s.name,
                  other.name,
                  name,
                  hostnameAnnotation,
                ),
          resource: refOf(s),
          related: [{ uri: other.uri, span: other.nameSpan, message: msg('Service "{0}" publishes {1} too', other.name, name) }],
        };
      }
    }
  },
});
