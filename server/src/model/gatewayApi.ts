// Gateway API objects (gateway.networking.k8s.io, every version): Gateways with their listeners, GatewayClasses,
// the five route kinds and ReferenceGrants, with the span of every field a finding or hover points at.
// Defaults are applied as the CRDs apply them (gateway semantics §G2, §G3, §G5); readers never throw.

import { readLabelSelector, type ResourceBase } from './resources';
import type { LabelSelector } from './selector';
import type { Span } from './span';
import { at, entry, int, isMap, items, text, type YMap, type YNode } from './yamlTree';

export const gatewayGroup = 'gateway.networking.k8s.io';

export type RouteKind = 'HTTPRoute' | 'GRPCRoute' | 'TLSRoute' | 'TCPRoute' | 'UDPRoute';
export const routeKinds: readonly RouteKind[] = ['HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute', 'UDPRoute'];

/** A reference to another object, with the defaults of its field already applied. */
export interface ObjectRefField {
  readonly group: string;
  readonly kind: string;
  readonly name?: string;
  /** The namespace written; undefined means the referring object's own. */
  readonly namespace?: string;
  readonly nameSpan?: Span;
  readonly namespaceSpan?: Span;
  readonly kindSpan?: Span;
  readonly span: Span;
}

export interface ParentRef extends ObjectRefField {
  readonly index: number;
  readonly sectionName?: string;
  readonly sectionNameSpan?: Span;
  readonly port?: number;
  readonly portSpan?: Span;
}

export interface RouteBackendRef extends ObjectRefField {
  readonly index: number;
  readonly port?: number;
  readonly portSpan?: Span;
  /** Defaults to 1 (SHARED `BackendRef.Weight`). */
  readonly weight: number;
  readonly weightSpan?: Span;
}

export interface RouteRule {
  readonly index: number;
  /** `name` of the rule, when written. */
  readonly name?: string;
  /** Each match as one line: `PathPrefix /api, GET, header x-env=canary`, `service/method`. */
  readonly matches: readonly string[];
  /**
   * HTTPRoute: each match as the request it claims, in one canonical form (defaults applied: a rule without matches
   * is one `PathPrefix /` match; header names lower case; headers and query parameters sorted), so that two rules
   * that match the same requests have the same key (gateway semantics §G9); the span is the match's path value or
   * the match (the rule, for the implicit match). Empty for other kinds.
   */
  readonly matchClaims: readonly MatchClaim[];
  /** The type of each rule-level filter (`RequestRedirect`, `URLRewrite`…). */
  readonly filters: readonly string[];
  readonly backendRefs: readonly RouteBackendRef[];
  readonly backendRefsSpan?: Span;
  readonly span: Span;
}

export interface MatchClaim {
  readonly key: string;
  readonly span: Span;
}

export interface RouteHostname {
  readonly value: string;
  readonly span: Span;
}

export interface GatewayRoute extends ResourceBase {
  readonly kind: RouteKind;
  readonly parentRefs: readonly ParentRef[];
  readonly parentRefsSpan?: Span;
  /** HTTPRoute, GRPCRoute and TLSRoute only (gateway semantics §G4). */
  readonly hostnames: readonly RouteHostname[];
  readonly hostnamesSpan?: Span;
  readonly rules: readonly RouteRule[];
}

export interface ListenerTls {
  /** Defaults to `Terminate`. */
  readonly mode: string;
  readonly modeSpan?: Span;
  readonly certificateRefs: readonly ObjectRefField[];
  readonly optionsWritten: boolean;
  /** The `tls` key. */
  readonly keySpan: Span;
  readonly span: Span;
}

export interface RouteGroupKind {
  readonly group: string;
  readonly kind: string;
  readonly span: Span;
}

export interface GatewayListener {
  readonly index: number;
  readonly name?: string;
  readonly nameSpan?: Span;
  readonly port?: number;
  readonly portSpan?: Span;
  readonly protocol?: string;
  readonly protocolSpan?: Span;
  readonly hostname?: string;
  readonly hostnameSpan?: Span;
  readonly tls?: ListenerTls;
  /** `Same` (the default), `All`, `Selector`, or what was written. */
  readonly from: string;
  readonly fromSpan?: Span;
  readonly namespaceSelector?: LabelSelector;
  /** Explicit `allowedRoutes.kinds`; empty means the protocol's kinds. */
  readonly kinds: readonly RouteGroupKind[];
  readonly allowedRoutesSpan?: Span;
  readonly span: Span;
}

