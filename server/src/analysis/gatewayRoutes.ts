// Gateway API over a cluster: which Gateway or Service a parentRef names and which of its listeners admit the route,
// what a backendRef resolves to, and which ReferenceGrant allows a cross-namespace reference (gateway semantics §G2–§G8).
// Every lookup goes through a GatewayLookup (a rule's lookup, or the cluster's indexes); "unknown" is an answer
// (precision over recall).

import type { Msg, Phrase } from '../l10n/l10n';
import type { Cluster } from '../model/cluster';
import {
  gatewayGroup,
  gatewayObjectsOf,
  isGateway,
  type Gateway,
  type GatewayListener,
  type GatewayRoute,
  type ParentRef,
  type ReferenceGrant,
  type RouteBackendRef,
  type RouteKind,
  type RouteRule,
} from '../model/gatewayApi';
import type { Resource, Service, ServicePort } from '../model/resources';
import { requirementMatches, type LabelSelector } from '../model/selector';
import { hasPlaceholder } from '../model/placeholder';
import { localityOf, unknownGateway, unknownService } from './unknowns';

export type Tri = boolean | 'unknown';

/** What the Gateway API semantics look up; rules pass their lookup (rules/rule.ts), features `clusterLookup`. */
export interface GatewayLookup {
  get(kind: string, namespace: string, name: string): readonly Resource[];
  service(namespace: string, name: string): Service | undefined;
  namespaceExists(namespace: string): boolean;
  namespaceDeclaration(namespace: string): Resource | undefined;
  referenceGrantsIn(namespace: string): readonly ReferenceGrant[];
  /**
   * Why a Service of this name may exist though no manifest defines it (an operator's, semantics §9.2), or undefined.
   * `from`: the asking file, so that an unrendered chart counts only beside it (analysis/unknowns.ts `localityOf`).
   */
  serviceUnknown(namespace: string, name: string, from?: string): Phrase | undefined;
  /** Why a Gateway may exist in `namespace` though no manifest defines it (an unrendered chart's, an operator's), or undefined. */
  gatewayUnknown(namespace: string, from?: string): Phrase | undefined;
}

/** The cluster's own indexes as a GatewayLookup (for hovers, lenses and the trace, which see the whole snapshot). */
export function clusterLookup(cluster: Cluster): GatewayLookup {
  let found = lookups.get(cluster);
  if (found) return found;
  found = {
    get: (kind, namespace, name) => cluster.get(kind, namespace, name),
    service: (namespace, name) => cluster.service(namespace, name),
    namespaceExists: (namespace) => cluster.namespaces.has(namespace),
    namespaceDeclaration: (namespace) => cluster.declaredNamespaces.get(namespace),
    referenceGrantsIn: (namespace) => gatewayObjectsOf(cluster.objectsIn(namespace)?.resources).referenceGrants,
    serviceUnknown: (namespace, name, from) => unknownService(cluster, namespace, name, from ? localityOf(from) : ''),
    gatewayUnknown: (namespace, from) => unknownGateway(cluster, namespace, from ? localityOf(from) : ''),
  };
  lookups.set(cluster, found);
  return found;
}

const lookups = new WeakMap<Cluster, GatewayLookup>();

/** What a parentRef names (gateway semantics §G2, §G8). */
export type ParentTarget =
  | {
      readonly kind: 'gateway';
      readonly namespace: string;
      readonly gateway: Gateway;
      /**
       * Every definition of the Gateway is in a folder below the route's (another example's Gateway of that name,
       * in a documentation folder): a folder applied as a whole does not reach into its subfolders, so the route is
       * not known to be applied with it, and a refusal is not judged (attachToGateway).
       */
      readonly onlyBelow: boolean;
    }
  | { readonly kind: 'service'; readonly namespace: string; readonly service: Service }
  /** Nothing of that kind and name in a namespace the manifests populate. */
  | { readonly kind: 'missing'; readonly namespace: string; readonly targetKind: 'Gateway' | 'Service' }
  /** Another kind, or a namespace no manifest populates. */
  /**
   * `outside`: unknown only because something outside the manifests may supply a parent of that name (an unrendered
   * chart, an operator's custom resource: semantics §9.2); a rule may still report a typo of a parent that is there.
   */
  | { readonly kind: 'unknown'; readonly namespace: string; readonly outside?: boolean };

