// The Istio entry of a trace (istio-semantics §I2, §I4), as data: the VirtualServices an Istio Gateway applies (bound
// to it by `gateways` and serving a host of one of its servers), the Gateways a VirtualService is bound to, and each
// route block's destinations with what their hosts land on (§I1). Drawn by features/istioTraceGraph.ts.

import type { Cluster } from '../model/cluster';
import type { AnalysisConfig } from '../model/config';
import { isIstioGateway, isVirtualService, type IstioDestination, type IstioGateway, type IstioServer, type VirtualService } from '../model/istio';
import { clusterHostView, gatewayRef, gatewayServerHosts, istioHostTarget, istioHostsOverlap, type IstioTarget } from './istioHosts';

/** One `http[i]` / `tcp[i]` / `tls[i]` block of a VirtualService and its destinations. */
export interface IstioRouteBlock {
  readonly vs: VirtualService;
  /** `http[0]`. */
  readonly where: string;
  readonly destinations: readonly { readonly destination: IstioDestination; readonly target: IstioTarget }[];
}

/** Whether a VirtualService names this Gateway in `gateways` (istio-semantics §I4). */
function bindsTo(vs: VirtualService, gw: IstioGateway): boolean {
  return vs.gateways.some((g) => {
    const ref = gatewayRef(g.value, vs.namespace);
    return ref !== undefined && ref.namespace === gw.namespace && ref.name === gw.name;
  });
}

/** Whether the server offers one of the VirtualService's hosts to its namespace (§I4). */
export function serverServes(gw: IstioGateway, server: IstioServer, vs: VirtualService): boolean {
  const offered = gatewayServerHosts({ ...gw, servers: [server] }, vs.namespace);
  return vs.hosts.some((h) => offered.some((o) => istioHostsOverlap(o, h.value.toLowerCase())));
}

/** The VirtualServices bound to the Gateway whose hosts one of its servers serves, in cluster order. */
export function virtualServicesOn(cluster: Cluster, gw: IstioGateway): VirtualService[] {
  return cluster.resources.filter((r): r is VirtualService => isVirtualService(r) && bindsTo(r, gw) && gw.servers.some((s) => serverServes(gw, s, r)));
}

/** The Istio Gateways a VirtualService is bound to (`mesh` aside), as defined in the manifests. */
export function gatewaysOf(cluster: Cluster, vs: VirtualService): IstioGateway[] {
  return cluster.resources.filter((r): r is IstioGateway => isIstioGateway(r) && bindsTo(vs, r));
}

/** The route blocks of a VirtualService, each with its destinations resolved (§I1, §I2). */
export function routeBlocks(cluster: Cluster, config: AnalysisConfig, vs: VirtualService): IstioRouteBlock[] {
  const view = clusterHostView(cluster, config);
  const blocks = new Map<string, { destination: IstioDestination; target: IstioTarget }[]>();
  for (const d of vs.destinations) {
    const where = d.where.slice(0, d.where.indexOf(']') + 1) || d.where;
    const target: IstioTarget = d.host === undefined ? { kind: 'unknown', fqdn: '' } : istioHostTarget(view, config, d.host, vs.namespace);
    const l = blocks.get(where);
    if (l) l.push({ destination: d, target });
    else blocks.set(where, [{ destination: d, target }]);
  }
  return [...blocks].map(([where, destinations]) => ({ vs, where, destinations }));
}
