// The shape of a rule module: metadata that generates docs/rules.md, and a pure check over a rule context.

import type { Phrase } from '../l10n/l10n';
import type { DnsRecord, NameResolution, ServiceEnvVar } from '../analysis/analysis';
import type { ServiceEndpoints } from '../analysis/endpoints';
import type { Endpoint, PortQuery, ReachResult } from '../analysis/reach';
import type { NamespaceObjects, ObjectList } from '../model/cluster';
import type { AnalysisConfig, Severity } from '../model/config';
import type { Gateway, GatewayRoute, ReferenceGrant } from '../model/gatewayApi';
import type { DestinationRule, IstioObjects, ServiceEntry } from '../model/istio';
import type { Certificate } from '../model/certManager';
import type { EndpointSlice, Endpoints, Ingress, NetworkPolicy, Resource, Service, Workload } from '../model/resources';
import type { LabelSelector } from '../model/selector';
import type { FindingDraft } from './finding';

export interface Rule<L extends ObjectList = ObjectList> {
  /** Stable code shown in the editor and used in settings (`kubeNetlens.rules`). */
  readonly code: string;
  /**
   * The lists of a check's subjects the rule examines and reports on (at least one). A check runs only for subjects
   * with an object in one of them (most files hold a few kinds, and most rules have nothing to do there), and its
   * context holds those lists alone: a rule cannot read a list it does not name (`defineRule`).
   */
  readonly subjects: readonly [L, ...L[]];
  readonly defaultSeverity: Severity;
  /** One line: what the rule catches. */
  readonly title: string;
  /** Markdown for docs/rules.md: why it matters, citing network-semantics where it applies. */
  readonly description: string;
  /** A manifest that fires the rule and one that does not, for the docs. */
  readonly examples: { readonly bad: string; readonly good: string };
  /**
   * Optional: the hop of a Service's trace that this rule's findings on the traced Service break
   * (features/traceGraph.ts). Without it they go on the Service hop; findings on other objects go on those objects' hops.
   */
  readonly traceHop?: TraceHop;
  /** Checks the subjects and reports on them only; everything else comes from `ctx.lookup`. */
  check(ctx: RuleContext<L>): Iterable<FindingDraft>;
}

/** A rule whose subject lists are the ones it names in `subjects`: reading another list does not compile. */
export function defineRule<const L extends ObjectList>(rule: Rule<L>): Rule<L> {
  return rule;
}

/**
 * `endpoints`: the "no endpoints" hop, when nothing backs the Service. `resolved-port` / `unresolved-port`: the
 * container-port hops of the Service port the finding is on, in the pods where that port resolves to a container port,
 * or where it does not.
 */
export type TraceHop = 'endpoints' | 'resolved-port' | 'unresolved-port';

/**
 * What a rule sees. A check runs for a few subjects at a time (one file's objects in one namespace), and may run
 * again for those alone after an edit: it iterates `subjects` and reports on them, and finds everything else through
 * `lookup`, which has no lists to iterate. Every lookup records what it read (rules/context.ts), so an edit re-runs
 * exactly the checks whose answer could change, and answers within the scope of the subjects' file
 * (model/project.ts): the variants that are never applied with it are not seen.
 */
export interface RuleContext<L extends ObjectList = ObjectList> {
  /** The objects this check examines and may report on, split by list, in file order: the lists the rule names. */
  readonly subjects: Pick<NamespaceObjects, L>;
  readonly lookup: Lookup;
  readonly config: AnalysisConfig;
}