export interface Gateway extends ResourceBase {
  readonly kind: 'Gateway';
  readonly gatewayClassName?: string;
  readonly gatewayClassNameSpan?: Span;
  readonly listeners: readonly GatewayListener[];
  readonly listenersSpan?: Span;
}

export interface GatewayClass extends ResourceBase {
  readonly kind: 'GatewayClass';
  readonly controllerName?: string;
  readonly controllerNameSpan?: Span;
}

export interface ReferenceGrantFrom {
  readonly group: string;
  readonly kind: string;
  readonly namespace: string;
  readonly span: Span;
}

export interface ReferenceGrantTo {
  readonly group: string;
  readonly kind: string;
  /** Undefined: every object of that group and kind in the grant's namespace. */
  readonly name?: string;
  readonly span: Span;
}

export interface ReferenceGrant extends ResourceBase {
  readonly kind: 'ReferenceGrant';
  readonly from: readonly ReferenceGrantFrom[];
  readonly to: readonly ReferenceGrantTo[];
}

export type GatewayApiResource = Gateway | GatewayClass | GatewayRoute | ReferenceGrant;

/** Whether an apiVersion is of the Gateway API group (any version). */
export function isGatewayApiVersion(apiVersion: string): boolean {
  return apiVersion.startsWith(`${gatewayGroup}/`);
}

export function isGateway(r: ResourceBase): r is Gateway {
  return r.kind === 'Gateway' && 'listeners' in r;
}

export function isRoute(r: ResourceBase): r is GatewayRoute {
  return (routeKinds as readonly string[]).includes(r.kind) && 'parentRefs' in r;
}

export function isReferenceGrant(r: ResourceBase): r is ReferenceGrant {
  return r.kind === 'ReferenceGrant' && 'to' in r;
}

/**
 * A namespace's ReferenceGrants and Secrets, picked out once per list of objects. Its Gateways are a list of the
 * cluster's own (model/cluster.ts `NamespaceObjects.gateways`).
 */
export interface GatewayObjects {
  readonly referenceGrants: readonly ReferenceGrant[];
  readonly secrets: readonly ResourceBase[];
}

const picked = new WeakMap<readonly ResourceBase[], GatewayObjects>();
const nothing: GatewayObjects = { referenceGrants: [], secrets: [] };

export function gatewayObjectsOf(resources: readonly ResourceBase[] | undefined): GatewayObjects {
  if (!resources?.length) return nothing;
  let found = picked.get(resources);
  if (found) return found;
  const referenceGrants: ReferenceGrant[] = [];
  const secrets: ResourceBase[] = [];
  for (const r of resources) {
    if (isReferenceGrant(r)) referenceGrants.push(r);
    else if (r.kind === 'Secret') secrets.push(r);
  }
  picked.set(resources, (found = { referenceGrants, secrets }));
  return found;
}

/** Reads a Gateway API object; undefined for kinds of the group that the analysis does not read. */
export function readGatewayApi(base: ResourceBase, root: YMap): GatewayApiResource | undefined {
  const spec = at(root, 'spec');
  switch (base.kind) {
    case 'Gateway':
      return readGateway(base, spec);
    case 'GatewayClass':
      return { ...base, kind: 'GatewayClass', controllerName: text(at(spec, 'controllerName')), controllerNameSpan: at(spec, 'controllerName')?.span };
    case 'HTTPRoute':
    case 'GRPCRoute':
    case 'TLSRoute':
    case 'TCPRoute':
    case 'UDPRoute':
      return readRoute(base, base.kind, spec);
    case 'ReferenceGrant':
      return readReferenceGrant(base, spec);
    default:
      return undefined;
  }
}

/** A group field: absent means `fallback`; written as `""` (or `core`) means the core group. */
function groupOf(n: YNode | undefined, fallback: string): string {
  if (n === undefined) return fallback;
  if (n.type === 'scalar' && (n.value === null || n.value === '')) return '';
  const g = text(n);
  return g === undefined ? fallback : g === 'core' ? '' : g;
}

