// The trace graph the trace view and the CLI draw, from the semantic Service path (analysis/servicePath.ts): one node
// per hop (entry points, the Service, kube-proxy, endpoint groups, container ports, policies) in its column, with
// labels and details in plain sentences, edges with their status, each finding on the hop it breaks, and the packet
// path. Which hop a rule's findings belong on is the rule's `traceHop` (rules/rule.ts), never a code written here.

import type { Analysis } from '../analysis/analysis';
import type { EndpointGroup, PortTarget } from '../analysis/endpoints';
import { endpointCount } from '../analysis/endpoints';
import { listenerKinds, percent, problemsText, type BackendVerdict } from '../analysis/gatewayRoutes';
import { routePath, routesFrom, throughListener, type RoutePath } from '../analysis/gatewayTrace';
import { isIP } from '../analysis/ip';
import { unknownPods } from '../analysis/unknowns';
import { messages, say, type Msg } from '../l10n/l10n';
import type { ServicePath } from '../analysis/servicePath';
import type { Severity } from '../model/config';
import { routeKinds, type Gateway, type GatewayListener, type GatewayRoute } from '../model/gatewayApi';
import { lineIndexesOf } from '../model/lineIndex';
import type { NetworkPolicy, Resource, Service } from '../model/resources';
import type { Span } from '../model/span';
import type { SourceSpan, TraceClient, TraceEdge, TraceFinding, TraceGraph, TraceNode, TraceReach, TraceStatus } from '../protocol';
import { sourceSpan } from './sourceSpan';
import { ruleByCode } from '../rules/index';
import type { TraceHop } from '../rules/rule';
import { packetPathFor, type PacketStop } from './packetPath';
import { clientEgressText, clientEnd, combined, portReach } from './traceClient';

/** A finding as the trace needs it (structurally a rules `Finding`). */
export interface HopFinding {
  readonly uri: string;
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly span: Span;
  readonly resource?: { readonly kind: string; readonly namespace: string; readonly name: string };
}

/** Collects nodes and edges, places in files as the graph carries them, and findings per node. */
export interface GraphBuilder {
  readonly nodes: TraceNode[];
  readonly edges: TraceEdge[];
  node(n: Omit<TraceNode, 'findings'>): void;
  edge(from: string, to: string, status: TraceEdge['status'], label?: string): void;
  source(uri: string, span: Span | undefined): SourceSpan | undefined;
  attach(id: string, f: HopFinding): void;
  /** The nodes with their findings, each node's status at least as bad as its worst finding. */
  finish(): TraceNode[];
  /** The messages in the analysis locale. */
  readonly msg: Msg;
}

export function graphBuilder(analysis: Analysis): GraphBuilder {
  const { cluster } = analysis;
  const nodes: TraceNode[] = [];
  const edges: TraceEdge[] = [];
  const linesOf = lineIndexesOf(cluster.files);
  let uris: ReadonlySet<string> | undefined;
  const attached = new Map<string, TraceFinding[]>();
  return {
    nodes,
    edges,
    msg: messages(analysis.config.locale),
    node: (n) => void nodes.push({ ...n, findings: [] }),
    edge: (from, to, status, label) => void edges.push({ from, to, status, ...(label ? { label } : {}) }),
    source(uri, span) {
      if (!span || !uri || !(uris ??= new Set(cluster.files.map((f) => f.uri))).has(uri)) return undefined;
      return sourceSpan(uri, span, linesOf(uri));
    },
    attach(id, f) {
      const l = attached.get(id) ?? [];
      l.push({ code: f.code, severity: f.severity, message: f.message });
      attached.set(id, l);
    },
    finish: () =>
      nodes.map((n) => {
        const fs = attached.get(n.id);
        if (!fs) return n;
        return { ...n, findings: fs, status: worst(n.status, fs) };
      }),
  };
}

/**
 * The trace graph of one Service, with the snapshot's findings on the hops they break; with a client, every endpoint
 * group and container port says whether the client's connection passes the NetworkPolicies, and the rules that decide.
 */
