// Custom LSP messages and the trace graph data shared by the server, the client and the webview.
// Types only (plus method-name constants and the server's Node options): the client and the webview import nothing
// else from the server.

export const traceRequest = 'kubeNetlens/trace';
export const listServicesRequest = 'kubeNetlens/listServices';
/** The second level of the Service hover (TraceParams in, Markdown or null out). */
export const serviceDetailsRequest = 'kubeNetlens/serviceDetails';
export const analysisChangedNotification = 'kubeNetlens/analysisChanged';
export const statusNotification = 'kubeNetlens/status';
/** The client command an "Ignore <code> here…" code action runs: it asks for the reason, then edits. */
export const ignoreFindingCommand = 'kubeNetlens.ignoreFinding';

/**
 * What that command gets: replace `range` of `uri` by `before` + the annotation's value + `after`, the value being the
 * YAML-quoted `<code>: <reason>` (added as a new line to `existing`, the annotation's value today, when there is one).
 */
export interface IgnoreFindingArgs {
  readonly uri: string;
  readonly range: {
    readonly start: { readonly line: number; readonly character: number };
    readonly end: { readonly line: number; readonly character: number };
  };
  readonly before: string;
  readonly after: string;
  readonly code: string;
  readonly existing?: string;
  /** The annotation goes on a workload's pod template (the input box says so). */
  readonly onPodTemplate?: boolean;
}

/**
 * The annotation's value for a reason: `<code>: <reason>` (a line added to what it holds) as a JSON string, which YAML
 * reads as a double-quoted scalar.
 */
export function ignoreAnnotationValue(arg: Pick<IgnoreFindingArgs, 'code' | 'existing'>, reason: string): string {
  const line = `${arg.code}: ${reason.replace(/\s+/g, ' ').trim()}`;
  return JSON.stringify(arg.existing ? `${arg.existing.replace(/\n+$/, '')}\n${line}` : line);
}

/**
 * The Node options the language server process runs with: the editor's client starts it so, and so do the benchmark
 * and the tests, which measure and check what users run.
 *
 * The old generation grows by half of what a full collection leaves (`--heap-growing-percent=50`) instead of V8's
 * factor of up to four: the server lives as long as the editor, and its peak resident memory is mostly garbage that
 * waits for the next full collection (the live heap after one is about a third of the peak). At 10,000 resources,
 * 200 edits (bench, 12-04, load 1.4): peak RSS 311 → 250 MB, for 7 % more CPU per edit (16.5 → 17.7 ms) and 10 % more
 * on the cold index (2.6 → 2.8 s); `30` gave 239 MB for 17-22 % more CPU. On the Kustomize platform shape (60
 * overlays over large CRDs, 60 base edits, load 1.4-2.0): peak RSS 745 → 330 MB.
 *
 * A young generation of at most 16 MB per semi-space (V8's own maximum on 64 bits; it was held to 8 MB for 5-15 %
 * less memory): an edit of a platform's Kustomize base re-renders builds of megabytes, whose trees outlived an 8 MB
 * nursery and were copied into the old generation only to die there. Measured 12-04 (load 1.7-2.0), 8 → 16 MB: the
 * platform shape's edit p95 107 → 74 ms and CPU per edit 121 → 99 ms (RSS 325 → 337 MB); 50,000 resources' cold
 * index 10.5 → 9.5 s and edit p95 115 → 97-112 ms; 10,000 resources' peak RSS 252 → 271 MB (edit p95 23 → 24 ms).
 */
export const serverNodeOptions: readonly string[] = ['--max-semi-space-size=16', '--heap-growing-percent=50'];

export interface TraceParams {
  /**
   * What to trace: a Service (the default), a Gateway (its listeners, the routes attached, their backends) or a
   * Gateway API route (the listeners that accept it, its rules, their backends); an Istio Gateway (`IstioGateway`:
   * its servers, the VirtualServices bound to it, their destinations) or a VirtualService (its Gateways' servers,
   * its route blocks and destinations).
   */
  readonly kind?: 'Service' | 'Gateway' | 'HTTPRoute' | 'GRPCRoute' | 'TLSRoute' | 'TCPRoute' | 'UDPRoute' | 'IstioGateway' | 'VirtualService';
  readonly namespace: string;
  readonly name: string;
  /** The file of the definition to trace, when variants of the workspace define the Service differently. */
  readonly uri?: string;
  /**
   * For a Service: the client whose connections the trace checks against NetworkPolicies (its egress, the pods'
   * ingress, on the pod port after the targetPort mapping; docs/networkpolicy-semantics.md).
   */
  readonly client?: TraceClient;
}

