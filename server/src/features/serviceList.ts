// listServices: the starting points of a trace, for pickers and the trace view: every Service with its type, endpoint
// count and the Gateway routes that reach it, then every Gateway with its listeners, then every Istio Gateway with its
// servers and every VirtualService with its hosts, Gateways and destinations.

import type { Analysis } from '../analysis/analysis';
import { endpointCount } from '../analysis/endpoints';
import { acceptingListeners, backendVerdict, clusterLookup } from '../analysis/gatewayRoutes';
import { routesFrom, throughListener } from '../analysis/gatewayTrace';
import { gatewaysOf, serverServes, virtualServicesOn } from '../analysis/istioTrace';
import { isGateway, isRoute } from '../model/gatewayApi';
import { isIstioGateway, isVirtualService } from '../model/istio';
import type { Service } from '../model/resources';
import { lineIndexesOf } from '../model/lineIndex';
import type { RenderedText } from '../model/rendered';
import type { ServiceSummary } from '../protocol';
import { sourceSpan } from './sourceSpan';

/**
 * Each place is where the object is in the analysis (a Service of a Kustomize build: its place in the build, which a
 * trace request names); the source map of the snapshot (project/sourceMap.ts) adds where a build's Service is written
 * and puts a Helm render's on its template line.
 */
export function listServices(analysis: Analysis): ServiceSummary[] {
  const linesOf = lineIndexesOf(analysis.cluster.files);
  const routes = routesByService(analysis);
  const builds = kustomizeBuilds(analysis);
  const services = analysis.cluster.services
    // semantics §9.4: a Service the API server rejects never exists, so there is nothing to trace.
    .filter((s) => analysis.cluster.rejected('Service', s.namespace, s.name) !== s)
    .map((s) => {
      const variant = analysis.scopeOf(s.uri).label;
      const source = sourceSpan(s.uri, s.nameSpan, linesOf(s.uri));
      // A Service a Kustomize build renders appears once per build root, named by it; a trace of it follows that build.
      const build = builds.get(s.uri);
      const unit = build ? `build ${build.label}` : variant ? `variant ${variant}` : undefined;
      return {
        namespace: s.namespace,
        name: s.name,
        type: s.headless ? 'Headless' : s.type,
        endpoints: s.type === 'ExternalName' ? undefined : endpointCount(analysis.endpointsOf(s)),
        source,
        ...(unit ? { unit } : {}),
        ...(routes.has(s) ? { routes: routes.get(s)! } : {}),
      };
    })
    .sort(byName);
  return [...services, ...listGateways(analysis, linesOf), ...listIstio(analysis, linesOf)];
}

function byName(a: ServiceSummary, b: ServiceSummary): number {
  return a.namespace + '/' + a.name < b.namespace + '/' + b.name ? -1 : 1;
}

/** Gateway semantics §G9: every Gateway, with its listeners and how many routes each accepts, as a trace's start. */
function listGateways(analysis: Analysis, linesOf: ReturnType<typeof lineIndexesOf>): ServiceSummary[] {
  const out: ServiceSummary[] = [];
  for (const g of analysis.cluster.resources) {
    if (!isGateway(g) || analysis.cluster.rejected(g.kind, g.namespace, g.name) === g) continue;
    const scoped = analysis.scopeOf(g.uri);
    const routes = routesFrom(scoped.analysis.cluster, g);
    out.push({
      kind: 'Gateway',
      namespace: g.namespace,
      name: g.name,
      type: 'Gateway',
      source: sourceSpan(g.uri, g.nameSpan, linesOf(g.uri)),
      ...(scoped.label ? { unit: `variant ${scoped.label}` } : {}),
      listeners: g.listeners.map((l) => ({
        name: `${l.name ?? '?'} ${l.port ?? '?'}/${l.protocol ?? '?'}`,
        routes: routes.filter((r) => throughListener(r, l)).length,
      })),
    });
  }
  return out.sort(byName);
}

