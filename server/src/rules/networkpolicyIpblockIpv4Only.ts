// networkpolicy-ipblock-ipv4-only: a NetworkPolicy whose ipBlocks of a direction are all IPv4 ranges, in a namespace
// whose Services ask for IPv6 addresses: the pods' IPv6 connections match none of them (docs/networkpolicy-semantics.md
// netpol §5, "ipBlock and IP families").

import { cidrFamily } from '../analysis/ip';
import { messages, type Msg } from '../l10n/l10n';
import type { NetworkPolicy, PolicyRule, Service } from '../model/resources';
import type { Span } from '../model/span';
import { refOf } from './refOf';
import { defineRule } from './rule';

/** Ranges named in a message. */
const maxNamed = 3;

export const networkpolicyIpblockIpv4Only = defineRule({
  code: 'networkpolicy-ipblock-ipv4-only',
  subjects: ['networkPolicies'],
  defaultSeverity: 'information',
  title: 'NetworkPolicy ipBlocks are IPv4 only in a namespace with dual-stack Services',
  description: `An ipBlock's \`cidr\` and \`except\` ranges are of one IP family each: an IPv4 range matches IPv4 addresses only, and \`0.0.0.0/0\` is no IPv6 address (docs/networkpolicy-semantics.md netpol §5, "ipBlock and IP families"). In a dual-stack cluster every pod has an IPv4 and an IPv6 address, and each connection is of one family, so where every ipBlock of a policy's ingress (or egress) rules is IPv4, those rules allow no IPv6 connection from (or to) the addresses they name: an allow does not cover the same hosts' IPv6 addresses, and an IPv4 \`except\` excepts none of them because they are not admitted at all. Whether the cluster is dual-stack is not in the manifests: this information finding is made only when a Service of the policy's namespace asks for IPv6 addresses (\`ipFamilyPolicy: PreferDualStack\` or \`RequireDualStack\`, or \`IPv6\` in \`ipFamilies\`). Stays quiet when any ipBlock of that direction is an IPv6 range, for directions without an ipBlock or that the policy's \`policyTypes\` leave out, when another rule of the direction admits every peer on every port (nothing is restricted), and when the namespace's Services are single-stack IPv4 or say nothing of IP families.`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata: {name: api}
spec:
  ipFamilyPolicy: PreferDualStack
  selector: {app: api}
  ports: [{port: 443}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: api-egress}
spec:
  podSelector: {matchLabels: {app: api}}
  policyTypes: [Egress]
  egress:
    - to:
        - ipBlock: {cidr: 0.0.0.0/0, except: [10.0.0.0/8]}`,
    good: `apiVersion: v1
kind: Service
metadata: {name: api}
spec:
  ipFamilyPolicy: PreferDualStack
  selector: {app: api}
  ports: [{port: 443}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: api-egress}
spec:
  podSelector: {matchLabels: {app: api}}
  policyTypes: [Egress]
  egress:
    - to:
        - ipBlock: {cidr: 0.0.0.0/0, except: [10.0.0.0/8]}
        - ipBlock: {cidr: '::/0', except: ['fc00::/7']}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const p of subjects.networkPolicies) {
      for (const direction of ['Ingress', 'Egress'] as const) {
        if (!p.policyTypes.includes(direction)) continue;
        const ranges = ipv4Only(direction === 'Ingress' ? p.ingress : p.egress);
        if (!ranges) continue;
        const evidence = ipv6Evidence(lookup.servicesIn(p.namespace));
        if (!evidence) continue;
        yield {
          uri: p.uri,
          span: ranges[0].span,
          message: messageOf(
            msg,
            p,
            direction,
            ranges.map((r) => r.cidr),
            evidence,
          ),
          resource: refOf(p),
          related: [
            {
              uri: evidence.service.uri,
              span: evidence.span,
              message: msg('Service "{0}" asks for IPv6 addresses ({1})', evidence.service.name, evidence.field),
            },
          ],
        };
      }
    }
  },
});

/**
 * The IPv4 ranges of a direction's ipBlocks when every ipBlock there is IPv4 (netpol §5); undefined when one is
 * IPv6, when there is none, or when a rule admits every peer on every port (the direction restricts nothing, netpol §4).
 */
function ipv4Only(rules: readonly PolicyRule[]): { readonly cidr: string; readonly span: Span }[] | undefined {
  const ranges: { cidr: string; span: Span }[] = [];
  for (const rule of rules) {
    if (!rule.peers.length && !rule.ports.length) return undefined;
    for (const peer of rule.peers) {
      if (!peer.ipBlock) continue;
      const family = cidrFamily(peer.ipBlock.cidr);
      if (family === 'IPv6') return undefined;
      if (family === 'IPv4') ranges.push({ cidr: peer.ipBlock.cidr, span: peer.ipBlock.cidrSpan ?? peer.span });
    }
  }
  return ranges.length ? ranges : undefined;
}

/** The first Service that asks for IPv6 addresses, and the field that says so (netpol §5, DUALSTACK). */
function ipv6Evidence(services: readonly Service[]): { readonly service: Service; readonly field: string; readonly span: Span } | undefined {
  for (const s of services) {
    if (s.type === 'ExternalName') continue;
    if (s.ipFamilyPolicy === 'PreferDualStack' || s.ipFamilyPolicy === 'RequireDualStack')
      return { service: s, field: `ipFamilyPolicy: ${s.ipFamilyPolicy}`, span: s.ipFamilyPolicySpan ?? s.nameSpan };
    if (s.ipFamilies.includes('IPv6')) return { service: s, field: `ipFamilies: [${s.ipFamilies.join(', ')}]`, span: s.ipFamiliesSpan ?? s.nameSpan };
  }
  return undefined;
}

function messageOf(
  msg: Msg,
  p: NetworkPolicy,
  direction: 'Ingress' | 'Egress',
  cidrs: readonly string[],
  evidence: { readonly service: Service; readonly field: string },
): string {
  const named = cidrs.slice(0, maxNamed).join(', ');
  const list = cidrs.length > maxNamed ? msg('{0} and {1} more', named, cidrs.length - maxNamed) : named;
  return direction === 'Ingress'
    ? msg(
        'Every ipBlock in the ingress rules of NetworkPolicy "{0}" is an IPv4 range ({1}), while Service "{2}" of namespace "{3}" asks for IPv6 addresses ({4}): where the cluster has IPv6, the pods have IPv6 addresses too, and an IPv4 range matches (and excepts) IPv4 addresses only, so these rules allow no IPv6 connection from those sources. Add their IPv6 ranges if they connect over IPv6.',
        p.name,
        list,
        evidence.service.name,
        p.namespace,
        evidence.field,
      )
    : msg(
        'Every ipBlock in the egress rules of NetworkPolicy "{0}" is an IPv4 range ({1}), while Service "{2}" of namespace "{3}" asks for IPv6 addresses ({4}): where the cluster has IPv6, the pods have IPv6 addresses too, and an IPv4 range matches (and excepts) IPv4 addresses only, so these rules allow no IPv6 connection to those destinations. Add their IPv6 ranges if the pods reach them over IPv6.',
        p.name,
        list,
        evidence.service.name,
        p.namespace,
        evidence.field,
      );
}
