// hostnetwork-dns-policy: a host-network pod left on the default dnsPolicy falls back to the node's resolver (semantics §3.1).

import { messages } from '../l10n/l10n';
import { entry } from '../model/yamlTree';
import type { Fix } from './finding';
import { insertAfter, replaceSpan } from './fixes/fieldEdits';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const hostnetworkDnsPolicy = defineRule({
  code: 'hostnetwork-dns-policy',
  subjects: ['workloads'],
  defaultSeverity: 'warning',
  title: 'A hostNetwork pod with the default dnsPolicy cannot resolve cluster names',
  description: `With \`hostNetwork: true\`, the default \`dnsPolicy: ClusterFirst\` silently falls back to \`Default\`: the pod uses the
node's /etc/resolv.conf, so Service names such as \`api\` or \`api.shop.svc.cluster.local\` do not resolve (network-semantics §3.1).
Set \`dnsPolicy: ClusterFirstWithHostNet\` to use the cluster DNS from the host network. If the node's resolver is really what
you want, say so with \`dnsPolicy: Default\`.`,
  examples: {
    bad: `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: node-agent}
spec:
  selector: {matchLabels: {app: node-agent}}
  template:
    metadata: {labels: {app: node-agent}}
    spec:
      hostNetwork: true
      containers: [{name: agent, image: agent}]`,
    good: `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: node-agent}
spec:
  selector: {matchLabels: {app: node-agent}}
  template:
    metadata: {labels: {app: node-agent}}
    spec:
      hostNetwork: true
      dnsPolicy: ClusterFirstWithHostNet
      containers: [{name: agent, image: agent}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const w of subjects.workloads) {
      const t = w.template;
      if (!t.hostNetwork || (t.dnsPolicy !== undefined && t.dnsPolicy !== 'ClusterFirst')) continue;
      const source = lookup.fileText(w.uri) ?? '';
      const fixes: Fix[] = [];
      const policy = entry(t.spec, 'dnsPolicy');
      const hostNetwork = entry(t.spec, 'hostNetwork');
      if (policy) fixes.push({ title: msg('Set dnsPolicy: ClusterFirstWithHostNet'), edits: [replaceSpan(w.uri, policy.value.span, 'ClusterFirstWithHostNet')], isPreferred: true });
      else if (hostNetwork) fixes.push({ title: msg('Add dnsPolicy: ClusterFirstWithHostNet'), edits: [insertAfter(w.uri, source, hostNetwork, 'dnsPolicy', 'ClusterFirstWithHostNet')], isPreferred: true });
      const stated = t.dnsPolicy === undefined ? msg('no dnsPolicy (so the default ClusterFirst)') : msg('dnsPolicy ClusterFirst');
      yield {
        uri: w.uri,
        span: t.dnsPolicySpan ?? t.hostNetworkSpan ?? t.span,
        message: msg('This pod uses the host network with {0}, which falls back to the node\'s resolver: cluster names like Service names will not resolve from it. Set dnsPolicy: ClusterFirstWithHostNet to use the cluster DNS.', stated),
        resource: refOf(w),
        fixes,
      };
    }
  },
});
