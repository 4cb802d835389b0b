// The trace graph from an Istio Gateway or a VirtualService (istio-semantics §I2, §I4): the Gateway's servers, the
// VirtualServices bound to it that serve their hosts, each route block and its destinations, and the Services these
// land on, with the snapshot's findings on the hops they break. The Istio counterpart of the Gateway API trace
// (features/traceGraph.ts gatewayTraceGraph), drawn with the same builder and Service nodes.

import type { Analysis } from '../analysis/analysis';
import type { IstioTarget } from '../analysis/istioHosts';
import { gatewaysOf, routeBlocks, serverServes, virtualServicesOn, type IstioRouteBlock } from '../analysis/istioTrace';
import type { IstioGateway, IstioServer, VirtualService } from '../model/istio';
import type { Service } from '../model/resources';
import type { TraceGraph, TraceStatus } from '../protocol';
import { drawServiceNodes, graphBuilder, within, type GraphBuilder, type HopFinding } from './traceGraph';

function serverId(gw: IstioGateway, index: number): string {
  return `istio:server:${gw.namespace}/${gw.name}/${index}`;
}

function drawServer(b: GraphBuilder, gw: IstioGateway, server: IstioServer, index: number, more: readonly string[]): void {
  const hosts = server.hosts.map((h) => h.value).join(', ') || '(no hosts)';
  b.node({
    id: serverId(gw, index),
    kind: 'gateway-listener',
    column: 'listener',
    label: `${gw.name} · ${server.portName ?? `server ${index + 1}`} ${server.port ?? '?'}/${server.protocol ?? '?'}`,
    detail: [`Istio Gateway ${gw.namespace}/${gw.name} (gateway pods ${[...gw.selector].map(([k, v]) => `${k}=${v}`).join(', ') || 'of any labels'}) listens on ${server.port ?? '?'}/${server.protocol ?? '?'} for ${hosts}.`, ...more],
    status: 'ok',
    source: b.source(gw.uri, server.span),
  });
}

function targetText(t: IstioTarget): { status: TraceStatus; line: string } {
  switch (t.kind) {
    case 'service':
      return { status: 'ok', line: `Service ${t.service.namespace}/${t.service.name} (${t.fqdn}).` };
    case 'entry':
      return { status: 'ok', line: `ServiceEntry ${t.entry.namespace}/${t.entry.name} declares ${t.fqdn}.` };
    case 'missing':
      return { status: 'error', line: `No Service "${t.name}" in namespace ${t.namespace}: Istio has no cluster for ${t.fqdn} (503).` };
    case 'unexpanded':
      return { status: 'error', line: `Istio does not expand this name: write ${t.full} (503 otherwise).` };
    case 'unknown':
      return { status: 'conditional', line: t.fqdn ? `${t.fqdn} is not defined in the manifests (a ServiceEntry or a Service made elsewhere may serve it).` : 'No host.' };
  }
}

/** The route blocks and destinations of VirtualServices; `from` gives the nodes each block is reached from. */
function drawBlocks(b: GraphBuilder, blocks: readonly IstioRouteBlock[], services: Service[], from: (block: IstioRouteBlock) => readonly string[]): Map<string, { id: string; vs: VirtualService; span: { start: number; end: number } }[]> {
  const places = new Map<string, { id: string; vs: VirtualService; span: { start: number; end: number } }[]>();
  const add = (vs: VirtualService, id: string, span: { start: number; end: number }) => {
    const key = `${vs.namespace}/${vs.name}`;
    const l = places.get(key) ?? [];
    l.push({ id, vs, span });
    places.set(key, l);
  };
  for (const block of blocks) {
    const { vs, where, destinations } = block;
    const id = `istio:block:${vs.namespace}/${vs.name}/${where}`;
    const broken = destinations.filter((d) => targetText(d.target).status === 'error').length;
    b.node({
      id,
      kind: 'route-rule',
      column: 'route',
      label: `VirtualService ${vs.name} · ${where}`,
      detail: [`Hosts ${vs.hosts.map((h) => h.value).join(', ') || '(none)'}.`, `${destinations.length} ${destinations.length === 1 ? 'destination' : 'destinations'}${broken ? `, ${broken} of them to no Service (503)` : ''}.`],
      status: broken === destinations.length && broken > 0 ? 'error' : broken ? 'warning' : 'ok',
      source: b.source(vs.uri, destinations[0]?.destination.span),
    });
    for (const f of from(block)) b.edge(f, id, 'ok');
    destinations.forEach(({ destination: d, target }, i) => {
      const { status, line } = targetText(target);
      const did = `${id}/${i}`;
      const label = `${d.host ?? '?'}${d.port !== undefined ? `:${d.port}` : ''}${d.subset ? ` subset ${d.subset}` : ''}${d.role === 'mirror' ? ' (mirror)' : ''}`;
      b.node({ id: did, kind: 'backend-ref', column: 'entry', label, detail: [`${d.where}: ${d.role === 'mirror' ? 'mirrors a copy of the requests to' : 'sends requests to'} ${d.host ?? '(no host)'}${d.port !== undefined ? ` port ${d.port}` : ''}${d.subset ? `, subset ${d.subset}` : ''}.`, line], status, source: b.source(vs.uri, d.span) });
      add(vs, did, d.span);
      b.edge(id, did, status === 'error' ? 'broken' : 'ok');
      const service = target.kind === 'service' ? target.service : undefined;
      if (service) {
        if (!services.includes(service)) services.push(service);
        b.edge(did, `service:${service.namespace}/${service.name}`, 'ok', d.port !== undefined ? String(d.port) : undefined);
      }
    });
  }
  return places;
}

