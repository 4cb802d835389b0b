// The Kubernetes objects the network analysis reads, with the source span of every field a finding or hover points at.
// Readers take the YAML tree of one document and never throw: fields of the wrong type read as absent.

import { phrase, worded } from '../l10n/l10n';
import type { Span } from './span';
import type { ParseProblem } from './parseManifest';
import type { LabelSelector, SelectorOperator, SelectorRequirement } from './selector';
import { isGatewayApiVersion, readGatewayApi, type GatewayApiResource } from './gatewayApi';
import { isIstioNetworkingVersion, readIstio, type IstioResource } from './istio';
import { isCertManagerVersion, readCertManager, type Certificate } from './certManager';
import { isMonitoringVersion, readMonitor, type ScrapeMonitor } from './monitoring';
import { at, bool, entry, int, isMap, items, str, stringMap, text, type YMap, type YNode } from './yamlTree';
import { schemaHasPodTemplate, supplierOf, type Supplier } from './suppliers';

export type Protocol = 'TCP' | 'UDP' | 'SCTP';
/** The protocols a Service or container port may name (semantics §6), in the API's order. */
export const protocols: readonly Protocol[] = ['TCP', 'UDP', 'SCTP'];
const protocolSet: ReadonlySet<string> = new Set(protocols);

/** Whether a port's protocol is one the API server accepts. */
export function isProtocol(p: string): p is Protocol {
  return protocolSet.has(p);
}

export interface ResourceBase {
  readonly kind: string;
  readonly apiVersion: string;
  readonly name: string;
  readonly namespace: string;
  /** True when `metadata.namespace` is written; otherwise the configured default namespace applies. */
  readonly namespaceExplicit: boolean;
  readonly uri: string;
  /** Index of the YAML document in its file (and of the item, for `kind: List`). */
  readonly docIndex: number;
  readonly span: Span;
  readonly nameSpan: Span;
  readonly kindSpan: Span;
  readonly labels: ReadonlyMap<string, string>;
  readonly annotations: ReadonlyMap<string, string>;
  /** Where the object's YAML tree comes from: read it with `treeOf` (model/trees.ts). */
  readonly source: TreeSource;
}

/**
 * A resource's YAML tree, or how to read it again. Trees of files the fast parser reads are not kept: they are most
 * of the memory a workspace takes, and re-reading one file costs a few microseconds. Others are kept.
 */
export interface TreeSource {
  /** The file's text. */
  readonly text: string;
  /** For an item of a `kind: List` document, its indices in `items` (one per List level). */
  readonly listPath?: readonly number[];
  readonly kept?: YMap;
}

export interface ServicePort {
  readonly index: number;
  readonly name?: string;
  readonly port?: number;
  readonly protocol: string;
  /** Defaulted per semantics §5.1: omitted, 0 or "" means the Service port. */
  readonly targetPort?: number | string;
  readonly targetPortExplicit: boolean;
  readonly nodePort?: number;
  readonly appProtocol?: string;
  readonly span: Span;
  readonly nameSpan?: Span;
  readonly portSpan?: Span;
  readonly targetPortSpan?: Span;
  readonly nodePortSpan?: Span;
}

export type ServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName' | string;

export interface Service extends ResourceBase {
  readonly kind: 'Service';
  readonly type: ServiceType;
  readonly typeSpan?: Span;
  readonly clusterIP?: string;
  readonly clusterIPs: readonly string[];
  readonly clusterIPSpan?: Span;
  /** `clusterIP: None` (semantics §1.3: headless ⇔ clusterIPs[0] == "None"). */
  readonly headless: boolean;
  /** The equality selector; undefined when absent or `{}` (semantics §1.1: both mean "no selector"). */
  readonly selector?: ReadonlyMap<string, string>;
  readonly selectorSpan?: Span;
  readonly selectorEmpty: boolean;
  readonly selectorEntrySpans: ReadonlyMap<string, { readonly key: Span; readonly value: Span }>;
  readonly ports: readonly ServicePort[];
  readonly portsSpan?: Span;
  readonly externalName?: string;
  readonly externalNameSpan?: Span;
  readonly publishNotReadyAddresses: boolean;
  readonly publishNotReadyAddressesSpan?: Span;
  readonly sessionAffinity: string;
  readonly sessionAffinityTimeout?: number;
  readonly externalTrafficPolicy?: string;
  readonly externalTrafficPolicySpan?: Span;
  readonly internalTrafficPolicy?: string;
  readonly internalTrafficPolicySpan?: Span;
  /** `spec.trafficDistribution` (`PreferClose`, `PreferSameZone`, `PreferSameNode`), when written. */
  readonly trafficDistribution?: string;
  readonly loadBalancerIP?: string;
  readonly externalIPs: readonly string[];
  readonly ipFamilies: readonly string[];
  /** `spec.ipFamilyPolicy` as written (`SingleStack`, `PreferDualStack`, `RequireDualStack`). */
  readonly ipFamilyPolicy?: string;
  readonly ipFamilyPolicySpan?: Span;
  readonly ipFamiliesSpan?: Span;
}

export interface ContainerPort {
  readonly name?: string;
  readonly containerPort?: number;
  readonly protocol: string;
  readonly hostPort?: number;
  readonly span: Span;
  readonly nameSpan?: Span;
  readonly containerPortSpan?: Span;
}