function readRef(n: YNode, group: string, kind: string): ObjectRefField {
  return {
    group: groupOf(at(n, 'group'), group),
    kind: text(at(n, 'kind')) ?? kind,
    name: text(at(n, 'name')),
    namespace: text(at(n, 'namespace')) || undefined,
    nameSpan: at(n, 'name')?.span,
    namespaceSpan: at(n, 'namespace')?.span,
    kindSpan: at(n, 'kind')?.span,
    span: n.span,
  };
}

function readRoute(base: ResourceBase, kind: RouteKind, spec: YNode | undefined): GatewayRoute {
  const parentRefs = items(at(spec, 'parentRefs'))
    .filter(isMap)
    .map((p, index): ParentRef => ({
      ...readRef(p, gatewayGroup, 'Gateway'),
      index,
      sectionName: text(at(p, 'sectionName')) || undefined,
      sectionNameSpan: at(p, 'sectionName')?.span,
      port: int(at(p, 'port')),
      portSpan: at(p, 'port')?.span,
    }));
  const hasHostnames = kind === 'HTTPRoute' || kind === 'GRPCRoute' || kind === 'TLSRoute';
  const hostnames = hasHostnames
    ? items(at(spec, 'hostnames')).flatMap((h) => {
        const v = text(h);
        return v ? [{ value: v.toLowerCase(), span: h.span }] : [];
      })
    : [];
  const rules = items(at(spec, 'rules'))
    .filter(isMap)
    .map((r, index): RouteRule => ({
      index,
      name: text(at(r, 'name')),
      matches: items(at(r, 'matches')).map((m) => (kind === 'GRPCRoute' ? grpcMatch(m) : httpMatch(m))),
      matchClaims: kind === 'HTTPRoute' ? httpMatchClaims(r) : [],
      filters: items(at(r, 'filters')).map((f) => text(at(f, 'type')) ?? 'filter'),
      backendRefs: items(at(r, 'backendRefs'))
        .filter(isMap)
        .map((b, i): RouteBackendRef => ({
          ...readRef(b, '', 'Service'),
          index: i,
          port: int(at(b, 'port')),
          portSpan: at(b, 'port')?.span,
          weight: int(at(b, 'weight')) ?? 1,
          weightSpan: at(b, 'weight')?.span,
        })),
      backendRefsSpan: entry(r, 'backendRefs')?.keySpan,
      span: r.span,
    }));
  return {
    ...base,
    kind,
    parentRefs,
    parentRefsSpan: entry(spec, 'parentRefs')?.keySpan,
    hostnames,
    hostnamesSpan: hasHostnames ? entry(spec, 'hostnames')?.keySpan : undefined,
    rules,
  };
}

function httpMatch(m: YNode): string {
  const parts: string[] = [];
  const path = at(m, 'path');
  if (isMap(path) || path === undefined) parts.push(`${text(at(path, 'type')) ?? 'PathPrefix'} ${text(at(path, 'value')) ?? '/'}`);
  const method = text(at(m, 'method'));
  if (method) parts.push(method);
  for (const h of items(at(m, 'headers'))) parts.push(`header ${text(at(h, 'name')) ?? '?'}=${text(at(h, 'value')) ?? ''}`);
  for (const q of items(at(m, 'queryParams'))) parts.push(`query ${text(at(q, 'name')) ?? '?'}=${text(at(q, 'value')) ?? ''}`);
  return parts.join(', ');
}

/** The canonical claims of an HTTPRoute rule's matches (the CRD's defaults: path `PathPrefix /`, header and query `Exact`). */
function httpMatchClaims(rule: YNode): MatchClaim[] {
  const list = items(at(rule, 'matches'));
  if (!list.length) return [{ key: 'PathPrefix /', span: entry(rule, 'backendRefs')?.keySpan ?? rule.span }];
  return list.map((m) => {
    const path = at(m, 'path');
    const parts = [`${text(at(path, 'type')) ?? 'PathPrefix'} ${text(at(path, 'value')) ?? '/'}`];
    const method = text(at(m, 'method'));
    if (method) parts.push(`method ${method.toUpperCase()}`);
    const pairs = (key: string, fold: boolean) =>
      items(at(m, key))
        .map(
          (h) =>
            `${text(at(h, 'type')) ?? 'Exact'} ${fold ? (text(at(h, 'name')) ?? '').toLowerCase() : (text(at(h, 'name')) ?? '')}=${text(at(h, 'value')) ?? ''}`,
        )
        .sort();
    for (const h of pairs('headers', true)) parts.push(`header ${h}`);
    for (const q of pairs('queryParams', false)) parts.push(`query ${q}`);
    return { key: parts.join(', '), span: at(path, 'value')?.span ?? (isMap(m) ? [...m.entries.values()][0]?.keySpan : undefined) ?? m.span };
  });
}