export function parentTarget(lookup: GatewayLookup, route: GatewayRoute, ref: ParentRef): ParentTarget {
  const namespace = ref.namespace ?? route.namespace;
  // A name a tool fills in later (`${GATEWAY}`) says nothing yet.
  if (ref.name === undefined || hasPlaceholder(ref.name) || hasPlaceholder(namespace)) return { kind: 'unknown', namespace };
  if (ref.group === gatewayGroup && ref.kind === 'Gateway') {
    const gateways = lookup.get('Gateway', namespace, ref.name).filter(isGateway);
    // Variants this file is part of none of (install variants, examples side by side that each write the Gateway
    // their own way) leave it several different definitions: which one the route meets is unknown.
    if (gateways.length > 1 && gateways.some((g) => !sameDefinition(g, gateways[0]))) return { kind: 'unknown', namespace };
    const gateway = gateways[0];
    if (gateway) return { kind: 'gateway', namespace, gateway, onlyBelow: gateways.every((g) => inFolderBelow(g.uri, route.uri)) };
    if (!namespaceKnown(lookup, namespace)) return { kind: 'unknown', namespace };
    return lookup.gatewayUnknown(namespace, route.uri) ? { kind: 'unknown', namespace, outside: true } : { kind: 'missing', namespace, targetKind: 'Gateway' };
  }
  if (ref.group === '' && ref.kind === 'Service') {
    const service = lookup.service(namespace, ref.name);
    if (service) return { kind: 'service', namespace, service };
    const known = namespaceKnown(lookup, namespace) && !lookup.serviceUnknown(namespace, ref.name, route.uri);
    return known ? { kind: 'missing', namespace, targetKind: 'Service' } : { kind: 'unknown', namespace };
  }
  return { kind: 'unknown', namespace };
}

/** Whether the file `uri` is in a folder strictly below the folder of the file `of` (a rendered build is one file). */
function inFolderBelow(uri: string, of: string): boolean {
  const folder = of.slice(0, of.lastIndexOf('/') + 1);
  return uri.startsWith(folder) && uri.indexOf('/', folder.length) >= 0;
}

/** Whether two definitions of a Gateway say the same of what routes attach to (class and listeners), wherever written. */
function sameDefinition(a: Gateway, b: Gateway): boolean {
  const bare = (g: Gateway) =>
    JSON.stringify([g.gatewayClassName, g.listeners], (key, value: unknown) =>
      key === 'span' || key.endsWith('Span') || key.endsWith('Spans') ? undefined : value instanceof Map ? [...value] : value,
    );
  return a === b || bare(a) === bare(b);
}

/** Whether the manifests say what a namespace holds: some object is in it, or a Namespace manifest declares it (semantics §9.3). */
export function namespaceKnown(lookup: GatewayLookup, namespace: string): boolean {
  return lookup.namespaceExists(namespace);
}

/** The route kinds a listener protocol implies (GW `AllowedRoutes.Kinds`); undefined for an implementation-specific protocol. */
export function protocolKinds(protocol: string | undefined): readonly RouteKind[] | undefined {
  switch (protocol?.toUpperCase()) {
    case 'HTTP':
    case 'HTTPS':
      return ['HTTPRoute', 'GRPCRoute'];
    case 'TLS':
      return ['TLSRoute'];
    case 'TCP':
      return ['TCPRoute'];
    case 'UDP':
      return ['UDPRoute'];
    default:
      return undefined;
  }
}

/** The kinds a listener admits, as written or implied; undefined when the protocol decides and is not a core one. */
export function listenerKinds(listener: GatewayListener): readonly string[] | undefined {
  if (listener.kinds.length) return listener.kinds.filter((k) => k.group === gatewayGroup).map((k) => k.kind);
  return protocolKinds(listener.protocol);
}

export function admitsKind(listener: GatewayListener, kind: RouteKind): Tri {
  const kinds = listenerKinds(listener);
  if (!kinds) return 'unknown';
  if (kinds.includes(kind)) return true;
  // A TLS listener that terminates hands the decrypted stream on as TCP: the core combinations name only TLSRoute
  // (GW `Listeners`: "TLSRoute, Protocol: TLS, TLS Mode: Passthrough"), and when `allowedRoutes.kinds` is empty the
  // implementation selects the kinds (GW `AllowedRoutes.Kinds`); several attach TCPRoutes there, so it is unknown.
  if (!listener.kinds.length && listener.protocol?.toUpperCase() === 'TLS' && listener.tls?.mode === 'Terminate' && kind === 'TCPRoute') return 'unknown';
  return false;
}