/** A string value somewhere in a container (env value, command or args item) that may name a DNS host. */
export interface TextValue {
  readonly value: string;
  readonly span: Span;
  /** What the text is, for messages: `env DB_HOST`, `args[1]`. */
  readonly where: string;
}

export interface Container {
  readonly name: string;
  readonly nameSpan?: Span;
  readonly ports: readonly ContainerPort[];
  readonly env: readonly (TextValue & { readonly name: string; readonly nameSpan: Span })[];
  readonly command: readonly TextValue[];
  readonly args: readonly TextValue[];
  /** `image`, as written (ingress controllers are recognised by it). */
  readonly image?: string;
  readonly hasReadinessProbe: boolean;
  /** An init container with `restartPolicy: Always` (semantics §5.3: its ports count after the main containers'). */
  readonly sidecar: boolean;
  readonly init: boolean;
  readonly span: Span;
}

export interface PodTemplate {
  readonly labels: ReadonlyMap<string, string>;
  readonly labelsSpan?: Span;
  readonly labelSpans: ReadonlyMap<string, { readonly key: Span; readonly value: Span }>;
  /** Main containers in order, then sidecar init containers; regular init containers are left out. */
  readonly containers: readonly Container[];
  readonly hostname?: string;
  readonly hostnameSpan?: Span;
  readonly subdomain?: string;
  readonly subdomainSpan?: Span;
  readonly hostNetwork: boolean;
  readonly hostNetworkSpan?: Span;
  readonly dnsPolicy?: string;
  readonly dnsPolicySpan?: Span;
  readonly enableServiceLinks: boolean;
  readonly setHostnameAsFQDN: boolean;
  /** Endpoints objects the pod's volumes read directly (`glusterfs.endpoints`), by name in the pod's namespace. */
  readonly volumeEndpoints: readonly string[];
  /**
   * Where the pod spec mapping is. Its YAML tree is not kept (the trees of every workload's pod spec were most of the
   * live heap after indexing): a rule that needs its entries reads the tree again (model/trees.ts `treeOf`).
   */
  readonly specSpan?: Span;
  readonly span: Span;
}

export type WorkloadKind = 'Pod' | 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'ReplicaSet' | 'ReplicationController' | 'Job' | 'CronJob';
export const workloadKinds: readonly WorkloadKind[] = [
  'Pod',
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'ReplicationController',
  'Job',
  'CronJob',
];

export interface Workload extends ResourceBase {
  readonly kind: WorkloadKind;
  readonly template: PodTemplate;
  /** `spec.selector` (ReplicationController's equality map is read into matchLabels). Undefined for Pods, Jobs and CronJobs without one. */
  readonly selector?: LabelSelector;
  readonly selectorSpan?: Span;
  /** Desired pod count: `replicas` (default 1); undefined for DaemonSets (one per node) and CronJobs. */
  readonly replicas?: number;
  readonly serviceName?: string;
  readonly serviceNameSpan?: Span;
  readonly ordinalsStart: number;
  readonly podManagementPolicy?: string;
  /** An Indexed Job's `completions`: its pods carry the indexes 0…completions-1 (and hostnames `<job>-<index>`). */
  readonly indexedCompletions?: number;
}

export interface EndpointAddress {
  readonly ip?: string;
  readonly hostname?: string;
  readonly ready: boolean;
  readonly span: Span;
}

export interface EndpointPort {
  readonly name?: string;
  readonly port?: number;
  readonly protocol: string;
  readonly span: Span;
}

export interface EndpointSubset {
  readonly addresses: readonly EndpointAddress[];
  readonly ports: readonly EndpointPort[];
  readonly span: Span;
}

/** A manual `v1/Endpoints` object. */
export interface Endpoints extends ResourceBase {
  readonly kind: 'Endpoints';
  readonly subsets: readonly EndpointSubset[];
}

export interface EndpointSlice extends ResourceBase {
  readonly kind: 'EndpointSlice';
  /** The `kubernetes.io/service-name` label: the only link CoreDNS uses (semantics §1.2). */
  readonly serviceName?: string;
  readonly addressType?: string;
  readonly endpoints: readonly EndpointAddress[];
  readonly ports: readonly EndpointPort[];
}

export interface IngressBackend {
  readonly serviceName?: string;
  readonly serviceNameSpan?: Span;
  readonly portNumber?: number;
  readonly portName?: string;
  readonly portSpan?: Span;
  /** A `resource:` backend (not a Service). */
  readonly resource: boolean;
  readonly span: Span;
}

export interface IngressPath {
  readonly host?: string;
  readonly path: string;
  readonly pathType?: string;
  readonly backend: IngressBackend;
  /** The `path` value, or the path entry when none is written. */
  readonly pathSpan?: Span;
}

export interface IngressTls {
  readonly hosts: readonly string[];
  readonly secretName?: string;
  readonly secretNameSpan?: Span;
  readonly span: Span;
}

export interface Ingress extends ResourceBase {
  readonly kind: 'Ingress';
  readonly ingressClassName?: string;
  readonly defaultBackend?: IngressBackend;
  readonly paths: readonly IngressPath[];
  readonly tlsHosts: readonly string[];
  readonly tls: readonly IngressTls[];
}

