// service-internal-traffic-local: internalTrafficPolicy: Local on a Service whose pods are not on every node.

import { messages, type Msg } from '../l10n/l10n';
import type { Workload } from '../model/resources';
import { firstRelated } from './finding';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const serviceInternalTrafficLocal = defineRule({
  code: 'service-internal-traffic-local',
  subjects: ['services'],
  defaultSeverity: 'warning',
  title: 'internalTrafficPolicy: Local on pods that are not on every node',
  description: `With \`internalTrafficPolicy: Local\`, kube-proxy sends traffic from inside the cluster only to the Service's endpoints on the client's own node (network-semantics §5, Service \`internalTrafficPolicy\`). On a node with no such endpoint the traffic is **dropped**, not rejected: clients hang until their timeout. That is what the policy is for when a DaemonSet runs a pod on every node (a node-local agent, a DNS cache); for a Deployment or a StatefulSet of a few replicas, most nodes have none, and calls from their pods fail. The finding names each workload with its kind and replica count; how many nodes the cluster has is unknown, so a workload with as many replicas as nodes is not told apart. Stays quiet when every workload the Service selects is a DaemonSet, and when it selects none (\`service-no-endpoints\` and \`service-selector-no-match\` say why).`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata: {name: cache}
spec:
  selector: {app: cache}
  internalTrafficPolicy: Local
  ports: [{port: 6379}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: cache}
spec:
  replicas: 2
  selector: {matchLabels: {app: cache}}
  template:
    metadata: {labels: {app: cache}}
    spec:
      containers: [{name: redis, image: redis:7, ports: [{containerPort: 6379}]}]`,
    good: `apiVersion: v1
kind: Service
metadata: {name: cache}
spec:
  selector: {app: cache}
  internalTrafficPolicy: Local
  ports: [{port: 6379}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: cache}
spec:
  selector: {matchLabels: {app: cache}}
  template:
    metadata: {labels: {app: cache}}
    spec:
      containers: [{name: redis, image: redis:7, ports: [{containerPort: 6379}]}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const s of subjects.services) {
      if (s.internalTrafficPolicy !== 'Local' || !s.selector || s.type === 'ExternalName' || s.headless) continue;
      const groups = lookup.endpointsOf(s).groups;
      const partial = groups.map((g) => g.workload).filter((w) => w.kind !== 'DaemonSet');
      if (!groups.length || !partial.length) continue;
      const { related } = firstRelated(partial, (w) => ({ uri: w.uri, span: w.nameSpan, message: msg('{0}: pods on some nodes only', describe(w, msg)) }));
      const named = partial
        .slice(0, 3)
        .map((w) => describe(w, msg))
        .join(', ');
      const list = partial.length > 3 ? msg('{0} and {1} more', named, partial.length - 3) : named;
      yield {
        uri: s.uri,
        span: s.internalTrafficPolicySpan ?? s.nameSpan,
        message: msg(
          'Service "{0}" has internalTrafficPolicy: Local, so a pod reaches it only through endpoints on its own node, but its pods come from {1}, not from a DaemonSet: on every node without one of them, connections to the Service are dropped and clients hang until they time out. Remove internalTrafficPolicy (Cluster is the default), or run the pods as a DaemonSet.',
          s.name,
          list,
        ),
        resource: refOf(s),
        related,
      };
    }
  },
});

function describe(w: Workload, msg: Msg): string {
  if (w.replicas === undefined) return `${w.kind} "${w.name}"`;
  return w.replicas === 1 ? msg('{0} "{1}" ({2} replica)', w.kind, w.name, w.replicas) : msg('{0} "{1}" ({2} replicas)', w.kind, w.name, w.replicas);
}