export function traceGraph(workspace: Analysis, service: Service, findings: readonly HopFinding[], client?: TraceClient): TraceGraph {
  // The trace answers within the scope of the Service's file (model/project.ts).
  const analysis = workspace.scopeOf(service.uri).analysis;
  const path = analysis.servicePath(service);
  const { config } = analysis;
  const msg = messages(config.locale);
  const b = graphBuilder(analysis);
  const { node, edge, source } = b;
  const { zone, fqdn, external } = path;
  const eps = path.endpoints;
  const externalTarget = external?.target;

  // Entry points.
  const dnsStatus: TraceStatus = path.dns === 'nxdomain' ? 'error' : path.dns === 'while-ready' ? 'conditional' : 'ok';
  const dnsLine =
    path.dns === 'nxdomain'
      ? external
        ? externalTarget
          ? msg('Does not resolve: CoreDNS answers NXDOMAIN for an ExternalName that is an IP address.')
          : msg('Does not resolve: CoreDNS answers NXDOMAIN for an ExternalName without a host name.')
        : msg('Does not resolve (NXDOMAIN): no pod or address backs this headless Service.')
      : path.dns === 'while-ready'
        ? msg("Resolves to the ready pods' IPs while at least one is ready.")
        : external
          ? msg('Resolves to a CNAME for {0}.', String(externalTarget))
          : service.headless
            ? msg('Resolves to the ready addresses written in its Endpoints or EndpointSlices.')
            : msg('Always resolves to the cluster IP, whether or not any pod is ready.');
  node({
    id: 'entry:dns:short',
    kind: 'dns',
    column: 'entry',
    label: service.name,
    detail: [
      msg('From pods in namespace {0} (the resolver adds {0}.svc.{1}).', service.namespace, zone),
      msg('From other namespaces: {0}', `${service.name}.${service.namespace}`),
      dnsLine,
    ],
    status: dnsStatus,
    source: source(service.uri, service.nameSpan),
  });
  node({
    id: 'entry:dns:fqdn',
    kind: 'dns',
    column: 'entry',
    label: fqdn,
    detail: [msg('The full name works from every namespace.'), dnsLine],
    status: dnsStatus,
    source: source(service.uri, service.nameSpan),
  });
  const dnsEdge = dnsStatus === 'error' ? 'broken' : dnsStatus === 'conditional' ? 'conditional' : 'ok';
  edge('entry:dns:short', 'service', dnsEdge, 'DNS');
  edge('entry:dns:fqdn', 'service', dnsEdge, 'DNS');

  for (const p of path.nodePorts) {
    const id = `entry:nodeport:${p.index}`;
    const np = p.nodePort !== undefined ? String(p.nodePort) : `<${config.nodePortRange[0]}-${config.nodePortRange[1]}>`;
    const detail = [
      p.nodePort !== undefined
        ? msg('Every node listens on {0}/{1} and forwards to Service port {2}.', p.nodePort, p.protocol, String(p.port))
        : msg(
            'Every node listens on a port picked from {0}-{1} when the Service is created, and forwards to Service port {2}.',
            config.nodePortRange[0],
            config.nodePortRange[1],
            String(p.port),
          ),
    ];
    node({ id, kind: 'nodeport', column: 'entry', label: `<NodeIP>:${np}`, detail, status: 'ok', source: source(service.uri, p.nodePortSpan ?? p.span) });
    edge(id, 'service', 'ok', `${p.protocol}`);
  }
  if (path.loadBalancer) {
    const ports = service.ports.map((p) => `${p.port}/${p.protocol}`).join(', ');
    node({
      id: 'entry:loadbalancer',
      kind: 'loadbalancer',
      column: 'entry',
      label: `LoadBalancer ${service.loadBalancerIP ?? msg('(address from the cloud provider)')}`,
      detail: [msg("The cloud load balancer sends {0} to the nodes' node ports.", ports)],
      status: 'ok',
      source: source(service.uri, service.typeSpan),
    });
    edge('entry:loadbalancer', 'service', 'ok');
  }
  for (const ip of path.externalIPs) {
    const id = `entry:external-ip:${ip}`;
    node({
      id,
      kind: 'external-ip',
      column: 'entry',
      label: ip,
      detail: [msg('Nodes that receive traffic for {0} on a Service port hand it to the Service; routing {0} to a node is up to you.', ip)],
      status: 'ok',
      source: source(service.uri, service.span),
    });
    edge(id, 'service', 'ok');
  }
  const ingressIds: { id: string; ingress: Resource; span: Span }[] = [];
  const perIngress = new Map<Resource, number>();
  for (const r of path.ingress) {
    const i = perIngress.get(r.ingress) ?? 0;
    perIngress.set(r.ingress, i + 1);
    const id = `entry:ingress:${r.ingress.namespace}/${r.ingress.name}:${i}`;
    ingressIds.push({ id, ingress: r.ingress, span: r.backendSpan });
    const port = r.servicePort
      ? r.servicePort.name
        ? msg('port {0} ({1})', String(r.servicePort.port), r.servicePort.name)
        : msg('port {0}', String(r.servicePort.port))
      : msg('a port the Service lacks');
    const detail = [
      r.isDefault
        ? msg('Default backend of Ingress {0}: requests no rule matches.', r.ingress.name)
        : msg('Ingress {0} sends {1} to {2}.', r.ingress.name, `${r.host ?? msg('any host')}${r.path}`, port),
    ];
    if (r.problem) detail.push(r.problem);
    node({
      id,
      kind: 'ingress',
      column: 'entry',
      label: r.isDefault ? msg('{0} (default backend)', r.ingress.name) : `${r.host ?? '*'}${r.path}`,
      detail,
      status: r.problem ? 'error' : 'ok',
      source: source(r.ingress.uri, r.backendSpan),
    });
    edge(id, 'service', r.problem ? 'broken' : 'ok', r.servicePort ? String(r.servicePort.port) : undefined);
  }

  const routePlaces = drawRoutes(b, path.routes, (v) => (v.service === service ? 'service' : undefined));

  // The Service hop.
  const ports = service.ports.map((p) => `${p.port}/${p.protocol}${p.name ? ` "${p.name}"` : ''} → targetPort ${p.targetPort ?? p.port}`);
  if (external) {
    node({
      id: 'service',
      kind: 'external-name',
      column: 'service',
      label: service.name,
      detail: [
        `ExternalName → ${externalTarget ?? msg('(none)')}`,
        external.broken
          ? msg('"{0}" is not a host name, so CoreDNS answers NXDOMAIN.', externalTarget ?? '')
          : msg('ExternalName: DNS answers with a CNAME to {0}; nothing proxies the traffic and ports are not remapped.', String(externalTarget)),
      ],
      status: external.broken ? 'error' : 'ok',
      source: source(service.uri, service.externalNameSpan ?? service.nameSpan),
    });
  } else if (service.headless) {
    // The card names the object; what kind of Service it is comes first in its details.
    node({
      id: 'service',
      kind: 'service',
      column: 'service',
      label: service.name,
      detail: [msg('Headless (clusterIP: None): DNS returns pod IPs directly; clients connect to the pods with no virtual IP and no kube-proxy.'), ...ports],
      status: 'ok',
      source: source(service.uri, service.clusterIPSpan ?? service.nameSpan),
    });
  } else {
    node({
      id: 'service',
      kind: 'service',
      column: 'service',
      label: service.name,
      detail: [`${service.type} ${clusterIpOf(service) ?? msg('(cluster IP allocated on creation)')}`, ...ports],
      status: 'ok',
      source: source(service.uri, service.nameSpan),
    });
  }

  // kube-proxy skips headless and ExternalName Services (semantics §5.4).
  const { proxied } = path;
  if (proxied) {
    node({
      id: 'proxy',
      kind: 'kube-proxy',
      column: 'proxy',
      label: `kube-proxy (${config.cni === 'cilium' ? msg('replaced by Cilium eBPF') : config.proxyMode})`,
      detail: proxyDetail(service, config.cni === 'cilium' ? 'cilium' : config.proxyMode, msg),
      status: 'ok',
    });
    edge('service', 'proxy', 'ok');
  }
  const upstream = proxied ? 'proxy' : 'service';

  // The chosen client (netpol §1): its connections are checked on each pod port below.
  const chosen = client ? clientEnd(analysis, client) : undefined;
  const from = chosen && 'end' in chosen && !external ? chosen.end : undefined;
  const reaches: (TraceReach & { readonly group: string; readonly split?: string })[] = [];

  // Endpoints, ports and policies.
  const policyIds = new Map<NetworkPolicy, string>();
  const workloadIds = new Map<Resource, string>();
  /** Container-port nodes → the index of the Service port they receive, and whether that port resolved there. */
  const portIds = new Map<string, { readonly index: number; readonly resolved: boolean }>();
  for (const { group: g, policies } of path.groups) {
    const wid = `endpoints:${g.workload.kind}/${g.workload.name}`;
    workloadIds.set(g.workload, wid);
    const zero = g.replicas === 0;
    // With a client: its connection on each pod port a Service port lands on (after the targetPort mapping, netpol §6).
    const portReaches = new Map<PortTarget, TraceReach>();
    const deciders = new Map<PortTarget, ReadonlySet<NetworkPolicy>>();
    if (from && chosen) {
      for (const t of g.ports) {
        if (t.containerPort === undefined) continue;
        const r = portReach(analysis, from, chosen.label, g.workload, t.servicePort.protocol, t.containerPort);
        portReaches.set(t, r.reach);
        deciders.set(t, r.ingressDeciders);
      }
    }
    const grouped =
      from && chosen
        ? groupVerdict(
            chosen.label,
            [...portReaches].map(([t, r]) => ({ ...r, port: `${t.containerPort}/${t.servicePort.protocol}` })),
            msg,
          )
        : undefined;
    const groupReach = grouped?.reach;
    if (grouped && !zero)
      reaches.push({ ...grouped.reach, group: `${g.workload.kind} ${g.workload.name}`, ...(grouped.split !== undefined ? { split: grouped.split } : {}) });
    const groupStatus: TraceStatus = zero
      ? 'warning'
      : groupReach?.verdict === 'denied'
        ? 'error'
        : groupReach?.verdict === 'unknown' || g.readinessGated
          ? 'conditional'
          : 'ok';
    node({
      id: wid,
      kind: 'workload',
      column: 'endpoints',
      label: groupLabel(g, msg),
      detail: [...(groupReach ? [groupReach.text] : []), ...groupDetail(service, g, fqdn, msg)],
      status: groupStatus,
      source: source(g.workload.uri, g.workload.nameSpan),
      pods: { ...(g.replicas !== undefined ? { count: g.replicas } : {}), names: g.podNames.slice(0, 50), readinessGated: g.readinessGated },
      ...(groupReach ? { reach: groupReach } : {}),
    });
    edge(upstream, wid, zero ? 'broken' : g.readinessGated ? 'conditional' : 'ok', proxied ? undefined : msg('pod IPs from DNS'));
    const leaves: { id: string; reach?: TraceReach; deciders?: ReadonlySet<NetworkPolicy> }[] = [];
    for (const t of g.ports) {
      const pid = `port:${g.workload.kind}/${g.workload.name}:${t.servicePort.index}`;
      const ok = t.containerPort !== undefined;
      portIds.set(pid, { index: t.servicePort.index, resolved: ok });
      const r = portReaches.get(t);
      const status: TraceStatus = !ok || r?.verdict === 'denied' ? 'error' : r?.verdict === 'unknown' ? 'conditional' : 'ok';
      const detail = r ? [r.text, ...r.because.map((b) => `  ${b}`), ...portDetail(t, msg)] : portDetail(t, msg);
      node({
        id: pid,
        kind: 'container-port',
        column: 'port',
        label: portLabel(t),
        detail,
        status,
        source: source(g.workload.uri, t.declared?.span ?? t.servicePort.targetPortSpan ?? t.servicePort.span),
        ...(r ? { reach: r } : {}),
      });
      edge(
        wid,
        pid,
        ok && !zero && r?.verdict !== 'denied' ? (r?.verdict === 'unknown' ? 'conditional' : 'ok') : 'broken',
        `${t.servicePort.port}/${t.servicePort.protocol}`,
      );
      if (ok) leaves.push({ id: pid, ...(r ? { reach: r, deciders: deciders.get(t) } : {}) });
    }
    if (!g.ports.length) leaves.push({ id: wid });
    for (const p of policies) {
      let pid = policyIds.get(p);
      if (!pid) {
        pid = `policy:${p.namespace}/${p.name}`;
        policyIds.set(p, pid);
        node({
          id: pid,
          kind: 'network-policy',
          column: 'policy',
          label: p.name,
          detail: policyDetail(p, msg),
          status: p.ingress.length ? 'conditional' : 'warning',
          source: source(p.uri, p.podSelectorSpan ?? p.nameSpan),
        });
      }
      for (const leaf of leaves) {
        if (leaf.reach && chosen) {
          // Whether this policy's own rules decide the client's connection, or another policy's do.
          const mine = leaf.deciders?.has(p) ?? false;
          const v = leaf.reach.verdict;
          edge(
            leaf.id,
            pid,
            v === 'allowed' ? 'ok' : v === 'denied' ? 'broken' : 'conditional',
            v === 'allowed'
              ? mine
                ? msg('admits the client')
                : msg('another policy admits the client')
              : v === 'denied'
                ? msg('blocks the client')
                : msg('may admit the client'),
          );
        } else edge(leaf.id, pid, p.ingress.length ? 'conditional' : 'broken', p.ingress.length ? msg('only allowed peers') : msg('denies all ingress'));
      }
    }
  }
  for (const { manual: m, ok, ports: matched } of path.manual) {
    const r = m.resource;
    const mid = `endpoints:manual:${r.kind}/${r.name}`;
    workloadIds.set(r, mid);
    const ready = m.addresses.filter((a) => a.ready);
    const addr = m.addresses
      .slice(0, 5)
      .map((a) => `${a.ip ?? msg('(no IP)')}${a.hostname ? ` (${a.hostname})` : ''}: ${a.ready ? msg('ready') : msg('not ready, gets no traffic')}`);
    const detail = m.mirrored
      ? [msg('Addresses written by hand in {0} {1}.', r.kind, r.name), ...addr]
      : [m.reason ? msg('Ignored: {0}.', say(m.reason, msg)) : msg('Ignored: it is not mirrored.'), ...addr];
    // The pods behind addresses written by hand are not in the manifests: which policies select them is unknown.
    if (chosen && m.mirrored)
      detail.unshift(`◐ ${msg('From {0}: not checked; which NetworkPolicies govern addresses written by hand is not in the manifests.', chosen.label)}`);
    node({
      id: mid,
      kind: 'manual-endpoints',
      column: 'endpoints',
      label: `${r.kind} ${r.name} (${m.addresses.length === 1 ? msg('{0} address', 1) : msg('{0} addresses', m.addresses.length)})`,
      detail,
      status: !m.mirrored ? 'warning' : ready.length ? 'ok' : 'error',
      source: source(r.uri, r.nameSpan),
    });
    edge(upstream, mid, ok ? 'ok' : 'broken');
    if (!ok) continue;
    for (const { servicePort: p, endpointPort: ep } of matched) {
      const pid = `port:manual:${r.kind}/${r.name}:${p.index}`;
      portIds.set(pid, { index: p.index, resolved: !!ep });
      node({
        id: pid,
        kind: 'container-port',
        column: 'port',
        label: ep ? `${p.port} → ${ep.port}` : `${p.port} → ${msg('(no matching port)')}`,
        detail: [
          ep
            ? ep.name
              ? msg('The Endpoints port "{0}" {1}/{2} receives Service port {3}.', ep.name, String(ep.port), ep.protocol, String(p.port))
              : msg('The Endpoints port {0}/{1} receives Service port {2}.', String(ep.port), ep.protocol, String(p.port))
            : msg(
                'No port of {0} {1} has the name "{2}" and protocol {3}, so Service port {4} has no backend.',
                r.kind,
                r.name,
                p.name ?? '',
                p.protocol,
                String(p.port),
              ),
        ],
        status: ep ? 'ok' : 'error',
        source: source(r.uri, ep?.span ?? r.nameSpan),
      });
      edge(mid, pid, ep ? 'ok' : 'broken', `${p.port}/${p.protocol}`);
    }
  }
  if (path.noEndpoints) {
    const why = service.selector
      ? msg('The selector {0} matches no pod template in namespace {1}.', [...service.selector].map(([k, v]) => `${k}=${v}`).join(', '), service.namespace)
      : msg('The Service has no selector and no Endpoints or EndpointSlice for it, so nothing receives its traffic.');
    node({
      id: 'endpoints:none',
      kind: 'no-endpoints',
      column: 'endpoints',
      label: msg('No endpoints'),
      detail: [why, proxied ? msg('Connections to the cluster IP are rejected or time out.') : msg('DNS answers NXDOMAIN for the Service name.')],
      status: 'error',
      source: source(service.uri, service.selectorSpan ?? service.nameSpan),
    });
    edge(upstream, 'endpoints:none', 'broken');
  }

  // Findings, each on the hop it breaks; those of the objects drawn, in the files drawn: another Kustomize build or
  // variant that defines the same Service and workloads has findings of its own, for its own trace.
  for (const f of findings) {
    const r = f.resource;
    if (!r) continue;
    if (r.kind === 'Service' && r.namespace === service.namespace && r.name === service.name) {
      if (f.uri !== service.uri) continue;
      for (const id of serviceHops(ruleByCode(f.code)?.traceHop, f.uri, f.span)) b.attach(id, f);
      continue;
    }
    if ((routeKinds as readonly string[]).includes(r.kind)) {
      attachToRoute(b, routePlaces, f, r);
      continue;
    }
    if (r.namespace !== service.namespace) continue;
    const w = [...workloadIds].find(([res]) => res.kind === r.kind && res.name === r.name && res.uri === f.uri)?.[1];
    if (w) {
      b.attach(w, f);
      continue;
    }
    if (r.kind === 'StatefulSet' && path.governs.some((s) => s.name === r.name)) {
      b.attach('service', f);
      continue;
    }
    if (r.kind === 'Ingress') {
      const route = ingressIds.find((x) => x.ingress.name === r.name && x.ingress.uri === f.uri && within(f.span, x.span));
      if (route) b.attach(route.id, f);
      continue;
    }
    if (r.kind === 'NetworkPolicy') {
      const p = [...policyIds].find(([pol]) => pol.name === r.name && pol.uri === f.uri)?.[1];
      if (p) b.attach(p, f);
    }
  }

  /** The nodes a finding on the traced Service goes on, by the hop its rule names (the Service hop by default). */
  function serviceHops(hop: TraceHop | undefined, uri: string, span: Span): string[] {
    if (hop === 'endpoints') return [path.noEndpoints ? 'endpoints:none' : 'service'];
    if (hop === 'resolved-port' || hop === 'unresolved-port') {
      // The container ports that receive the Service port the finding is on, resolved there or not as the rule says.
      const index = uri === service.uri ? service.ports.find((p) => within(span, p.span))?.index : undefined;
      const resolved = hop === 'resolved-port';
      const targets = [...portIds].filter(([, p]) => p.index === index && p.resolved === resolved).map(([id]) => id);
      if (targets.length) return targets;
    }
    return ['service'];
  }

  // The client's box: who it is, its own egress, and whether any of its connections reaches a pod.
  let clientSummary: TraceGraph['client'];
  if (client && chosen) {
    const verdict = combined(reaches) ?? 'unknown';
    const allowed = reaches.filter((r) => r.verdict === 'allowed').length;
    const text = external
      ? `◐ ${msg('An ExternalName Service is answered by DNS alone: the client connects to its target, and the pods behind it are not in the manifests.')}`
      : !from
        ? `◐ ${msg('{0}: its connections cannot be checked.', 'missing' in chosen ? chosen.missing : '')}`
        : !reaches.length
          ? `◐ ${msg("No pod port to check the client's connection on.")}`
          : verdict === 'allowed'
            ? `✓ ${reaches.length === 1 ? msg('From {0}: {1} of {2} endpoint group admits the connection.', chosen.label, allowed, reaches.length) : msg('From {0}: {1} of {2} endpoint groups admit the connection.', chosen.label, allowed, reaches.length)}`
            : verdict === 'denied'
              ? `✖ ${msg('From {0}: NetworkPolicies block the connection to every pod.', chosen.label)}`
              : `◐ ${msg('From {0}: whether the connection passes is unknown.', chosen.label)}`;
    // Per endpoint group: its verdict and the rules that decide it.
    const because = reaches.map((r) => {
      const shown = r.because.length > 4 ? [...r.because.slice(0, 4), msg('and {0} more', r.because.length - 4)] : r.because;
      return `${r.group}: ${r.split ?? verdictWord(r.verdict, msg)}${shown.length ? ` — ${shown.join('; ')}` : r.verdict === 'allowed' ? ` — ${msg('no NetworkPolicy isolates either end')}` : ''}`;
    });
    clientSummary = { client, label: chosen.label, verdict: from && !external && reaches.length ? verdict : 'unknown', text, because };
    const detail = [text, ...('end' in chosen ? [clientEgressText(analysis, chosen.end)] : [])];
    // semantics §5.6: from outside, only node ports, a load balancer, external IPs or an Ingress lead to the Service.
    if (client.kind === 'external' && !path.nodePorts.length && !path.loadBalancer && !path.externalIPs.length && !external) {
      detail.push(
        service.headless
          ? msg(
              "A headless Service has no address outside the cluster: outside clients reach these pods only through an Ingress, a Gateway or a route of their own; shown is what the pods' policies admit from outside addresses.",
            )
          : msg(
              "A {0} Service has no address outside the cluster: outside clients reach these pods only through an Ingress, a Gateway or a route of their own; shown is what the pods' policies admit from outside addresses.",
              service.type,
            ),
      );
    }
    node({
      id: 'client',
      kind: 'client',
      column: 'entry',
      label: msg('From {0}', chosen.label),
      detail,
      status: clientSummary.verdict === 'denied' ? 'error' : clientSummary.verdict === 'unknown' ? 'conditional' : 'ok',
      reach: { verdict: clientSummary.verdict, text, because },
    });
    // The client comes first among the callers: it is who the trace is drawn for.
    b.nodes.unshift(b.nodes.pop()!);
    edge('client', 'service', clientSummary.verdict === 'denied' ? 'broken' : clientSummary.verdict === 'unknown' ? 'conditional' : 'ok', 'client');
  }

  const containerPorts = [...new Set(eps.groups.flatMap((g) => g.ports.map((t) => t.containerPort)).filter((p): p is number => p !== undefined))];
  const at = source(service.uri, service.nameSpan);
  return {
    service: { kind: service.kind, namespace: service.namespace, name: service.name, ...(at ? { source: at } : {}) },
    nodes: b.finish(),
    edges: b.edges,
    broken: !path.reachable,
    ...(clientSummary ? { client: clientSummary } : {}),
    packetPath: packetPathFor(service, config, {
      containerPorts,
      ...(externalTarget ? { externalName: externalTarget } : {}),
      stop: packetStop(path, dnsStatus, msg),
    }),
  };
}

