// networkpolicy-egress-dns: pods limited in egress that look up cluster DNS names, while no egress rule of the
// policies selecting them admits the cluster DNS pods on UDP and on TCP (docs/networkpolicy-semantics.md netpol §1, §6).

import { messages } from '../l10n/l10n';
import { findClusterNames, findShortNames } from '../analysis/clusterNames';
import { zoneOf } from '../analysis/dnsRecords';
import type { NetworkPolicy, PolicyRule, Service, Workload } from '../model/resources';
import { selectorIsEmpty, selectorMatches } from '../model/selector';
import { selectedWorkloads } from './policyDestinations';
import { refOf } from './refOf';
import { defineRule, type Lookup } from './rule';

/** Where cluster DNS runs when the workspace does not say (kube-dns/CoreDNS; OpenShift's dns-default). */
const dnsNamespaces = ['kube-system', 'openshift-dns'];
const dnsServiceNames = ['kube-dns', 'coredns', 'dns-default'];

export const networkpolicyEgressDns = defineRule({
  code: 'networkpolicy-egress-dns',
  subjects: ['networkPolicies'],
  defaultSeverity: 'warning',
  title: 'Pods limited in egress look up cluster names, but no rule admits DNS',
  description: `Once a NetworkPolicy limits a pod's egress, every connection needs an egress rule, and so does each DNS
lookup: the query goes to the cluster DNS pods (CoreDNS in \`kube-system\`, \`dns-default\` in \`openshift-dns\`) on
UDP, and on TCP when the answer does not fit in UDP. Without a rule for them, every lookup of the pods times out,
though the connection the policy means to allow would be admitted (docs/networkpolicy-semantics.md §1, §6). The rule
looks at the pods of the policy that use cluster DNS names in their env values, command or args (a name with
\`.svc\`, or a short name that resolves to a Service) and checks every egress rule of every policy selecting them for
one that admits the DNS namespace on UDP and one on TCP, on 53 (CoreDNS), 5353 (OpenShift's dns-default pods) or the
port the DNS pods listen on when the workspace describes the DNS Service (its targetPort).

Stays quiet when a rule may admit DNS: no \`to\` (any destination), an \`ipBlock\` (a node-local cache or the DNS
Service's address may be in it), a \`namespaceSelector\` whose labels the manifests cannot check against the DNS
namespace, a named port; when the pods use no cluster name; when which pods the policy selects is unknown; and for
policies in the DNS namespace itself. Policies of the network plugin (Cilium, Calico, AdminNetworkPolicy) that may
admit DNS cluster-wide are not seen by this rule.`,
  examples: {
    bad: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web-out, namespace: shop}
spec:
  podSelector: {matchLabels: {app: web}}
  policyTypes: [Egress]
  egress:
    - to: [{podSelector: {matchLabels: {app: api}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: web, env: [{name: API_URL, value: "http://api.shop.svc:8080"}]}]}`,
    good: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web-out, namespace: shop}
spec:
  podSelector: {matchLabels: {app: web}}
  policyTypes: [Egress]
  egress:
    - to: [{podSelector: {matchLabels: {app: api}}}]
    - to: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: kube-system}}}]
      ports: [{port: 53, protocol: UDP}, {port: 53, protocol: TCP}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: web, env: [{name: API_URL, value: "http://api.shop.svc:8080"}]}]}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    const zone = zoneOf(config);
    for (const np of subjects.networkPolicies) {
      if (!np.policyTypes.includes('Egress')) continue;
      const dns = dnsTargets(lookup);
      if (dns.namespaces.includes(np.namespace)) continue;
      const pods = selectedWorkloads(lookup, np.namespace, np.podSelector);
      if (!pods) continue;
      const found: { w: Workload; name: string; missing: string[] }[] = [];
      for (const w of pods) {
        // Reported once, on the first policy that limits the pods' egress.
        const egress = lookup.policiesSelecting(w).filter((p) => p.policyTypes.includes('Egress'));
        if (egress[0] !== np || w.template.hostNetwork) continue;
        const name = clusterNameIn(lookup, w, zone);
        if (!name) continue;
        const rules = egress.flatMap((p) => p.egress.map((rule) => ({ p, rule })));
        const missing = ['UDP', 'TCP'].filter((protocol) => !rules.some(({ p, rule }) => admitsDns(lookup, p, rule, protocol, dns)));
        if (missing.length) found.push({ w, name, missing });
      }
      if (!found.length) continue;
      const first = found[0];
      const or = msg(' or ');
      const ports = dns.ports.join(or);
      const what =
        first.missing.length === 2
          ? msg('no egress rule admits the cluster DNS pods ({0}, UDP and TCP {1}), so every lookup times out', dns.namespaces.join(or), ports)
          : msg('no egress rule admits the cluster DNS pods on TCP {0} (UDP is admitted), so lookups whose answers do not fit in UDP fail', ports);
      const others =
        found.length > 1 ? (found.length > 2 ? msg(' (and {0} more workloads)', found.length - 1) : msg(' (and {0} more workload)', found.length - 1)) : '';
      yield {
        uri: np.uri,
        span: np.nameSpan ?? np.span,
        message: msg(
          'This policy limits the egress of {0} "{1}"{2}, which looks up "{3}", but {4}. Add an egress rule to the DNS namespace for {5} on the DNS pods\' port ({6}).',
          first.w.kind,
          first.w.name,
          others,
          first.name,
          what,
          first.missing.join(msg(' and ')),
          ports,
        ),
        resource: refOf(np),
        related: [
          { uri: first.w.uri, span: first.w.nameSpan ?? first.w.span, message: msg('{0} "{1}" looks up "{2}"', first.w.kind, first.w.name, first.name) },
        ],
      };
    }
  },
});

interface DnsTargets {
  readonly namespaces: readonly string[];
  readonly ports: readonly number[];
  readonly services: readonly Service[];
}

/** The DNS namespaces and the ports its pods listen on: 53 or 5353, and the targetPorts of a DNS Service the workspace describes. */
function dnsTargets(lookup: Lookup): DnsTargets {
  const services = dnsServiceNames.flatMap((n) => lookup.servicesNamed(n)).filter((s) => dnsNamespaces.includes(s.namespace) || s.name === 'kube-dns');
  // CoreDNS and kube-dns pods listen on 53; OpenShift's dns-default pods on 5353 (its Service maps 53 to 5353).
  const ports = new Set<number>([53, 5353]);
  for (const s of services) {
    for (const g of lookup.endpointsOf(s).groups)
      for (const t of g.ports) if (t.servicePort.port === 53 && t.containerPort !== undefined) ports.add(t.containerPort);
    for (const p of s.ports) if (p.port === 53 && typeof p.targetPort === 'number') ports.add(p.targetPort);
  }
  return { namespaces: [...new Set([...dnsNamespaces, ...services.map((s) => s.namespace)])], ports: [...ports], services };
}

/** A cluster name the workload's containers look up (`.svc` names, or a short name that resolves to a Service). */
function clusterNameIn(lookup: Lookup, w: Workload, zone: string): string | undefined {
  for (const c of w.template.containers) {
    for (const v of [...c.env, ...c.command, ...c.args]) {
      const full = /\.svc/i.test(v.value) ? findClusterNames(v.value, zone)[0] : undefined;
      if (full) return full.host;
      const variable = 'name' in v ? (v as { name: string }).name : undefined;
      if (!v.value.includes(':') && variable === undefined) continue;
      for (const s of findShortNames(v.value, variable)) {
        const r = lookup.resolveName(s.text, w.namespace, w.uri);
        if (r.service && !r.unknown) return s.host;
      }
    }
  }
  return undefined;
}

/** Whether one egress rule may admit the DNS pods on this protocol (unknown counts as admitting). */
function admitsDns(lookup: Lookup, np: NetworkPolicy, rule: PolicyRule, protocol: string, dns: DnsTargets): boolean {
  const portOk =
    !rule.ports.length ||
    rule.ports.some(
      (p) =>
        p.protocol === protocol &&
        (p.port === undefined || typeof p.port === 'string' || dns.ports.some((d) => d >= (p.port as number) && d <= (p.endPort ?? (p.port as number)))),
    );
  if (!portOk) return false;
  if (!rule.peers.length) return true;
  return rule.peers.some((peer) => {
    if (peer.ipBlock) return true;
    if (!peer.namespaceSelector) return dns.namespaces.includes(np.namespace);
    if (selectorIsEmpty(peer.namespaceSelector)) return true;
    return dns.namespaces.some((ns) => {
      const declared = lookup.namespaceDeclaration(ns);
      const keys = [...peer.namespaceSelector!.matchLabels.keys(), ...peer.namespaceSelector!.matchExpressions.map((e) => e.key)];
      if (!declared && keys.some((k) => k !== 'kubernetes.io/metadata.name')) return true;
      if (!selectorMatches(peer.namespaceSelector!, new Map([...(declared?.labels ?? []), ['kubernetes.io/metadata.name', ns]]))) return false;
      // The DNS pods' labels are known only when the workspace describes them.
      const described = dns.services.filter((s) => s.namespace === ns).flatMap((s) => lookup.endpointsOf(s).groups.map((g) => g.workload));
      return !peer.podSelector || !described.length || described.some((w) => selectorMatches(peer.podSelector!, w.template.labels));
    });
  });
}
