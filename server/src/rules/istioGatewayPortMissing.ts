// istio-gateway-port-missing: an Istio Gateway server port that no Service of the gateway pods it selects exposes
// (istioctl analyze IST0162, GatewayPortNotDefinedOnService).

import { resolveTargetPort } from '../analysis/endpoints';
import { isIstioGateway, isIstioNetworkingVersion } from '../model/istio';
import { hasPlaceholder } from '../model/placeholder';
import type { Service, Workload } from '../model/resources';
import { refOf } from './refOf';
import { defineRule } from './rule';
import { messages } from '../l10n/l10n';

export const istioGatewayPortMissing = defineRule({
  code: 'istio-gateway-port-missing',
  subjects: ['resources'],
  defaultSeverity: 'warning',
  title: "Istio Gateway server port that the gateway's Service does not expose",
  description: `An Istio Gateway's \`servers[].port.number\` is the port its gateway pods listen on; clients reach it through the Service in front of those pods. A server port that is neither a \`port\` nor a \`targetPort\` of a TCP port of any Service selecting the gateway pods is not reachable through that Service (istio-semantics §I4; \`istioctl analyze\`'s IST0162, GatewayPortNotDefinedOnService, compares the same two numbers). A port the Service exposes under a named \`targetPort\` that resolves to the server's port counts as exposed too. Stays quiet when the manifests hold no pod template the selector matches (gateways are mostly installed apart: unknown), when no Service in scope selects those pods (it may be made elsewhere), for an empty selector, and for values a tool fills in later.`,
  examples: {
    bad: `apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: public}
spec:
  selector: {istio: ingressgateway}
  servers: [{port: {number: 8443, name: https, protocol: HTTPS}, hosts: ["*"], tls: {mode: SIMPLE, credentialName: public-cert}}]
---
apiVersion: v1
kind: Service
metadata: {name: ingressgateway}
spec:
  type: LoadBalancer
  selector: {istio: ingressgateway}
  ports: [{name: http, port: 80, targetPort: 8080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ingressgateway}
spec:
  selector: {matchLabels: {istio: ingressgateway}}
  template:
    metadata: {labels: {istio: ingressgateway}}
    spec:
      containers: [{name: istio-proxy, image: auto}]`,
    good: `apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: public}
spec:
  selector: {istio: ingressgateway}
  servers: [{port: {number: 8080, name: http, protocol: HTTP}, hosts: ["*"]}]
---
apiVersion: v1
kind: Service
metadata: {name: ingressgateway}
spec:
  type: LoadBalancer
  selector: {istio: ingressgateway}
  ports: [{name: http, port: 80, targetPort: 8080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ingressgateway}
spec:
  selector: {matchLabels: {istio: ingressgateway}}
  template:
    metadata: {labels: {istio: ingressgateway}}
    spec:
      containers: [{name: istio-proxy, image: auto}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const gw of subjects.resources) {
      if (!isIstioNetworkingVersion(gw.apiVersion) || !isIstioGateway(gw) || !gw.selector.size) continue;
      if ([...gw.selector.values()].some(hasPlaceholder)) continue;
      // The gateway pods, in any namespace (istio-semantics §I4), and the Services in front of them.
      const pods: Workload[] = [];
      for (const ns of lookup.namespaces()) pods.push(...lookup.workloadsMatching(ns, gw.selector));
      if (!pods.length) continue;
      const fronts: { service: Service; workload: Workload }[] = [];
      for (const w of pods) {
        for (const s of lookup.servicesIn(w.namespace)) {
          if (s.selector && [...s.selector].every(([k, v]) => w.template.labels.get(k) === v) && !fronts.some((f) => f.service === s))
            fronts.push({ service: s, workload: w });
        }
      }
      if (!fronts.length) continue;
      // ANALYZE (gateway.go): every TCP port's `port` and numeric `targetPort`; a named targetPort resolved on the pods too.
      const exposed = new Set<number>();
      let unknown = false;
      for (const { service, workload } of fronts) {
        for (const p of service.ports) {
          if (p.protocol !== 'TCP') continue;
          if (p.port === undefined) unknown = true;
          else exposed.add(p.port);
          if (typeof p.targetPort === 'number') exposed.add(p.targetPort);
          else if (typeof p.targetPort === 'string') {
            const t = resolveTargetPort(workload.template, p);
            if (t.containerPort !== undefined) exposed.add(t.containerPort);
            else if (hasPlaceholder(p.targetPort)) unknown = true;
          }
        }
      }
      if (unknown) continue;
      const services = fronts.map((f) =>
        f.service.namespace !== gw.namespace
          ? msg('Service "{0}" in namespace "{1}"', f.service.name, f.service.namespace)
          : msg('Service "{0}"', f.service.name),
      );
      const ports = fronts.flatMap((f) =>
        f.service.ports
          .filter((p) => p.protocol === 'TCP')
          .map((p) => (p.targetPort !== undefined && p.targetPort !== p.port ? `${p.port}→${p.targetPort}` : `${p.port}`)),
      );
      for (const server of gw.servers) {
        if (server.port === undefined || !server.portSpan || exposed.has(server.port)) continue;
        const serverName = server.portName ? msg(' (server "{0}")', server.portName) : '';
        const portList = ports.length ? [...new Set(ports)].join(', ') : msg('none');
        yield {
          uri: gw.uri,
          span: server.portSpan,
          message:
            fronts.length === 1
              ? msg(
                  'Gateway "{0}" listens on port {1}{2}, but {3} in front of its gateway pods ({4} "{5}") exposes no such port or targetPort (TCP ports: {6}), so clients going through the Service never reach this server (istioctl analyze IST0162).',
                  gw.name,
                  server.port,
                  serverName,
                  services.join(msg(', ')),
                  fronts[0].workload.kind,
                  fronts[0].workload.name,
                  portList,
                )
              : msg(
                  'Gateway "{0}" listens on port {1}{2}, but {3} in front of its gateway pods ({4} "{5}") expose no such port or targetPort (TCP ports: {6}), so clients going through the Service never reach this server (istioctl analyze IST0162).',
                  gw.name,
                  server.port,
                  serverName,
                  services.join(msg(', ')),
                  fronts[0].workload.kind,
                  fronts[0].workload.name,
                  portList,
                ),
          resource: refOf(gw),
          related: fronts
            .slice(0, 3)
            .map((f) => ({ uri: f.service.uri, span: f.service.nameSpan, message: msg('The ports of Service "{0}"', f.service.name) })),
        };
      }
    }
  },
});