/** A node drawn for a route's rule or backendRef, to put the route's findings on. */
interface RoutePlace {
  readonly id: string;
  readonly route: GatewayRoute;
  readonly span: Span;
}

/**
 * The Gateway entry (gateway semantics §G9): each listener that accepts a route, the route rule (matches, filters,
 * how much of it fails), and each backendRef `target` gives a node to lead to (its port, weight, and what its share
 * of the rule's traffic gets when it is invalid, §G7): the id of the node to lead to, '' for a node leading nowhere,
 * undefined for none. Listeners in `listenerIds` are drawn already.
 */
function drawRoutes(
  b: GraphBuilder,
  routes: readonly RoutePath[],
  target: (verdict: BackendVerdict) => string | undefined,
  listenerIds = new Set<string>(),
): RoutePlace[] {
  const places: RoutePlace[] = [];
  const { msg } = b;
  for (const { route, listeners, meshParents, attached, rejected, rules } of routes) {
    for (const { rule, backends, invalidShare, allInvalid } of rules) {
      const { traffic, fate } = failureWords(route.kind, msg);
      const ruleId = `gateway:rule:${route.kind}/${route.namespace}/${route.name}/${rule.index}`;
      const detail = [
        rule.matches.length ? msg('Matches {0}.', rule.matches.join('; ')) : msg('Matches every request of the route.'),
        ...(route.hostnames.length ? [msg('Hostnames {0}.', route.hostnames.map((h) => h.value).join(', '))] : []),
        ...(rule.filters.length ? [msg('Filters: {0}.', rule.filters.join(', '))] : []),
        allInvalid
          ? msg('Every backend is invalid: all {0} it matches {1}.', traffic, fate)
          : invalidShare > 0
            ? msg('{0} of its {1} go to invalid backends and {2}.', percent(invalidShare), traffic, fate)
            : rule.backendRefs.length === 1
              ? msg('Sends its {0} to {1} backend by weight.', traffic, 1)
              : msg('Sends its {0} to {1} backends by weight.', traffic, rule.backendRefs.length),
        ...meshParents.map((m) =>
          m.producer
            ? msg('Mesh producer route on Service {0}: calls to it that match this rule are sent here.', `${m.namespace}/${m.service.name}`)
            : msg('Mesh consumer route on Service {0}: calls to it that match this rule are sent here.', `${m.namespace}/${m.service.name}`),
        ),
        ...(attached ? [] : [msg('No Gateway in the workspace accepts this route.')]),
        ...(rejected ? [msg('The API server rejects this route: a Service backendRef has no port ("Must have port for Service reference").')] : []),
      ];
      b.node({
        id: ruleId,
        kind: 'route-rule',
        column: 'route',
        label: `${route.kind} ${route.name} · ${msg('rule {0}', rule.index + 1)}`,
        detail,
        status: allInvalid ? 'error' : invalidShare > 0 || !attached ? 'warning' : 'ok',
        source: b.source(route.uri, rule.span),
      });
      places.push({ id: ruleId, route, span: rule.span });
      for (const { gateway, listener } of listeners) {
        const lid = listenerId(gateway, listener);
        if (!listenerIds.has(lid)) {
          listenerIds.add(lid);
          drawListener(b, gateway, listener);
        }
        b.edge(lid, ruleId, 'ok', route.hostnames.length ? route.hostnames.map((h) => h.value).join(', ') : undefined);
      }
      for (const { ref, verdict: v, share: raw } of backends) {
        const to = target(v);
        if (to === undefined) continue;
        const id = `gateway:backend:${route.kind}/${route.namespace}/${route.name}/${rule.index}/${ref.index}`;
        const share = percent(raw);
        const backend = backendName(route.namespace, ref);
        const detail = [
          msg(
            "{0} {1} sends {2} of rule {3}'s {4} (weight {5}) to {6} port {7}.",
            route.kind,
            route.name,
            share,
            rule.index + 1,
            traffic,
            ref.weight,
            backend,
            ref.port ?? msg('(none)'),
          ),
        ];
        if (v.status === 'invalid') detail.push(msg('Invalid ({0}): these {1} {2}.', problemsText(v.problems, msg), traffic, fate));
        // the backend it names, not the route it is written in (the rule's box above names the route)
        b.node({
          id,
          kind: 'backend-ref',
          column: 'entry',
          label: msg('{0} port {1} ({2})', backend, ref.port ?? '?', share),
          detail,
          status: v.status === 'invalid' ? 'error' : 'ok',
          source: b.source(route.uri, ref.span),
        });
        places.push({ id, route, span: ref.span });
        b.edge(ruleId, id, v.status === 'invalid' ? 'broken' : 'ok', msg('weight {0}', ref.weight));
        if (to) b.edge(id, to, v.status === 'invalid' ? 'broken' : 'ok', ref.port !== undefined ? String(ref.port) : undefined);
      }
    }
  }
  return places;
}

