// istio-tls-ca-missing: a DestinationRule that originates TLS (SIMPLE or MUTUAL) without naming the CA that signs the
// server's certificate (istio-semantics §I6; istioctl analyze IST0128, IST0129).

import { zoneOf } from '../analysis/dnsRecords';
import { istioFqdn } from '../analysis/istioHosts';
import { joinSentences, messages } from '../l10n/l10n';
import { isDestinationRule, isIstioNetworkingVersion, type DestinationRuleTls } from '../model/istio';
import { refOf } from './refOf';
import { defineRule } from './rule';

/** The modes in which the client's proxy originates TLS with certificates of the user's (istio-semantics §I6). */
const originating: ReadonlySet<string> = new Set(['SIMPLE', 'MUTUAL']);

export const istioTlsCaMissing = defineRule({
  code: 'istio-tls-ca-missing',
  subjects: ['resources'],
  defaultSeverity: 'information',
  title: 'Istio DestinationRule originates TLS without a CA to verify the server',
  description: `A DestinationRule whose \`trafficPolicy.tls\` or \`trafficPolicy.portLevelSettings[].tls\` has \`mode: SIMPLE\` or \`MUTUAL\` makes the client's proxy originate TLS to the server, and verify the server's certificate against \`caCertificates\` or the CA of the Secret \`credentialName\` names (istio-semantics §I6). With neither, Istio 1.21 and later verify it against the proxy's system root CAs only, so a server whose certificate a private CA signed (most servers in the cluster) fails the handshake, while one with a public CA's certificate passes; earlier versions do not verify it at all. The message says which of the two the host is (a cluster name or not). The same checks are \`istioctl analyze\`'s IST0128 (NoServerCertificateVerificationDestinationLevel) and IST0129 (NoServerCertificateVerificationPortLevel). Stays quiet for modes \`ISTIO_MUTUAL\` (the mesh's own CA) and \`DISABLE\`, when \`caCertificates\` or \`credentialName\` is set (the Secret supplies the CA; istioctl still reports a \`credentialName\` without a \`workloadSelector\`, which a gateway reads), when \`insecureSkipVerify: true\` is written (skipping verification is then a choice; istioctl reports it), for port level settings without a port number, and for the TLS settings of subsets.`,
  examples: {
    bad: `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: payments}
spec:
  host: payments.example.com
  trafficPolicy:
    tls:
      mode: SIMPLE
      sni: payments.example.com`,
    good: `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: payments}
spec:
  host: payments.example.com
  trafficPolicy:
    tls:
      mode: SIMPLE
      sni: payments.example.com
      caCertificates: /etc/certs/payments-ca.pem`,
  },
  *check({ subjects, config }) {
    const msg = messages(config.locale);
    const zone = zoneOf(config);
    for (const r of subjects.resources) {
      if (!isIstioNetworkingVersion(r.apiVersion) || !isDestinationRule(r)) continue;
      for (const t of r.tls) {
        if (!unverified(t) || !t.modeSpan) continue;
        const host = r.host ?? '';
        const what =
          t.level === 'destination'
            ? msg(
                'DestinationRule "{0}" originates TLS (mode {1}) to host "{2}" without caCertificates or credentialName, so it names no CA for the server\'s certificate.',
                r.name,
                t.mode ?? '',
                host,
              )
            : msg(
                'DestinationRule "{0}" originates TLS (mode {1}) to port {2} of host "{3}" without caCertificates or credentialName, so it names no CA for the server\'s certificate.',
                r.name,
                t.mode ?? '',
                t.port ?? 0,
                host,
              );
        yield {
          uri: r.uri,
          span: t.modeSpan,
          message: joinSentences([
            what,
            inCluster(host, r.namespace, zone)
              ? msg(
                  "Istio 1.21 and later verify it against the proxy's system root CAs only, so a certificate a private CA signed fails the handshake; earlier versions do not verify it at all.",
                )
              : msg(
                  "Istio 1.21 and later verify it against the proxy's system root CAs, which suffices for a certificate of a public CA; earlier versions do not verify it at all, so any certificate the server presents is accepted.",
                ),
            msg(
              'Set caCertificates (a file in the proxy) or credentialName (a Secret with the CA), or insecureSkipVerify: true if not verifying the server is intended.',
            ),
          ]),
          resource: refOf(r),
        };
      }
    }
  },
});

/** SIMPLE or MUTUAL with no CA and no explicit `insecureSkipVerify: true` (istio-semantics §I6). */
function unverified(t: DestinationRuleTls): boolean {
  if (t.mode === undefined || !originating.has(t.mode)) return false;
  if (t.caCertificates || t.credentialName || t.insecureSkipVerify === true) return false;
  // A port level entry needs its port (Istio's validation rejects one without it).
  return t.level === 'destination' || t.port !== undefined;
}

/** Whether a DestinationRule's host is a name of the cluster (a Service's, read per istio-semantics §I1), whose servers mostly have certificates of a private CA. */
function inCluster(host: string, namespace: string, zone: string): boolean {
  return istioFqdn(host, namespace, zone).endsWith(`.svc.${zone}`);
}
