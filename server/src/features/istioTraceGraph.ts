// The trace graph from an Istio Gateway or a VirtualService (istio-semantics §I2, §I4): the Gateway's servers, the
// VirtualServices bound to it that serve their hosts, each route block and its destinations, and the Services these
// land on, with the snapshot's findings on the hops they break. The Istio counterpart of the Gateway API trace
// (features/traceGraph.ts gatewayTraceGraph), drawn with the same builder and Service nodes.

import type { Analysis } from '../analysis/analysis';
import type { Msg } from '../l10n/l10n';
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
  const msg = b.msg;
  const hosts = server.hosts.map((h) => h.value).join(', ') || msg('(no hosts)');
  const pods = [...gw.selector].map(([k, v]) => `${k}=${v}`).join(', ') || msg('of any labels');
  b.node({
    id: serverId(gw, index),
    kind: 'gateway-listener',
    column: 'listener',
    label: `${gw.name} · ${server.portName ?? msg('server {0}', index + 1)} ${server.port ?? '?'}/${server.protocol ?? '?'}`,
    detail: [
      msg(
        'Istio Gateway {0}/{1} (gateway pods {2}) listens on {3}/{4} for {5}.',
        gw.namespace,
        gw.name,
        pods,
        server.port ?? '?',
        server.protocol ?? '?',
        hosts,
      ),
      ...more,
    ],
    status: 'ok',
    source: b.source(gw.uri, server.span),
  });
}

function targetText(t: IstioTarget, msg: Msg): { status: TraceStatus; line: string } {
  switch (t.kind) {
    case 'service':
      return { status: 'ok', line: `Service ${t.service.namespace}/${t.service.name} (${t.fqdn}).` };
    case 'entry':
      return { status: 'ok', line: msg('ServiceEntry {0}/{1} declares {2}.', t.entry.namespace, t.entry.name, t.fqdn) };
    case 'missing':
      return { status: 'error', line: msg('No Service "{0}" in namespace {1}: Istio has no cluster for {2} (503).', t.name, t.namespace, t.fqdn) };
    case 'unexpanded':
      return { status: 'error', line: msg('Istio does not expand this name: write {0} (503 otherwise).', t.full) };
    case 'unknown':
      return {
        status: 'conditional',
        line: t.fqdn ? msg('{0} is not defined in the manifests (a ServiceEntry or a Service made elsewhere may serve it).', t.fqdn) : msg('No host.'),
      };
  }
}

/** "3 destinations, 1 of them to no Service (503)." */
function destinationCount(n: number, broken: number, msg: Msg): string {
  if (!broken) return n === 1 ? msg('{0} destination.', n) : msg('{0} destinations.', n);
  return n === 1 ? msg('{0} destination, {1} of them to no Service (503).', n, broken) : msg('{0} destinations, {1} of them to no Service (503).', n, broken);
}

/** The route blocks and destinations of VirtualServices; `from` gives the nodes each block is reached from. */
function drawBlocks(
  b: GraphBuilder,
  blocks: readonly IstioRouteBlock[],
  services: Service[],
  from: (block: IstioRouteBlock) => readonly string[],
): Map<string, { id: string; vs: VirtualService; span: { start: number; end: number } }[]> {
  const places = new Map<string, { id: string; vs: VirtualService; span: { start: number; end: number } }[]>();
  const add = (vs: VirtualService, id: string, span: { start: number; end: number }) => {
    const key = `${vs.namespace}/${vs.name}`;
    const l = places.get(key) ?? [];
    l.push({ id, vs, span });
    places.set(key, l);
  };
  const msg = b.msg;
  for (const block of blocks) {
    const { vs, where, destinations } = block;
    const id = `istio:block:${vs.namespace}/${vs.name}/${where}`;
    const broken = destinations.filter((d) => targetText(d.target, msg).status === 'error').length;
    b.node({
      id,
      kind: 'route-rule',
      column: 'route',
      label: `VirtualService ${vs.name} · ${where}`,
      detail: [msg('Hosts {0}.', vs.hosts.map((h) => h.value).join(', ') || msg('(none)')), destinationCount(destinations.length, broken, msg)],
      status: broken === destinations.length && broken > 0 ? 'error' : broken ? 'warning' : 'ok',
      source: b.source(vs.uri, destinations[0]?.destination.span),
    });
    for (const f of from(block)) b.edge(f, id, 'ok');
    destinations.forEach(({ destination: d, target }, i) => {
      const { status, line } = targetText(target, msg);
      const did = `${id}/${i}`;
      const label = `${d.host ?? '?'}${d.port !== undefined ? `:${d.port}` : ''}${d.subset ? ` ${msg('subset {0}', d.subset)}` : ''}${d.role === 'mirror' ? ` ${msg('(mirror)')}` : ''}`;
      const to = `${d.host ?? msg('(no host)')}${d.port !== undefined ? ` ${msg('port {0}', d.port)}` : ''}${d.subset ? msg(', subset {0}', d.subset) : ''}`;
      const sends = d.role === 'mirror' ? msg('{0}: mirrors a copy of the requests to {1}.', d.where, to) : msg('{0}: sends requests to {1}.', d.where, to);
      b.node({ id: did, kind: 'backend-ref', column: 'entry', label, detail: [sends, line], status, source: b.source(vs.uri, d.span) });
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

function finishGraph(
  analysis: Analysis,
  b: GraphBuilder,
  subject: IstioGateway | VirtualService,
  services: readonly Service[],
  places: ReturnType<typeof drawBlocks>,
  findings: readonly HopFinding[],
  own: (f: HopFinding) => boolean,
  anyRoute: boolean,
): TraceGraph {
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
    const msg = b.msg;
    drawServer(b, gw, server, i, [
      n === 1
        ? msg('Applies {0} VirtualService of the workspace.', n)
        : n
          ? msg('Applies {0} VirtualServices of the workspace.', n)
          : msg('No VirtualService in the workspace is bound to it for these hosts.'),
    ]);
  });
  const blocks = vss.flatMap((vs) => routeBlocks(analysis.cluster, analysis.config, vs));
  const services: Service[] = [];
  const places = drawBlocks(b, blocks, services, (block) => gw.servers.flatMap((s, i) => (serverServes(gw, s, block.vs) ? [serverId(gw, i)] : [])));
  return finishGraph(
    analysis,
    b,
    gw,
    services,
    places,
    findings,
    (f) => {
      const r = f.resource!;
      if (r.kind !== 'Gateway' || r.namespace !== gw.namespace || r.name !== gw.name) return false;
      if (f.uri !== gw.uri) return true;
      const inside = gw.servers.map((s, i) => [s, i] as const).filter(([s]) => within(f.span, s.span));
      for (const [, i] of inside.length ? inside : gw.servers.map((s, i) => [s, i] as const)) b.attach(serverId(gw, i), f);
      return true;
    },
    vss.length > 0,
  );
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