/** `Service api`, `Service other/api` in another namespace, or the kind a backendRef names instead. */
function backendName(
  routeNamespace: string,
  ref: { readonly group: string; readonly kind: string; readonly name?: string; readonly namespace?: string },
): string {
  const kind = ref.group === '' || ref.group === 'core' ? ref.kind : `${ref.kind}.${ref.group}`;
  const namespace = ref.namespace !== undefined && ref.namespace !== routeNamespace ? `${ref.namespace}/` : '';
  return `${kind} ${namespace}${ref.name ?? '(no name)'}`;
}

/** A finding on a route goes on the backendRef it is about, else on the rule it falls in. */
function attachToRoute(b: GraphBuilder, places: readonly RoutePlace[], f: HopFinding, r: NonNullable<HopFinding['resource']>): void {
  // Spans compare only within one file: a copy of the route elsewhere has its own offsets.
  const mine = places.filter(
    (x) => x.route.kind === r.kind && x.route.namespace === r.namespace && x.route.name === r.name && x.route.uri === f.uri && within(f.span, x.span),
  );
  const inner = mine.sort((a, c) => a.span.end - a.span.start - (c.span.end - c.span.start))[0];
  if (inner) b.attach(inner.id, f);
}

function listenerId(gateway: Gateway, listener: GatewayListener): string {
  return `gateway:listener:${gateway.namespace}/${gateway.name}/${listener.name ?? listener.index}`;
}

