// The quick pick of Services to trace: grouped by namespace, each showing its type, how many endpoints it has, and,
// when it is not the only Service of that name, where it comes from; then the Gateway routes, each traced from the
// listeners that accept it through its rules to its backends; then the Gateways, each traced from its listeners; then
// the Istio Gateways, each traced from its servers, and the VirtualServices, each traced from the servers that serve it.
import type { ServiceSummary } from '../../server/src/protocol';
import { english, type L10n } from './l10n';

type RouteKind = Exclude<ServiceSummary['kind'], 'Gateway' | 'IstioGateway' | 'VirtualService' | undefined>;

export type ServicePick =
  { readonly separator: string } | { readonly label: string; readonly description: string; readonly service: ServiceSummary; readonly current: boolean };

export interface PickOptions {
  /** The folder of a Service's file relative to the workspace (`apps/shop`), to tell same-named Services apart. */
  readonly folderOf?: (service: ServiceSummary) => string | undefined;
  /** The Service under the cursor: marked, and the one the picker starts on. */
  readonly current?: ServiceSummary;
  /** The words (vscode.l10n in the editor). */
  readonly l10n?: L10n;
}

export function servicePicks(all: readonly ServiceSummary[], options: PickOptions = {}): ServicePick[] {
  const l10n = options.l10n ?? english;
  const atCursor = l10n.t('at the cursor');
  const services = all.filter((s) => s.kind === undefined);
  const sorted = [...services].sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  const count = new Map<string, number>();
  for (const s of sorted) count.set(keyOf(s), (count.get(keyOf(s)) ?? 0) + 1);
  const picks: ServicePick[] = [];
  let namespace: string | undefined;
  for (const s of sorted) {
    if (s.namespace !== namespace) {
      namespace = s.namespace;
      picks.push({ separator: s.namespace });
    }
    // A Service of a Kustomize base is listed once per build root: each is "at the cursor" in the base.
    const current = options.current !== undefined && sameService(s, options.current);
    const parts = [
      `${s.type}${endpointsNote(s, l10n)}`,
      s.release,
      whereNote(s, (count.get(keyOf(s)) ?? 0) > 1, options.folderOf),
      current ? atCursor : undefined,
    ];
    picks.push({ label: s.name, description: parts.filter(Boolean).join(' · '), service: s, current });
  }
  // Each route once, traced from the listeners that accept it through its rules to every Service it sends to.
  const routes = new Map<string, { readonly r: NonNullable<ServiceSummary['routes']>[number]; readonly to: string[] }>();
  for (const s of sorted) {
    for (const r of s.routes ?? []) {
      const key = `${r.kind}/${r.namespace}/${r.name}`;
      const entry = routes.get(key) ?? { r, to: [] };
      if (!entry.to.includes(s.name)) entry.to.push(s.name);
      routes.set(key, entry);
    }
  }
  if (routes.size) picks.push({ separator: l10n.t('Gateway routes') });
  for (const { r, to } of routes.values()) {
    const via = r.listeners.length ? l10n.t('via {0}', r.listeners.join(', ')) : l10n.t('accepted by no Gateway');
    const route: ServiceSummary = { kind: r.kind as RouteKind, namespace: r.namespace, name: r.name, type: r.kind };
    picks.push({ label: `${r.kind} ${r.namespace}/${r.name} → ${to.join(', ')}`, description: via, service: route, current: false });
  }
  const gateways = all.filter((s) => s.kind === 'Gateway');
  if (gateways.length) picks.push({ separator: l10n.t('Gateways') });
  const gatewayCount = new Map<string, number>();
  for (const g of gateways) gatewayCount.set(keyOf(g), (gatewayCount.get(keyOf(g)) ?? 0) + 1);
  for (const g of gateways) {
    const listeners = (g.listeners ?? [])
      .map((l) => `${l.name}: ${l.routes === 1 ? l10n.t('{0} route', l.routes) : l10n.t('{0} routes', l.routes)}`)
      .join(' · ');
    const current = options.current !== undefined && sameService(g, options.current);
    const where = whereNote(g, (gatewayCount.get(keyOf(g)) ?? 0) > 1, options.folderOf);
    picks.push({
      label: `Gateway ${g.namespace}/${g.name}`,
      description: [listeners || l10n.t('no listeners'), where, current ? atCursor : undefined].filter(Boolean).join(' · '),
      service: g,
      current,
    });
  }
  picks.push(...istioPicks(all, options, l10n, atCursor));
  return picks;
}