/** Whether a listener of a Gateway in `gatewayNamespace` admits routes of `routeNamespace` (gateway semantics §G3). */
export function admitsNamespace(lookup: GatewayLookup, listener: GatewayListener, gatewayNamespace: string, routeNamespace: string): Tri {
  switch (listener.from) {
    case 'Same':
      return routeNamespace === gatewayNamespace;
    case 'All':
      return true;
    case 'Selector': {
      if (!listener.namespaceSelector) return false;
      const declared = lookup.namespaceDeclaration(routeNamespace);
      return selectorOnNamespace(listener.namespaceSelector, routeNamespace, declared?.labels);
    }
    default:
      return 'unknown';
  }
}

const nameLabel = 'kubernetes.io/metadata.name';

/**
 * A label selector over a namespace's labels. Without a Namespace manifest only `kubernetes.io/metadata.name` is
 * known (semantics §9.3): a term on any other label is unknown, unless a known term already fails.
 */
export function selectorOnNamespace(selector: LabelSelector, namespace: string, declaredLabels: ReadonlyMap<string, string> | undefined): Tri {
  const labels = new Map(declaredLabels ?? []);
  labels.set(nameLabel, namespace);
  const known = (key: string) => declaredLabels !== undefined || key === nameLabel;
  let unknown = false;
  for (const [k, v] of selector.matchLabels) {
    if (!known(k)) unknown = true;
    else if (labels.get(k) !== v) return false;
  }
  for (const r of selector.matchExpressions) {
    if (!known(r.key)) {
      unknown = true;
      continue;
    }
    if (!requirementMatches(r, labels)) return false;
  }
  return unknown ? 'unknown' : true;
}

/** Whether two hostnames (either may be a `*.` wildcard) can match one request (gateway semantics §G4). */
export function hostnamesIntersect(a: string, b: string): boolean {
  if (a === b) return true;
  const wa = a.startsWith('*.');
  const wb = b.startsWith('*.');
  if (wa && wb) return a.slice(1).endsWith(b.slice(1)) || b.slice(1).endsWith(a.slice(1));
  if (wa) return b.endsWith(a.slice(1)) && b.length > a.length - 1;
  if (wb) return a.endsWith(b.slice(1)) && a.length > b.length - 1;
  return false;
}

/** Whether a route's hostnames meet a listener's (a side that sets none matches all). */
export function hostnamesMeet(listener: GatewayListener, route: GatewayRoute): boolean {
  if (!listener.hostname || !route.hostnames.length) return true;
  if (hasPlaceholder(listener.hostname) || route.hostnames.some((h) => hasPlaceholder(h.value))) return true;
  const p = listener.protocol?.toUpperCase();
  if (p === 'TCP' || p === 'UDP') return true;
  return route.hostnames.some((h) => hostnamesIntersect(listener.hostname!, h.value));
}

/** One listener's answer to a route. */
export interface ListenerVerdict {
  readonly listener: GatewayListener;
  readonly kind: Tri;
  readonly namespace: Tri;
  readonly hostname: boolean;
}

export type AttachOutcome = 'attached' | 'no-listener' | 'not-allowed' | 'hostname' | 'unknown';

export interface Attachment {
  /** The listeners `sectionName` and `port` select (every listener when neither is set). */
  readonly selected: readonly ListenerVerdict[];
  readonly outcome: AttachOutcome;
  /** The listeners would refuse the route, but the Gateway is written only in folders below the route's: unknown. */
  readonly onlyBelow?: true;
}

/** How a route's parentRef attaches to the Gateway it names (gateway semantics §G2–§G4). */
export function attachToGateway(lookup: GatewayLookup, route: GatewayRoute, ref: ParentRef, target: Extract<ParentTarget, { kind: 'gateway' }>): Attachment {
  const a = attachToListeners(lookup, route, ref, target.gateway);
  return target.onlyBelow && (a.outcome === 'no-listener' || a.outcome === 'not-allowed' || a.outcome === 'hostname')
    ? { selected: a.selected, outcome: 'unknown', onlyBelow: true }
    : a;
}