function drawListener(b: GraphBuilder, gateway: Gateway, listener: GatewayListener, status: TraceStatus = 'ok', more: readonly string[] = []): void {
  b.node({
    id: listenerId(gateway, listener),
    kind: 'gateway-listener',
    column: 'listener',
    label: `${gateway.name} · ${listener.name ?? '?'} ${listener.port ?? '?'}/${listener.protocol ?? '?'}${listener.hostname ? ` ${listener.hostname}` : ''}`,
    detail: [...listenerDetail(gateway, listener, b.msg), ...more],
    status,
    source: b.source(gateway.uri, listener.span),
  });
}

/**
 * The trace graph of one Gateway (gateway semantics §G9): each listener, the routes attached to it, their rules and
 * backendRefs, and the Services these lead to, with the snapshot's findings on the hops they break.
 */
export function gatewayTraceGraph(workspace: Analysis, gateway: Gateway, findings: readonly HopFinding[]): TraceGraph {
  const analysis = workspace.scopeOf(gateway.uri).analysis;
  const b = graphBuilder(analysis);
  const routes = routesFrom(analysis.cluster, gateway);
  const listenerIds = new Set<string>();
  const { msg } = b;
  for (const listener of gateway.listeners) {
    const n = routes.filter((r) => throughListener(r, listener)).length;
    drawListener(b, gateway, listener, 'ok', [
      n === 1
        ? msg('Accepts {0} route of the workspace.', n)
        : n
          ? msg('Accepts {0} routes of the workspace.', n)
          : msg('No route in the workspace is attached to this listener.'),
    ]);
    listenerIds.add(listenerId(gateway, listener));
  }
  return routesGraph(analysis, b, gateway, routes, findings, listenerIds, (f) => {
    const r = f.resource!;
    if (r.kind !== 'Gateway' || r.namespace !== gateway.namespace || r.name !== gateway.name) return false;
    // Another file's copy (a variant) has findings of its own.
    if (f.uri !== gateway.uri) return true;
    // On the listener the finding falls in; a finding on the Gateway as a whole concerns each listener.
    const inside = gateway.listeners.filter((l) => within(f.span, l.span));
    for (const l of inside.length ? inside : gateway.listeners) b.attach(listenerId(gateway, l), f);
    return true;
  });
}

