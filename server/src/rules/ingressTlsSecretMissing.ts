// ingress-tls-secret-missing: an Ingress TLS secretName one typo away from a Secret or a cert-manager Certificate's Secret.

import { messages } from '../l10n/l10n';
import { shimIssues } from '../model/certManager';
import { hasPlaceholder } from '../model/placeholder';
import { closestName, isTypo } from './closestName';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const ingressTlsSecretMissing = defineRule({
  code: 'ingress-tls-secret-missing',
  subjects: ['ingresses'],
  defaultSeverity: 'warning',
  title: 'Ingress TLS secretName is a typo of a Secret that exists',
  description: `An Ingress's \`tls[].secretName\` is the Secret in the Ingress's namespace that holds the certificate for its hosts. A Secret that does not exist leaves the controller without that certificate: it serves its default (self-signed) certificate for those hosts, and clients refuse the connection. TLS Secrets are the Secrets most often made outside the manifests (\`kubectl create secret tls\`, a secrets manager, cert-manager), so a missing one is reported only when its name is one typo away from a Secret the manifests write in that namespace or one that a cert-manager \`Certificate\` there produces (its \`spec.secretName\`), with the fix. Stays quiet when the Ingress carries cert-manager's ingress-shim annotations (\`cert-manager.io/cluster-issuer\`, \`cert-manager.io/issuer\`, \`kubernetes.io/tls-acme: "true"\`: cert-manager makes a Certificate for each TLS entry, under the name written), for a name a tool fills in later, and for any other missing name (unknown). Gateway \`certificateRefs\` are checked by \`gateway-tls-config\`, with the same regard for Certificates.`,
  examples: {
    bad: `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop}
spec:
  tls: [{hosts: [shop.example.com], secretName: shop-tsl}]
  rules:
    - host: shop.example.com
      http:
        paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: shop}
spec:
  secretName: shop-tls
  dnsNames: [shop.example.com]
  issuerRef: {name: letsencrypt, kind: ClusterIssuer}`,
    good: `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop}
spec:
  tls: [{hosts: [shop.example.com], secretName: shop-tls}]
  rules:
    - host: shop.example.com
      http:
        paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: shop}
spec:
  secretName: shop-tls
  dnsNames: [shop.example.com]
  issuerRef: {name: letsencrypt, kind: ClusterIssuer}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const ing of subjects.ingresses) {
      if (!ing.tls.length || shimIssues(ing.annotations)) continue;
      for (const t of ing.tls) {
        const name = t.secretName;
        if (!name || !t.secretNameSpan || hasPlaceholder(name)) continue;
        if (lookup.get('Secret', ing.namespace, name).length) continue;
        const certificates = lookup.certificatesIn(ing.namespace);
        if (certificates.some((c) => c.secretName === name)) continue;
        const produced = [...lookup.secretsIn(ing.namespace).map((s) => s.name), ...certificates.flatMap((c) => (c.secretName ? [c.secretName] : []))];
        const guess = closestName(name, produced);
        if (!guess || !isTypo(name, guess.name)) continue;
        const certificate = certificates.find((c) => c.secretName === guess.name);
        const secret = lookup.get('Secret', ing.namespace, guess.name)[0];
        const maker = certificate
          ? msg('cert-manager Certificate "{0}" writes Secret "{1}"', certificate.name, guess.name)
          : msg('Secret "{0}" is written here', guess.name);
        yield {
          uri: ing.uri,
          span: t.secretNameSpan,
          message: msg(
            'Ingress "{0}" takes the certificate for {1} from Secret "{2}", which nothing in namespace "{3}" makes, so the controller serves its default certificate there and clients refuse it. {4}; did you mean "{5}"?',
            ing.name,
            t.hosts.length ? t.hosts.join(', ') : msg('its hosts'),
            name,
            ing.namespace,
            maker,
            guess.name,
          ),
          resource: refOf(ing),
          related: certificate
            ? [
                {
                  uri: certificate.uri,
                  span: certificate.secretNameSpan ?? certificate.nameSpan,
                  message: msg('Certificate "{0}" writes Secret "{1}"', certificate.name, guess.name),
                },
              ]
            : secret
              ? [{ uri: secret.uri, span: secret.nameSpan, message: msg('Secret "{0}"', guess.name) }]
              : [],
          fixes: [
            {
              title: msg('Use Secret "{0}"', guess.name),
              edits: [{ uri: ing.uri, span: t.secretNameSpan, newText: guess.name }],
              isPreferred: guess.clear || undefined,
            },
          ],
        };
      }
    }
  },
});