/** Who connects, in a Service trace for a chosen client. */
export type TraceClient =
  | { readonly kind: 'workload'; readonly namespace: string; readonly workloadKind: string; readonly name: string }
  | { readonly kind: 'external' }
  /** Any pod of the namespace, its labels not given. */
  | { readonly kind: 'namespace'; readonly namespace: string };

/** One client a Service trace may be drawn for, as the picker shows it. */
export interface TraceClientChoice {
  readonly client: TraceClient;
  readonly label: string;
  readonly description?: string;
}

/** Whether the chosen client may connect through a hop, and the rules that decide (named as the reach hover names them). */
export interface TraceReach {
  readonly verdict: 'allowed' | 'denied' | 'unknown';
  /** One sentence for the box and the text rendering. */
  readonly text: string;
  /** `egress: web-out rule 1 (policies.yaml line 12)`: the deciding rules, 1-based. */
  readonly because: readonly string[];
}

/** A place in a file: an URI and UTF-16 offsets; the client turns it into a range with its own document. */
export interface SourceSpan {
  readonly uri: string;
  readonly start: number;
  readonly end: number;
  /** Zero-based line/character of `start`, for consumers without the text (CLI, webview). */
  readonly line: number;
  readonly character: number;
}

export type TraceStatus = 'ok' | 'conditional' | 'warning' | 'error';

export interface TraceFinding {
  readonly code: string;
  readonly severity: 'error' | 'warning' | 'information' | 'hint';
  readonly message: string;
}

/**
 * The columns of the Service path, left to right. `listener`: Gateway listeners that accept a route to it; `route`:
 * the route rules; `entry`: who can call it (DNS names, NodePort, LoadBalancer, Ingress rules, route backendRefs); `service`: the Service hop; `proxy`: kube-proxy; `endpoints`: endpoint groups per workload;
 * `port`: the container port each Service port lands on; `policy`: NetworkPolicies selecting the pods.
 */
export type TraceColumn = 'listener' | 'route' | 'entry' | 'service' | 'proxy' | 'endpoints' | 'port' | 'policy';

export type TraceNodeKind =
  | 'gateway-listener'
  | 'route-rule'
  | 'backend-ref'
  | 'client'
  | 'dns'
  | 'nodeport'
  | 'loadbalancer'
  | 'ingress'
  | 'external-ip'
  | 'service'
  | 'external-name'
  | 'kube-proxy'
  | 'workload'
  | 'manual-endpoints'
  | 'no-endpoints'
  | 'container-port'
  | 'network-policy';

export interface TraceNode {
  readonly id: string;
  readonly kind: TraceNodeKind;
  readonly column: TraceColumn;
  /** One short line: `api.shop.svc.cluster.local`, `ClusterIP 10.96.0.10`, `Deployment api ×3`. */
  readonly label: string;
  /** Further lines, each a plain sentence or fact. */
  readonly detail: readonly string[];
  readonly status: TraceStatus;
  readonly findings: readonly TraceFinding[];
  readonly source?: SourceSpan;
  /** For endpoint groups: how many pods, and their stable names when they have them (StatefulSet). */
  readonly pods?: { readonly count?: number; readonly names: readonly string[]; readonly readinessGated: boolean };
  /** In a trace for a chosen client: on endpoint groups and container ports, whether its connections pass. */
  readonly reach?: TraceReach;
}

export interface TraceEdge {
  readonly from: string;
  readonly to: string;
  readonly label?: string;
  /** `broken`: traffic cannot pass (no endpoints, unresolved port, policy denies); drawn dashed and red. */
  readonly status: 'ok' | 'conditional' | 'broken';
}

export type PacketHopZone = 'client-pod' | 'client-node' | 'wire' | 'target-node' | 'target-pod';

export interface PacketHop {
  readonly id: string;
  readonly zone: PacketHopZone;
  /** `eth0 (client pod)`, `veth pair`, `cni0 bridge`, `flannel.1 VTEP`… */
  readonly label: string;
  /** One line a newcomer learns from. */
  readonly explanation: string;
  /** The last hop of a path that goes no further (no address, no endpoint, dropped): its explanation says why. */
  readonly stop?: boolean;
}

export interface PacketPath {
  readonly cni: string;
  /** Same-node and cross-node variants of the path from a client pod to one endpoint. */
  readonly sameNode: readonly PacketHop[];
  readonly crossNode: readonly PacketHop[];
}