function attachToListeners(lookup: GatewayLookup, route: GatewayRoute, ref: ParentRef, gateway: Gateway): Attachment {
  if (ref.sectionName !== undefined && hasPlaceholder(ref.sectionName)) return { selected: [], outcome: 'unknown' };
  const selected = gateway.listeners
    .filter((l) => (ref.sectionName === undefined || l.name === ref.sectionName) && (ref.port === undefined || l.port === ref.port))
    .map((listener): ListenerVerdict => ({
      listener,
      kind: admitsKind(listener, route.kind),
      namespace: admitsNamespace(lookup, listener, gateway.namespace, route.namespace),
      hostname: hostnamesMeet(listener, route),
    }));
  if (!selected.length) return { selected, outcome: 'no-listener' };
  if (selected.some((v) => v.kind === true && v.namespace === true && v.hostname)) return { selected, outcome: 'attached' };
  if (selected.some((v) => v.kind !== false && v.namespace !== false && (v.kind === 'unknown' || v.namespace === 'unknown')))
    return { selected, outcome: 'unknown' };
  if (selected.some((v) => v.kind === true && v.namespace === true)) return { selected, outcome: 'hostname' };
  return { selected, outcome: 'not-allowed' };
}

/** A route's parentRef that names a Gateway of the manifests, with how it attaches (gateway semantics §G2–§G4). */
export interface GatewayAttachment {
  readonly ref: ParentRef;
  readonly gateway: Gateway;
  readonly attachment: Attachment;
}

/** Every parentRef of a route that names a Gateway in scope, with its attachment: the one walk the rules share. */
export function* gatewayAttachments(lookup: GatewayLookup, route: GatewayRoute): Iterable<GatewayAttachment> {
  for (const ref of route.parentRefs) {
    const target = parentTarget(lookup, route, ref);
    if (target.kind === 'gateway') yield { ref, gateway: target.gateway, attachment: attachToGateway(lookup, route, ref, target) };
  }
}

/** The listeners, over all of a route's parentRefs, that accept it (gateway semantics §G2–§G4). */
export function acceptingListeners(lookup: GatewayLookup, route: GatewayRoute): { gateway: Gateway; listener: GatewayListener }[] {
  const out: { gateway: Gateway; listener: GatewayListener }[] = [];
  for (const { gateway, attachment } of gatewayAttachments(lookup, route)) {
    for (const v of attachment.selected) {
      if (v.kind === true && v.namespace === true && v.hostname && !out.some((o) => o.listener === v.listener)) out.push({ gateway, listener: v.listener });
    }
  }
  return out;
}

/** Whether a parentRef's `sectionName`/`port` name a port of a Service parent (gateway semantics §G8). */
export function servicePortOfParent(service: Service, ref: ParentRef): ServicePort | undefined {
  return service.ports.find((p) => (ref.sectionName === undefined || p.name === ref.sectionName) && (ref.port === undefined || p.port === ref.port));
}

/** Why a cross-namespace reference is or is not allowed (gateway semantics §G6). */
export interface GrantAnswer {
  readonly allowed: Tri;
  readonly grant?: ReferenceGrant;
}

/**
 * Whether a ReferenceGrant in `toNamespace` lets an object {from group, kind, namespace} refer to {to group, kind,
 * name}. Unknown when no manifest populates that namespace.
 */
export function grantFor(
  lookup: GatewayLookup,
  from: { group: string; kind: string; namespace: string },
  to: { group: string; kind: string; namespace: string; name: string },
): GrantAnswer {
  if (from.namespace === to.namespace) return { allowed: true };
  if (!lookup.namespaceExists(to.namespace)) return { allowed: 'unknown' };
  for (const r of lookup.referenceGrantsIn(to.namespace)) {
    const fromOk = r.from.some((f) => f.group === from.group && f.kind === from.kind && f.namespace === from.namespace);
    const toOk = r.to.some((t) => t.group === to.group && t.kind === to.kind && (t.name === undefined || t.name === to.name));
    if (fromOk && toOk) return { allowed: true, grant: r };
  }
  return { allowed: false };
}

export type BackendProblem = 'missing' | 'port-missing' | 'port-unknown' | 'refgrant' | 'externalname';

