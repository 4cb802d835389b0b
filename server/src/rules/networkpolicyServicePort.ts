// networkpolicy-service-port: a NetworkPolicy port that is a Service's `port` but no port of the destination pods,
// where the Service's targetPort lands elsewhere: policies are matched after the Service is translated, on the pod port
// (docs/networkpolicy-semantics.md netpol §6).

import { messages } from '../l10n/l10n';
import type { PolicyPort, Service, Workload } from '../model/resources';
import { ruleDestinations } from './policyDestinations';
import { refOf } from './refOf';
import { defineRule, type Lookup } from './rule';

export const networkpolicyServicePort = defineRule({
  code: 'networkpolicy-service-port',
  subjects: ['networkPolicies'],
  defaultSeverity: 'warning',
  title: "A NetworkPolicy allows a Service's port instead of the pods' port",
  description: `NetworkPolicies are matched on the packet as it reaches the pod, after kube-proxy (or the network plugin) has
translated the Service's cluster IP and \`port\` to the pod's IP and the \`targetPort\` (docs/networkpolicy-semantics.md §6,
network-semantics §5). A rule written with the Service's \`port\` (80, 53) where the pods listen on the \`targetPort\`
(8080, 5353) admits a port nothing listens on, and the traffic through the Service is dropped. The quick fix writes the
port the Service's \`targetPort\` lands on in the pods.

For \`ingress\` the destinations are the pods the policy selects; for \`egress\`, the pods the rule's \`to\` peers select.

Stays quiet when any destination pod declares the port (a pod may listen on both), when the rule already admits the
target port, when the port is a range (\`endPort\`) or a name, when no Service in the destination's namespace has that
\`port\` with a targetPort that resolves in those pods, and when the destinations are unknown (no \`to\`, namespaces or
pods the manifests cannot tell, network-semantics §9).`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web-in}
spec:
  podSelector: {matchLabels: {app: web}}
  ingress:
    - ports: [{port: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: web, ports: [{containerPort: 8080}]}]}`,
    good: `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web-in}
spec:
  podSelector: {matchLabels: {app: web}}
  ingress:
    - ports: [{port: 8080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: web, ports: [{containerPort: 8080}]}]}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const np of subjects.networkPolicies) {
      for (const direction of ['ingress', 'egress'] as const) {
        if (!np.policyTypes.includes(direction === 'ingress' ? 'Ingress' : 'Egress')) continue;
        for (const rule of direction === 'ingress' ? np.ingress : np.egress) {
          const numeric = rule.ports.filter((p): p is PolicyPort & { port: number } => typeof p.port === 'number' && p.endPort === undefined);
          if (!numeric.length) continue;
          const destinations = ruleDestinations(lookup, np, direction, rule.peers);
          if (!destinations?.length) continue;
          for (const entry of numeric) {
            if (destinations.some((w) => listensOn(w, entry.port, entry.protocol))) continue;
            const hit = serviceTranslating(lookup, destinations, entry);
            if (!hit) continue;
            // Already admitted on the pod port by another entry of the rule: a belt-and-braces rule, not a mistake.
            if (
              rule.ports.some(
                (p) =>
                  p.protocol === entry.protocol &&
                  (p.port === undefined || (typeof p.port === 'number' && hit.target >= p.port && hit.target <= (p.endPort ?? p.port))),
              )
            )
              continue;
            const { service, target, workload } = hit;
            yield {
              uri: np.uri,
              span: entry.portSpan ?? entry.span ?? rule.span,
              message:
                direction === 'ingress'
                  ? msg(
                      '{0}/{1} is the port of Service "{2}", but policies are matched on the pod port after the Service is translated: its targetPort lands on {3} in {4} "{5}", and no selected pod declares {0}. This ingress entry does not admit the traffic sent through the Service; write {3}.',
                      entry.port,
                      entry.protocol,
                      service.name,
                      target,
                      workload.kind,
                      workload.name,
                    )
                  : msg(
                      '{0}/{1} is the port of Service "{2}", but policies are matched on the pod port after the Service is translated: its targetPort lands on {3} in {4} "{5}", and no destination pod declares {0}. This egress entry does not admit the traffic sent through the Service; write {3}.',
                      entry.port,
                      entry.protocol,
                      service.name,
                      target,
                      workload.kind,
                      workload.name,
                    ),
              resource: refOf(np),
              related: [
                {
                  uri: service.uri,
                  span: service.ports.find((p) => p.port === entry.port && p.protocol === entry.protocol)?.span ?? service.nameSpan ?? service.span,
                  message: msg('Service "{0}" maps {1} to {2}', service.name, entry.port, target),
                },
              ],
              fixes: entry.portSpan
                ? [{ title: msg('Allow the pod port {0}', target), isPreferred: true, edits: [{ uri: np.uri, span: entry.portSpan, newText: String(target) }] }]
                : undefined,
            };
          }
        }
      }
    }
  },
});

function listensOn(w: Workload, port: number, protocol: string): boolean {
  return w.template.containers.some((c) => c.ports.some((p) => p.containerPort === port && p.protocol === protocol));
}

/** A Service of a destination's namespace whose `port` is the entry's and whose target in those pods is another port. */
function serviceTranslating(
  lookup: Lookup,
  destinations: readonly Workload[],
  entry: PolicyPort & { port: number },
): { service: Service; target: number; workload: Workload } | undefined {
  const namespaces = [...new Set(destinations.map((w) => w.namespace))];
  for (const ns of namespaces) {
    for (const service of lookup.servicesIn(ns)) {
      if (!service.ports.some((p) => p.port === entry.port && p.protocol === entry.protocol)) continue;
      for (const g of lookup.endpointsOf(service).groups) {
        if (!destinations.includes(g.workload)) continue;
        const t = g.ports.find((x) => x.servicePort.port === entry.port && x.servicePort.protocol === entry.protocol);
        if (t?.containerPort !== undefined && t.containerPort !== entry.port) return { service, target: t.containerPort, workload: g.workload };
      }
    }
  }
  return undefined;
}