export interface PolicyPeer {
  readonly podSelector?: LabelSelector;
  readonly namespaceSelector?: LabelSelector;
  readonly ipBlock?: { readonly cidr: string; readonly except: readonly string[]; readonly cidrSpan?: Span };
  readonly span: Span;
}

export interface PolicyPort {
  readonly port?: number | string;
  readonly endPort?: number;
  readonly protocol: string;
  readonly span?: Span;
  readonly portSpan?: Span;
  readonly endPortSpan?: Span;
}

export interface PolicyRule {
  /** Empty `from`/`to` means every peer. */
  readonly peers: readonly PolicyPeer[];
  /** Empty means every port. */
  readonly ports: readonly PolicyPort[];
  readonly span: Span;
}

export interface NetworkPolicy extends ResourceBase {
  readonly kind: 'NetworkPolicy';
  readonly podSelector: LabelSelector;
  readonly podSelectorSpan?: Span;
  readonly policyTypes: readonly ('Ingress' | 'Egress')[];
  readonly ingress: readonly PolicyRule[];
  readonly egress: readonly PolicyRule[];
}

export interface ConfigMap extends ResourceBase {
  readonly kind: 'ConfigMap';
  readonly data: readonly (TextValue & { readonly key: string })[];
}

export interface Namespace extends ResourceBase {
  readonly kind: 'Namespace';
}

export interface OtherResource extends ResourceBase {
  readonly kind: string;
  /** For a custom resource: what an operator or deployer makes of it outside the manifests (model/suppliers.ts). */
  readonly supplier?: Supplier;
  /** For a CustomResourceDefinition whose schema holds a pod template: the `group/Kind` it defines. */
  readonly definesPodKind?: string;
}

export type Resource =
  | Service
  | Workload
  | Endpoints
  | EndpointSlice
  | Ingress
  | NetworkPolicy
  | ConfigMap
  | Namespace
  | GatewayApiResource
  | IstioResource
  | Certificate
  | ScrapeMonitor
  | OtherResource;

export function isService(r: ResourceBase): r is Service {
  return r.kind === 'Service';
}
export function isWorkload(r: ResourceBase): r is Workload {
  return (workloadKinds as readonly string[]).includes(r.kind) && 'template' in r;
}

export interface DocumentInput {
  readonly uri: string;
  readonly index: number;
  readonly span: Span;
  readonly root: YNode | undefined;
  /** The file's text; with `keep`, resources hold their trees (otherwise they are read again on demand). */
  readonly text: string;
  readonly keep: boolean;
  /** For an item of a `kind: List` document, its indices in `items` (one per List level). */
  readonly listPath?: readonly number[];
}

export interface ReadResult {
  readonly isManifest: boolean;
  readonly resources: readonly Resource[];
  readonly problems: readonly ParseProblem[];
}

/** `kind: List` inside `kind: List` deeper than this is not read further (kubectl flattens nested Lists; nobody nests them deeply). */
export const maxListDepth = 8;

/**
 * Reads the Kubernetes objects of one YAML document; `kind: List` (and `*List`) items count as objects, nested Lists
 * too. Lists are flattened with an explicit stack, and an item reached twice (through an alias) is read once: the
 * work is at most one step per distinct node, whatever the aliases.
 */
