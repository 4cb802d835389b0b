// Istio networking objects (networking.istio.io v1, v1beta1, v1alpha3): VirtualServices with their route and mirror
// destinations, DestinationRules with their subsets, Gateways with their selector and servers, ServiceEntries with
// their hosts, each with the span of every field a finding or hover points at (istio-semantics). Readers never throw.

import type { ResourceBase } from './resources';
import type { Span } from './span';
import { at, bool, entry, int, isMap, items, stringMap, text, type YMap, type YNode } from './yamlTree';

export const istioNetworkingGroup = 'networking.istio.io';

/** Whether an apiVersion is of Istio's networking group (any version). */
export function isIstioNetworkingVersion(apiVersion: string): boolean {
  return apiVersion.startsWith(`${istioNetworkingGroup}/`);
}

/** A `destination` of a route or a mirror. */
export interface IstioDestination {
  /** `http[0].route[1]`, `http[2].mirror`, `tcp[0].route[0]`: where it is written, for messages. */
  readonly where: string;
  /** `route` or `mirror`. */
  readonly role: 'route' | 'mirror';
  readonly host?: string;
  readonly hostSpan?: Span;
  readonly subset?: string;
  readonly subsetSpan?: Span;
  readonly port?: number;
  readonly portSpan?: Span;
  /** The `destination` mapping. */
  readonly span: Span;
}

export interface IstioHostEntry {
  readonly value: string;
  readonly span: Span;
}

export interface VirtualService extends ResourceBase {
  readonly kind: 'VirtualService';
  readonly hosts: readonly IstioHostEntry[];
  /** `gateways` as written (`mesh`, `name`, `namespace/name`); empty means `mesh`. */
  readonly gateways: readonly IstioHostEntry[];
  readonly destinations: readonly IstioDestination[];
}

export interface DestinationRuleSubset {
  readonly name?: string;
  readonly nameSpan?: Span;
  readonly labels: ReadonlyMap<string, string>;
  readonly labelsSpan?: Span;
  readonly labelSpans: ReadonlyMap<string, { readonly key: Span; readonly value: Span }>;
  readonly span: Span;
}

/**
 * A `tls` block of a DestinationRule's `trafficPolicy` (ClientTLSSettings): the destination's, or one of its
 * `portLevelSettings` (istio-semantics §I3).
 */
export interface DestinationRuleTls {
  /** `destination`: `trafficPolicy.tls`; `port`: `trafficPolicy.portLevelSettings[index].tls`. */
  readonly level: 'destination' | 'port';
  /** For port level settings: the index in `portLevelSettings` and its `port.number`. */
  readonly index?: number;
  readonly port?: number;
  /** `mode` as written (`DISABLE`, `SIMPLE`, `MUTUAL`, `ISTIO_MUTUAL`). */
  readonly mode?: string;
  readonly modeSpan?: Span;
  /** Non-empty values only: an empty string is no value (the API's default). */
  readonly caCertificates?: string;
  readonly credentialName?: string;
  /** `insecureSkipVerify` when written as a boolean. */
  readonly insecureSkipVerify?: boolean;
  /** The `tls` mapping. */
  readonly span: Span;
}

export interface DestinationRule extends ResourceBase {
  readonly kind: 'DestinationRule';
  readonly host?: string;
  readonly hostSpan?: Span;
  readonly subsets: readonly DestinationRuleSubset[];
  /** The `tls` settings of `trafficPolicy` and of its `portLevelSettings`, in file order (subsets' own policies are not read). */
  readonly tls: readonly DestinationRuleTls[];
}

export interface IstioServer {
  readonly port?: number;
  /** `port.number`. */
  readonly portSpan?: Span;
  readonly portName?: string;
  readonly protocol?: string;
  readonly hosts: readonly IstioHostEntry[];
  readonly span: Span;
}

