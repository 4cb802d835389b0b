// istio-destination-port: a VirtualService destination port that its Service does not have, or no port for a multi-port Service behind a gateway.

import { joinSentences, messages, type Msg } from '../l10n/l10n';
import { isIstioNetworkingVersion, isVirtualService, type IstioDestination, type VirtualService } from '../model/istio';
import type { Fix, FindingDraft } from './finding';
import { istioTarget } from './istioTarget';
import { refOf } from './refOf';
import { defineRule } from './rule';

/** Ports offered as fixes when none stands out. */
const maxOffered = 5;

export const istioDestinationPort = defineRule({
  code: 'istio-destination-port',
  subjects: ['resources'],
  defaultSeverity: 'warning',
  title: 'Istio destination port is not a port of its Service',
  description: `A VirtualService destination's \`port.number\` is a port of the destination Service (its \`port\`, not the container's \`targetPort\`) or of the ServiceEntry that declares the host; Istio has no cluster for another port, and requests on that route fail with 503 (istio-semantics §I2). A destination without a port is resolved by the port the request came in on: for a VirtualService bound to a gateway that is the gateway's port (80, 443), so a Service with more than one port needs \`port.number\` there. The same mistakes are \`istioctl analyze\`'s IST0101 (\`host:port\`) and IST0112 (VirtualServiceDestinationPortSelectorRequired). Stays quiet when the host does not resolve (\`istio-host-unresolved\` says why), for ExternalName Services without ports and ServiceEntries without ports, and for a destination without a port in a VirtualService that only the mesh uses (sidecars route each port on its own).`,
  examples: {
    bad: `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: web}
spec:
  hosts: [web.example.com]
  gateways: [web-gateway]
  http:
    - route:
        - destination: {host: web, port: {number: 8080}}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: 8080}]`,
    good: `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: web}
spec:
  hosts: [web.example.com]
  gateways: [web-gateway]
  http:
    - route:
        - destination: {host: web, port: {number: 80}}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: 8080}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const r of subjects.resources) {
      if (!isIstioNetworkingVersion(r.apiVersion) || !isVirtualService(r)) continue;
      const behindGateway = r.gateways.some((g) => g.value !== 'mesh');
      for (const d of r.destinations) {
        if (d.host === undefined) continue;
        const target = istioTarget(lookup, config, d.host, r.namespace);
        let ports: { port: number; name?: string; targetPort?: number | string }[];
        let owner: { uri: string; span: { start: number; end: number }; what: string };
        if (target.kind === 'service') {
          const s = target.service;
          if (s.type === 'ExternalName' && !s.ports.length) continue;
          ports = s.ports.flatMap((p) => (p.port === undefined ? [] : [{ port: p.port, name: p.name, targetPort: p.targetPort }]));
          owner = { uri: s.uri, span: s.portsSpan ?? s.nameSpan, what: `Service "${s.name}"` };
        } else if (target.kind === 'entry') {
          if (!target.entry.ports.length) continue;
          ports = target.entry.ports.map((port) => ({ port }));
          owner = { uri: target.entry.uri, span: target.entry.nameSpan, what: `ServiceEntry "${target.entry.name}"` };
        } else continue;
        const list = ports.map((p) => (p.name ? `${p.port} (${p.name})` : `${p.port}`)).join(', ') || msg('none');
        if (d.port === undefined) {
          if (!behindGateway || ports.length < 2 || !d.hostSpan) continue;
          yield {
            uri: r.uri,
            span: d.hostSpan,
            message: msg(
              'VirtualService "{0}" is bound to a gateway and {1} sends to host "{2}" without a port, but {3} has {4} ports ({5}): Istio cannot tell which one to use, and requests that come in on a port the host lacks fail with 503. Add `port: {number: …}` to the destination.',
              r.name,
              d.where,
              d.host,
              owner.what,
              ports.length,
              list,
            ),
            resource: refOf(r),
            related: [{ uri: owner.uri, span: owner.span, message: msg('The ports of {0}', owner.what) }],
          };
          continue;
        }
        if (ports.some((p) => p.port === d.port)) continue;
        yield portFinding(r, d, ports, list, owner, msg);
      }
    }
  },
});

function portFinding(
  r: VirtualService,
  d: IstioDestination,
  ports: readonly { port: number; name?: string; targetPort?: number | string }[],
  list: string,
  owner: { uri: string; span: { start: number; end: number }; what: string },
  msg: Msg,
): FindingDraft {
  const viaTarget = ports.filter((p) => p.targetPort === d.port);
  const hint = viaTarget.length ? msg('{0} is a targetPort of {1}; a destination names the Service port, not the container port.', d.port!, owner.what) : '';
  const candidate = viaTarget.length === 1 ? viaTarget[0] : ports.length === 1 ? ports[0] : undefined;
  const fixes: Fix[] = [];
  if (d.portSpan) {
    for (const p of candidate ? [candidate] : ports.slice(0, maxOffered)) {
      fixes.push({
        title: p.name ? msg('Use port {0} ({1})', p.port, p.name) : msg('Use port {0}', p.port),
        edits: [{ uri: r.uri, span: d.portSpan, newText: String(p.port) }],
        isPreferred: candidate ? true : undefined,
      });
    }
  }
  return {
    uri: r.uri,
    span: d.portSpan ?? d.span,
    message: joinSentences([
      msg(
        'VirtualService "{0}" sends {1} to port {2} of host "{3}", but {4} has no such port (its ports: {5}), so requests on this route fail with 503.',
        r.name,
        d.where,
        d.port!,
        String(d.host),
        owner.what,
        list,
      ),
      ...(hint ? [hint] : []),
    ]),
    resource: refOf(r),
    related: [{ uri: owner.uri, span: owner.span, message: msg('The ports of {0}', owner.what) }],
    fixes,
  };
}