/**
 * The trace graph of one route (gateway semantics §G9): the listeners that accept it, its rules and backendRefs,
 * and the Services these lead to.
 */
export function routeTraceGraph(workspace: Analysis, route: GatewayRoute, findings: readonly HopFinding[]): TraceGraph {
  const analysis = workspace.scopeOf(route.uri).analysis;
  const path = routePath(analysis.cluster, route);
  return routesGraph(analysis, graphBuilder(analysis), route, path ? [path] : [], findings, new Set(), () => false);
}

/**
 * Routes drawn from their listeners to the Services their backendRefs name, each Service one node that says whether
 * its pods receive what is routed there, and the findings on routes and Services on their hops; `own` places the
 * findings on the traced object itself (true when it did).
 */
function routesGraph(
  analysis: Analysis,
  b: GraphBuilder,
  subject: Gateway | GatewayRoute,
  routes: readonly RoutePath[],
  findings: readonly HopFinding[],
  listenerIds: Set<string>,
  own: (f: HopFinding) => boolean,
): TraceGraph {
  const services: Service[] = [];
  const serviceId = (s: Service) => `service:${s.namespace}/${s.name}`;
  const places = drawRoutes(
    b,
    routes,
    (v) => {
      if (!v.service) return '';
      if (!services.includes(v.service)) services.push(v.service);
      return serviceId(v.service);
    },
    listenerIds,
  );
  const reachable = drawServiceNodes(analysis, b, services, (s) =>
    routes.some((r) => r.rules.some((rule) => rule.backends.some((x) => x.verdict.service === s && x.verdict.status !== 'invalid'))),
  );
  for (const f of findings) {
    const r = f.resource;
    if (!r || own(f)) continue;
    if ((routeKinds as readonly string[]).includes(r.kind)) {
      attachToRoute(b, places, f, r);
      continue;
    }
    const s = r.kind === 'Service' ? services.find((x) => x.namespace === r.namespace && x.name === r.name) : undefined;
    if (s) b.attach(serviceId(s), f);
  }
  const at = b.source(subject.uri, subject.nameSpan);
  return {
    service: { kind: subject.kind, namespace: subject.namespace, name: subject.name, ...(at ? { source: at } : {}) },
    nodes: b.finish(),
    edges: b.edges,
    // With no route in the workspace, routes may be attached from elsewhere: nothing says requests fail.
    broken: routes.length > 0 && !reachable,
  };
}

/**
 * One node per Service a route leads to, saying whether its pods receive what is routed there (`valid`: some route's
 * backend to it is valid); true when a valid backend reaches pods (or pods the manifests cannot show).
 */