/**
 * Istio semantics §I4: every Istio Gateway, with its servers and how many VirtualServices of the workspace each applies,
 * and every VirtualService, with its hosts, the Gateways it names and the hosts it sends to: starts of the trace the
 * CLI draws from `istio-gateway/NS/NAME` and `virtualservice/NS/NAME` (features/istioTraceGraph.ts).
 */
function listIstio(analysis: Analysis, linesOf: ReturnType<typeof lineIndexesOf>): ServiceSummary[] {
  const gateways: ServiceSummary[] = [];
  const virtualServices: ServiceSummary[] = [];
  for (const r of analysis.cluster.resources) {
    if (!isIstioGateway(r) && !isVirtualService(r)) continue;
    const scoped = analysis.scopeOf(r.uri);
    const common = {
      namespace: r.namespace,
      name: r.name,
      source: sourceSpan(r.uri, r.nameSpan, linesOf(r.uri)),
      ...(scoped.label ? { unit: `variant ${scoped.label}` } : {}),
    };
    if (isIstioGateway(r)) {
      const bound = virtualServicesOn(scoped.analysis.cluster, r);
      gateways.push({
        ...common,
        kind: 'IstioGateway',
        type: 'Gateway',
        listeners: r.servers.map((s) => ({
          name: `${s.portName ?? '?'} ${s.port ?? '?'}/${s.protocol ?? '?'}`,
          routes: bound.filter((vs) => serverServes(r, s, vs)).length,
        })),
      });
    } else {
      const served = gatewaysOf(scoped.analysis.cluster, r).filter((g) => g.servers.some((s) => serverServes(g, s, r)));
      virtualServices.push({
        ...common,
        kind: 'VirtualService',
        type: 'VirtualService',
        hosts: r.hosts.map((h) => h.value),
        gateways: r.gateways.length ? r.gateways.map((g) => g.value) : ['mesh'],
        servedBy: served.map((g) => `${g.namespace}/${g.name}`),
        destinations: [...new Set(r.destinations.flatMap((d) => (d.host === undefined ? [] : [d.host])))],
      });
    }
  }
  return [...gateways.sort(byName), ...virtualServices.sort(byName)];
}

/** Gateway semantics §G9: the routes whose backendRefs name each Service, with the listeners that accept them. */
function routesByService(analysis: Analysis): Map<Service, NonNullable<ServiceSummary['routes']>[number][]> {
  const out = new Map<Service, NonNullable<ServiceSummary['routes']>[number][]>();
  for (const r of analysis.cluster.resources) {
    if (!isRoute(r)) continue;
    let listeners: string[] | undefined;
    for (const rule of r.rules) {
      for (const b of rule.backendRefs) {
        const svc = backendVerdict(clusterLookup(analysis.cluster), r, b).service;
        if (!svc) continue;
        const l = out.get(svc) ?? [];
        if (l.some((x) => x.kind === r.kind && x.namespace === r.namespace && x.name === r.name)) continue;
        listeners ??= acceptingListeners(clusterLookup(analysis.cluster), r).map((a) => `${a.gateway.name}/${a.listener.name ?? a.listener.index}`);
        l.push({ kind: r.kind, namespace: r.namespace, name: r.name, listeners });
        out.set(svc, l);
      }
    }
  }
  return out;
}

/** A Kustomize build as the analysis reads it: its rendered text, its root kustomization and its label (`overlays/prod`). */
export interface KustomizeBuild {
  readonly rendered: RenderedText;
  readonly fallbackUri: string;
  readonly label: string;
}

/** The rendered file of each Kustomize build root (`ManifestFile.rendered` of a kustomization), by its URI. */
export function kustomizeBuilds(analysis: Analysis): Map<string, KustomizeBuild> {
  const out = new Map<string, KustomizeBuild>();
  for (const f of analysis.cluster.files) {
    if (f.rendered && /(^|\/)(kustomization\.ya?ml|Kustomization)$/.test(f.rendered.definedBy)) {
      out.set(f.uri, { rendered: f.rendered.text, fallbackUri: f.rendered.definedBy, label: f.rendered.label });
    }
  }
  return out;
}
