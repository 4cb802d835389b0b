// The documented examples sibling rules share (docs/rules.md shows them; test/rulesDoc.test.ts runs them): one
// correct set of objects per family, and the one field each rule's bad example gets wrong. Written once, so the
// siblings cannot drift apart and a fix to the shared objects reaches every rule that shows them.

/** A headless Service `nginx` and the StatefulSet `web` it governs: the statefulset-service-* rules' example. */
export function statefulSetExample(wrong: { readonly serviceName?: string; readonly notHeadless?: boolean; readonly serviceSelector?: string } = {}): string {
  return `apiVersion: v1
kind: Service
metadata: {name: nginx}
spec:
${wrong.notHeadless ? '' : '  clusterIP: None\n'}  selector: {app: ${wrong.serviceSelector ?? 'web'}}
  ports: [{name: web, port: 80}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec:
  serviceName: ${wrong.serviceName ?? 'nginx'}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, ports: [{name: web, containerPort: 80}]}]`;
}

/** A PodMonitor scraping the port `metrics` of the Deployment `worker`'s pods: the podmonitor-* rules' example. */
export function podMonitorExample(wrong: { readonly selector?: string; readonly port?: string } = {}): string {
  return `apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata: {name: worker}
spec:
  selector: {matchLabels: {app: ${wrong.selector ?? 'worker'}}}
  podMetricsEndpoints: [{port: ${wrong.port ?? 'metrics'}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: worker}
spec:
  selector: {matchLabels: {app: worker}}
  template:
    metadata: {labels: {app: worker}}
    spec:
      containers: [{name: worker, image: example/worker:1, ports: [{name: metrics, containerPort: 9090}]}]`;
}

/**
 * A ServiceMonitor scraping the port `metrics` of the Service `api`: the servicemonitor-* rules' example. The port
 * rule's Service also has a port `http` (the fix is the name among several, not the only one).
 */
export function serviceMonitorExample(wrong: { readonly selector?: string; readonly port?: string } = {}, withHttpPort = false): string {
  return `apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: api}
spec:
  selector: {matchLabels: {app: ${wrong.selector ?? 'api'}}}
  endpoints: [{port: ${wrong.port ?? 'metrics'}}]
---
apiVersion: v1
kind: Service
metadata: {name: api, labels: {app: api}}
spec:
  selector: {app: api}
  ports: [${withHttpPort ? '{name: http, port: 80}, ' : ''}{name: metrics, port: 9090}]`;
}

/** The selectorless Service `legacy-db` whose addresses are written by hand: the endpoints-* rules' example. */
export const legacyDbService = `apiVersion: v1
kind: Service
metadata: {name: legacy-db}
spec: {ports: [{port: 5432}]}`;

/** `objects`, then the hand-written Endpoints `legacy-db` (one address on port 5432). */
export function withLegacyDbEndpoints(...objects: readonly string[]): string {
  return [
    ...objects,
    `apiVersion: v1
kind: Endpoints
metadata: {name: legacy-db}
subsets:
  - addresses: [{ip: 10.20.0.15}]
    ports: [{port: 5432}]`,
  ].join('\n---\n');
}

/** The Gateway `edge` with one HTTP listener `http` on port 80: the Gateway API rules' example parent. */
export function edgeGateway(namespace?: string): string {
  return `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge${namespace ? `, namespace: ${namespace}` : ''}}
spec:
  gatewayClassName: example
  listeners: [{name: http, port: 80, protocol: HTTP}]`;
}