/** Questions about the cluster a rule may ask. Each answers within the subjects' scope. */
export interface Lookup {
  /** Every definition of this kind, namespace and name in scope (more than one only when a file repeats it). */
  get(kind: string, namespace: string, name: string): readonly Resource[];
  service(namespace: string, name: string): Service | undefined;
  servicesIn(namespace: string): readonly Service[];
  /** Services of any namespace named `name`, ignoring case (semantics §1.3). */
  servicesNamed(name: string): readonly Service[];
  workloadsIn(namespace: string): readonly Workload[];
  /** Workloads of Helm hooks in the namespace (kept out of every other list; their pods exist while the hook runs). */
  hookWorkloadsIn(namespace: string): readonly Workload[];
  /** Workloads in `namespace` whose pod template labels contain every pair of the equality selector. */
  workloadsMatching(namespace: string, selector: ReadonlyMap<string, string>): readonly Workload[];
  /** Workloads in `namespace` whose pod template labels satisfy a full label selector. */
  workloadsSelectedBy(namespace: string, selector: LabelSelector): readonly Workload[];
  /**
   * Whether any workload in `namespace` satisfies the selector. Kept as an answer: a rule that only needs this runs
   * again after an edit only when the answer changes, not whenever a workload with one of the labels does.
   */
  anyWorkloadSelectedBy(namespace: string, selector: LabelSelector): boolean;
  /**
   * Workloads the selector matches in `namespace` that the subjects' scope does not see: they sit in a variant never
   * applied with the subjects' file (model/project.ts). Positive evidence that a file meant for those pods (a Service
   * written to replace another, applied on top of it) is not wrong (semantics §9.0); none without variants.
   */
  workloadsSelectedInVariants(namespace: string, selector: LabelSelector): readonly Workload[];
  /** The workloads of `namespace` in variants the subjects' scope does not see (none without variants). */
  workloadsInVariants(namespace: string): readonly Workload[];
  /**
   * The workloads, of any namespace and any scope, written in the folder of `uri` itself: its files, and the Kustomize
   * builds and Helm renders that folder defines (model/rendered.ts `renderSource`). For a subject written without a
   * namespace, which lands wherever it is applied: the pods written beside it are the ones it is for (semantics §9.0).
   */
  workloadsInFolderOf(uri: string): readonly Workload[];
  /** NodePort and LoadBalancer Services of any namespace claiming this node port (semantics §5.6). */
  servicesClaimingNodePort(nodePort: number): readonly Service[];
  /** The manual Endpoints objects named like a Service (semantics §1.2). */
  endpointsNamed(namespace: string, name: string): readonly Endpoints[];
  /** The EndpointSlices labelled `kubernetes.io/service-name: <service>` in a namespace (semantics §1.2). */
  slicesFor(namespace: string, service: string): readonly EndpointSlice[];
  /** Whether any object is in, or declares, this namespace. */
  namespaceExists(namespace: string): boolean;
  /** The `kind: Namespace` object declaring it, if any. */
  namespaceDeclaration(namespace: string): Resource | undefined;
  /** Every namespace in scope, in order of first appearance. */
  namespaces(): Iterable<string>;
  /**
   * The workloads in scope that run an ingress controller's image (model/ingressControllers.ts), namespace by
   * namespace: a unit that asks depends on which workloads those are, not on every workload of the scope.
   */
  ingressControllers(): readonly Workload[];
  /** The Gateway API Gateways of a namespace (gateway semantics §G1; other groups' Gateways are not among them). */
  gatewaysIn(namespace: string): readonly Gateway[];
  /**
   * The Services of `namespace` in other scopes than the subjects' (variants, or Kustomize builds applied apart from
   * the subjects' file; none without them): the Services a name written here may meet in the cluster, for typos.
   */
  servicesInVariants(namespace: string): readonly Service[];
  /**
   * The Gateways of `namespace` in variants the subjects' scope does not see (none without variants): a route written
   * to replace another file's route, applied on top of it, attaches to the Gateway that file defines (semantics §9.0).
   */
  gatewaysInVariants(namespace: string): readonly Gateway[];
  /** The ReferenceGrants of a namespace: the grants for references into it (gateway semantics §G6). */
  referenceGrantsIn(namespace: string): readonly ReferenceGrant[];
  /** The Secrets a namespace's manifests define. */
  secretsIn(namespace: string): readonly Resource[];
  /** The text of a file, for fixes that compute offsets and indentation. */
  fileText(uri: string): string | undefined;
  /**
   * Why pods with these label keys may exist in `namespace` although no pod template in scope matches (an operator's
   * custom resource, a generated label value, a key no template uses); undefined when the manifests would show them.
   * Rules stay quiet when it answers (semantics §9.2). `from`: the subject's file, so that evidence stays near it (an
   * unrendered chart counts only for subjects beside it, analysis/unknowns.ts `localityOf`).
   */
  podsUnknown(namespace: string, keys: Iterable<string>, from?: string): Phrase | undefined;
  /**
   * Why the object of this kind, namespace and name does not exist although a manifest defines it: the API server
   * rejects it (semantics §9.4). Lookups never return rejected objects; messages about what depends on them say why.
   */
  rejected(kind: string, namespace: string, name: string): string | undefined;
  /** Why a Service of this name may exist in `namespace` although no manifest in scope defines it there (semantics §9.2, §9.3). */
  serviceUnknown(namespace: string, name: string, from?: string): Phrase | undefined;
  /** Why a Gateway may exist in `namespace` although no manifest in scope defines it (semantics §9.2), or undefined. */
  gatewayUnknown(namespace: string, from?: string): Phrase | undefined;
  endpointsOf(service: Service): ServiceEndpoints;
  /** The records a Service or workload (StatefulSet/pod names) gives rise to. */
  dnsRecordsFor(resource: Resource): readonly DnsRecord[];
  /**
   * A name as written in a pod, from a client namespace (semantics §3.3). `from`: the file that writes it, so that an
   * unrendered chart makes it unknown only beside that chart (analysis/unknowns.ts `localityOf`).
   */
  resolveName(name: string, fromNamespace: string, from?: string): NameResolution;
  /** Service environment variables a pod in `namespace` receives (semantics §4). */
  serviceEnv(namespace: string, enableServiceLinks?: boolean): readonly ServiceEnvVar[];
  /** NetworkPolicies whose podSelector selects the workload's pods (same namespace). */
  policiesSelecting(workload: Workload): readonly NetworkPolicy[];
  /** The Istio networking objects of a namespace (VirtualServices, DestinationRules, Istio Gateways, ServiceEntries; istio-semantics). */
  istioObjectsIn(namespace: string): IstioObjects;
  /**
   * The ServiceEntries of any namespace declaring this fully qualified host, exactly or by a wildcard host
   * (`*.example.com`), in cluster order (istio-semantics §I1).
   */
  serviceEntriesFor(fqdn: string): readonly ServiceEntry[];
  /** The DestinationRules of any namespace whose `host`, read from the rule's namespace, is this fully qualified host (istio-semantics §I3). */
  destinationRulesFor(fqdn: string): readonly DestinationRule[];
  /**
   * The DestinationRules for this host in variants the subjects' scope does not see (model/project.ts): a file written
   * to be applied on top of another (a VirtualService shifting traffic between subsets the other defines). None
   * without variants.
   */
  destinationRulesInVariants(fqdn: string): readonly DestinationRule[];
  /** The Ingresses of any namespace with a rule for this host (`''`: rules without a host), in cluster order. */
  ingressesClaiming(host: string): readonly Ingress[];
  /** The Gateway API routes of any namespace with a parentRef to the Gateway `namespace/name`, in cluster order. */
  routesNamingGateway(namespace: string, name: string): readonly GatewayRoute[];
  /** The cert-manager Certificates of a namespace: each writes the TLS Secret its `secretName` names there. */
  certificatesIn(namespace: string): readonly Certificate[];
  /** The Services of any namespace whose ExternalDNS hostname annotation publishes this name. */
  servicesPublishing(name: string): readonly Service[];
  /**
   * Whether the pods of `from` may connect to those of `to` (optionally on one port): both ends' NetworkPolicies,
   * docs/networkpolicy-semantics.md. Reads policies of both namespaces and the other policy kinds of the whole scope.
   * `from` is a workload, or pods no manifest describes (an ingress controller the settings name).
   */
  reach(from: Workload | Endpoint, to: Workload, port?: PortQuery): ReachResult;
}