export interface IstioGateway extends ResourceBase {
  readonly kind: 'Gateway';
  /** `spec.selector`: the labels of the gateway pods (an equality map). */
  readonly selector: ReadonlyMap<string, string>;
  readonly selectorSpan?: Span;
  readonly selectorEntrySpans: ReadonlyMap<string, { readonly key: Span; readonly value: Span }>;
  readonly servers: readonly IstioServer[];
  /** Marks the object as Istio's Gateway (the Gateway API's has `listeners`). */
  readonly istio: true;
}

export interface ServiceEntry extends ResourceBase {
  readonly kind: 'ServiceEntry';
  readonly hosts: readonly IstioHostEntry[];
  readonly ports: readonly number[];
}

export type IstioResource = VirtualService | DestinationRule | IstioGateway | ServiceEntry;

export function isVirtualService(r: ResourceBase): r is VirtualService {
  return r.kind === 'VirtualService' && 'destinations' in r;
}

export function isDestinationRule(r: ResourceBase): r is DestinationRule {
  return r.kind === 'DestinationRule' && 'subsets' in r;
}

export function isIstioGateway(r: ResourceBase): r is IstioGateway {
  return r.kind === 'Gateway' && 'istio' in r;
}

export function isServiceEntry(r: ResourceBase): r is ServiceEntry {
  return r.kind === 'ServiceEntry' && 'hosts' in r && 'ports' in r;
}

/** A namespace's Istio objects, picked out once per list of objects. */
export interface IstioObjects {
  readonly virtualServices: readonly VirtualService[];
  readonly destinationRules: readonly DestinationRule[];
  readonly gateways: readonly IstioGateway[];
  readonly serviceEntries: readonly ServiceEntry[];
}

const picked = new WeakMap<readonly ResourceBase[], IstioObjects>();
const nothing: IstioObjects = { virtualServices: [], destinationRules: [], gateways: [], serviceEntries: [] };

export function istioObjectsOf(resources: readonly ResourceBase[] | undefined): IstioObjects {
  if (!resources?.length) return nothing;
  let found = picked.get(resources);
  if (found) return found;
  const virtualServices: VirtualService[] = [];
  const destinationRules: DestinationRule[] = [];
  const gateways: IstioGateway[] = [];
  const serviceEntries: ServiceEntry[] = [];
  for (const r of resources) {
    if (!isIstioNetworkingVersion(r.apiVersion)) continue;
    if (isVirtualService(r)) virtualServices.push(r);
    else if (isDestinationRule(r)) destinationRules.push(r);
    else if (isIstioGateway(r)) gateways.push(r);
    else if (isServiceEntry(r)) serviceEntries.push(r);
  }
  found =
    virtualServices.length || destinationRules.length || gateways.length || serviceEntries.length
      ? { virtualServices, destinationRules, gateways, serviceEntries }
      : nothing;
  picked.set(resources, found);
  return found;
}

/** Reads an Istio networking object; undefined for kinds the analysis does not read (Sidecar, EnvoyFilter…). */
export function readIstio(base: ResourceBase, root: YMap): IstioResource | undefined {
  const spec = at(root, 'spec');
  switch (base.kind) {
    case 'VirtualService':
      return readVirtualService(base, spec);
    case 'DestinationRule':
      return readDestinationRule(base, spec);
    case 'Gateway':
      return readGateway(base, spec);
    case 'ServiceEntry':
      return {
        ...base,
        kind: 'ServiceEntry',
        hosts: hostList(at(spec, 'hosts')),
        ports: items(at(spec, 'ports')).flatMap((p) => {
          const n = int(at(p, 'number'));
          return n === undefined ? [] : [n];
        }),
      };
    default:
      return undefined;
  }
}

function hostList(n: YNode | undefined): IstioHostEntry[] {
  return items(n).flatMap((h) => {
    const v = text(h);
    return v ? [{ value: v, span: h.span }] : [];
  });
}

function readDestination(n: YNode | undefined, where: string, role: 'route' | 'mirror'): IstioDestination | undefined {
  if (!isMap(n)) return undefined;
  const port = at(n, 'port', 'number');
  return {
    where,
    role,
    host: text(at(n, 'host')),
    hostSpan: at(n, 'host')?.span,
    subset: text(at(n, 'subset')) || undefined,
    subsetSpan: at(n, 'subset')?.span,
    port: int(port),
    portSpan: port?.span,
    span: n.span,
  };
}

