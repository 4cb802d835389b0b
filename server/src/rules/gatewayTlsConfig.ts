// gateway-tls-config: listener TLS missing where required or set where invalid, missing certificate Secrets, duplicate listener names.

import { messages, type Msg } from '../l10n/l10n';
import { namespaceKnown } from '../analysis/gatewayRoutes';
import type { Gateway, GatewayListener, ObjectRefField } from '../model/gatewayApi';
import { hasPlaceholder } from '../model/placeholder';
import { closestName } from './closestName';
import type { FindingDraft } from './finding';
import { listenerLabel } from './gatewayWording';
import { defineRule, type Lookup } from './rule';
import { refOf } from './refOf';

export const gatewayTlsConfig = defineRule({
  code: 'gateway-tls-config',
  subjects: ['gateways'],
  defaultSeverity: 'warning',
  title: 'A Gateway listener with inconsistent TLS, a missing certificate Secret, or a duplicate name',
  description: `Listener names must be unique within a Gateway. \`tls\` is required for protocols \`HTTPS\` and \`TLS\` and must not be set for \`HTTP\`, \`TCP\` and \`UDP\` (the API server rejects such a Gateway); an \`HTTPS\` listener only terminates TLS, a \`TLS\` listener needs a \`mode\`, and a terminating listener needs \`certificateRefs\` (*gateway semantics §G3*, \`Listener.TLS\`, \`ListenerTLSConfig\`). A certificate Secret missing from its namespace leaves the listener without a certificate (ResolvedRefs: False, InvalidCertificateRef); that is reported only when a Secret of a close name is written in that namespace or produced there by a cert-manager \`Certificate\` (its \`secretName\`), a typo, and the Gateway has no \`cert-manager.io/\` annotation: certificate Secrets are the ones most often made outside the manifests (\`kubectl create secret tls\`, a certificate controller), so a name with no near miss is unknown. Cross-namespace certificate references without a ReferenceGrant are \`route-backend-refgrant\`.`,
  examples: {
    bad: `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge}
spec:
  gatewayClassName: example
  listeners:
    - {name: web, port: 443, protocol: HTTPS}
    - {name: web, port: 80, protocol: HTTP}`,
    good: `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge}
spec:
  gatewayClassName: example
  listeners:
    - name: https
      port: 443
      protocol: HTTPS
      tls: {certificateRefs: [{name: edge-cert}]}
    - {name: http, port: 80, protocol: HTTP}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const gateway of subjects.gateways) {
      const seen = new Map<string, GatewayListener>();
      for (const l of gateway.listeners) {
        if (l.name !== undefined) {
          const first = seen.get(l.name);
          if (first && l.nameSpan) {
            yield {
              uri: gateway.uri,
              span: l.nameSpan,
              message: msg(
                'Gateway "{0}" has two listeners named "{1}"; listener names must be unique, so the API server rejects the Gateway and no route attaches to it.',
                gateway.name,
                l.name,
              ),
              resource: refOf(gateway),
              related: [{ uri: gateway.uri, span: first.nameSpan ?? first.span, message: msg('The first listener named "{0}"', l.name) }],
            };
          } else if (!first) seen.set(l.name, l);
        }
        yield* checkTls(lookup, gateway, l, msg);
      }
    }
  },
});

function* checkTls(lookup: Lookup, gateway: Gateway, l: GatewayListener, msg: Msg): Generator<FindingDraft> {
  const label = listenerLabel(l, msg);
  const protocol = l.protocol?.toUpperCase();
  const base = { uri: gateway.uri, resource: refOf(gateway) };
  if ((protocol === 'HTTP' || protocol === 'TCP' || protocol === 'UDP') && l.tls) {
    yield {
      ...base,
      span: l.tls.keySpan,
      message: msg(
        '{0} of Gateway "{1}" sets tls, which is invalid for protocol {2}: the API server rejects the Gateway. Use protocol HTTPS (or TLS) to terminate TLS, or remove tls.',
        label,
        gateway.name,
        l.protocol!,
      ),
    };
    return;
  }
  if (protocol !== 'HTTPS' && protocol !== 'TLS') return;
  if (!l.tls) {
    yield {
      ...base,
      span: l.protocolSpan ?? l.span,
      message:
        protocol === 'TLS'
          ? msg(
              '{0} of Gateway "{1}" has protocol {2} but no tls: a TLS listener needs tls.mode (Terminate or Passthrough), so the API server rejects the Gateway.',
              label,
              gateway.name,
              l.protocol!,
            )
          : msg(
              '{0} of Gateway "{1}" has protocol {2} but no tls: the listener has no certificate to serve, so the controller marks it invalid and no route attaches to it.',
              label,
              gateway.name,
              l.protocol!,
            ),
    };
    return;
  }
  if (protocol === 'HTTPS' && l.tls.mode !== 'Terminate') {
    yield {
      ...base,
      span: l.tls.modeSpan ?? l.tls.keySpan,
      message: msg(
        '{0} of Gateway "{1}" sets tls.mode {2}, but an HTTPS listener only terminates TLS: the API server rejects the Gateway. Use protocol TLS with a TLSRoute for passthrough.',
        label,
        gateway.name,
        String(l.tls.mode),
      ),
    };
    return;
  }
  if (protocol === 'TLS' && !l.tls.modeSpan) {
    yield {
      ...base,
      span: l.tls.keySpan,
      message: msg(
        '{0} of Gateway "{1}" has protocol TLS without tls.mode; a TLS listener must set mode Terminate or Passthrough, so the API server rejects the Gateway.',
        label,
        gateway.name,
      ),
    };
    return;
  }
  if (l.tls.mode === 'Terminate' && !l.tls.certificateRefs.length && !l.tls.optionsWritten) {
    yield {
      ...base,
      span: l.tls.keySpan,
      message: msg(
        '{0} of Gateway "{1}" terminates TLS but names no certificateRefs, so it has no certificate to serve and the API server rejects the Gateway.',
        label,
        gateway.name,
      ),
    };
    return;
  }
  if (l.tls.mode !== 'Terminate') return;
  for (const ref of l.tls.certificateRefs) {
    const finding = missingSecret(lookup, gateway, l, ref, msg);
    if (finding) yield finding;
  }
}

function missingSecret(lookup: Lookup, gateway: Gateway, l: GatewayListener, ref: ObjectRefField, msg: Msg): FindingDraft | undefined {
  if (ref.group !== '' || ref.kind !== 'Secret' || ref.name === undefined || !ref.nameSpan || hasPlaceholder(ref.name)) return undefined;
  for (const key of gateway.annotations.keys()) if (key.startsWith('cert-manager.io/')) return undefined;
  const ns = ref.namespace ?? gateway.namespace;
  if (lookup.get('Secret', ns, ref.name).length) return undefined;
  if (!namespaceKnown(lookup, ns)) return undefined;
  // A cert-manager Certificate in the namespace writes the Secret its secretName names.
  const certificates = lookup.certificatesIn(ns);
  if (certificates.some((c) => c.secretName === ref.name)) return undefined;
  const secrets = [...lookup.secretsIn(ns), ...certificates.flatMap((c) => (c.secretName ? [{ name: c.secretName }] : []))];
  if (!secrets.length) return undefined;
  // Certificate Secrets are the ones most often made outside the manifests (`kubectl create secret tls`, a
  // certificate controller, a secrets manager), even where other Secrets are written: only a close name is evidence
  // of a typo (semantics §9.2, precision over recall).
  const guess = closestName(
    ref.name,
    secrets.map((s) => s.name),
  );
  if (!guess) return undefined;
  return {
    uri: gateway.uri,
    span: ref.nameSpan,
    message: msg(
      '{0} of Gateway "{1}" uses certificate Secret "{2}", which does not exist in namespace "{3}", so the listener has no certificate (reason InvalidCertificateRef) and serves no TLS. Did you mean "{4}"?',
      listenerLabel(l, msg),
      gateway.name,
      ref.name,
      ns,
      guess.name,
    ),
    resource: refOf(gateway),
    fixes: [
      {
        title: msg('Use Secret "{0}"', guess.name),
        edits: [{ uri: gateway.uri, span: ref.nameSpan, newText: guess.name }],
        isPreferred: guess.clear || undefined,
      },
    ],
  };
}
