// ingress-backend-policy-blocked: an Ingress backend whose pods admit no traffic from the ingress controller the
// workspace describes, so every request through the Ingress is dropped (docs/networkpolicy-semantics.md netpol §1, §6).

import type { Endpoint } from '../analysis/reach';
import type { AnalysisConfig } from '../model/config';
import { messages, type Msg } from '../l10n/l10n';
import type { Ingress, IngressBackend, Workload } from '../model/resources';
import { refOf } from './refOf';
import { defineRule, type Lookup } from './rule';

export const ingressBackendPolicyBlocked = defineRule({
  code: 'ingress-backend-policy-blocked',
  subjects: ['ingresses'],
  defaultSeverity: 'warning',
  title: "An Ingress backend's pods admit no traffic from the ingress controller",
  description: `An ingress controller (ingress-nginx, Traefik, HAProxy, Kong) proxies each request from its own pods to the
pods of the backend Service, on the port the Service's targetPort lands on. When NetworkPolicies isolate those pods
and no rule admits the controller's pods (by namespace and labels) on that port, or the controller's egress does not
admit the backend, every request through the Ingress fails while the Service itself looks healthy
(docs/networkpolicy-semantics.md §1, §6). The controller is recognised by its image among the workloads of the
workspace; when the workspace describes none (it is often installed by another repository), the
\`kubeNetlens.ingressController\` setting (or \`ingressController:\` in \`.kube-netlens.yaml\`) names its namespace and pod
labels.

Stays quiet when the workspace describes no ingress controller and the setting names none (a cloud load balancer may
send traffic from outside the cluster, and which pods proxy is unknown), when any controller may reach the pods or
the answer is unknown (a namespace selector on labels the manifests cannot check, a host-network controller,
policies of the network plugin), and when the backend's Service or port does not resolve (ingress-backend-missing
reports that).`,
  examples: {
    bad: `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop, namespace: shop}
spec:
  rules:
    - http:
        paths:
          - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web-in, namespace: shop}
spec:
  podSelector: {matchLabels: {app: web}}
  ingress:
    - from: [{podSelector: {matchLabels: {app: api}}}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {selector: {app: web}, ports: [{port: 80, targetPort: 8080}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: web, ports: [{containerPort: 8080}]}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ingress-nginx-controller, namespace: ingress-nginx}
spec:
  selector: {matchLabels: {app: ingress-nginx}}
  template:
    metadata: {labels: {app: ingress-nginx}}
    spec: {containers: [{name: controller, image: registry.k8s.io/ingress-nginx/controller:v1.11.2}]}`,
    good: `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop, namespace: shop}
spec:
  rules:
    - http:
        paths:
          - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web-in, namespace: shop}
spec:
  podSelector: {matchLabels: {app: web}}
  ingress:
    - from: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: ingress-nginx}}}]
      ports: [{port: 8080}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {selector: {app: web}, ports: [{port: 80, targetPort: 8080}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: web, ports: [{containerPort: 8080}]}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ingress-nginx-controller, namespace: ingress-nginx}
spec:
  selector: {matchLabels: {app: ingress-nginx}}
  template:
    metadata: {labels: {app: ingress-nginx}}
    spec: {containers: [{name: controller, image: registry.k8s.io/ingress-nginx/controller:v1.11.2}]}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    let controllers: readonly Controller[] | undefined;
    for (const ing of subjects.ingresses) {
      const backends = [...ing.paths.map((p) => p.backend), ...(ing.defaultBackend ? [ing.defaultBackend] : [])];
      for (const b of backends) {
        const blocked = blockedBackend(lookup, ing, b, () => (controllers ??= controllersIn(lookup, config.ingressController)), msg);
        if (!blocked) continue;
        const { controller, workload, port, because } = blocked;
        const w = 'template' in controller ? controller : undefined;
        const named = w
          ? msg('the ingress controller {0} "{1}"', w.kind, `${w.namespace}/${w.name}`)
          : msg(
              'the ingress controller\'s pods ({0} in namespace "{1}", from the ingressController setting)',
              labelsText(controller as SettingController),
              controller.namespace,
            );
        yield {
          uri: ing.uri,
          span: b.serviceNameSpan ?? b.span,
          message: msg(
            'The pods of {0} "{1}" behind Service "{2}" admit no traffic from {3} on TCP {4}, so requests through this Ingress are dropped: {5}.',
            workload.kind,
            workload.name,
            b.serviceName!,
            named,
            port,
            because,
          ),
          resource: refOf(ing),
          ...(w ? { related: [{ uri: w.uri, span: w.nameSpan ?? w.span, message: msg('the ingress controller {0} "{1}"', w.kind, w.name) }] } : {}),
        };
      }
    }
  },
});

/** A controller workload of the workspace, or the pods the setting names (no manifest describes them). */
type Controller = Workload | SettingController;
type SettingController = Extract<Endpoint, { kind: 'namespace' }> & { readonly labels: ReadonlyMap<string, string> };

function labelsText(c: SettingController): string {
  return [...c.labels].map(([k, v]) => `${k}=${v}`).join(', ');
}

/**
 * The ingress controller workloads of the scope, recognised by their image (model/ingressControllers.ts); with none,
 * the pods the `ingressController` setting names; with neither, none (the rule stays quiet: unknown).
 */
function controllersIn(lookup: Lookup, setting: AnalysisConfig['ingressController']): readonly Controller[] {
  const found = lookup.ingressControllers();
  if (found.length || !setting) return found;
  return [{ kind: 'namespace', namespace: setting.namespace, labels: new Map(Object.entries(setting.podLabels)) }];
}

function blockedBackend(
  lookup: Lookup,
  ing: Ingress,
  b: IngressBackend,
  controllers: () => readonly Controller[],
  msg: Msg,
): { controller: Controller; workload: Workload; port: number; because: string } | undefined {
  if (b.resource || !b.serviceName) return undefined;
  const service = lookup.service(ing.namespace, b.serviceName);
  if (!service) return undefined;
  const sp = service.ports.find((p) => (b.portNumber !== undefined ? p.port === b.portNumber : p.name === b.portName));
  if (!sp) return undefined;
  const groups = lookup.endpointsOf(service).groups;
  if (!groups.length) return undefined;
  // Cheap first: a backend whose pods no policy isolates for ingress needs no controller lookup.
  if (groups.every((g) => !lookup.policiesSelecting(g.workload).some((p) => p.policyTypes.includes('Ingress')))) return undefined;
  const all = controllers();
  if (!all.length) return undefined;
  let found: { controller: Controller; workload: Workload; port: number; because: string } | undefined;
  for (const g of groups) {
    const port = g.ports.find((t) => t.servicePort === sp)?.containerPort;
    if (port === undefined || sp.protocol !== 'TCP') return undefined;
    for (const controller of all) {
      const r = lookup.reach(controller, g.workload, { protocol: 'TCP', port });
      if (r.verdict !== 'denied') return undefined;
      if (!found) {
        const names = r.because.map((x) =>
          x.direction === 'ingress'
            ? msg('NetworkPolicy "{0}" isolates them and admits none of it', x.policy.name)
            : msg('the controller\'s NetworkPolicy "{0}" isolates its egress and admits none of it', x.policy.name),
        );
        found = { controller, workload: g.workload, port, because: [...new Set(names)].join(msg('; ')) };
      }
    }
  }
  return found;
}
