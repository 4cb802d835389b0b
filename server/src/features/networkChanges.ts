// What a change does to the routes into the cluster and to NetworkPolicy reach, for `kube-netlens diff`
// (cli/diffCommand.ts): each tree's routes (Ingress rules host/path → Service:port, Gateway API routes with their parents
// and, per rule, their backends) and its connectivity list (features/reachReport.ts, docs/reach.md) are summarised in
// plain strings here, and the two summaries compared. Pure: an Analysis in, JSON-ready values out.

import type { Analysis } from '../analysis/analysis';
import { isRoute, type GatewayRoute } from '../model/gatewayApi';
import type { Ingress, IngressBackend } from '../model/resources';
import { connectivity } from './reachReport';

/** One route object: where it attaches (Gateway API parents) and, per match, where it sends the traffic. */
export interface RouteSummary {
  /** `Ingress shop/site`, with ` (build overlays/prod)` or ` (variant …)` when the object is in one. */
  readonly key: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly unit?: string;
  /** Gateway API routes: `Gateway infra/public/https` (namespace/name/section); none for an Ingress. */
  readonly parents: readonly string[];
  /** `shop.example.com/api` → `Service api:http`; for Gateway API `shop.example.com PathPrefix /api` → `Service shop/api:80`. */
  readonly rules: readonly { readonly match: string; readonly to: string }[];
}

/**
 * The routes of an analysis (every Ingress and Gateway API route the API server accepts), sorted by key. `local` turns
 * a unit's name into the one to compare by (the CLI strips a tree's temporary folder).
 */
