// The engine's dependency keys: what a rule's lookups read (engine/context.ts records them) and what an edit touched
// (engine/evaluate.ts `changedKeys`, through `keysOf`). Both sides make a key only through `dep` below, and `DepKey`
// is a union of the keys' shapes, so a key spelt differently by its producer and a consumer does not compile: a
// string is not a DepKey unless one of these constructors made it (or a literal of one of the shapes).
//
//   file:<uri>          the file's own objects (every unit depends on its file);
//   ns:<namespace>      anything about the objects in that namespace;
//   svcs: / wls: / netpol:<namespace>  the Services / workloads / NetworkPolicies in it;
//   nsdecl:<namespace>  the Namespace object declaring it;
//   obj:<kind>/<namespace>/<name>  the objects with exactly this kind, namespace and name;
//   pod:<namespace>/<key>=<value>  the workloads in that namespace whose pod template carries this label (a
//                       selector's matches all carry its first pair, so that pair stands for the whole selector);
//   nsx:<namespace>     whether that namespace appears anywhere;
//   svc:<name>          which Services of any namespace carry this name (case-insensitive, semantics §1.3);
//   nodeport:<port>     which Services of any namespace claim this node port (semantics §5.6);
//   slice:<namespace>/<service>  the EndpointSlices in that namespace labelled for that Service (semantics §1.2);
//   res:<memo key>      an answer kept from one snapshot to the next (a name resolution, whether a selector selects
//                       any workload, why something may exist outside the manifests: engine/context.ts), itself
//                       recomputed when what it read changed and counted as changed only when the answer differs;
//   charts              which Helm charts are in scope and which of them have renders (semantics §9.2);
//   gws: / grants: / secrets:<namespace>  the Gateways / ReferenceGrants / Secrets in it (gateway semantics §G3, §G6);
//   istio:<namespace>   the Istio networking objects in it; istio-se / istio-dr the ServiceEntries / DestinationRules
//                       of every namespace (their hosts are read across namespaces, istio-semantics);
//   ingress-host:<host> the Ingresses of every namespace with a rule for that host;
//   gw-routes:<namespace>/<name>  the routes of every namespace naming that Gateway as a parent;
//   certs:<namespace>   the cert-manager Certificates in it;
//   extdns:<name>       the Services of every namespace whose ExternalDNS annotation publishes that name;
//   nsset               which namespaces exist (iterating them, or closest-name searches over them);
//   ingress-controllers the workloads of every namespace that run an ingress controller's image (model/ingressControllers.ts);
//   *                   anything at all (whole-cluster analyses such as every DNS record or every Ingress route).

export type DepKey =
  | '*'
  | 'charts'
  | 'nsset'
  | 'ingress-controllers'
  | 'istio-se'
  | 'istio-dr'
  | `file:${string}`
  | `ns:${string}`
  | `svcs:${string}`
  | `wls:${string}`
  | `netpol:${string}`
  | `nsdecl:${string}`
  | `obj:${string}/${string}/${string}`
  | `pod:${string}/${string}=${string}`
  | `nsx:${string}`
  | `svc:${string}`
  | `nodeport:${number}`
  | `slice:${string}/${string}`
  | `res:${string}`
  | `gws:${string}`
  | `grants:${string}`
  | `secrets:${string}`
  | `istio:${string}`
  | `ingress-host:${string}`
  | `gw-routes:${string}`
  | `certs:${string}`
  | `extdns:${string}`;

/** The constructors of every dependency key (see the module comment for what each stands for). */
export const dep = {
  anything: '*',
  charts: 'charts',
  namespaceSet: 'nsset',
  ingressControllers: 'ingress-controllers',
  serviceEntries: 'istio-se',
  destinationRules: 'istio-dr',
  file: (uri: string) => `file:${uri}`,
  namespace: (namespace: string) => `ns:${namespace}`,
  services: (namespace: string) => `svcs:${namespace}`,
  workloads: (namespace: string) => `wls:${namespace}`,
  policies: (namespace: string) => `netpol:${namespace}`,
  namespaceDeclared: (namespace: string) => `nsdecl:${namespace}`,
  object: (kind: string, namespace: string, name: string) => `obj:${kind}/${namespace}/${name}`,
  podLabel: (namespace: string, key: string, value: string) => `pod:${namespace}/${key}=${value}`,
  namespaceExists: (namespace: string) => `nsx:${namespace}`,
  servicesNamed: (name: string) => `svc:${name.toLowerCase()}`,
  nodePort: (port: number) => `nodeport:${port}`,
  slices: (namespace: string, service: string) => `slice:${namespace}/${service}`,
  answer: (memoKey: string) => `res:${memoKey}`,
  gateways: (namespace: string) => `gws:${namespace}`,
  grants: (namespace: string) => `grants:${namespace}`,
  secrets: (namespace: string) => `secrets:${namespace}`,
  istio: (namespace: string) => `istio:${namespace}`,
  ingressHost: (host: string) => `ingress-host:${host.toLowerCase()}`,
  gatewayRoutes: (namespaceAndName: string) => `gw-routes:${namespaceAndName}`,
  certificates: (namespace: string) => `certs:${namespace}`,
  publishedName: (name: string) => `extdns:${name.toLowerCase()}`,
} as const satisfies Record<string, DepKey | ((...args: never[]) => DepKey)>;

/** Whether a key stands for a kept answer (`dep.answer`). */
export function isAnswerKey(key: DepKey): key is `res:${string}` {
  return key.startsWith('res:');
}
