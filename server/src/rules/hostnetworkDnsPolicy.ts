// hostnetwork-dns-policy: a host-network pod left on the default dnsPolicy falls back to the node's resolver (semantics §3.1).

import { zoneOf } from '../analysis/dnsRecords';
import { messages } from '../l10n/l10n';
import type { Workload } from '../model/resources';
import { treeOf } from '../model/trees';
import { atPath, entry } from '../model/yamlTree';
import { podSpecPath } from '../analysis/validation/validatePodSpec';
import { namesIn } from './dnsNameUnresolved';
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
you want, say so with \`dnsPolicy: Default\`.

Reported when the pod names a cluster name: a \`.svc\` name, or a short name of a Service in scope, in a container's env
values, command or args (the names that no longer resolve are the evidence, and the message quotes the first). Stays quiet
for a host-network pod that names none, such as a node agent that talks to its node and the API server only.`,
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
      containers:
        - name: agent
          image: agent
          env: [{name: COLLECTOR_URL, value: "http://collector.monitoring.svc:4318"}]`,
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
      containers:
        - name: agent
          image: agent
          env: [{name: COLLECTOR_URL, value: "http://collector.monitoring.svc:4318"}]`,
  },
  *check({ subjects, lookup, config }) {
    const zone = zoneOf(config);
    const msg = messages(config.locale);
    for (const w of subjects.workloads) {
      const t = w.template;
      if (!t.hostNetwork || (t.dnsPolicy !== undefined && t.dnsPolicy !== 'ClusterFirst')) continue;
      // evidence that the pod needs the cluster DNS: a cluster name it is given (semantics §3.1, §9: severity follows evidence)
      const named = clusterNameOf(w, zone, (name) => lookup.resolveName(name, w.namespace, w.uri).resolves);
      if (!named) continue;
      const source = lookup.fileText(w.uri) ?? '';
      const fixes: Fix[] = [];
      // the pod spec's tree is not kept with the workload: read again for the fix, only when the rule reports
      const spec = atPath(treeOf(w), podSpecPath(w.kind));
      const policy = entry(spec, 'dnsPolicy');
      const hostNetwork = entry(spec, 'hostNetwork');
      if (policy)
        fixes.push({
          title: msg('Set dnsPolicy: ClusterFirstWithHostNet'),
          edits: [replaceSpan(w.uri, policy.value.span, 'ClusterFirstWithHostNet')],
          isPreferred: true,
        });
      else if (hostNetwork)
        fixes.push({
          title: msg('Add dnsPolicy: ClusterFirstWithHostNet'),
          edits: [insertAfter(w.uri, source, hostNetwork, 'dnsPolicy', 'ClusterFirstWithHostNet')],
          isPreferred: true,
        });
      const stated = t.dnsPolicy === undefined ? msg('no dnsPolicy (so the default ClusterFirst)') : msg('dnsPolicy ClusterFirst');
      yield {
        uri: w.uri,
        span: t.dnsPolicySpan ?? t.hostNetworkSpan ?? t.span,
        message: msg(
          'This pod uses the host network with {0}, which falls back to the node\'s resolver: cluster names like "{1}" ({2}) will not resolve from it. Set dnsPolicy: ClusterFirstWithHostNet to use the cluster DNS.',
          stated,
          named.name,
          named.where,
        ),
        resource: refOf(w),
        fixes,
      };
    }
  },
});

/**
 * The first cluster name a workload's containers are given (env values, command, args): a name with `.svc` in the
 * cluster domain, or a short name that `resolves` (a Service in scope answers it), with where it is written.
 */
function clusterNameOf(w: Workload, zone: string, resolves: (name: string) => boolean): { readonly name: string; readonly where: string } | undefined {
  for (const c of w.template.containers) {
    const values = [
      ...c.env.map((v) => ({ v, variable: v.name as string | undefined })),
      ...[...c.command, ...c.args].map((v) => ({ v, variable: undefined })),
    ];
    for (const { v, variable } of values) {
      for (const name of namesIn(v, zone, variable)) {
        if (name.form === undefined || resolves(name.text)) return { name: name.host, where: `${v.where} of container "${c.name}"` };
      }
    }
  }
  return undefined;
}
