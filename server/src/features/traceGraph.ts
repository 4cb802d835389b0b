// The trace graph the trace view and the CLI draw, from the semantic Service path (analysis/servicePath.ts): one node
// per hop (entry points, the Service, kube-proxy, endpoint groups, container ports, policies) in its column, with
// labels and details in plain sentences, edges with their status, each finding on the hop it breaks, and the packet
// path. Which hop a rule's findings belong on is the rule's `traceHop` (rules/rule.ts), never a code written here.

import type { Analysis } from '../analysis/analysis';
import type { EndpointGroup, PortTarget } from '../analysis/endpoints';
import { endpointCount } from '../analysis/endpoints';
import { failureOf, listenerKinds, percent, problemsText, type BackendVerdict } from '../analysis/gatewayRoutes';
import { routePath, routesFrom, throughListener, type RoutePath } from '../analysis/gatewayTrace';
import { isIP } from '../analysis/ip';
import { unknownPods } from '../analysis/unknowns';
import { messages, say } from '../l10n/l10n';
import type { ServicePath } from '../analysis/servicePath';
import type { Severity } from '../model/config';
import { routeKinds, type Gateway, type GatewayListener, type GatewayRoute } from '../model/gatewayApi';
import { lineIndexesOf } from '../model/lineIndex';
import type { NetworkPolicy, Resource, Service } from '../model/resources';
import type { Span } from '../model/span';
import type { SourceSpan, TraceClient, TraceEdge, TraceFinding, TraceGraph, TraceNode, TraceReach, TraceStatus } from '../protocol';
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
    node: (n) => void nodes.push({ ...n, findings: [] }),
    edge: (from, to, status, label) => void edges.push({ from, to, status, ...(label ? { label } : {}) }),
    source(uri, span) {
      if (!span || !uri || !(uris ??= new Set(cluster.files.map((f) => f.uri))).has(uri)) return undefined;
      const p = linesOf(uri).positionAt(span.start);
      return { uri, start: span.start, end: span.end, line: p.line, character: p.character };
    },
    attach(id, f) {
      const l = attached.get(id) ?? [];
      l.push({ code: f.code, severity: f.severity, message: f.message });
      attached.set(id, l);
    },
    finish: () => nodes.map((n) => {
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
  const b = graphBuilder(analysis);
  const { node, edge, source } = b;
  const { zone, fqdn, external } = path;
  const eps = path.endpoints;
  const externalTarget = external?.target;

  // Entry points.
  const dnsStatus: TraceStatus = path.dns === 'nxdomain' ? 'error' : path.dns === 'while-ready' ? 'conditional' : 'ok';
  const dnsLine = path.dns === 'nxdomain'
    ? external
      ? `Does not resolve: CoreDNS answers NXDOMAIN for an ExternalName ${externalTarget ? 'that is an IP address' : 'without a host name'}.`
      : 'Does not resolve (NXDOMAIN): no pod or address backs this headless Service.'
    : path.dns === 'while-ready' ? 'Resolves to the ready pods\' IPs while at least one is ready.'
      : external ? `Resolves to a CNAME for ${externalTarget}.`
        : service.headless ? 'Resolves to the ready addresses written in its Endpoints or EndpointSlices.' : 'Always resolves to the cluster IP, whether or not any pod is ready.';
  node({ id: 'entry:dns:short', kind: 'dns', column: 'entry', label: service.name, detail: [`From pods in namespace ${service.namespace} (the resolver adds ${service.namespace}.svc.${zone}).`, `From other namespaces: ${service.name}.${service.namespace}`, dnsLine], status: dnsStatus, source: source(service.uri, service.nameSpan) });
  node({ id: 'entry:dns:fqdn', kind: 'dns', column: 'entry', label: fqdn, detail: ['The full name works from every namespace.', dnsLine], status: dnsStatus, source: source(service.uri, service.nameSpan) });
  const dnsEdge = dnsStatus === 'error' ? 'broken' : dnsStatus === 'conditional' ? 'conditional' : 'ok';
  edge('entry:dns:short', 'service', dnsEdge, 'DNS');
  edge('entry:dns:fqdn', 'service', dnsEdge, 'DNS');

  for (const p of path.nodePorts) {
    const id = `entry:nodeport:${p.index}`;
    const np = p.nodePort !== undefined ? String(p.nodePort) : `<${config.nodePortRange[0]}-${config.nodePortRange[1]}>`;
    const detail = [p.nodePort !== undefined ? `Every node listens on ${p.nodePort}/${p.protocol} and forwards to Service port ${p.port}.` : `Every node listens on a port picked from ${config.nodePortRange[0]}-${config.nodePortRange[1]} when the Service is created, and forwards to Service port ${p.port}.`];
    node({ id, kind: 'nodeport', column: 'entry', label: `<NodeIP>:${np}`, detail, status: 'ok', source: source(service.uri, p.nodePortSpan ?? p.span) });
    edge(id, 'service', 'ok', `${p.protocol}`);
  }
  if (path.loadBalancer) {
    const ports = service.ports.map((p) => `${p.port}/${p.protocol}`).join(', ');
    node({ id: 'entry:loadbalancer', kind: 'loadbalancer', column: 'entry', label: `LoadBalancer ${service.loadBalancerIP ?? '(address from the cloud provider)'}`, detail: [`The cloud load balancer sends ${ports} to the nodes' node ports.`], status: 'ok', source: source(service.uri, service.typeSpan) });
    edge('entry:loadbalancer', 'service', 'ok');
  }
  for (const ip of path.externalIPs) {
    const id = `entry:external-ip:${ip}`;
    node({ id, kind: 'external-ip', column: 'entry', label: ip, detail: [`Nodes that receive traffic for ${ip} on a Service port hand it to the Service; routing ${ip} to a node is up to you.`], status: 'ok', source: source(service.uri, service.span) });
    edge(id, 'service', 'ok');
  }
  const ingressIds: { id: string; ingress: Resource; span: Span }[] = [];
  const perIngress = new Map<Resource, number>();
  for (const r of path.ingress) {
    const i = perIngress.get(r.ingress) ?? 0;
    perIngress.set(r.ingress, i + 1);
    const id = `entry:ingress:${r.ingress.namespace}/${r.ingress.name}:${i}`;
    ingressIds.push({ id, ingress: r.ingress, span: r.backendSpan });
    const port = r.servicePort ? `port ${r.servicePort.port}${r.servicePort.name ? ` (${r.servicePort.name})` : ''}` : 'a port the Service lacks';
    const detail = [r.isDefault ? `Default backend of Ingress ${r.ingress.name}: requests no rule matches.` : `Ingress ${r.ingress.name} sends ${r.host ?? 'any host'}${r.path} to ${port}.`];
    if (r.problem) detail.push(r.problem);
    node({ id, kind: 'ingress', column: 'entry', label: r.isDefault ? `${r.ingress.name} (default backend)` : `${r.host ?? '*'}${r.path}`, detail, status: r.problem ? 'error' : 'ok', source: source(r.ingress.uri, r.backendSpan) });
    edge(id, 'service', r.problem ? 'broken' : 'ok', r.servicePort ? String(r.servicePort.port) : undefined);
  }

  const routePlaces = drawRoutes(b, path.routes, (v) => (v.service === service ? 'service' : undefined));

  // The Service hop.
  const ports = service.ports.map((p) => `${p.port}/${p.protocol}${p.name ? ` "${p.name}"` : ''} → targetPort ${p.targetPort ?? p.port}`);
  if (external) {
    node({ id: 'service', kind: 'external-name', column: 'service', label: service.name, detail: [`ExternalName → ${externalTarget ?? '(none)'}`, external.broken ? `"${externalTarget ?? ''}" is not a host name, so CoreDNS answers NXDOMAIN.` : `ExternalName: DNS answers with a CNAME to ${externalTarget}; nothing proxies the traffic and ports are not remapped.`], status: external.broken ? 'error' : 'ok', source: source(service.uri, service.externalNameSpan ?? service.nameSpan) });
  } else if (service.headless) {
    // The card names the object; what kind of Service it is comes first in its details.
    node({ id: 'service', kind: 'service', column: 'service', label: service.name, detail: ['Headless (clusterIP: None): DNS returns pod IPs directly; clients connect to the pods with no virtual IP and no kube-proxy.', ...ports], status: 'ok', source: source(service.uri, service.clusterIPSpan ?? service.nameSpan) });
  } else {
    node({ id: 'service', kind: 'service', column: 'service', label: service.name, detail: [`${service.type} ${clusterIpOf(service) ?? '(cluster IP allocated on creation)'}`, ...ports], status: 'ok', source: source(service.uri, service.nameSpan) });
  }

  // kube-proxy skips headless and ExternalName Services (semantics §5.4).
  const { proxied } = path;
  if (proxied) {
    node({ id: 'proxy', kind: 'kube-proxy', column: 'proxy', label: `kube-proxy (${config.cni === 'cilium' ? 'replaced by Cilium eBPF' : config.proxyMode})`, detail: proxyDetail(service, config.cni === 'cilium' ? 'cilium' : config.proxyMode), status: 'ok' });
    edge('service', 'proxy', 'ok');
  }
  const upstream = proxied ? 'proxy' : 'service';

  // The chosen client (netpol §1): its connections are checked on each pod port below.
  const chosen = client ? clientEnd(analysis, client) : undefined;
  const from = chosen && 'end' in chosen && !external ? chosen.end : undefined;
  const reaches: (TraceReach & { readonly group: string })[] = [];

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
    const groupReach = from && chosen ? groupVerdict(chosen.label, [...portReaches].map(([t, r]) => ({ ...r, port: `${t.containerPort}/${t.servicePort.protocol}` }))) : undefined;
    if (groupReach && !zero) reaches.push({ ...groupReach, group: `${g.workload.kind} ${g.workload.name}` });
    const groupStatus: TraceStatus = zero ? 'warning' : groupReach?.verdict === 'denied' ? 'error' : groupReach?.verdict === 'unknown' || g.readinessGated ? 'conditional' : 'ok';
    node({ id: wid, kind: 'workload', column: 'endpoints', label: groupLabel(g), detail: [...(groupReach ? [groupReach.text] : []), ...groupDetail(service, g, fqdn)], status: groupStatus, source: source(g.workload.uri, g.workload.nameSpan), pods: { ...(g.replicas !== undefined ? { count: g.replicas } : {}), names: g.podNames.slice(0, 50), readinessGated: g.readinessGated }, ...(groupReach ? { reach: groupReach } : {}) });
    edge(upstream, wid, zero ? 'broken' : g.readinessGated ? 'conditional' : 'ok', proxied ? undefined : 'pod IPs from DNS');
    const leaves: { id: string; reach?: TraceReach; deciders?: ReadonlySet<NetworkPolicy> }[] = [];
    for (const t of g.ports) {
      const pid = `port:${g.workload.kind}/${g.workload.name}:${t.servicePort.index}`;
      const ok = t.containerPort !== undefined;
      portIds.set(pid, { index: t.servicePort.index, resolved: ok });
      const r = portReaches.get(t);
      const status: TraceStatus = !ok || r?.verdict === 'denied' ? 'error' : r?.verdict === 'unknown' ? 'conditional' : 'ok';
      const detail = r ? [r.text, ...r.because.map((b) => `  ${b}`), ...portDetail(t)] : portDetail(t);
      node({ id: pid, kind: 'container-port', column: 'port', label: portLabel(t), detail, status, source: source(g.workload.uri, t.declared?.span ?? t.servicePort.targetPortSpan ?? t.servicePort.span), ...(r ? { reach: r } : {}) });
      edge(wid, pid, ok && !zero && r?.verdict !== 'denied' ? r?.verdict === 'unknown' ? 'conditional' : 'ok' : 'broken', `${t.servicePort.port}/${t.servicePort.protocol}`);
      if (ok) leaves.push({ id: pid, ...(r ? { reach: r, deciders: deciders.get(t) } : {}) });
    }
    if (!g.ports.length) leaves.push({ id: wid });
    for (const p of policies) {
      let pid = policyIds.get(p);
      if (!pid) {
        pid = `policy:${p.namespace}/${p.name}`;
        policyIds.set(p, pid);
        node({ id: pid, kind: 'network-policy', column: 'policy', label: p.name, detail: policyDetail(p), status: p.ingress.length ? 'conditional' : 'warning', source: source(p.uri, p.podSelectorSpan ?? p.nameSpan) });
      }
      for (const leaf of leaves) {
        if (leaf.reach && chosen) {
          // Whether this policy's own rules decide the client's connection, or another policy's do.
          const mine = leaf.deciders?.has(p) ?? false;
          const v = leaf.reach.verdict;
          edge(leaf.id, pid, v === 'allowed' ? 'ok' : v === 'denied' ? 'broken' : 'conditional', v === 'allowed' ? (mine ? 'admits the client' : 'another policy admits the client') : v === 'denied' ? 'blocks the client' : 'may admit the client');
        } else edge(leaf.id, pid, p.ingress.length ? 'conditional' : 'broken', p.ingress.length ? 'only allowed peers' : 'denies all ingress');
      }
    }
  }
  for (const { manual: m, ok, ports: matched } of path.manual) {
    const r = m.resource;
    const mid = `endpoints:manual:${r.kind}/${r.name}`;
    workloadIds.set(r, mid);
    const ready = m.addresses.filter((a) => a.ready);
    const addr = m.addresses.slice(0, 5).map((a) => `${a.ip ?? '(no IP)'}${a.hostname ? ` (${a.hostname})` : ''}: ${a.ready ? 'ready' : 'not ready, gets no traffic'}`);
    const detail = m.mirrored ? [`Addresses written by hand in ${r.kind} ${r.name}.`, ...addr] : [`Ignored: ${m.reason ?? 'it is not mirrored'}.`, ...addr];
    // The pods behind addresses written by hand are not in the manifests: which policies select them is unknown.
    if (chosen && m.mirrored) detail.unshift(`◐ From ${chosen.label}: not checked; which NetworkPolicies govern addresses written by hand is not in the manifests.`);
    node({ id: mid, kind: 'manual-endpoints', column: 'endpoints', label: `${r.kind} ${r.name} (${m.addresses.length} address${m.addresses.length === 1 ? '' : 'es'})`, detail, status: !m.mirrored ? 'warning' : ready.length ? 'ok' : 'error', source: source(r.uri, r.nameSpan) });
    edge(upstream, mid, ok ? 'ok' : 'broken');
    if (!ok) continue;
    for (const { servicePort: p, endpointPort: ep } of matched) {
      const pid = `port:manual:${r.kind}/${r.name}:${p.index}`;
      portIds.set(pid, { index: p.index, resolved: !!ep });
      node({ id: pid, kind: 'container-port', column: 'port', label: ep ? `${p.port} → ${ep.port}` : `${p.port} → (no matching port)`, detail: [ep ? `The Endpoints port${ep.name ? ` "${ep.name}"` : ''} ${ep.port}/${ep.protocol} receives Service port ${p.port}.` : `No port of ${r.kind} ${r.name} has the name "${p.name ?? ''}" and protocol ${p.protocol}, so Service port ${p.port} has no backend.`], status: ep ? 'ok' : 'error', source: source(r.uri, ep?.span ?? r.nameSpan) });
      edge(mid, pid, ep ? 'ok' : 'broken', `${p.port}/${p.protocol}`);
    }
  }
  if (path.noEndpoints) {
    const why = service.selector
      ? `The selector ${[...service.selector].map(([k, v]) => `${k}=${v}`).join(', ')} matches no pod template in namespace ${service.namespace}.`
      : 'The Service has no selector and no Endpoints or EndpointSlice for it, so nothing receives its traffic.';
    node({ id: 'endpoints:none', kind: 'no-endpoints', column: 'endpoints', label: 'No endpoints', detail: [why, proxied ? 'Connections to the cluster IP are rejected or time out.' : 'DNS answers NXDOMAIN for the Service name.'], status: 'error', source: source(service.uri, service.selectorSpan ?? service.nameSpan) });
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
    const text = external ? '◐ An ExternalName Service is answered by DNS alone: the client connects to its target, and the pods behind it are not in the manifests.'
      : !from ? `◐ ${'missing' in chosen ? chosen.missing : ''}: its connections cannot be checked.`
        : !reaches.length ? `◐ No pod port to check the client's connection on.`
          : verdict === 'allowed' ? `✓ From ${chosen.label}: ${reaches.filter((r) => r.verdict === 'allowed').length} of ${reaches.length} endpoint ${reaches.length === 1 ? 'group admits' : 'groups admit'} the connection.`
            : verdict === 'denied' ? `✖ From ${chosen.label}: NetworkPolicies block the connection to every pod.`
              : `◐ From ${chosen.label}: whether the connection passes is unknown.`;
    // Per endpoint group: its verdict and the rules that decide it.
    const because = reaches.map((r) => {
      const split = /\((\w+ on .*)\)\.$/.exec(r.text)?.[1];
      const shown = r.because.length > 4 ? [...r.because.slice(0, 4), `and ${r.because.length - 4} more`] : r.because;
      return `${r.group}: ${split ?? (r.verdict === 'denied' ? 'blocked' : r.verdict)}${shown.length ? ` — ${shown.join('; ')}` : r.verdict === 'allowed' ? ' — no NetworkPolicy isolates either end' : ''}`;
    });
    clientSummary = { client, label: chosen.label, verdict: from && !external && reaches.length ? verdict : 'unknown', text, because };
    const detail = [text, ...('end' in chosen ? [clientEgressText(analysis, chosen.end)] : [])];
    // semantics §5.6: from outside, only node ports, a load balancer, external IPs or an Ingress lead to the Service.
    if (client.kind === 'external' && !path.nodePorts.length && !path.loadBalancer && !path.externalIPs.length && !external) {
      detail.push(`A ${service.headless ? 'headless' : service.type} Service has no address outside the cluster: outside clients reach these pods only through an Ingress, a Gateway or a route of their own; shown is what the pods' policies admit from outside addresses.`);
    }
    node({ id: 'client', kind: 'client', column: 'entry', label: `From ${chosen.label}`, detail, status: clientSummary.verdict === 'denied' ? 'error' : clientSummary.verdict === 'unknown' ? 'conditional' : 'ok', reach: { verdict: clientSummary.verdict, text, because } });
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
    packetPath: packetPathFor(service, config, { containerPorts, ...(externalTarget ? { externalName: externalTarget } : {}), stop: packetStop(path, dnsStatus) }),
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
function drawRoutes(b: GraphBuilder, routes: readonly RoutePath[], target: (verdict: BackendVerdict) => string | undefined, listenerIds = new Set<string>()): RoutePlace[] {
  const places: RoutePlace[] = [];
  for (const { route, listeners, meshParents, attached, rejected, rules } of routes) {
    for (const { rule, backends, invalidShare, allInvalid } of rules) {
      const { traffic, fate } = failureOf(route.kind);
      const ruleId = `gateway:rule:${route.kind}/${route.namespace}/${route.name}/${rule.index}`;
      const detail = [
        rule.matches.length ? `Matches ${rule.matches.join('; ')}.` : 'Matches every request of the route.',
        ...(route.hostnames.length ? [`Hostnames ${route.hostnames.map((h) => h.value).join(', ')}.`] : []),
        ...(rule.filters.length ? [`Filters: ${rule.filters.join(', ')}.`] : []),
        allInvalid ? `Every backend is invalid: all ${traffic} it matches ${fate}.` : invalidShare > 0 ? `${percent(invalidShare)} of its ${traffic} go to invalid backends and ${fate}.` : `Sends its ${traffic} to ${rule.backendRefs.length} ${rule.backendRefs.length === 1 ? 'backend' : 'backends'} by weight.`,
        ...meshParents.map((m) => `Mesh ${m.producer ? 'producer' : 'consumer'} route on Service ${m.namespace}/${m.service.name}: calls to it that match this rule are sent here.`),
        ...(attached ? [] : ['No Gateway in the workspace accepts this route.']),
        ...(rejected ? ['The API server rejects this route: a Service backendRef has no port ("Must have port for Service reference").'] : []),
      ];
      b.node({ id: ruleId, kind: 'route-rule', column: 'route', label: `${route.kind} ${route.name} · rule ${rule.index + 1}`, detail, status: allInvalid ? 'error' : invalidShare > 0 || !attached ? 'warning' : 'ok', source: b.source(route.uri, rule.span) });
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
        const detail = [`${route.kind} ${route.name} sends ${share} of rule ${rule.index + 1}'s ${traffic} (weight ${ref.weight}) to ${backend} port ${ref.port ?? '(none)'}.`];
        if (v.status === 'invalid') detail.push(`Invalid (${problemsText(v.problems)}): these ${traffic} ${fate}.`);
        // the backend it names, not the route it is written in (the rule's box above names the route)
        b.node({ id, kind: 'backend-ref', column: 'entry', label: `${backend} port ${ref.port ?? '?'} (${share})`, detail, status: v.status === 'invalid' ? 'error' : 'ok', source: b.source(route.uri, ref.span) });
        places.push({ id, route, span: ref.span });
        b.edge(ruleId, id, v.status === 'invalid' ? 'broken' : 'ok', `weight ${ref.weight}`);
        if (to) b.edge(id, to, v.status === 'invalid' ? 'broken' : 'ok', ref.port !== undefined ? String(ref.port) : undefined);
      }
    }
  }
  return places;
}

/** `Service api`, `Service other/api` in another namespace, or the kind a backendRef names instead. */
function backendName(routeNamespace: string, ref: { readonly group: string; readonly kind: string; readonly name?: string; readonly namespace?: string }): string {
  const kind = ref.group === '' || ref.group === 'core' ? ref.kind : `${ref.kind}.${ref.group}`;
  const namespace = ref.namespace !== undefined && ref.namespace !== routeNamespace ? `${ref.namespace}/` : '';
  return `${kind} ${namespace}${ref.name ?? '(no name)'}`;
}

/** A finding on a route goes on the backendRef it is about, else on the rule it falls in. */
function attachToRoute(b: GraphBuilder, places: readonly RoutePlace[], f: HopFinding, r: NonNullable<HopFinding['resource']>): void {
  // Spans compare only within one file: a copy of the route elsewhere has its own offsets.
  const mine = places.filter((x) => x.route.kind === r.kind && x.route.namespace === r.namespace && x.route.name === r.name && x.route.uri === f.uri && within(f.span, x.span));
  const inner = mine.sort((a, c) => a.span.end - a.span.start - (c.span.end - c.span.start))[0];
  if (inner) b.attach(inner.id, f);
}

function listenerId(gateway: Gateway, listener: GatewayListener): string {
  return `gateway:listener:${gateway.namespace}/${gateway.name}/${listener.name ?? listener.index}`;
}

function drawListener(b: GraphBuilder, gateway: Gateway, listener: GatewayListener, status: TraceStatus = 'ok', more: readonly string[] = []): void {
  b.node({ id: listenerId(gateway, listener), kind: 'gateway-listener', column: 'listener', label: `${gateway.name} · ${listener.name ?? '?'} ${listener.port ?? '?'}/${listener.protocol ?? '?'}${listener.hostname ? ` ${listener.hostname}` : ''}`, detail: [...listenerDetail(gateway, listener), ...more], status, source: b.source(gateway.uri, listener.span) });
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
  for (const listener of gateway.listeners) {
    const n = routes.filter((r) => throughListener(r, listener)).length;
    drawListener(b, gateway, listener, 'ok', [n ? `Accepts ${n} ${n === 1 ? 'route' : 'routes'} of the workspace.` : 'No route in the workspace is attached to this listener.']);
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
function routesGraph(analysis: Analysis, b: GraphBuilder, subject: Gateway | GatewayRoute, routes: readonly RoutePath[], findings: readonly HopFinding[], listenerIds: Set<string>, own: (f: HopFinding) => boolean): TraceGraph {
  const services: Service[] = [];
  const serviceId = (s: Service) => `service:${s.namespace}/${s.name}`;
  const places = drawRoutes(b, routes, (v) => {
    if (!v.service) return '';
    if (!services.includes(v.service)) services.push(v.service);
    return serviceId(v.service);
  }, listenerIds);
  const reachable = drawServiceNodes(analysis, b, services, (s) => routes.some((r) => r.rules.some((rule) => rule.backends.some((x) => x.verdict.service === s && x.verdict.status !== 'invalid'))));
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
  for (const s of services) {
    const path = analysis.servicePath(s);
    const ports = s.ports.map((p) => `${p.port}/${p.protocol}${p.name ? ` "${p.name}"` : ''} → targetPort ${p.targetPort ?? p.port}`);
    const n = endpointCount(path.endpoints);
    // semantics §9.2: pods the manifests cannot show (an operator's, a generated label) leave the answer open.
    const unknown = !path.reachable && path.noEndpoints && s.selector ? unknownPods(analysis.cluster, s.namespace, s.selector.keys()) : undefined;
    const backs = path.external ? `ExternalName → ${path.external.target ?? '(none)'}: Gateway implementations should not forward to it.`
      : path.reachable ? n === undefined ? 'One endpoint per node.' : `${n} ${n === 1 ? 'endpoint' : 'endpoints'}.`
        : unknown ? `No pod in the manifests backs it, but ${say(unknown, messages(undefined))}.`
          : 'No request through it reaches a pod (trace the Service for why): HTTP requests routed here get 503, connections fail.';
    const kind = path.external ? 'external-name' : 'service';
    const status: TraceStatus = path.external ? 'error' : path.reachable ? 'ok' : unknown ? 'conditional' : 'error';
    if (valid(s) && (path.reachable || unknown) && !path.external) reachable = true;
    b.node({ id: `service:${s.namespace}/${s.name}`, kind, column: 'service', label: s.name, detail: [path.external ? 'ExternalName Service' : s.headless ? 'Headless Service' : `${s.type} ${clusterIpOf(s) ?? '(cluster IP allocated on creation)'}`, ...ports, backs], status, source: b.source(s.uri, s.nameSpan) });
  }
  return reachable;
}

function listenerDetail(gateway: Gateway, l: GatewayListener): string[] {
  return [
    `Gateway ${gateway.namespace}/${gateway.name}${gateway.gatewayClassName ? ` (class ${gateway.gatewayClassName})` : ''} listens on ${l.port ?? '?'}/${l.protocol ?? '?'}${l.hostname ? ` for ${l.hostname}` : ' for every hostname'}.`,
    `Admits ${(listenerKinds(l) ?? ['implementation-specific kinds']).join(', ')} from ${l.from === 'All' ? 'every namespace' : l.from === 'Selector' ? 'selected namespaces' : `namespace ${gateway.namespace}`}.`,
  ];
}

function clusterIpOf(service: Service): string | undefined {
  return [service.clusterIPs[0], service.clusterIP].find((x) => x && isIP(x));
}

/**
 * Where the packet path must stop, so it never shows a delivery the Service path says cannot happen: no name to
 * resolve, no endpoint to DNAT to, or endpoints that exist but none of whose ports receive the Service port.
 */
function packetStop(path: ServicePath, dns: TraceStatus): PacketStop | undefined {
  const { service, endpoints: eps, reachable, deniedByPolicy } = path;
  if (service.type === 'ExternalName') {
    return dns === 'error' ? { at: 'dns', why: 'CoreDNS answers NXDOMAIN for this ExternalName (its target is missing or an IP address), so the client gets no address to connect to.' } : undefined;
  }
  if (reachable) return undefined;
  if (deniedByPolicy) return { at: 'policy', why: 'A NetworkPolicy selects the target pods and allows no ingress, so the network plugin drops the packet before it reaches the pod; the client waits until its connection times out.' };
  const live = eps.groups.some((g) => g.replicas !== 0) || eps.manual.some((m) => m.mirrored && m.addresses.some((a) => a.ready));
  if (service.headless) {
    return live
      ? { at: 'dns', why: 'No pod behind this headless Service receives the port (see the Service path), so nothing accepts the connection.' }
      : { at: 'dns', why: 'The headless Service has no ready endpoint, so CoreDNS answers NXDOMAIN: the client gets no address and never sends a packet.' };
  }
  if (!live) {
    const why = !eps.groups.length && !eps.manual.length
      ? service.selector ? 'its selector matches no pod template' : 'it has no selector and no Endpoints or EndpointSlice'
      : 'none of its endpoints can be ready (scaled to zero, or manual addresses that are not ready or not mirrored)';
    return { at: 'proxy', why: `The Service has no endpoints: ${why}.` };
  }
  return { at: 'proxy', why: 'The pods behind the Service declare no port that its targetPort names, so kube-proxy has no endpoint for this Service port.' };
}

export function within(inner: Span, outer: Span): boolean {
  return inner.start >= outer.start && inner.end <= outer.end;
}

function worst(status: TraceStatus, findings: readonly TraceFinding[]): TraceStatus {
  if (status === 'error' || findings.some((f) => f.severity === 'error')) return 'error';
  if (status === 'warning' || findings.some((f) => f.severity === 'warning')) return 'warning';
  return status;
}
function proxyDetail(service: Service, mode: string): string[] {
  const out = [
    mode === 'cilium' ? 'Cilium\'s eBPF programs replace kube-proxy: each connection to the cluster IP goes to one ready endpoint, chosen at random.'
      : mode === 'ipvs' ? 'IPVS: a virtual server for the cluster IP on every node forwards each connection to a ready endpoint, round robin by default.'
      : mode === 'nftables' ? 'nftables: maps on every node DNAT the cluster IP to one ready endpoint, chosen at random (like iptables, with faster lookups).'
        : 'iptables: rules on every node DNAT the cluster IP to one ready endpoint, chosen at random.',
    'Only ready endpoints receive new connections.',
  ];
  if (service.sessionAffinity === 'ClientIP') out.push(`sessionAffinity ClientIP: each client IP sticks to one pod for ${service.sessionAffinityTimeout ?? 10800}s after its last connection.`);
  if (service.type === 'NodePort' || service.type === 'LoadBalancer') {
    out.push(service.externalTrafficPolicy === 'Local'
      ? 'externalTrafficPolicy Local: traffic from outside goes only to pods on the node it arrived at and keeps the client\'s source IP; nodes without a ready pod drop it.'
      : 'externalTrafficPolicy Cluster: traffic from outside may hop to a pod on another node, and its source IP is rewritten to the node\'s.');
  }
  if (service.internalTrafficPolicy === 'Local') out.push('internalTrafficPolicy Local: pods reach only endpoints on their own node; with none there, the connection fails.');
  return out;
}

/** An endpoint group for the client: allowed on some port, blocked on all, or unknown (the ports' verdicts together). */
function groupVerdict(client: string, ports: readonly (TraceReach & { readonly port: string })[]): TraceReach | undefined {
  const verdict = combined(ports);
  if (!verdict) return undefined;
  const because = [...new Set(ports.filter((r) => r.verdict === verdict || verdict === 'unknown').flatMap((r) => r.because))];
  // Pods that admit the client on some Service ports and not on others say which.
  const on = (v: TraceReach['verdict']) => [...new Set(ports.filter((r) => r.verdict === v).map((r) => r.port))].join(', ');
  const mixed = new Set(ports.map((r) => r.verdict)).size > 1;
  const split = mixed ? ` (${(['allowed', 'unknown', 'denied'] as const).filter((v) => on(v)).map((v) => `${v === 'denied' ? 'blocked' : v} on ${on(v)}`).join('; ')})` : '';
  const text = verdict === 'allowed' ? `✓ From ${client}: these pods admit the connection${split}.`
    : verdict === 'denied' ? `✖ From ${client}: NetworkPolicy blocks the connection to these pods.`
      : `◐ From ${client}: whether these pods admit the connection is unknown${split}.`;
  return { verdict, text, because };
}

function groupLabel(g: EndpointGroup): string {
  const w = g.workload;
  if (w.kind === 'DaemonSet') return `DaemonSet ${w.name} (one per node)`;
  if (w.kind === 'Pod') return `Pod ${w.name}`;
  if (w.kind === 'CronJob') return `CronJob ${w.name} (while a job runs)`;
  return `${w.kind} ${w.name} ×${g.replicas ?? 1}`;
}

function groupDetail(service: Service, g: EndpointGroup, fqdn: string): string[] {
  const out: string[] = [];
  if (g.replicas === 0) out.push('Scaled to 0 replicas: no pod receives traffic.');
  if (service.publishNotReadyAddresses) out.push('publishNotReadyAddresses: pods are endpoints as soon as they have an IP, Ready or not.');
  else if (g.readinessGated) out.push('A readiness probe gates these pods: until it passes they get no traffic and no DNS answer.');
  else out.push('No readiness probe: pods get traffic as soon as their containers start, before the app may be listening.');
  const w = g.workload;
  if (w.kind === 'StatefulSet' && w.serviceName === service.name && g.podNames.length) {
    const names = g.podNames.slice(0, 3).map((p) => `${p}.${fqdn}`);
    out.push(`Stable names${service.headless ? '' : ' (CoreDNS only: the Service is not headless)'}: ${names.join(', ')}${g.podNames.length > 3 ? ', …' : ''}`);
  } else if (w.kind === 'StatefulSet') {
    out.push(`Pods ${g.podNames.slice(0, 3).join(', ')}${g.podNames.length > 3 ? ', …' : ''} get no per-pod names from this Service: the StatefulSet's serviceName is "${w.serviceName ?? ''}".`);
  }
  return out;
}

function portLabel(t: PortTarget): string {
  const p = t.servicePort;
  const target = t.containerPort !== undefined ? String(t.containerPort) : '✗';
  if (typeof p.targetPort === 'string') return `${p.port} → ${p.targetPort} → ${target}`;
  return `${p.port} → ${target}`;
}

function portDetail(t: PortTarget): string[] {
  const p = t.servicePort;
  if (t.unresolved === 'protocol-mismatch') return [`A container port is named "${String(p.targetPort)}", but not with protocol ${p.protocol}; this Service port gets no endpoint from these pods.`];
  if (t.unresolved) return [`No container declares a port named "${String(p.targetPort)}" (${p.protocol}); this Service port gets no endpoint from these pods.`];
  if (t.container && t.declared) return [`Container "${t.container.name}" declares ${t.containerPort}/${t.declared.protocol}${t.declared.name ? ` as "${t.declared.name}"` : ''}.`];
  return [`No container declares ${t.containerPort}/${p.protocol}; traffic still goes there, so the process must listen on it.`];
}

function policyDetail(p: NetworkPolicy): string[] {
  if (!p.ingress.length) return ['Selects these pods and allows no ingress: every incoming connection is dropped.'];
  return ['Selects these pods for ingress: only connections its rules allow get through.', ...p.ingress.map((r, i) => `Rule ${i + 1}: from ${r.peers.length ? `${r.peers.length} peer selector${r.peers.length === 1 ? '' : 's'}` : 'anywhere'} on ${r.ports.length ? r.ports.map((q) => `${q.port ?? 'any port'}${q.endPort ? `-${q.endPort}` : ''}/${q.protocol}`).join(', ') : 'every port'}.`)];
}


