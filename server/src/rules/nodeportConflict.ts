// nodeport-conflict: two Services claim the same node port; the allocator is cluster-wide, so the second one is refused.

import { messages } from '../l10n/l10n';
import type { Service, ServicePort } from '../model/resources';
import { claimedNodePorts } from '../model/cluster';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const nodeportConflict = defineRule({
  code: 'nodeport-conflict',
  subjects: ['services'],
  defaultSeverity: 'error',
  title: 'Two Services claim the same nodePort',
  description: `A node port opens the same number on every node, for the whole cluster. The allocator hands each number to one Service only,
whatever the namespace and whatever the protocol: whichever Service is applied second fails with "provided port is already allocated"
(network-semantics §5.6). Only the ports inside one Service may share a number, and only across TCP and UDP.`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {type: NodePort, selector: {app: web}, ports: [{port: 80, nodePort: 30080}]}
---
apiVersion: v1
kind: Service
metadata: {name: admin, namespace: ops}
spec: {type: NodePort, selector: {app: admin}, ports: [{port: 80, nodePort: 30080}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop, labels: {app: web}}
spec: {containers: [{name: web, image: web, ports: [{containerPort: 80}]}]}
---
apiVersion: v1
kind: Pod
metadata: {name: admin, namespace: ops, labels: {app: admin}}
spec: {containers: [{name: admin, image: admin, ports: [{containerPort: 80}]}]}`,
    good: `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {type: NodePort, selector: {app: web}, ports: [{port: 80, nodePort: 30080}]}
---
apiVersion: v1
kind: Service
metadata: {name: admin, namespace: ops}
spec: {type: NodePort, selector: {app: admin}, ports: [{port: 80, nodePort: 30081}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop, labels: {app: web}}
spec: {containers: [{name: web, image: web, ports: [{containerPort: 80}]}]}
---
apiVersion: v1
kind: Pod
metadata: {name: admin, namespace: ops, labels: {app: admin}}
spec: {containers: [{name: admin, image: admin, ports: [{containerPort: 80}]}]}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const svc of subjects.services) {
      for (const nodePort of claimedNodePorts(svc)) {
        // Every claim on this port, in cluster order; the same Service defined twice is a duplicate-resource
        // finding, not a conflict.
        const others: { svc: Service; port: ServicePort }[] = [];
        for (const o of lookup.servicesClaimingNodePort(nodePort)) {
          if (o.namespace === svc.namespace && o.name === svc.name) continue;
          for (const port of o.ports) if (port.nodePort === nodePort && port.nodePortSpan) others.push({ svc: o, port });
        }
        if (!others.length) continue;
        const names = [...new Set(others.map((o) => `${o.svc.namespace}/${o.svc.name}`))];
        for (const port of svc.ports) {
          if (port.nodePort !== nodePort || !port.nodePortSpan) continue;
          yield {
            uri: svc.uri,
            span: port.nodePortSpan,
            message: msg(
              'Node port {0} is also claimed by Service {1}. Node ports are shared by the whole cluster (any namespace, any protocol), so only the Service applied first gets it; the other is rejected with "provided port is already allocated".',
              nodePort,
              names.join(', '),
            ),
            resource: refOf(svc),
            related: others.map((o) => ({
              uri: o.svc.uri,
              span: o.port.nodePortSpan!,
              message: msg('Service {0} claims node port {1} here', `${o.svc.namespace}/${o.svc.name}`, nodePort),
            })),
          };
        }
      }
    }
  },
});
