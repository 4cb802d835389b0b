// istio-gateway-host-mismatch: a VirtualService bound to an Istio Gateway none of whose servers serves its hosts.

import { gatewayRef, gatewayServerHosts, istioHostsOverlap } from '../analysis/istioHosts';
import { messages } from '../l10n/l10n';
import { isIstioGateway, isIstioNetworkingVersion, isVirtualService } from '../model/istio';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const istioGatewayHostMismatch = defineRule({
  code: 'istio-gateway-host-mismatch',
  subjects: ['resources'],
  defaultSeverity: 'warning',
  title: "VirtualService hosts are served by none of its Gateway's servers",
  description: `A gateway applies a VirtualService's routes only for the hosts both name: a VirtualService host must match a host of one of the bound Gateway's \`servers\` (wildcards match either way; a server host \`<namespace>/<host>\` is offered only to VirtualServices of that namespace, \`./<host>\` to those of the Gateway's, \`*/<host>\` to all; istio-semantics §I4). With no host in common the gateway answers 404 for the VirtualService's hosts. The same mistake is \`istioctl analyze\`'s IST0132 (VirtualServiceHostNotFoundInGateway). Stays quiet for Gateways not in scope (\`istio-gateway-missing\` covers typos), Gateway API Gateways, and Gateways or VirtualServices without hosts.`,
  examples: {
    bad: `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: shop}
spec:
  hosts: [shop.example.org]
  gateways: [shop-gateway]
  http:
    - route: [{destination: {host: web}}]
---
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: shop-gateway}
spec:
  selector: {istio: ingressgateway}
  servers: [{port: {number: 80, name: http, protocol: HTTP}, hosts: ["*.example.com"]}]`,
    good: `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: shop}
spec:
  hosts: [shop.example.com]
  gateways: [shop-gateway]
  http:
    - route: [{destination: {host: web}}]
---
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: shop-gateway}
spec:
  selector: {istio: ingressgateway}
  servers: [{port: {number: 80, name: http, protocol: HTTP}, hosts: ["*.example.com"]}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const r of subjects.resources) {
      if (!isIstioNetworkingVersion(r.apiVersion) || !isVirtualService(r) || !r.hosts.length) continue;
      for (const g of r.gateways) {
        const ref = gatewayRef(g.value, r.namespace);
        if (!ref) continue;
        const gateways = lookup.get('Gateway', ref.namespace, ref.name).filter(isIstioGateway);
        if (!gateways.length) continue;
        const offered = gateways.flatMap((gw) => gatewayServerHosts(gw, r.namespace));
        if (!offered.length && gateways.every((gw) => gw.servers.every((s) => !s.hosts.length))) continue;
        const vsHosts = r.hosts.map((h) => h.value.toLowerCase());
        if (vsHosts.some((h) => offered.some((o) => istioHostsOverlap(o, h)))) continue;
        const gw = gateways[0];
        const all = gateways.flatMap((x) => x.servers.flatMap((s) => s.hosts.map((h) => h.value)));
        yield {
          uri: r.uri,
          span: g.span,
          message: msg(
            'VirtualService "{0}" is bound to Gateway "{1}", but none of its hosts ({2}) matches a host the Gateway\'s servers offer to namespace "{3}" ({4}), so the gateway does not apply its routes and answers 404 for them.',
            r.name,
            gw.name,
            vsHosts.join(', '),
            r.namespace,
            all.join(', ') || msg('none'),
          ),
          resource: refOf(r),
          related: [{ uri: gw.uri, span: gw.nameSpan, message: msg('Gateway "{0}" in namespace "{1}"', gw.name, gw.namespace) }],
        };
      }
    }
  },
});