function grpcMatch(m: YNode): string {
  const method = at(m, 'method');
  const parts = [`${text(at(method, 'service')) ?? '*'}/${text(at(method, 'method')) ?? '*'}`];
  for (const h of items(at(m, 'headers'))) parts.push(`header ${text(at(h, 'name')) ?? '?'}=${text(at(h, 'value')) ?? ''}`);
  return parts.join(', ');
}

function readGateway(base: ResourceBase, spec: YNode | undefined): Gateway {
  const listeners = items(at(spec, 'listeners'))
    .filter(isMap)
    .map((l, index): GatewayListener => {
      const tlsEntry = entry(l, 'tls');
      const tlsNode = tlsEntry?.value;
      const tls: ListenerTls | undefined = tlsEntry
        ? {
            mode: text(at(tlsNode, 'mode')) || 'Terminate',
            modeSpan: at(tlsNode, 'mode')?.span,
            certificateRefs: items(at(tlsNode, 'certificateRefs'))
              .filter(isMap)
              .map((c) => readRef(c, '', 'Secret')),
            optionsWritten: isMap(at(tlsNode, 'options')) && (at(tlsNode, 'options') as YMap).entries.size > 0,
            keySpan: tlsEntry.keySpan,
            span: tlsEntry.value.span,
          }
        : undefined;
      const allowed = at(l, 'allowedRoutes');
      const namespaces = at(allowed, 'namespaces');
      return {
        index,
        name: text(at(l, 'name')),
        nameSpan: at(l, 'name')?.span,
        port: int(at(l, 'port')),
        portSpan: at(l, 'port')?.span,
        protocol: text(at(l, 'protocol')),
        protocolSpan: at(l, 'protocol')?.span,
        hostname: text(at(l, 'hostname'))?.toLowerCase() || undefined,
        hostnameSpan: at(l, 'hostname')?.span,
        tls,
        from: text(at(namespaces, 'from')) ?? 'Same',
        fromSpan: at(namespaces, 'from')?.span,
        namespaceSelector: readLabelSelector(at(namespaces, 'selector')),
        kinds: items(at(allowed, 'kinds'))
          .filter(isMap)
          .flatMap((k) => {
            const kind = text(at(k, 'kind'));
            return kind ? [{ group: groupOf(at(k, 'group'), gatewayGroup), kind, span: k.span }] : [];
          }),
        allowedRoutesSpan: entry(l, 'allowedRoutes')?.keySpan,
        span: l.span,
      };
    });
  return {
    ...base,
    kind: 'Gateway',
    gatewayClassName: text(at(spec, 'gatewayClassName')),
    gatewayClassNameSpan: at(spec, 'gatewayClassName')?.span,
    listeners,
    listenersSpan: entry(spec, 'listeners')?.keySpan,
  };
}

function readReferenceGrant(base: ResourceBase, spec: YNode | undefined): ReferenceGrant {
  return {
    ...base,
    kind: 'ReferenceGrant',
    from: items(at(spec, 'from'))
      .filter(isMap)
      .flatMap((f) => {
        const kind = text(at(f, 'kind'));
        const namespace = text(at(f, 'namespace'));
        return kind && namespace ? [{ group: groupOf(at(f, 'group'), ''), kind, namespace, span: f.span }] : [];
      }),
    to: items(at(spec, 'to'))
      .filter(isMap)
      .flatMap((t) => {
        const kind = text(at(t, 'kind'));
        return kind ? [{ group: groupOf(at(t, 'group'), ''), kind, name: text(at(t, 'name')) || undefined, span: t.span }] : [];
      }),
  };
}