/** Istio Gateways (their servers, how many VirtualServices each applies), then VirtualServices (hosts, Gateways, destinations). */
function istioPicks(all: readonly ServiceSummary[], options: PickOptions, l10n: L10n, atCursor: string): ServicePick[] {
  const picks: ServicePick[] = [];
  const count = new Map<string, number>();
  for (const s of all)
    if (s.kind === 'IstioGateway' || s.kind === 'VirtualService') count.set(`${s.kind}/${keyOf(s)}`, (count.get(`${s.kind}/${keyOf(s)}`) ?? 0) + 1);
  const push = (s: ServiceSummary, label: string, parts: readonly (string | undefined)[]) => {
    const current = options.current !== undefined && sameService(s, options.current);
    const where = whereNote(s, (count.get(`${s.kind}/${keyOf(s)}`) ?? 0) > 1, options.folderOf);
    picks.push({ label, description: [...parts, where, current ? atCursor : undefined].filter(Boolean).join(' · '), service: s, current });
  };
  const gateways = all.filter((s) => s.kind === 'IstioGateway');
  if (gateways.length) picks.push({ separator: l10n.t('Istio Gateways') });
  for (const g of gateways) {
    const servers = (g.listeners ?? [])
      .map((l) => `${l.name}: ${l.routes === 1 ? l10n.t('{0} VirtualService', l.routes) : l10n.t('{0} VirtualServices', l.routes)}`)
      .join(' · ');
    push(g, `Istio Gateway ${g.namespace}/${g.name}`, [servers || l10n.t('no servers')]);
  }
  const virtualServices = all.filter((s) => s.kind === 'VirtualService');
  if (virtualServices.length) picks.push({ separator: l10n.t('VirtualServices') });
  for (const v of virtualServices) {
    const to = v.destinations?.length ? ` → ${short(v.destinations)}` : '';
    const via = [...(v.servedBy ?? []), ...((v.gateways ?? []).includes('mesh') ? ['mesh'] : [])];
    push(v, `VirtualService ${v.namespace}/${v.name}${to}`, [
      v.hosts?.length ? short(v.hosts) : undefined,
      via.length ? l10n.t('via {0}', via.join(', ')) : l10n.t('served by no Istio Gateway of the workspace'),
    ]);
  }
  return picks;
}

/** The first three of a list, and how many more. */
function short(list: readonly string[]): string {
  return list.length > 3 ? `${list.slice(0, 3).join(', ')} +${list.length - 3}` : list.join(', ');
}

/** The unit label when the project model gives one; otherwise the folder, but only when the name alone is ambiguous. */
function whereNote(s: ServiceSummary, ambiguous: boolean, folderOf: PickOptions['folderOf']): string | undefined {
  if (s.unit) return s.unit;
  if (!ambiguous) return undefined;
  return (
    folderOf?.(s) ??
    s.source?.uri
      .replace(/\/[^/]*$/, '')
      .split('/')
      .pop() ??
    undefined
  );
}

function sameService(a: ServiceSummary, b: ServiceSummary): boolean {
  if (a.kind !== b.kind || a.namespace !== b.namespace || a.name !== b.name) return false;
  if (a.definedAt && b.definedAt) return a.definedAt.uri === b.definedAt.uri && a.definedAt.start === b.definedAt.start;
  return a.source?.uri === b.source?.uri && a.source?.start === b.source?.start;
}

function keyOf(s: ServiceSummary): string {
  return `${s.namespace}/${s.name}`;
}

function endpointsNote(s: ServiceSummary, l10n: L10n): string {
  if (s.endpoints === undefined) return '';
  if (s.endpoints === 0) return ` · ${l10n.t('no endpoints')}`;
  return ` · ${s.endpoints === 1 ? l10n.t('{0} endpoint', s.endpoints) : l10n.t('{0} endpoints', s.endpoints)}`;
}