export interface TraceGraph {
  readonly service: { readonly kind: string; readonly namespace: string; readonly name: string; readonly source?: SourceSpan };
  readonly nodes: readonly TraceNode[];
  readonly edges: readonly TraceEdge[];
  /** True when no request can reach a pod (every path has a broken edge). */
  readonly broken: boolean;
  readonly packetPath?: PacketPath;
  /** The variant of the workspace this trace speaks about, when variants sit side by side (ARCHITECTURE.md, apply scopes). */
  readonly variant?: string;
  /** A trace for a chosen client: who it is, and whether any of its connections reach a pod. */
  readonly client?: { readonly client: TraceClient; readonly label: string } & TraceReach;
}

/**
 * A starting point of a trace: a Service, a Gateway (`kind: 'Gateway'`), a Gateway API route (its kind), an Istio Gateway
 * (`kind: 'IstioGateway'`) or a VirtualService.
 */
export interface ServiceSummary {
  /** Set for a Gateway, a route, an Istio Gateway or a VirtualService; a Service otherwise. */
  readonly kind?: Exclude<TraceParams['kind'], 'Service'>;
  readonly namespace: string;
  readonly name: string;
  /** The Service type (`ClusterIP`, `Headless`…), or `Gateway`. */
  readonly type: string;
  readonly endpoints?: number;
  readonly source?: SourceSpan;
  /**
   * Which apply unit (Kustomize overlay, Helm release, folder) this Service belongs to, when the project model knows.
   * The picker shows it to tell apart Services that share a namespace and name; without it the picker shows the folder.
   */
  readonly unit?: string;
  /**
   * For a Service of a rendered unit (a Kustomize build): where its definition is written (the base's line), while
   * `source` is its place in the build, which a trace request names to follow that build's objects.
   */
  readonly definedAt?: SourceSpan;
  /** Gateway API routes with a backendRef to this Service, and the `gateway/listener`s that accept each. */
  readonly routes?: readonly { readonly kind: string; readonly namespace: string; readonly name: string; readonly listeners: readonly string[] }[];
  /** For a Service a Helm chart renders: the releases and value sets that render it (`release shop, values.yaml`). */
  readonly release?: string;
  /**
   * For a Gateway: each listener (`http 80/HTTP`) and how many routes it accepts; for an Istio Gateway: each server
   * and how many VirtualServices of the workspace it applies.
   */
  readonly listeners?: readonly { readonly name: string; readonly routes: number }[];
  /** For a VirtualService: its `hosts`, its `gateways` as written (`mesh` when it names none) and the destination hosts it sends to. */
  readonly hosts?: readonly string[];
  readonly gateways?: readonly string[];
  readonly destinations?: readonly string[];
  /** For a VirtualService: the Istio Gateways of the workspace (`namespace/name`) whose servers serve one of its hosts. */
  readonly servedBy?: readonly string[];
}

export interface StatusParams {
  readonly resources: number;
  readonly files: number;
  readonly skippedTemplates: number;
  readonly skippedOther: number;
  /** Files of test suites (chainsaw, kuttl, Go testdata), which a test harness applies: not read as objects. */
  readonly skippedTests?: number;
  /** Kustomize build inputs (kustomizations, the patches and files they read): checked in each build, not on their own. */
  readonly skippedBuildInputs?: number;
  readonly problems: number;
  readonly indexing: boolean;
  /** Helm charts with a rendered value set, and charts not rendered (no helm, an untrusted workspace, an error). */
  readonly chartsRendered?: number;
  readonly chartsNotRendered?: number;
  /** Work under way, while it runs: files read while indexing, chart renders and real Kustomize builds. */
  readonly progress?: StatusProgress;
}

/** How much of each piece of work under way is done. */
export interface StatusProgress {
  readonly files?: WorkCount;
  readonly charts?: WorkCount;
  readonly kustomizeRoots?: WorkCount;
}

export interface WorkCount {
  readonly done: number;
  readonly total: number;
}

/** The answer to `kubeNetlens/trace`: the graph, and the same path as Mermaid and as plain text (for export and screen readers). */
export interface TraceResult {
  readonly graph: TraceGraph;
  readonly mermaid: string;
  readonly text: string;
  /** For a Service: the clients the trace may be drawn for (the workloads of its scope, outside the cluster, any pod of a namespace). */
  readonly clients?: readonly TraceClientChoice[];
}
