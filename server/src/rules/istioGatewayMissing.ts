// istio-gateway-missing: a VirtualService `gateways` entry that names no Gateway: a typo of one, or one in another namespace.

import { joinSentences, messages } from '../l10n/l10n';
import { namesOf } from '../analysis/closestName';
import { gatewayRef } from '../analysis/istioHosts';
import { isIstioNetworkingVersion, isVirtualService } from '../model/istio';
import type { Resource } from '../model/resources';
import { closestName } from './closestName';
import { refOf } from './refOf';
import { defineRule, type Lookup } from './rule';

export const istioGatewayMissing = defineRule({
  code: 'istio-gateway-missing',
  subjects: ['resources'],
  defaultSeverity: 'warning',
  title: 'VirtualService names a Gateway that does not exist',
  description: `A VirtualService's \`gateways\` are the gateways its routes are applied to: \`mesh\` (every sidecar), \`<name>\` (a Gateway in the VirtualService's namespace) or \`<namespace>/<name>\` (istio-semantics §I4). A name that matches no Gateway (Istio's or the Gateway API's) binds the routes to nothing, so the gateway answers 404 for the VirtualService's hosts. The same mistake is \`istioctl analyze\`'s IST0101 (ReferencedResourceNotFound, \`gateway\`). Gateways are often installed apart from the routes (a platform's shared ingress gateway), so a missing name is reported only when it is a typo of a Gateway in that namespace, or when a Gateway of that very name exists in another namespace (the namespace part is missing or wrong). Stays quiet for \`mesh\`, names in the legacy \`name.namespace\` form, and any other name.`,
  examples: {
    bad: `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: shop, namespace: shop}
spec:
  hosts: [shop.example.com]
  gateways: [shop-gatway]
  http:
    - route: [{destination: {host: web}}]
---
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: shop-gateway, namespace: shop}
spec:
  selector: {istio: ingressgateway}
  servers: [{port: {number: 80, name: http, protocol: HTTP}, hosts: [shop.example.com]}]`,
    good: `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: shop, namespace: shop}
spec:
  hosts: [shop.example.com]
  gateways: [shop-gateway]
  http:
    - route: [{destination: {host: web}}]
---
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: shop-gateway, namespace: shop}
spec:
  selector: {istio: ingressgateway}
  servers: [{port: {number: 80, name: http, protocol: HTTP}, hosts: [shop.example.com]}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const r of subjects.resources) {
      if (!isIstioNetworkingVersion(r.apiVersion) || !isVirtualService(r)) continue;
      for (const g of r.gateways) {
        const ref = gatewayRef(g.value, r.namespace);
        if (!ref || lookup.get('Gateway', ref.namespace, ref.name).length) continue;
        const here = gatewayNames(lookup, ref.namespace);
        const guess = closestName(ref.name, here);
        const elsewhere = guess ? undefined : gatewayElsewhere(lookup, ref.namespace, ref.name);
        if (!guess && !elsewhere) continue;
        const fixed = guess ? (g.value.includes('/') ? `${ref.namespace}/${guess.name}` : guess.name) : `${elsewhere!.namespace}/${ref.name}`;
        const target = guess ? lookup.get('Gateway', ref.namespace, guess.name)[0] : elsewhere!;
        yield {
          uri: r.uri,
          span: g.span,
          message: joinSentences([
            msg(
              'VirtualService "{0}" is bound to Gateway "{1}" in namespace "{2}", which does not exist, so no gateway applies its routes.',
              r.name,
              ref.name,
              ref.namespace,
            ),
            guess
              ? msg('Did you mean "{0}"?', guess.name)
              : msg('A Gateway "{0}" exists in namespace "{1}": write "{2}".', ref.name, elsewhere!.namespace, fixed),
          ]),
          resource: refOf(r),
          related: target ? [{ uri: target.uri, span: target.nameSpan, message: msg('Gateway "{0}" in namespace "{1}"', target.name, target.namespace) }] : [],
          fixes: [
            { title: msg('Bind to "{0}"', fixed), edits: [{ uri: r.uri, span: g.span, newText: fixed }], isPreferred: guess ? guess.clear || undefined : true },
          ],
        };
      }
    }
  },
});

function gatewayNames(lookup: Lookup, namespace: string): string[] {
  return [...namesOf(lookup.istioObjectsIn(namespace).gateways), ...namesOf(lookup.gatewaysIn(namespace))];
}

function gatewayElsewhere(lookup: Lookup, namespace: string, name: string): Resource | undefined {
  for (const ns of lookup.namespaces()) {
    if (ns === namespace) continue;
    const found = lookup.get('Gateway', ns, name)[0];
    if (found && found.namespaceExplicit) return found;
  }
  return undefined;
}