export function drawServiceNodes(analysis: Analysis, b: GraphBuilder, services: readonly Service[], valid: (s: Service) => boolean): boolean {
  let reachable = false;
  const msg = messages(analysis.config.locale);
  for (const s of services) {
    const path = analysis.servicePath(s);
    const ports = s.ports.map((p) => `${p.port}/${p.protocol}${p.name ? ` "${p.name}"` : ''} → targetPort ${p.targetPort ?? p.port}`);
    const n = endpointCount(path.endpoints);
    // semantics §9.2: pods the manifests cannot show (an operator's, a generated label) leave the answer open.
    const unknown = !path.reachable && path.noEndpoints && s.selector ? unknownPods(analysis.cluster, s.namespace, s.selector.keys()) : undefined;
    const backs = path.external
      ? msg('ExternalName → {0}: Gateway implementations should not forward to it.', path.external.target ?? msg('(none)'))
      : path.reachable
        ? n === undefined
          ? msg('One endpoint per node.')
          : n === 1
            ? msg('{0} endpoint.', n)
            : msg('{0} endpoints.', n)
        : unknown
          ? msg('No pod in the manifests backs it, but {0}.', say(unknown, msg))
          : msg('No request through it reaches a pod (trace the Service for why): HTTP requests routed here get 503, connections fail.');
    const kind = path.external ? 'external-name' : 'service';
    const status: TraceStatus = path.external ? 'error' : path.reachable ? 'ok' : unknown ? 'conditional' : 'error';
    if (valid(s) && (path.reachable || unknown) && !path.external) reachable = true;
    b.node({
      id: `service:${s.namespace}/${s.name}`,
      kind,
      column: 'service',
      label: s.name,
      detail: [
        path.external
          ? 'ExternalName Service'
          : s.headless
            ? msg('Headless Service')
            : `${s.type} ${clusterIpOf(s) ?? msg('(cluster IP allocated on creation)')}`,
        ...ports,
        backs,
      ],
      status,
      source: b.source(s.uri, s.nameSpan),
    });
  }
  return reachable;
}

function listenerDetail(gateway: Gateway, l: GatewayListener, msg: Msg): string[] {
  const name = gateway.gatewayClassName
    ? msg('{0} (class {1})', `${gateway.namespace}/${gateway.name}`, gateway.gatewayClassName)
    : `${gateway.namespace}/${gateway.name}`;
  const on = `${l.port ?? '?'}/${l.protocol ?? '?'}`;
  const kinds = listenerKinds(l)?.join(', ') ?? msg('implementation-specific kinds');
  return [
    l.hostname ? msg('Gateway {0} listens on {1} for {2}.', name, on, l.hostname) : msg('Gateway {0} listens on {1} for every hostname.', name, on),
    l.from === 'All'
      ? msg('Admits {0} from every namespace.', kinds)
      : l.from === 'Selector'
        ? msg('Admits {0} from selected namespaces.', kinds)
        : msg('Admits {0} from namespace {1}.', kinds, gateway.namespace),
  ];
}