export function readResources(doc: DocumentInput, defaultNamespace: string): ReadResult {
  const steps = readResourcesSteps(doc, defaultNamespace);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** `readResources` in steps of 64 objects (one document can be a List of thousands, parsed in slices). */
export function* readResourcesSteps(doc: DocumentInput, defaultNamespace: string): Generator<void, ReadResult> {
  const rootKind = kindOf(doc.root);
  if (!rootKind || isClientConfiguration(doc.root as YMap, rootKind)) return { isManifest: false, resources: [], problems: [] };
  const resources: Resource[] = [];
  const problems: ParseProblem[] = [];
  // The common case, a document holding one object that is no List, without the walk below.
  if (!rootKind.endsWith('List')) {
    const node = doc.root as YMap;
    const base = readBase(doc, node, rootKind, defaultNamespace, problems);
    if (base) resources.push(readKind(base, node));
    return { isManifest: true, resources, problems };
  }
  const seen = new Set<YNode>();
  const pending: { readonly node: YMap; readonly path: readonly number[] }[] = [{ node: doc.root as YMap, path: [] }];
  while (pending.length) {
    const { node, path } = pending.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    const kind = kindOf(node);
    if (!kind) continue;
    if (kind === 'List' || (kind.endsWith('List') && isSeqOfObjects(at(node, 'items')))) {
      if (path.length >= maxListDepth) {
        problems.push({
          span: entry(node, 'kind')!.value.span,
          code: 'manifest',
          severity: 'warning',
          ...worded(phrase('Lists nested more than {0} deep are not read further; the objects inside this one are left out of the analysis.', maxListDepth)),
        });
        continue;
      }
      const list = items(at(node, 'items'));
      // pushed in reverse so that items are read in document order
      for (let i = list.length - 1; i >= 0; i--) {
        const item = list[i];
        if (isMap(item)) pending.push({ node: item, path: [...path, i] });
      }
      continue;
    }
    const base = readBase({ ...doc, root: node, span: node.span, listPath: path.length ? path : undefined }, node, kind, defaultNamespace, problems);
    if (base) resources.push(readKind(base, node));
    if (seen.size % 64 === 0) yield;
  }
  return { isManifest: true, resources, problems };
}

/** The kind of a mapping that has an apiVersion and a kind. */
function kindOf(n: YNode | undefined): string | undefined {
  if (!isMap(n) || str(at(n, 'apiVersion')) === undefined) return undefined;
  return str(at(n, 'kind'));
}

/**
 * A document of a client-side tool's configuration, which has an apiVersion and a kind but is never sent to the API
 * server (semantics §9.5): a kubeconfig (`v1` `Config` with clusters, contexts or users: client-go's clientcmd
 * format, not a served kind), skaffold's `skaffold/v…` files, the configuration files of Kubernetes' own components
 * (`*.config.k8s.io`: KubeletConfiguration, KubeProxyConfiguration, EncryptionConfiguration…; kubeadm's
 * `kubeadm.k8s.io`; the API server's audit policy `audit.k8s.io`), and local cluster tools' (kind's
 * `kind.x-k8s.io`, k3d's `k3d.io`). None is served by an API server, so none is an object.
 */
function isClientConfiguration(root: YMap, kind: string): boolean {
  const apiVersion = str(at(root, 'apiVersion')) ?? '';
  if (apiVersion === 'v1') return kind === 'Config' && ['clusters', 'contexts', 'users', 'current-context'].some((k) => root.entries.has(k));
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return false;
  const group = apiVersion.slice(0, slash);
  return clientConfigurationGroups.has(group) || group.endsWith('.config.k8s.io');
}

const clientConfigurationGroups: ReadonlySet<string> = new Set(['skaffold', 'kubeadm.k8s.io', 'audit.k8s.io', 'kind.x-k8s.io', 'k3d.io']);

/** Workload API versions removed in Kubernetes 1.16 (apps/v1 replaced them). */
export const legacyWorkloadVersions: ReadonlySet<string> = new Set(['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2']);

/** Whether an apiVersion is one of Kubernetes' own API groups (`v1`, `apps/v1`, `networking.k8s.io/v1`…), not a custom resource's. */
export function isBuiltInApiVersion(apiVersion: string): boolean {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return apiVersion !== '';
  const group = apiVersion.slice(0, slash);
  return !group.includes('.') || group.endsWith('.k8s.io');
}

function isSeqOfObjects(n: YNode | undefined): boolean {
  return items(n).some((i) => isMap(i) && at(i, 'kind') !== undefined);
}

function readBase(doc: DocumentInput, root: YMap, kind: string, defaultNamespace: string, problems: ParseProblem[]): ResourceBase | undefined {
  const metadata = at(root, 'metadata');
  const kindSpan = entry(root, 'kind')!.value.span;
  if (metadata !== undefined && !isMap(metadata)) {
    problems.push({
      span: metadata.span,
      code: 'manifest',
      severity: 'error',
      ...worded(phrase('metadata must be a mapping (it holds name, namespace and labels); this {0} is ignored.', kind)),
    });
    return undefined;
  }
  const nameNode = at(metadata, 'name');
  const name = text(nameNode);
  if (name === undefined) {
    // generateName objects and objects without a name cannot be referenced by name; they still count as manifests.
    // Custom resources without a name are often inputs to another tool (an IstioOperator for istioctl, a partial
    // example), not objects to apply: only built-in kinds are reported.
    if (at(metadata, 'generateName') === undefined && isBuiltInApiVersion(text(at(root, 'apiVersion')) ?? '')) {
      problems.push({
        span: metadata?.span ?? kindSpan,
        code: 'manifest',
        severity: 'warning',
        ...worded(phrase('This {0} has no metadata.name, so nothing can refer to it; it is left out of the analysis.', kind)),
      });
    }
    return undefined;
  }
  const nsNode = at(metadata, 'namespace');
  const ns = text(nsNode);
  return {
    kind,
    apiVersion: str(at(root, 'apiVersion'))!,
    name,
    namespace: ns || defaultNamespace,
    namespaceExplicit: !!ns,
    uri: doc.uri,
    docIndex: doc.index,
    span: root.span,
    nameSpan: nameNode!.span,
    kindSpan,
    labels: stringMap(at(metadata, 'labels')),
    annotations: stringMap(at(metadata, 'annotations')),
    source: { text: doc.text, ...(doc.listPath !== undefined ? { listPath: doc.listPath } : {}), ...(doc.keep ? { kept: root } : {}) },
  };
}

/** The kinds read with a meaning of their own: a custom resource's kind of the same name is another kind. */
const coreKinds: ReadonlySet<string> = new Set([
  'Service',
  'Pod',
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'ReplicationController',
  'Job',
  'CronJob',
  'Endpoints',
  'EndpointSlice',
  'Ingress',
  'NetworkPolicy',
  'ConfigMap',
  'CustomResourceDefinition',
  'Namespace',
]);

function readKind(base: ResourceBase, root: YMap): Resource {
  if (isGatewayApiVersion(base.apiVersion)) return readGatewayApi(base, root) ?? base;
  if (isIstioNetworkingVersion(base.apiVersion)) return readIstio(base, root) ?? base;
  if (isCertManagerVersion(base.apiVersion) && base.kind === 'Certificate') return readCertManager(base, root) ?? base;
  if (isMonitoringVersion(base.apiVersion) && (base.kind === 'ServiceMonitor' || base.kind === 'PodMonitor')) return readMonitor(base, root) ?? base;
  // A custom resource named like a built-in kind (a Knative `serving.knative.dev/v1` Service, a `Deployment` of some
  // operator's group) is not that kind: it keeps its group in its kind (`Service.serving.knative.dev`, as kubectl
  // names resources), so nothing that asks for a Service, a workload or an Ingress ever takes it for one.
  if (coreKinds.has(base.kind) && !isBuiltInApiVersion(base.apiVersion)) {
    const group = base.apiVersion.slice(0, Math.max(base.apiVersion.indexOf('/'), 0));
    const supplier = supplierOf(base.apiVersion, base.kind, base.namespace, root);
    const qualified: OtherResource = { ...base, kind: `${base.kind}.${group}` };
    return supplier ? { ...qualified, supplier } : qualified;
  }
  switch (base.kind) {
    case 'Service':
      return readService(base, root);
    case 'Pod':
      return { ...base, kind: 'Pod', template: readPodTemplate(root, root.span), ordinalsStart: 0, replicas: 1 } satisfies Workload;
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'ReplicationController':
    case 'Job':
      return readWorkload(base, at(root, 'spec'));
    case 'CronJob':
      return readWorkload(base, at(root, 'spec', 'jobTemplate', 'spec'));
    case 'Endpoints':
      return readEndpoints(base, root);
    case 'EndpointSlice':
      return readEndpointSlice(base, root);
    case 'Ingress':
      return readIngress(base, root);
    case 'NetworkPolicy':
      return readNetworkPolicy(base, root);
    case 'ConfigMap':
      return readConfigMap(base, root);
    case 'CustomResourceDefinition':
      return readCrd(base, root);
    default: {
      if (isBuiltInApiVersion(base.apiVersion)) return base;
      const supplier = supplierOf(base.apiVersion, base.kind, base.namespace, root);
      return supplier ? { ...base, supplier } : base;
    }
  }
}

/** A CRD is read for one fact: whether the kind it defines carries a pod template (semantics §9.2). */
function readCrd(base: ResourceBase, root: YMap): OtherResource {
  const group = str(at(root, 'spec', 'group'));
  const kind = str(at(root, 'spec', 'names', 'kind'));
  if (!group || !kind || !schemaHasPodTemplate(root)) return base;
  return { ...base, definesPodKind: `${group}/${kind}` };
}

function protocolOf(n: YNode | undefined): string {
  return text(n) ?? 'TCP';
}

function readService(base: ResourceBase, root: YMap): Service {
  const spec = at(root, 'spec');
  const selectorNode = at(spec, 'selector');
  const selectorMap = stringMap(selectorNode);
  const clusterIP = text(at(spec, 'clusterIP'));
  const clusterIPs = items(at(spec, 'clusterIPs'))
    .map(text)
    .filter((s): s is string => s !== undefined);
  const first = clusterIPs[0] ?? clusterIP;
  const ports = items(at(spec, 'ports')).map((p, index): ServicePort => {
    const tp = at(p, 'targetPort');
    const tpValue = tp?.type === 'scalar' ? tp.value : undefined;
    const port = int(at(p, 'port'));
    const explicit = tpValue !== undefined && tpValue !== null && tpValue !== 0 && tpValue !== '';
    let targetPort: number | string | undefined;
    if (explicit) targetPort = typeof tpValue === 'number' || typeof tpValue === 'string' ? tpValue : String(tpValue);
    else targetPort = port;
    return {
      index,
      name: text(at(p, 'name')),
      port,
      protocol: protocolOf(at(p, 'protocol')),
      targetPort,
      targetPortExplicit: explicit,
      nodePort: int(at(p, 'nodePort')),
      appProtocol: text(at(p, 'appProtocol')),
      span: p.span,
      nameSpan: at(p, 'name')?.span,
      portSpan: at(p, 'port')?.span,
      targetPortSpan: tp?.span,
      nodePortSpan: at(p, 'nodePort')?.span,
    };
  });
  return {
    ...base,
    kind: 'Service',
    type: text(at(spec, 'type')) ?? 'ClusterIP',
    typeSpan: at(spec, 'type')?.span,
    clusterIP,
    clusterIPs,
    clusterIPSpan: (at(spec, 'clusterIP') ?? at(spec, 'clusterIPs'))?.span,
    headless: first === 'None',
    selector: selectorMap.size > 0 ? selectorMap : undefined,
    selectorSpan: selectorNode?.span,
    selectorEmpty: isMap(selectorNode) && selectorNode.entries.size === 0,
    selectorEntrySpans: entrySpans(selectorNode),
    ports,
    portsSpan: at(spec, 'ports')?.span,
    externalName: text(at(spec, 'externalName')),
    externalNameSpan: at(spec, 'externalName')?.span,
    publishNotReadyAddresses: bool(at(spec, 'publishNotReadyAddresses')) ?? false,
    publishNotReadyAddressesSpan: at(spec, 'publishNotReadyAddresses')?.span,
    sessionAffinity: text(at(spec, 'sessionAffinity')) ?? 'None',
    sessionAffinityTimeout: int(at(spec, 'sessionAffinityConfig', 'clientIP', 'timeoutSeconds')),
    externalTrafficPolicy: text(at(spec, 'externalTrafficPolicy')),
    externalTrafficPolicySpan: at(spec, 'externalTrafficPolicy')?.span,
    internalTrafficPolicy: text(at(spec, 'internalTrafficPolicy')),
    internalTrafficPolicySpan: at(spec, 'internalTrafficPolicy')?.span,
    trafficDistribution: text(at(spec, 'trafficDistribution')),
    loadBalancerIP: text(at(spec, 'loadBalancerIP')),
    externalIPs: items(at(spec, 'externalIPs'))
      .map(text)
      .filter((s): s is string => s !== undefined),
    ipFamilies: items(at(spec, 'ipFamilies'))
      .map(text)
      .filter((s): s is string => s !== undefined),
    ipFamilyPolicy: text(at(spec, 'ipFamilyPolicy')),
    ipFamilyPolicySpan: at(spec, 'ipFamilyPolicy')?.span,
    ipFamiliesSpan: at(spec, 'ipFamilies')?.span,
  };
}

function entrySpans(n: YNode | undefined): Map<string, { key: Span; value: Span }> {
  const out = new Map<string, { key: Span; value: Span }>();
  if (isMap(n)) for (const [k, e] of n.entries) out.set(k, { key: e.keySpan, value: e.value.span });
  return out;
}

export function readLabelSelector(n: YNode | undefined): LabelSelector | undefined {
  if (!isMap(n)) return undefined;
  const ml = at(n, 'matchLabels');
  const exprs: SelectorRequirement[] = [];
  for (const e of items(at(n, 'matchExpressions'))) {
    const key = text(at(e, 'key'));
    const op = text(at(e, 'operator'));
    if (key === undefined || (op !== 'In' && op !== 'NotIn' && op !== 'Exists' && op !== 'DoesNotExist')) continue;
    exprs.push({
      key,
      operator: op as SelectorOperator,
      values: items(at(e, 'values'))
        .map(text)
        .filter((s): s is string => s !== undefined),
      span: e.span,
    });
  }
  return { matchLabels: stringMap(ml), matchExpressions: exprs, labelSpans: entrySpans(ml), span: n.span };
}

function readWorkload(base: ResourceBase, spec: YNode | undefined): Workload {
  const kind = base.kind as WorkloadKind;
  const templateNode = at(spec, 'template');
  const selectorNode = at(spec, 'selector');
  let selector: LabelSelector | undefined;
  if (kind === 'ReplicationController' && isMap(selectorNode) && !at(selectorNode, 'matchLabels') && !at(selectorNode, 'matchExpressions')) {
    selector = { matchLabels: stringMap(selectorNode), matchExpressions: [], labelSpans: entrySpans(selectorNode), span: selectorNode.span };
  } else {
    selector = readLabelSelector(selectorNode);
  }
  const template = readPodTemplate(templateNode, templateNode?.span ?? base.span);
  // The removed beta API versions defaulted a missing selector to the template labels (extensions/v1beta1,
  // apps/v1beta1; apps/v1beta2 objects converted from them carry the defaulted selector too).
  if (!selector && selectorNode === undefined && legacyWorkloadVersions.has(base.apiVersion) && template.labels.size && kind !== 'Job' && kind !== 'CronJob') {
    selector = { matchLabels: template.labels, matchExpressions: [], labelSpans: template.labelSpans, span: template.labelsSpan ?? template.span };
  }
  const replicasNode = at(spec, 'replicas');
  let replicas: number | undefined = 1;
  if (kind === 'DaemonSet' || kind === 'CronJob') replicas = undefined;
  else if (kind === 'Job') replicas = int(at(spec, 'parallelism')) ?? 1;
  else if (replicasNode !== undefined) replicas = int(replicasNode);
  return {
    ...base,
    kind,
    template,
    selector,
    selectorSpan: selectorNode?.span,
    replicas,
    serviceName: kind === 'StatefulSet' ? text(at(spec, 'serviceName')) : undefined,
    serviceNameSpan: kind === 'StatefulSet' ? at(spec, 'serviceName')?.span : undefined,
    ordinalsStart: int(at(spec, 'ordinals', 'start')) ?? 0,
    podManagementPolicy: text(at(spec, 'podManagementPolicy')),
    indexedCompletions: kind === 'Job' && text(at(spec, 'completionMode')) === 'Indexed' ? (int(at(spec, 'completions')) ?? 1) : undefined,
  };
}

/** Reads a pod template (`{metadata, spec}`), or a Pod object itself. */
export function readPodTemplate(n: YNode | undefined, fallback: Span): PodTemplate {
  const spec = at(n, 'spec');
  const labelsNode = at(n, 'metadata', 'labels');
  const containers = items(at(spec, 'containers')).map((c, i) => readContainer(c, `containers[${i}]`, false, false));
  // Every init container is read (its env names hosts it looks up); only sidecars (restartPolicy: Always) serve ports.
  const sidecars = items(at(spec, 'initContainers')).map((c, i) => readContainer(c, `initContainers[${i}]`, text(at(c, 'restartPolicy')) === 'Always', true));
  return {
    labels: stringMap(labelsNode),
    labelsSpan: labelsNode?.span,
    labelSpans: entrySpans(labelsNode),
    containers: [...containers, ...sidecars],
    hostname: text(at(spec, 'hostname')),
    hostnameSpan: at(spec, 'hostname')?.span,
    subdomain: text(at(spec, 'subdomain')),
    subdomainSpan: at(spec, 'subdomain')?.span,
    hostNetwork: bool(at(spec, 'hostNetwork')) ?? false,
    hostNetworkSpan: at(spec, 'hostNetwork')?.span,
    dnsPolicy: text(at(spec, 'dnsPolicy')),
    dnsPolicySpan: at(spec, 'dnsPolicy')?.span,
    enableServiceLinks: bool(at(spec, 'enableServiceLinks')) ?? true,
    setHostnameAsFQDN: bool(at(spec, 'setHostnameAsFQDN')) ?? false,
    volumeEndpoints: items(at(spec, 'volumes')).flatMap((v) => {
      const name = text(at(v, 'glusterfs', 'endpoints'));
      return name ? [name] : [];
    }),
    specSpan: isMap(spec) ? spec.span : undefined,
    span: n?.span ?? fallback,
  };
}

function readContainer(c: YNode, path: string, sidecar: boolean, init: boolean): Container {
  const name = text(at(c, 'name')) ?? path;
  const ports = items(at(c, 'ports')).map((p): ContainerPort => ({
    name: text(at(p, 'name')),
    containerPort: int(at(p, 'containerPort')),
    protocol: protocolOf(at(p, 'protocol')),
    hostPort: int(at(p, 'hostPort')),
    span: p.span,
    nameSpan: at(p, 'name')?.span,
    containerPortSpan: at(p, 'containerPort')?.span,
  }));
  const env: (TextValue & { name: string; nameSpan: Span })[] = [];
  for (const e of items(at(c, 'env'))) {
    const envName = text(at(e, 'name'));
    const value = at(e, 'value');
    const v = text(value);
    if (envName !== undefined && v !== undefined)
      env.push({ name: envName, nameSpan: at(e, 'name')!.span, value: v, span: value!.span, where: `env ${envName}` });
  }
  const list = (key: 'command' | 'args'): TextValue[] =>
    items(at(c, key)).flatMap((it, i) => {
      const v = text(it);
      return v === undefined ? [] : [{ value: v, span: it.span, where: `${key}[${i}]` }];
    });
  return {
    name,
    nameSpan: at(c, 'name')?.span,
    ports,
    env,
    command: list('command'),
    args: list('args'),
    image: text(at(c, 'image')),
    hasReadinessProbe: isMap(at(c, 'readinessProbe')),
    sidecar,
    init,
    span: c.span,
  };
}

function readAddresses(n: YNode | undefined, ready: boolean): EndpointAddress[] {
  return items(n).map((a) => ({ ip: text(at(a, 'ip')), hostname: text(at(a, 'hostname')), ready, span: a.span }));
}

function readEndpointPorts(n: YNode | undefined): EndpointPort[] {
  return items(n).map((p) => ({ name: text(at(p, 'name')), port: int(at(p, 'port')), protocol: protocolOf(at(p, 'protocol')), span: p.span }));
}

function readEndpoints(base: ResourceBase, root: YMap): Endpoints {
  const subsets = items(at(root, 'subsets')).map((s) => ({
    addresses: [...readAddresses(at(s, 'addresses'), true), ...readAddresses(at(s, 'notReadyAddresses'), false)],
    ports: readEndpointPorts(at(s, 'ports')),
    span: s.span,
  }));
  return { ...base, kind: 'Endpoints', subsets };
}

function readEndpointSlice(base: ResourceBase, root: YMap): EndpointSlice {
  const endpoints: EndpointAddress[] = [];
  for (const e of items(at(root, 'endpoints'))) {
    // semantics §1.3: conditions.ready nil means ready.
    const ready = bool(at(e, 'conditions', 'ready')) ?? true;
    const hostname = text(at(e, 'hostname'));
    const addrs = items(at(e, 'addresses'))
      .map(text)
      .filter((s): s is string => s !== undefined);
    if (!addrs.length) endpoints.push({ hostname, ready, span: e.span });
    for (const ip of addrs) endpoints.push({ ip, hostname, ready, span: e.span });
  }
  return {
    ...base,
    kind: 'EndpointSlice',
    serviceName: base.labels.get('kubernetes.io/service-name'),
    addressType: text(at(root, 'addressType')),
    endpoints,
    ports: readEndpointPorts(at(root, 'ports')),
  };
}

function readBackend(n: YNode | undefined): IngressBackend | undefined {
  if (!isMap(n)) return undefined;
  const svc = at(n, 'service');
  if (isMap(svc)) {
    const port = at(svc, 'port');
    const numNode = at(port, 'number');
    const nameNode = at(port, 'name');
    return {
      serviceName: text(at(svc, 'name')),
      serviceNameSpan: at(svc, 'name')?.span,
      portNumber: int(numNode),
      portName: text(nameNode),
      portSpan: (numNode ?? nameNode ?? port)?.span,
      resource: false,
      span: n.span,
    };
  }
  // networking.k8s.io/v1beta1 and extensions/v1beta1 shape: serviceName + servicePort (number or name).
  const sn = at(n, 'serviceName');
  if (sn !== undefined) {
    const sp = at(n, 'servicePort');
    const spValue = sp?.type === 'scalar' ? sp.value : undefined;
    return {
      serviceName: text(sn),
      serviceNameSpan: sn.span,
      portNumber: typeof spValue === 'number' ? spValue : undefined,
      portName: typeof spValue === 'string' ? spValue : undefined,
      portSpan: sp?.span,
      resource: false,
      span: n.span,
    };
  }
  return { resource: at(n, 'resource') !== undefined, span: n.span };
}

function readIngress(base: ResourceBase, root: YMap): Ingress {
  const spec = at(root, 'spec');
  const paths: IngressPath[] = [];
  for (const rule of items(at(spec, 'rules'))) {
    const host = text(at(rule, 'host'));
    for (const p of items(at(rule, 'http', 'paths'))) {
      const backend = readBackend(at(p, 'backend'));
      if (backend) paths.push({ host, path: text(at(p, 'path')) ?? '/', pathType: text(at(p, 'pathType')), backend, pathSpan: (at(p, 'path') ?? p).span });
    }
  }
  return {
    ...base,
    kind: 'Ingress',
    ingressClassName: text(at(spec, 'ingressClassName')) ?? base.annotations.get('kubernetes.io/ingress.class'),
    defaultBackend: readBackend(at(spec, 'defaultBackend') ?? at(spec, 'backend')),
    paths,
    tlsHosts: items(at(spec, 'tls')).flatMap((t) =>
      items(at(t, 'hosts'))
        .map(text)
        .filter((s): s is string => s !== undefined),
    ),
    tls: items(at(spec, 'tls'))
      .filter(isMap)
      .map((t) => ({
        hosts: items(at(t, 'hosts'))
          .map(text)
          .filter((s): s is string => s !== undefined),
        secretName: text(at(t, 'secretName')) || undefined,
        secretNameSpan: at(t, 'secretName')?.span,
        span: t.span,
      })),
  };
}

function readPolicyRules(n: YNode | undefined, peerKey: 'from' | 'to'): PolicyRule[] {
  return items(n).map((r) => ({
    peers: items(at(r, peerKey)).map((p) => {
      const ipBlock = at(p, 'ipBlock');
      return {
        podSelector: readLabelSelector(at(p, 'podSelector')),
        namespaceSelector: readLabelSelector(at(p, 'namespaceSelector')),
        ipBlock: isMap(ipBlock)
          ? {
              cidr: text(at(ipBlock, 'cidr')) ?? '',
              except: items(at(ipBlock, 'except'))
                .map(text)
                .filter((s): s is string => !!s),
              cidrSpan: at(ipBlock, 'cidr')?.span,
            }
          : undefined,
        span: p.span,
      };
    }),
    ports: items(at(r, 'ports')).map((p) => {
      const port = at(p, 'port');
      const pv = port?.type === 'scalar' ? port.value : undefined;
      const endPort = at(p, 'endPort');
      return {
        port: typeof pv === 'number' || typeof pv === 'string' ? pv : undefined,
        endPort: int(endPort),
        protocol: protocolOf(at(p, 'protocol')),
        span: p.span,
        ...(port ? { portSpan: port.span } : {}),
        ...(endPort ? { endPortSpan: endPort.span } : {}),
      };
    }),
    span: r.span,
  }));
}

function readNetworkPolicy(base: ResourceBase, root: YMap): NetworkPolicy {
  const spec = at(root, 'spec');
  const ps = at(spec, 'podSelector');
  const ingress = readPolicyRules(at(spec, 'ingress'), 'from');
  const egress = readPolicyRules(at(spec, 'egress'), 'to');
  const declared = items(at(spec, 'policyTypes'))
    .map(text)
    .filter((t): t is 'Ingress' | 'Egress' => t === 'Ingress' || t === 'Egress');
  // Default policyTypes (netpol §3, SetDefaults_NetworkPolicy): Ingress always, Egress when there is at least one egress
  // rule: `egress: []` alone does not isolate for egress.
  const policyTypes = declared.length ? declared : egress.length ? (['Ingress', 'Egress'] as const) : (['Ingress'] as const);
  return {
    ...base,
    kind: 'NetworkPolicy',
    podSelector: readLabelSelector(ps) ?? { matchLabels: new Map(), matchExpressions: [], labelSpans: new Map(), span: ps?.span ?? base.span },
    podSelectorSpan: ps?.span,
    policyTypes: [...policyTypes],
    ingress,
    egress,
  };
}

/** ConfigMap data keys that document the configuration rather than configure anything (semantics §9.3). */
const documentationKeys: ReadonlySet<string> = new Set(['_example']);

function readConfigMap(base: ResourceBase, root: YMap): ConfigMap {
  const data: (TextValue & { key: string })[] = [];
  const d = at(root, 'data');
  if (isMap(d)) {
    for (const [key, e] of d.entries) {
      // A documentation key (Knative's `_example`: commented example configuration no program reads) holds no
      // lookups, so its text is not read (semantics §9.3).
      if (documentationKeys.has(key)) continue;
      const v = text(e.value);
      if (v !== undefined) data.push({ key, value: v, span: e.value.span, where: `data.${key}` });
    }
  }
  return { ...base, kind: 'ConfigMap', data };
}
