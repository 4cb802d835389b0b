// externalname-ip: an ExternalName Service pointing at an IP address; CoreDNS answers NXDOMAIN for it.

import { messages } from '../l10n/l10n';
import { isIPv4 } from '../analysis/ip';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const externalnameIp = defineRule({
  code: 'externalname-ip',
  subjects: ['services'],
  defaultSeverity: 'warning',
  title: 'An ExternalName Service points at an IP address',
  description: `An ExternalName Service is a DNS alias (CNAME), and a CNAME can only point at a name. The API server accepts an IPv4
address because it is also a valid DNS name, but CoreDNS treats it as an address rather than an alias target and skips the Service:
the Service name answers NXDOMAIN (network-semantics §2.1 E2). To reach a fixed IP, use a Service without a selector and a
manual Endpoints (or EndpointSlice) object holding that IP.`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata: {name: billing-db}
spec: {type: ExternalName, externalName: 10.20.0.15}`,
    good: `apiVersion: v1
kind: Service
metadata: {name: billing-db}
spec: {type: ExternalName, externalName: billing-db.corp.example.com}`,
  },
  *check({ subjects, config }) {
    const msg = messages(config.locale);
    for (const svc of subjects.services) {
      // IPv6 values never get this far: the colon fails the API server's DNS-name check (api-validation).
      if (svc.type !== 'ExternalName' || !svc.externalName || !svc.externalNameSpan || !isIPv4(svc.externalName)) continue;
      yield {
        uri: svc.uri,
        span: svc.externalNameSpan,
        message: msg(
          'externalName is an IP address ({0}). CoreDNS only answers ExternalName Services with a CNAME to a host name, so "{1}" will not resolve at all (NXDOMAIN). Use a host name here, or drop type ExternalName and point a selector-less Service at {0} with an Endpoints object.',
          svc.externalName,
          svc.name,
        ),
        resource: refOf(svc),
      };
    }
  },
});
