// networkpolicy-named-port-undeclared: a named port in a NetworkPolicy rule that no destination pod declares for the
// entry's protocol, so the entry admits nothing (docs/networkpolicy-semantics.md netpol §6).

import { joinSentences, messages } from '../l10n/l10n';
import type { PolicyPort, Workload } from '../model/resources';
import { ruleDestinations } from './policyDestinations';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const networkpolicyNamedPortUndeclared = defineRule({
  code: 'networkpolicy-named-port-undeclared',
  subjects: ['networkPolicies'],
  defaultSeverity: 'warning',
  title: 'A NetworkPolicy names a port that no destination pod declares for that protocol',
  description: `A named \`port\` in a NetworkPolicy rule is looked up in the container ports of the destination pods: the pods
the policy selects for \`ingress\`, the pods the rule's \`to\` peers select for \`egress\`. It matches a container port
with that \`name\` **and** the entry's \`protocol\` (TCP when not written) (docs/networkpolicy-semantics.md §6). When no
destination pod declares that name for that protocol, the entry admits nothing: a typo in the name, or \`dns\` written
for TCP where the pods name their TCP port \`dns-tcp\`, silently blocks the traffic.

Stays quiet when the destination pods are unknown (network-semantics §9): when the policy or the peer selects no
workload in scope (networkpolicy-selects-nothing and networkpolicy-peer-selects-nothing report that), when pods there
may come from an operator, an unrendered chart or a generated label, when an egress rule has no \`to\` (any
destination) or a peer whose namespaces the manifests cannot tell, and when the name is declared by any destination pod.`,
  examples: {
    bad: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: dns-from-apps}
spec:
  podSelector: {matchLabels: {app: dns}}
  ingress:
    - ports: [{port: dns, protocol: TCP}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: dns}
spec:
  selector: {matchLabels: {app: dns}}
  template:
    metadata: {labels: {app: dns}}
    spec:
      containers:
        - name: dns
          image: dns
          ports: [{name: dns, containerPort: 53, protocol: UDP}, {name: dns-tcp, containerPort: 53, protocol: TCP}]`,
    good: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: dns-from-apps}
spec:
  podSelector: {matchLabels: {app: dns}}
  ingress:
    - ports: [{port: dns, protocol: UDP}, {port: dns-tcp, protocol: TCP}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: dns}
spec:
  selector: {matchLabels: {app: dns}}
  template:
    metadata: {labels: {app: dns}}
    spec:
      containers:
        - name: dns
          image: dns
          ports: [{name: dns, containerPort: 53, protocol: UDP}, {name: dns-tcp, containerPort: 53, protocol: TCP}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const np of subjects.networkPolicies) {
      for (const direction of ['ingress', 'egress'] as const) {
        if (!np.policyTypes.includes(direction === 'ingress' ? 'Ingress' : 'Egress')) continue;
        for (const rule of direction === 'ingress' ? np.ingress : np.egress) {
          const named = rule.ports.filter((p): p is PolicyPort & { port: string } => typeof p.port === 'string' && !/^\d+$/.test(p.port));
          if (!named.length) continue;
          const destinations = ruleDestinations(lookup, np, direction, rule.peers);
          if (!destinations?.length) continue;
          for (const entry of named) {
            const declaring = destinations.filter((w) => declares(w, entry.port, entry.protocol));
            if (declaring.length) continue;
            const other = destinations.flatMap((w) =>
              w.template.containers.flatMap((c) => c.ports.filter((p) => p.name === entry.port).map((p) => ({ w, p }))),
            )[0];
            const whose = direction === 'ingress' ? msg('the pods this policy selects') : msg('the pods this rule allows traffic to');
            const names = [
              ...new Set(
                destinations.flatMap((w) =>
                  w.template.containers.flatMap((c) => c.ports.filter((p) => p.name && p.protocol === entry.protocol).map((p) => p.name!)),
                ),
              ),
            ].slice(0, 5);
            const hint = other
              ? entry.protocol === 'TCP'
                ? msg(
                    '{0} "{1}" declares "{2}" for {3}; the entry\'s protocol is {4} (TCP when none is written).',
                    other.w.kind,
                    other.w.name,
                    entry.port,
                    other.p.protocol,
                    entry.protocol,
                  )
                : msg(
                    '{0} "{1}" declares "{2}" for {3}; the entry\'s protocol is {4}.',
                    other.w.kind,
                    other.w.name,
                    entry.port,
                    other.p.protocol,
                    entry.protocol,
                  )
              : names.length
                ? msg('Their {0} ports are named {1}.', entry.protocol, names.map((n) => `"${n}"`).join(', '))
                : msg('They declare no named {0} port.', entry.protocol);
            yield {
              uri: np.uri,
              span: entry.portSpan ?? entry.span ?? rule.span,
              message: joinSentences([
                direction === 'ingress'
                  ? msg('No container port named "{0}" for {1} in {2}, so this ingress entry admits nothing.', entry.port, entry.protocol, whose)
                  : msg('No container port named "{0}" for {1} in {2}, so this egress entry admits nothing.', entry.port, entry.protocol, whose),
                hint,
              ]),
              resource: refOf(np),
              related: other?.p.nameSpan
                ? [{ uri: other.w.uri, span: other.p.nameSpan, message: msg('"{0}" is declared here for {1}', entry.port, other.p.protocol) }]
                : undefined,
            };
          }
        }
      }
    }
  },
});

function declares(w: Workload, name: string, protocol: string): boolean {
  return w.template.containers.some((c) => c.ports.some((p) => p.name === name && p.protocol === protocol));
}