function readVirtualService(base: ResourceBase, spec: YNode | undefined): VirtualService {
  const destinations: IstioDestination[] = [];
  for (const section of ['http', 'tcp', 'tls'] as const) {
    items(at(spec, section)).forEach((rule, i) => {
      items(at(rule, 'route')).forEach((route, j) => {
        const d = readDestination(at(route, 'destination'), `${section}[${i}].route[${j}]`, 'route');
        if (d) destinations.push(d);
      });
      if (section !== 'http') return;
      const mirror = readDestination(at(rule, 'mirror'), `http[${i}].mirror`, 'mirror');
      if (mirror) destinations.push(mirror);
      items(at(rule, 'mirrors')).forEach((m, j) => {
        const d = readDestination(at(m, 'destination'), `http[${i}].mirrors[${j}]`, 'mirror');
        if (d) destinations.push(d);
      });
    });
  }
  return { ...base, kind: 'VirtualService', hosts: hostList(at(spec, 'hosts')), gateways: hostList(at(spec, 'gateways')), destinations };
}

function readDestinationRule(base: ResourceBase, spec: YNode | undefined): DestinationRule {
  const subsets = items(at(spec, 'subsets'))
    .filter(isMap)
    .map((s): DestinationRuleSubset => {
      const labels = at(s, 'labels');
      const spans = new Map<string, { key: Span; value: Span }>();
      if (isMap(labels)) for (const [k, e] of labels.entries) spans.set(k, { key: e.keySpan, value: e.value.span });
      return {
        name: text(at(s, 'name')),
        nameSpan: at(s, 'name')?.span,
        labels: stringMap(labels),
        labelsSpan: entry(s, 'labels')?.keySpan,
        labelSpans: spans,
        span: s.span,
      };
    });
  const policy = at(spec, 'trafficPolicy');
  const tls: DestinationRuleTls[] = [];
  const own = readClientTls(at(policy, 'tls'), 'destination');
  if (own) tls.push(own);
  items(at(policy, 'portLevelSettings')).forEach((p, index) => {
    const t = readClientTls(at(p, 'tls'), 'port', index, int(at(p, 'port', 'number')));
    if (t) tls.push(t);
  });
  return { ...base, kind: 'DestinationRule', host: text(at(spec, 'host')), hostSpan: at(spec, 'host')?.span, subsets, tls };
}

function readClientTls(n: YNode | undefined, level: 'destination' | 'port', index?: number, port?: number): DestinationRuleTls | undefined {
  if (!isMap(n)) return undefined;
  const mode = at(n, 'mode');
  return {
    level,
    ...(index !== undefined ? { index } : {}),
    ...(port !== undefined ? { port } : {}),
    mode: text(mode),
    modeSpan: mode?.span,
    caCertificates: text(at(n, 'caCertificates')) || undefined,
    credentialName: text(at(n, 'credentialName')) || undefined,
    insecureSkipVerify: bool(at(n, 'insecureSkipVerify')),
    span: n.span,
  };
}

function readGateway(base: ResourceBase, spec: YNode | undefined): IstioGateway {
  const selector = at(spec, 'selector');
  const spans = new Map<string, { key: Span; value: Span }>();
  if (isMap(selector)) for (const [k, e] of selector.entries) spans.set(k, { key: e.keySpan, value: e.value.span });
  const servers = items(at(spec, 'servers'))
    .filter(isMap)
    .map((s): IstioServer => ({
      port: int(at(s, 'port', 'number')),
      portSpan: at(s, 'port', 'number')?.span,
      portName: text(at(s, 'port', 'name')),
      protocol: text(at(s, 'port', 'protocol')),
      hosts: hostList(at(s, 'hosts')),
      span: s.span,
    }));
  return { ...base, kind: 'Gateway', selector: stringMap(selector), selectorSpan: selector?.span, selectorEntrySpans: spans, servers, istio: true };
}
