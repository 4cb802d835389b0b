// service-external-traffic-local: externalTrafficPolicy: Local on a NodePort or LoadBalancer Service whose pods are not on every node.

import { messages, type Msg } from '../l10n/l10n';
import type { Workload } from '../model/resources';
import { firstRelated } from './finding';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const serviceExternalTrafficLocal = defineRule({
  code: 'service-external-traffic-local',
  subjects: ['services'],
  defaultSeverity: 'information',
  title: 'externalTrafficPolicy: Local: nodes without a pod drop outside traffic',
  description: `With \`externalTrafficPolicy: Local\`, traffic that enters through a node port or a load balancer goes only to the Service's pods on the node it arrived at, which keeps the client's source IP (network-semantics §5, Service \`externalTrafficPolicy\`). A node without a ready pod **drops** it. A cloud load balancer learns which nodes have pods from the health-check node port (\`healthCheckNodePort\`) and sends only to those, and each node's share is split among its pods, so load is uneven; clients that reach node ports directly (a NodePort Service, an external load balancer without that health check) time out on the other nodes. This information finding names the workloads and their replica counts: how many nodes the cluster has is unknown, so whether some have no pod is unknown too. Stays quiet for DaemonSet pods (one per node), for other Service types, and when the Service selects no pod in scope.`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  type: NodePort
  externalTrafficPolicy: Local
  selector: {app: web}
  ports: [{port: 80, nodePort: 30080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, ports: [{containerPort: 80}]}]`,
    good: `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  type: NodePort
  selector: {app: web}
  ports: [{port: 80, nodePort: 30080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, ports: [{containerPort: 80}]}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const s of subjects.services) {
      if (s.externalTrafficPolicy !== 'Local' || (s.type !== 'NodePort' && s.type !== 'LoadBalancer') || !s.selector) continue;
      const partial = lookup
        .endpointsOf(s)
        .groups.map((g) => g.workload)
        .filter((w) => w.kind !== 'DaemonSet');
      if (!partial.length) continue;
      const { related } = firstRelated(partial, (w) => ({ uri: w.uri, span: w.nameSpan, message: msg('{0}: pods on some nodes only', describe(w, msg)) }));
      const named = partial
        .slice(0, 3)
        .map((w) => describe(w, msg))
        .join(', ');
      const list = partial.length > 3 ? msg('{0} and {1} more', named, partial.length - 3) : named;
      const consequence =
        s.type === 'LoadBalancer'
          ? msg(
              "the load balancer sends only to nodes with a ready pod (it health-checks healthCheckNodePort), each node's share split among its pods, so load is uneven; clients that call node ports directly time out on the other nodes",
            )
          : msg('clients that reach a node without one of these pods are dropped and time out');
      yield {
        uri: s.uri,
        span: s.externalTrafficPolicySpan ?? s.nameSpan,
        message: msg(
          'Service "{0}" ({1}) has externalTrafficPolicy: Local, so outside traffic goes only to pods on the node it arrives at; its pods come from {2}, and how many nodes the cluster has is unknown: {3}. Keep Local for the client source IP; otherwise Cluster spreads the traffic.',
          s.name,
          s.type,
          list,
          consequence,
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
