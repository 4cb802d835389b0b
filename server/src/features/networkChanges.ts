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
    if (!out.has(key))
      out.set(key, { key, kind: r.kind, namespace: r.namespace, name: r.name, ...(unit && { unit }), parents: [...parents].sort(), rules: sortRules(rules) });
  };
  for (const ing of analysis.cluster.ingresses) {
    const rules = ing.paths.map((p) => ({ match: `${p.host ?? '*'}${p.path.startsWith('/') ? '' : ' '}${p.path}`, to: ingressTarget(p.backend) }));
    if (ing.defaultBackend) rules.push({ match: 'default backend', to: ingressTarget(ing.defaultBackend) });
    add(ing, [], rules);
  }
  for (const r of analysis.cluster.routes) {
    if (!isRoute(r)) continue;
    const parents = r.parentRefs.map(
      (p) => `${p.kind} ${p.namespace ?? r.namespace}/${p.name ?? '?'}${p.sectionName ? `/${p.sectionName}` : ''}${p.port !== undefined ? `:${p.port}` : ''}`,
    );
    const hosts = r.hostnames.map((h) => h.value).join(',') || '*';
    const rules = r.rules.map((rule) => ({
      match: `${hosts} ${rule.matches.length ? rule.matches.join(' or ') : 'every request'}`,
      to: rule.backendRefs.length
        ? rule.backendRefs
            .map(
              (b) =>
                `${b.kind} ${b.namespace ?? r.namespace}/${b.name ?? '?'}${b.port !== undefined ? `:${b.port}` : ''}${rule.backendRefs.length > 1 ? ` (weight ${b.weight})` : ''}`,
            )
            .join(', ')
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
  return rules
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (a.r.match < b.r.match ? -1 : a.r.match > b.r.match ? 1 : a.i - b.i))
    .map((x) => x.r);
}

export interface RouteChange {
  /** `Ingress shop/site`. */
  readonly key: string;
  /** The scopes it changes in (`build overlays/prod`); absent for objects of the workspace as one scope. */
  readonly units?: readonly string[];
  readonly parentsAdded: readonly string[];
  readonly parentsRemoved: readonly string[];
  readonly rulesAdded: readonly { readonly match: string; readonly to: string }[];
  readonly rulesRemoved: readonly { readonly match: string; readonly to: string }[];
  /** The same match sent elsewhere. */
  readonly repointed: readonly { readonly match: string; readonly from: string; readonly to: string }[];
}

/** A route added or removed: `key` without its scope, the scopes it is in (absent for the workspace as one scope). */
export interface RouteEntry {
  readonly key: string;
  readonly units?: readonly string[];
  readonly parents: readonly string[];
  readonly rules: readonly { readonly match: string; readonly to: string }[];
}

export interface RouteChanges {
  readonly added: readonly RouteEntry[];
  readonly removed: readonly RouteEntry[];
  readonly changed: readonly RouteChange[];
}

/**
 * Routes added, removed or changed, by their key (scope included); one change in several scopes (a base's Ingress in
 * every overlay) is one entry naming them.
 */
export function compareRoutes(before: readonly RouteSummary[], after: readonly RouteSummary[]): RouteChanges {
  const was = new Map(before.map((r) => [r.key, r]));
  const is = new Set(after.map((r) => r.key));
  const changed: { route: RouteSummary; change: Omit<RouteChange, 'key' | 'units'> }[] = [];
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
    const change = {
      parentsAdded: a.parents.filter((p) => !b.parents.includes(p)),
      parentsRemoved: b.parents.filter((p) => !a.parents.includes(p)),
      rulesAdded: [...ta].filter(([m]) => !tb.has(m)).map(([match, to]) => ({ match, to })),
      rulesRemoved: [...tb].filter(([m]) => !ta.has(m)).map(([match, to]) => ({ match, to })),
      repointed: [...ta].filter(([m, to]) => tb.has(m) && tb.get(m) !== to).map(([match, to]) => ({ match, from: tb.get(match)!, to })),
    };
    if (change.parentsAdded.length || change.parentsRemoved.length || change.rulesAdded.length || change.rulesRemoved.length || change.repointed.length)
      changed.push({ route: a, change });
  }
  const entry = (r: RouteSummary) => ({ parents: r.parents, rules: r.rules });
  return {
    added: grouped(after.filter((r) => !was.has(r.key)).map((r) => ({ route: r, change: entry(r) }))),
    removed: grouped(before.filter((r) => !is.has(r.key)).map((r) => ({ route: r, change: entry(r) }))),
    changed: grouped(changed),
  };
}

/** Equal changes of one object in several scopes → one, naming the scopes; in the order of their first. */
function grouped<T extends object>(list: readonly { route: RouteSummary; change: T }[]): (T & { key: string; units?: string[] })[] {
  const out = new Map<string, { key: string; units: string[]; whole: boolean; change: T }>();
  for (const { route, change } of list) {
    const key = `${route.kind} ${route.namespace}/${route.name}`;
    const group = `${key}\u0000${JSON.stringify(change)}`;
    let g = out.get(group);
    if (!g) out.set(group, (g = { key, units: [], whole: false, change }));
    if (route.unit === undefined) g.whole = true;
    else g.units.push(route.unit);
  }
  return [...out.values()].map((g) => ({ key: g.key, ...(!g.whole && { units: g.units }), ...g.change }));
}

/** A tree's connectivity lists in short, one per apply scope: the workloads it has and the connections allowed (or unknown). */
export interface ReachSummary {
  /** `shop/web[Deployment]` and `external`, with ` (build overlays/prod)` or ` (variant …)` in a scope of its own. */
  readonly ends: readonly string[];
  /** Connections allowed or unknown (pairs not listed are denied), sorted. */
  readonly connections: readonly ReachLine[];
}

export interface ReachLine {
  /** `shop/web[Deployment] => shop/db[StatefulSet]`, with the scope's ` (build …)` when there is one. */
  readonly connection: string;
  /** The connection without its scope, and the scope (`build overlays/prod`), if any. */
  readonly pair: string;
  readonly unit?: string;
  /** The ends as in `ReachSummary.ends`. */
  readonly from: string;
  readonly to: string;
  /** `allowed TCP 5432`, `unknown All Connections`. */
  readonly verdict: string;
}

/** Above this many workloads the connectivity lists are not computed for `diff` (they grow with their square). */
export const maxReachWorkloads = 400;

/**
 * The connectivity list of each apply scope (features/reachReport.ts `connectivity`): a Kustomize build or a variant is
 * a cluster of its own, and its connections are named by it, so a build's NetworkPolicies are not hidden behind the
 * plain manifests' copies of the same workloads.
 */
export function reachSummary(analysis: Analysis, local: (unit: string) => string = (u) => u): ReachSummary | { readonly skipped: string } {
  const scopes = analysis.scopes();
  const workloads = scopes.reduce((n, s) => n + s.analysis.cluster.workloads.length, 0);
  if (workloads > maxReachWorkloads) return { skipped: `${workloads.toLocaleString('en-US')} workloads (more than ${maxReachWorkloads})` };
  const ends = new Set<string>();
  const connections = new Map<string, ReachLine>();
  for (const scope of scopes) {
    const build = scope.members.find((f) => f.rendered)?.rendered?.label;
    const unit = build !== undefined ? `build ${local(build)}` : scope.label ? `variant ${local(scope.label)}` : undefined;
    const suffix = unit ? ` (${unit})` : '';
    ends.add(`external${suffix}`);
    for (const w of scope.analysis.cluster.workloads) ends.add(`${w.namespace}/${w.name}[${w.kind}]${suffix}`);
    for (const c of connectivity(scope.analysis)) {
      const end = (p: (typeof c.json)['from']) => ('external' in p ? 'external' : 'anyPod' in p ? `${p.namespace}/*` : `${p.namespace}/${p.name}[${p.kind}]`);
      const pair = `${end(c.json.from)} => ${end(c.json.to)}`;
      const connection = `${pair}${suffix}`;
      if (!connections.has(connection))
        connections.set(connection, {
          connection,
          pair,
          ...(unit && { unit }),
          from: `${end(c.json.from)}${suffix}`,
          to: `${end(c.json.to)}${suffix}`,
          verdict: `${c.json.verdict} ${c.portsText}`,
        });
    }
  }
  return {
    ends: [...ends].sort(),
    connections: [...connections.values()].sort((a, b) => (a.connection < b.connection ? -1 : a.connection > b.connection ? 1 : 0)),
  };
}

export interface ReachChange {
  /** `shop/web[Deployment] => shop/api[Deployment]`. */
  readonly connection: string;
  /** The scopes it changes in (`build overlays/prod`); absent for the workspace as one scope. */
  readonly units?: readonly string[];
  /** `denied` when the pair is not in that tree's list. */
  readonly before: string;
  readonly after: string;
}

/**
 * The connections whose verdict or ports change, between workloads both trees have (a workload added or removed
 * changes every connection of its own: the Services and routes sections say that it came or went). One change in
 * several scopes (a base's policy in every overlay) is one entry naming them.
 */
export function compareReach(before: ReachSummary, after: ReachSummary): ReachChange[] {
  const had = new Set(before.ends);
  const both = new Set(after.ends.filter((e) => had.has(e)));
  const was = new Map(before.connections.map((c) => [c.connection, c]));
  const is = new Map(after.connections.map((c) => [c.connection, c]));
  const grouped = new Map<string, { connection: string; units: string[]; whole: boolean; before: string; after: string }>();
  for (const key of [...new Set([...was.keys(), ...is.keys()])].sort()) {
    const line = (is.get(key) ?? was.get(key))!;
    if (!both.has(line.from) || !both.has(line.to)) continue;
    const b = was.get(key)?.verdict ?? 'denied';
    const a = is.get(key)?.verdict ?? 'denied';
    if (a === b) continue;
    const group = `${line.pair}\u0000${b}\u0000${a}`;
    let g = grouped.get(group);
    if (!g) grouped.set(group, (g = { connection: line.pair, units: [], whole: false, before: b, after: a }));
    if (line.unit === undefined) g.whole = true;
    else g.units.push(line.unit);
  }
  return [...grouped.values()].map((g) => ({ connection: g.connection, ...(!g.whole && { units: g.units }), before: g.before, after: g.after }));
}