/** What a route kind carries and what becomes of it at an invalid backend (gatewayRoutes.ts `failureOf`), in the reader's words. */
function failureWords(kind: GatewayRoute['kind'], msg: Msg): { readonly traffic: string; readonly fate: string } {
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

function clusterIpOf(service: Service): string | undefined {
  return [service.clusterIPs[0], service.clusterIP].find((x) => x && isIP(x));
}

/**
 * Where the packet path must stop, so it never shows a delivery the Service path says cannot happen: no name to
 * resolve, no endpoint to DNAT to, or endpoints that exist but none of whose ports receive the Service port.
 */
function packetStop(path: ServicePath, dns: TraceStatus, msg: Msg): PacketStop | undefined {
  const { service, endpoints: eps, reachable, deniedByPolicy } = path;
  if (service.type === 'ExternalName') {
    return dns === 'error'
      ? {
          at: 'dns',
          why: msg('CoreDNS answers NXDOMAIN for this ExternalName (its target is missing or an IP address), so the client gets no address to connect to.'),
        }
      : undefined;
  }
  if (reachable) return undefined;
  if (deniedByPolicy)
    return {
      at: 'policy',
      why: msg(
        'A NetworkPolicy selects the target pods and allows no ingress, so the network plugin drops the packet before it reaches the pod; the client waits until its connection times out.',
      ),
    };
  const live = eps.groups.some((g) => g.replicas !== 0) || eps.manual.some((m) => m.mirrored && m.addresses.some((a) => a.ready));
  if (service.headless) {
    return live
      ? { at: 'dns', why: msg('No pod behind this headless Service receives the port (see the Service path), so nothing accepts the connection.') }
      : {
          at: 'dns',
          why: msg('The headless Service has no ready endpoint, so CoreDNS answers NXDOMAIN: the client gets no address and never sends a packet.'),
        };
  }
  if (!live) {
    const why =
      !eps.groups.length && !eps.manual.length
        ? service.selector
          ? msg('its selector matches no pod template')
          : msg('it has no selector and no Endpoints or EndpointSlice')
        : msg('none of its endpoints can be ready (scaled to zero, or manual addresses that are not ready or not mirrored)');
    return { at: 'proxy', why: msg('The Service has no endpoints: {0}.', why) };
  }
  return {
    at: 'proxy',
    why: msg('The pods behind the Service declare no port that its targetPort names, so kube-proxy has no endpoint for this Service port.'),
  };
}

export function within(inner: Span, outer: Span): boolean {
  return inner.start >= outer.start && inner.end <= outer.end;
}

function worst(status: TraceStatus, findings: readonly TraceFinding[]): TraceStatus {
  if (status === 'error' || findings.some((f) => f.severity === 'error')) return 'error';
  if (status === 'warning' || findings.some((f) => f.severity === 'warning')) return 'warning';
  return status;
}
function proxyDetail(service: Service, mode: string, msg: Msg): string[] {
  const out = [
    mode === 'cilium'
      ? msg("Cilium's eBPF programs replace kube-proxy: each connection to the cluster IP goes to one ready endpoint, chosen at random.")
      : mode === 'ipvs'
        ? msg('IPVS: a virtual server for the cluster IP on every node forwards each connection to a ready endpoint, round robin by default.')
        : mode === 'nftables'
          ? msg('nftables: maps on every node DNAT the cluster IP to one ready endpoint, chosen at random (like iptables, with faster lookups).')
          : msg('iptables: rules on every node DNAT the cluster IP to one ready endpoint, chosen at random.'),
    msg('Only ready endpoints receive new connections.'),
  ];
  if (service.sessionAffinity === 'ClientIP')
    out.push(msg('sessionAffinity ClientIP: each client IP sticks to one pod for {0}s after its last connection.', service.sessionAffinityTimeout ?? 10800));
  if (service.type === 'NodePort' || service.type === 'LoadBalancer') {
    out.push(
      service.externalTrafficPolicy === 'Local'
        ? msg(
            "externalTrafficPolicy Local: traffic from outside goes only to pods on the node it arrived at and keeps the client's source IP; nodes without a ready pod drop it.",
          )
        : msg("externalTrafficPolicy Cluster: traffic from outside may hop to a pod on another node, and its source IP is rewritten to the node's."),
    );
  }
  if (service.internalTrafficPolicy === 'Local')
    out.push(msg('internalTrafficPolicy Local: pods reach only endpoints on their own node; with none there, the connection fails.'));
  return out;
}

/** A group's verdict, and for pods that admit the client on some ports and not others, which (`allowed on 80/TCP; blocked on 81/TCP`). */
function groupVerdict(
  client: string,
  ports: readonly (TraceReach & { readonly port: string })[],
  msg: Msg,
): { readonly reach: TraceReach; readonly split?: string } | undefined {
  const verdict = combined(ports);
  if (!verdict) return undefined;
  const because = [...new Set(ports.filter((r) => r.verdict === verdict || verdict === 'unknown').flatMap((r) => r.because))];
  // Pods that admit the client on some Service ports and not on others say which.
  const on = (v: TraceReach['verdict']) => [...new Set(ports.filter((r) => r.verdict === v).map((r) => r.port))].join(', ');
  const mixed = new Set(ports.map((r) => r.verdict)).size > 1;
  const split = mixed
    ? (['allowed', 'unknown', 'denied'] as const)
        .filter((v) => on(v))
        .map((v) => msg('{0} on {1}', verdictWord(v, msg), on(v)))
        .join('; ')
    : undefined;
  const text =
    verdict === 'allowed'
      ? `✓ ${split ? msg('From {0}: these pods admit the connection ({1}).', client, split) : msg('From {0}: these pods admit the connection.', client)}`
      : verdict === 'denied'
        ? `✖ ${msg('From {0}: NetworkPolicy blocks the connection to these pods.', client)}`
        : `◐ ${split ? msg('From {0}: whether these pods admit the connection is unknown ({1}).', client, split) : msg('From {0}: whether these pods admit the connection is unknown.', client)}`;
  return { reach: { verdict, text, because }, ...(split !== undefined ? { split } : {}) };
}

/** `allowed`, `blocked`, `unknown` in the reader's words. */
function verdictWord(v: TraceReach['verdict'], msg: Msg): string {
  return v === 'allowed' ? msg('allowed') : v === 'denied' ? msg('blocked') : msg('unknown');
}

function groupLabel(g: EndpointGroup, msg: Msg): string {
  const w = g.workload;
  if (w.kind === 'DaemonSet') return msg('DaemonSet {0} (one per node)', w.name);
  if (w.kind === 'Pod') return `Pod ${w.name}`;
  if (w.kind === 'CronJob') return msg('CronJob {0} (while a job runs)', w.name);
  return `${w.kind} ${w.name} ×${g.replicas ?? 1}`;
}

function groupDetail(service: Service, g: EndpointGroup, fqdn: string, msg: Msg): string[] {
  const out: string[] = [];
  if (g.replicas === 0) out.push(msg('Scaled to 0 replicas: no pod receives traffic.'));
  if (service.publishNotReadyAddresses) out.push(msg('publishNotReadyAddresses: pods are endpoints as soon as they have an IP, Ready or not.'));
  else if (g.readinessGated) out.push(msg('A readiness probe gates these pods: until it passes they get no traffic and no DNS answer.'));
  else out.push(msg('No readiness probe: pods get traffic as soon as their containers start, before the app may be listening.'));
  const w = g.workload;
  if (w.kind === 'StatefulSet' && w.serviceName === service.name && g.podNames.length) {
    const names =
      g.podNames
        .slice(0, 3)
        .map((p) => `${p}.${fqdn}`)
        .join(', ') + (g.podNames.length > 3 ? ', …' : '');
    out.push(service.headless ? msg('Stable names: {0}', names) : msg('Stable names (CoreDNS only: the Service is not headless): {0}', names));
  } else if (w.kind === 'StatefulSet') {
    out.push(
      msg(
        'Pods {0} get no per-pod names from this Service: the StatefulSet\'s serviceName is "{1}".',
        `${g.podNames.slice(0, 3).join(', ')}${g.podNames.length > 3 ? ', …' : ''}`,
        w.serviceName ?? '',
      ),
    );
  }
  return out;
}

function portLabel(t: PortTarget): string {
  const p = t.servicePort;
  const target = t.containerPort !== undefined ? String(t.containerPort) : '✗';
  if (typeof p.targetPort === 'string') return `${p.port} → ${p.targetPort} → ${target}`;
  return `${p.port} → ${target}`;
}

function portDetail(t: PortTarget, msg: Msg): string[] {
  const p = t.servicePort;
  if (t.unresolved === 'protocol-mismatch')
    return [
      msg('A container port is named "{0}", but not with protocol {1}; this Service port gets no endpoint from these pods.', String(p.targetPort), p.protocol),
    ];
  if (t.unresolved)
    return [msg('No container declares a port named "{0}" ({1}); this Service port gets no endpoint from these pods.', String(p.targetPort), p.protocol)];
  if (t.container && t.declared) {
    return [
      t.declared.name
        ? msg('Container "{0}" declares {1}/{2} as "{3}".', t.container.name, String(t.containerPort), t.declared.protocol, t.declared.name)
        : msg('Container "{0}" declares {1}/{2}.', t.container.name, String(t.containerPort), t.declared.protocol),
    ];
  }
  return [msg('No container declares {0}/{1}; traffic still goes there, so the process must listen on it.', String(t.containerPort), p.protocol)];
}

function policyDetail(p: NetworkPolicy, msg: Msg): string[] {
  if (!p.ingress.length) return [msg('Selects these pods and allows no ingress: every incoming connection is dropped.')];
  const peers = (n: number) => (n === 1 ? msg('from {0} peer selector', n) : msg('from {0} peer selectors', n));
  return [
    msg('Selects these pods for ingress: only connections its rules allow get through.'),
    ...p.ingress.map((r, i) =>
      msg(
        'Rule {0}: {1} on {2}.',
        i + 1,
        r.peers.length ? peers(r.peers.length) : msg('from anywhere'),
        r.ports.length ? r.ports.map((q) => `${q.port ?? msg('any port')}${q.endPort ? `-${q.endPort}` : ''}/${q.protocol}`).join(', ') : msg('every port'),
      ),
    ),
  ];
}