/** What a backendRef resolves to (gateway semantics §G5–§G7). */
export interface BackendVerdict {
  readonly status: 'valid' | 'invalid' | 'unknown';
  readonly namespace: string;
  readonly service?: Service;
  readonly servicePort?: ServicePort;
  /** Every reason it is invalid, in the order a controller checks them. */
  readonly problems: readonly BackendProblem[];
}

/**
 * The Service backendRefs without a port: the CRD's validation (`BackendObjectReference`, "Must have port for Service
 * reference") makes the API server reject the whole route, which then does not exist (semantics §9.4).
 */
export function portlessServiceRefs(route: GatewayRoute): RouteBackendRef[] {
  return route.rules.flatMap((r) => r.backendRefs.filter((b) => b.group === '' && b.kind === 'Service' && b.port === undefined));
}

export function backendVerdict(lookup: GatewayLookup, route: GatewayRoute, ref: RouteBackendRef): BackendVerdict {
  const namespace = ref.namespace ?? route.namespace;
  if (ref.group !== '' || ref.kind !== 'Service' || ref.name === undefined) return { status: 'unknown', namespace, problems: [] };
  if (hasPlaceholder(ref.name) || hasPlaceholder(namespace)) return { status: 'unknown', namespace, problems: [] };
  const problems: BackendProblem[] = [];
  if (ref.port === undefined) problems.push('port-missing');
  let unknown = false;
  if (namespace !== route.namespace) {
    const grant = grantFor(
      lookup,
      { group: gatewayGroup, kind: route.kind, namespace: route.namespace },
      { group: '', kind: 'Service', namespace, name: ref.name },
    );
    if (grant.allowed === 'unknown') unknown = true;
    else if (!grant.allowed) problems.push('refgrant');
  }
  const service = lookup.service(namespace, ref.name);
  if (!service) {
    // A namespace no manifest describes, or a Service an operator may create there: unknown (semantics §9.2, §9.3).
    if (!namespaceKnown(lookup, namespace) || lookup.serviceUnknown(namespace, ref.name))
      return { status: problems.length ? 'invalid' : 'unknown', namespace, problems };
    problems.push('missing');
    return { status: 'invalid', namespace, problems };
  }
  if (service.type === 'ExternalName') problems.push('externalname');
  let servicePort: ServicePort | undefined;
  if (ref.port !== undefined) {
    servicePort = service.ports.find((p) => p.port === ref.port);
    // An ExternalName Service may declare no ports at all; its port is then not the question.
    if (!servicePort && !(service.type === 'ExternalName' && !service.ports.length)) problems.push('port-unknown');
  }
  const status = problems.length ? 'invalid' : unknown ? 'unknown' : 'valid';
  return { status, namespace, service, servicePort, problems };
}

/** Why a backend is invalid, in words (gateway semantics §G7), in the words of `msg`. */
export function problemsText(problems: readonly BackendProblem[], msg: Msg): string {
  const words: Record<BackendProblem, string> = {
    missing: msg('no such Service'),
    'port-missing': msg('no port'),
    'port-unknown': msg('not a port of the Service'),
    refgrant: msg('no ReferenceGrant'),
    externalname: msg('an ExternalName Service'),
  };
  return problems.map((p) => words[p]).join(msg(', '));
}

/** Each backend's share of a rule's requests (weight / sum of weights; SHARED `BackendRef.Weight`). */
export function backendShares(rule: RouteRule): readonly number[] {
  const total = rule.backendRefs.reduce((s, b) => s + Math.max(0, b.weight), 0);
  return rule.backendRefs.map((b) => (total > 0 ? Math.max(0, b.weight) / total : 0));
}

/** What a client sees for traffic sent to an invalid backend (gateway semantics §G7): what the traffic is, and what happens to it, in the words of `msg`. */
export function failureOf(kind: RouteKind, msg: Msg): { readonly traffic: string; readonly fate: string } {
  switch (kind) {
    case 'HTTPRoute':
      return { traffic: msg('requests'), fate: msg('get HTTP 500') };
    case 'GRPCRoute':
      return { traffic: msg('calls'), fate: msg('get gRPC status UNAVAILABLE') };
    case 'UDPRoute':
      return { traffic: msg('datagrams'), fate: msg('are dropped') };
    default:
      return { traffic: msg('connections'), fate: msg('are refused') };
  }
}

export function percent(share: number): string {
  const p = share * 100;
  return `${Number.isInteger(p) ? p : p.toFixed(1)}%`;
}
