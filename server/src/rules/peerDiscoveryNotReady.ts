// peer-discovery-not-ready: StatefulSet members behind a readinessProbe cannot resolve each other until Ready, unless publishNotReadyAddresses is set.

import { messages } from '../l10n/l10n';
import { at, isMap } from '../model/yamlTree';
import { firstPodName, selectsTemplate, statefulSetsWithService } from './governingService';
import { insertMapEntry } from './insertMapEntry';
import { refOf } from './refOf';
import type { Workload } from '../model/resources';
import { defineRule } from './rule';
import { treeOf } from '../model/trees';

/** Whether the StatefulSet's containers name a member pod or the governing Service in their env, command or args. */
function namesPeers(sts: Workload, service: string): boolean {
  const member = new RegExp(`(^|[^a-z0-9-])(${escapeRe(sts.name)}-[0-9]+|${escapeRe(service)})($|[^a-z0-9-])`, 'i');
  return sts.template.containers.some((c) => [...c.env, ...c.command, ...c.args].some((v) => member.test(v.value)));
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export const peerDiscoveryNotReady = defineRule({
  code: 'peer-discovery-not-ready',
  subjects: ['workloads'],
  defaultSeverity: 'hint',
  title: 'StatefulSet members cannot resolve each other until they are Ready',
  description: `A pod that is not Ready is marked not ready in the governing Service's EndpointSlices, and CoreDNS leaves not-ready endpoints out of its answers (semantics §2.4). So while a StatefulSet's pods are starting, \`web-0.nginx…\` does not resolve. If a member only becomes Ready after it has found its peers (clustered databases, queues, consensus systems), the cluster never forms: each pod waits for names that appear only once it is Ready. With the default \`podManagementPolicy: OrderedReady\`, pod 1 is not even created before pod 0 is Ready.

Setting \`publishNotReadyAddresses: true\` on the headless governing Service publishes the pods' names as soon as they have an IP. Keep a separate, ordinary Service for client traffic that should reach only Ready pods.

Stays quiet unless the pods name a member (\`etcd-0\`) or the governing Service in their env, command or args: members that never look each other up by name do not need the names early.`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata: {name: etcd}
spec:
  clusterIP: None
  selector: {app: etcd}
  ports: [{name: peer, port: 2380}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: etcd}
spec:
  serviceName: etcd
  selector: {matchLabels: {app: etcd}}
  template:
    metadata: {labels: {app: etcd}}
    spec:
      containers:
        - name: etcd
          image: etcd
          args: [--initial-cluster=etcd-0=http://etcd-0.etcd:2380]
          ports: [{name: peer, containerPort: 2380}]
          readinessProbe: {tcpSocket: {port: 2380}}`,
    good: `apiVersion: v1
kind: Service
metadata: {name: etcd}
spec:
  clusterIP: None
  publishNotReadyAddresses: true
  selector: {app: etcd}
  ports: [{name: peer, port: 2380}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: etcd}
spec:
  serviceName: etcd
  selector: {matchLabels: {app: etcd}}
  template:
    metadata: {labels: {app: etcd}}
    spec:
      containers:
        - name: etcd
          image: etcd
          ports: [{name: peer, containerPort: 2380}]
          readinessProbe: {tcpSocket: {port: 2380}}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const { statefulSet: sts, service } of statefulSetsWithService(subjects, lookup)) {
      if (!service || !service.headless || service.publishNotReadyAddresses || !selectsTemplate(service, sts)) continue;
      const probed = sts.template.containers.find((c) => c.hasReadinessProbe);
      if (!probed) continue;
      // Only members that look each other up by name need the names before they are Ready: the pods must name a
      // peer (`<sts>-0`, `<sts>-<i>.<service>`) or the governing Service in their env, command or args.
      if (!namesPeers(sts, service.name)) continue;
      const text = lookup.fileText(service.uri);
      const spec = at(treeOf(service), 'spec');
      const edit = text && isMap(spec) ? insertMapEntry(service.uri, text, spec, 'publishNotReadyAddresses: true') : undefined;
      yield {
        uri: sts.uri,
        span: sts.serviceNameSpan ?? sts.nameSpan,
        message: msg(
          'Container "{0}" of StatefulSet "{1}" has a readinessProbe, and Service "{2}" publishes only Ready pods, so {3} and the other members\' names do not resolve until each pod is Ready. If members must find each other before they become Ready, the cluster never forms; set publishNotReadyAddresses: true on Service "{2}".',
          probed.name,
          sts.name,
          service.name,
          firstPodName(sts, service.name, config.clusterDomain),
        ),
        resource: refOf(sts),
        related: [{ uri: service.uri, span: service.nameSpan, message: msg('Service "{0}" does not set publishNotReadyAddresses', service.name) }],
        fixes: edit ? [{ title: msg('Set publishNotReadyAddresses: true on Service "{0}"', service.name), edits: [edit], isPreferred: true }] : [],
      };
    }
  },
});