function finishGraph(analysis: Analysis, b: GraphBuilder, subject: IstioGateway | VirtualService, services: readonly Service[], places: ReturnType<typeof drawBlocks>, findings: readonly HopFinding[], own: (f: HopFinding) => boolean, anyRoute: boolean): TraceGraph {
  const reachable = drawServiceNodes(analysis, b, services, () => true);
  for (const f of findings) {
    const r = f.resource;
    if (!r || own(f)) continue;
    if (r.kind === 'VirtualService') {
      const inner = (places.get(`${r.namespace}/${r.name}`) ?? []).filter((p) => p.vs.uri === f.uri && within(f.span, p.span));
      if (inner.length) b.attach(inner[0].id, f);
      continue;
    }
    const s = r.kind === 'Service' ? services.find((x) => x.namespace === r.namespace && x.name === r.name) : undefined;
    if (s) b.attach(`service:${s.namespace}/${s.name}`, f);
  }
  const at = b.source(subject.uri, subject.nameSpan);
  return {
    service: { kind: subject.kind, namespace: subject.namespace, name: subject.name, ...(at ? { source: at } : {}) },
    nodes: b.finish(),
    edges: b.edges,
    // With no VirtualService in the workspace, routes may be bound from elsewhere: nothing says requests fail.
    broken: anyRoute && !reachable,
  };
}

/** The trace graph of one Istio Gateway: its servers, the VirtualServices they apply, and where those send requests. */
export function istioGatewayTraceGraph(workspace: Analysis, gw: IstioGateway, findings: readonly HopFinding[]): TraceGraph {
  const analysis = workspace.scopeOf(gw.uri).analysis;
  const b = graphBuilder(analysis);
  const vss = virtualServicesOn(analysis.cluster, gw);
  gw.servers.forEach((server, i) => {
    const n = vss.filter((vs) => serverServes(gw, server, vs)).length;
    drawServer(b, gw, server, i, [n ? `Applies ${n} VirtualService${n === 1 ? '' : 's'} of the workspace.` : 'No VirtualService in the workspace is bound to it for these hosts.']);
  });
  const blocks = vss.flatMap((vs) => routeBlocks(analysis.cluster, analysis.config, vs));
  const services: Service[] = [];
  const places = drawBlocks(b, blocks, services, (block) => gw.servers.flatMap((s, i) => (serverServes(gw, s, block.vs) ? [serverId(gw, i)] : [])));
  return finishGraph(analysis, b, gw, services, places, findings, (f) => {
    const r = f.resource!;
    if (r.kind !== 'Gateway' || r.namespace !== gw.namespace || r.name !== gw.name) return false;
    if (f.uri !== gw.uri) return true;
    const inside = gw.servers.map((s, i) => [s, i] as const).filter(([s]) => within(f.span, s.span));
    for (const [, i] of inside.length ? inside : gw.servers.map((s, i) => [s, i] as const)) b.attach(serverId(gw, i), f);
    return true;
  }, vss.length > 0);
}

/** The trace graph of one VirtualService: the Istio Gateways it is bound to (servers serving its hosts), its route blocks and destinations. */
export function virtualServiceTraceGraph(workspace: Analysis, vs: VirtualService, findings: readonly HopFinding[]): TraceGraph {
  const analysis = workspace.scopeOf(vs.uri).analysis;
  const b = graphBuilder(analysis);
  const gateways = gatewaysOf(analysis.cluster, vs);
  const entries: string[] = [];
  for (const gw of gateways) {
    gw.servers.forEach((server, i) => {
      if (!serverServes(gw, server, vs)) return;
      drawServer(b, gw, server, i, []);
      entries.push(serverId(gw, i));
    });
  }
  const blocks = routeBlocks(analysis.cluster, analysis.config, vs);
  const services: Service[] = [];
  const places = drawBlocks(b, blocks, services, () => entries);
  return finishGraph(analysis, b, vs, services, places, findings, () => false, blocks.length > 0);
}