export function routeSummaries(analysis: Analysis, local: (unit: string) => string = (u) => u): RouteSummary[] {
  const builds = new Map<string, string>();
  for (const f of analysis.cluster.files) if (f.rendered) builds.set(f.uri, f.rendered.label);
  const out = new Map<string, RouteSummary>();
  const add = (r: Ingress | GatewayRoute, parents: readonly string[], rules: { match: string; to: string }[]) => {
    if (analysis.cluster.rejected(r.kind, r.namespace, r.name) === r) return;
    const build = builds.get(r.uri);
    const variant = analysis.scopeOf(r.uri).label;
    const unit = build !== undefined ? `build ${local(build)}` : variant ? `variant ${local(variant)}` : undefined;
    const key = `${r.kind} ${r.namespace}/${r.name}${unit ? ` (${unit})` : ''}`;
    // an object defined twice in one scope: the first one, as the cluster keeps it
    if (!out.has(key)) out.set(key, { key, kind: r.kind, namespace: r.namespace, name: r.name, ...(unit && { unit }), parents: [...parents].sort(), rules: sortRules(rules) });
  };
  for (const ing of analysis.cluster.ingresses) {
    const rules = ing.paths.map((p) => ({ match: `${p.host ?? '*'}${p.path.startsWith('/') ? '' : ' '}${p.path}`, to: ingressTarget(p.backend) }));
    if (ing.defaultBackend) rules.push({ match: 'default backend', to: ingressTarget(ing.defaultBackend) });
    add(ing, [], rules);
  }
  for (const r of analysis.cluster.routes) {
    if (!isRoute(r)) continue;
    const parents = r.parentRefs.map((p) => `${p.kind} ${p.namespace ?? r.namespace}/${p.name ?? '?'}${p.sectionName ? `/${p.sectionName}` : ''}${p.port !== undefined ? `:${p.port}` : ''}`);
    const hosts = r.hostnames.map((h) => h.value).join(',') || '*';
    const rules = r.rules.map((rule) => ({
      match: `${hosts} ${rule.matches.length ? rule.matches.join(' or ') : 'every request'}`,
      to: rule.backendRefs.length
        ? rule.backendRefs.map((b) => `${b.kind} ${b.namespace ?? r.namespace}/${b.name ?? '?'}${b.port !== undefined ? `:${b.port}` : ''}${rule.backendRefs.length > 1 ? ` (weight ${b.weight})` : ''}`).join(', ')
        : 'no backends',
    }));
    add(r, parents, rules);
  }
  return [...out.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function ingressTarget(b: IngressBackend): string {
  if (b.resource) return 'a resource backend';
  return `Service ${b.serviceName ?? '?'}:${b.portNumber ?? b.portName ?? '?'}`;
}

/** Rules sorted by match; two rules with one match (the first one wins in a router) keep their order. */
function sortRules(rules: readonly { match: string; to: string }[]): { match: string; to: string }[] {
  return rules.map((r, i) => ({ r, i })).sort((a, b) => (a.r.match < b.r.match ? -1 : a.r.match > b.r.match ? 1 : a.i - b.i)).map((x) => x.r);
}

export interface RouteChange {
  readonly key: string;
  readonly parentsAdded: readonly string[];
  readonly parentsRemoved: readonly string[];
  readonly rulesAdded: readonly { readonly match: string; readonly to: string }[];
  readonly rulesRemoved: readonly { readonly match: string; readonly to: string }[];
  /** The same match sent elsewhere. */
  readonly repointed: readonly { readonly match: string; readonly from: string; readonly to: string }[];
}

export interface RouteChanges {
  readonly added: readonly RouteSummary[];
  readonly removed: readonly RouteSummary[];
  readonly changed: readonly RouteChange[];
}

export function compareRoutes(before: readonly RouteSummary[], after: readonly RouteSummary[]): RouteChanges {
  const was = new Map(before.map((r) => [r.key, r]));
  const is = new Set(after.map((r) => r.key));
  const changed: RouteChange[] = [];
  for (const a of after) {
    const b = was.get(a.key);
    if (!b) continue;
    const targets = (r: RouteSummary) => {
      const m = new Map<string, string>();
      for (const rule of r.rules) m.set(rule.match, m.has(rule.match) ? `${m.get(rule.match)!}; ${rule.to}` : rule.to);
      return m;
    };
    const tb = targets(b);
    const ta = targets(a);
    const change: RouteChange = {
      key: a.key,
      parentsAdded: a.parents.filter((p) => !b.parents.includes(p)),
      parentsRemoved: b.parents.filter((p) => !a.parents.includes(p)),
      rulesAdded: [...ta].filter(([m]) => !tb.has(m)).map(([match, to]) => ({ match, to })),
      rulesRemoved: [...tb].filter(([m]) => !ta.has(m)).map(([match, to]) => ({ match, to })),
      repointed: [...ta].filter(([m, to]) => tb.has(m) && tb.get(m) !== to).map(([match, to]) => ({ match, from: tb.get(match)!, to })),
    };
    if (change.parentsAdded.length || change.parentsRemoved.length || change.rulesAdded.length || change.rulesRemoved.length || change.repointed.length) changed.push(change);
  }
  return { added: after.filter((r) => !was.has(r.key)), removed: before.filter((r) => !is.has(r.key)), changed };
}

/** A tree's connectivity list in short: the workloads it has and the connections allowed (or unknown) between them. */
export interface ReachSummary {
  /** `shop/web[Deployment]`, every workload of every scope, and `external`. */
  readonly ends: readonly string[];
  /** `shop/web[Deployment] => shop/db[StatefulSet]` → `allowed TCP 5432`; pairs not listed are denied. */
  readonly connections: Readonly<Record<string, string>>;
}

/** Above this many workloads the connectivity list is not computed for `diff` (it grows with their square). */
export const maxReachWorkloads = 400;

export function reachSummary(analysis: Analysis): ReachSummary | { readonly skipped: string } {
  const ends = new Set<string>(['external']);
  for (const scope of analysis.scopes()) for (const w of scope.analysis.cluster.workloads) ends.add(`${w.namespace}/${w.name}[${w.kind}]`);
  if (ends.size - 1 > maxReachWorkloads) return { skipped: `${(ends.size - 1).toLocaleString('en-US')} workloads (more than ${maxReachWorkloads})` };
  const connections: Record<string, string> = {};
  for (const c of connectivity(analysis)) {
    const end = (p: (typeof c.json)['from']) => ('external' in p ? 'external' : `${p.namespace}/${p.name}[${p.kind}]`);
    connections[`${end(c.json.from)} => ${end(c.json.to)}`] = `${c.json.verdict} ${c.portsText}`;
  }
  return { ends: [...ends].sort(), connections };
}

export interface ReachChange {
  readonly connection: string;
  /** `denied` when the pair is not in that tree's list. */
  readonly before: string;
  readonly after: string;
}

/**
 * The connections whose verdict or ports change, between workloads both trees have (a workload added or removed
 * changes every connection of its own: the Services and routes sections say that it came or went).
 */
export function compareReach(before: ReachSummary, after: ReachSummary): ReachChange[] {
  const both = new Set(before.ends.filter((e) => after.ends.includes(e)));
  const inScope = (pair: string) => pair.split(' => ').every((e) => both.has(e));
  const pairs = new Set([...Object.keys(before.connections), ...Object.keys(after.connections)].filter(inScope));
  const out: ReachChange[] = [];
  for (const pair of [...pairs].sort()) {
    const b = before.connections[pair] ?? 'denied';
    const a = after.connections[pair] ?? 'denied';
    if (a !== b) out.push({ connection: pair, before: b, after: a });
  }
  return out;
}
