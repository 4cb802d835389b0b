// The hover of a Service, short and in the order that matters (what it is, whether it works, the name, the ports),
// and its second level: every DNS record, the pods, how clients spell it, the env vars pods get, outside access.

import { publishedNames } from '../analysis/externalDns';
import type { Analysis, DnsCondition, DnsRecord } from '../analysis/analysis';
import { endpointCount, type EndpointGroup, type PortTarget } from '../analysis/endpoints';
import type { Service, ServicePort, Workload } from '../model/resources';
import { isIP } from '../analysis/ip';
import { bounded, code, detailsLink, escape, joined, lines, md, plural, text, traceLink, type Md } from './markdown';

/**
 * What the short Service hover says, in the order a person needs it. `unit` is the place for the apply unit
 * (Kustomize overlay, Helm release, folder) the Service belongs to, once the project model provides one.
 */
export interface ServiceHoverData {
  readonly service: Service;
  readonly unit?: string;
}

/** The default hover: what it is, whether it works, the name clients use, the port map, the links. At most ~15 lines. */
export function serviceHover(analysis: Analysis, service: Service, data: ServiceHoverData = { service, unit: unitOf(analysis, service) }): Md {
  const zone = analysis.config.clusterDomain;
  // With variants side by side, the links name the definition (its file) so the trace opens this one.
  const uri = data.unit ? service.uri : undefined;
  const fqdn = `${service.name}.${service.namespace}.svc.${zone}`;
  const paragraphs: Md[] = [];
  paragraphs.push(md`**Service** ${code(service.name)} in namespace ${code(service.namespace)}${data.unit ? md` (${escape(data.unit)})` : md``}: ${describeType(service)}`);
  paragraphs.push(verdictLine(analysis, service));
  paragraphs.push(namesLine(analysis, service, fqdn));
  if (service.type !== 'ExternalName') paragraphs.push(lines(portMap(analysis, service)));
  const traffic = trafficFacts(service);
  if (traffic) paragraphs.push(traffic);
  const published = publishedNames(service);
  if (published.length) {
    const how = service.type === 'LoadBalancer' ? md`records for its load balancer` : md`records only if ExternalDNS runs with flags that publish ${text(service.type)} Services`;
    paragraphs.push(md`**Public names** (ExternalDNS, ${how}): ${joined(published.slice(0, 5).map((n) => code(n)), ', ')}${published.length > 5 ? md` and ${published.length - 5} more` : md``}`);
  }
  const outside = externalAccess(analysis, service);
  if (outside.length) paragraphs.push(lines([md`From outside the cluster:`, ...bounded(outside, 2, (l) => l)]));
  paragraphs.push(md`${traceLink(service.namespace, service.name, uri)} · ${detailsLink(service.namespace, service.name, uri)}`);
  return joined(paragraphs, '\n\n');
}

/**
 * How kube-proxy picks an endpoint, when anything but the defaults is written: session affinity, the traffic
 * policies and trafficDistribution (network-semantics §5); undefined for a Service that uses the defaults.
 */
function trafficFacts(service: Service): Md | undefined {
  if (service.type === 'ExternalName' || service.headless) return undefined;
  const facts: Md[] = [];
  if (service.sessionAffinity === 'ClientIP') facts.push(md`${code('sessionAffinity: ClientIP')}: each client IP sticks to one pod for ${service.sessionAffinityTimeout ?? 10800} s`);
  if (service.internalTrafficPolicy === 'Local') facts.push(md`${code('internalTrafficPolicy: Local')}: pods reach only endpoints on their own node; from a node without one, connections are dropped`);
  if (service.externalTrafficPolicy === 'Local' && (service.type === 'NodePort' || service.type === 'LoadBalancer')) {
    facts.push(md`${code('externalTrafficPolicy: Local')}: outside traffic goes only to pods on the node it arrives at (client IP kept); nodes without one drop it${service.type === 'LoadBalancer' ? md`, and the load balancer skips them through the health-check node port` : md``}`);
  }
  if (service.trafficDistribution) {
    const known: Record<string, Md> = {
      PreferClose: md`endpoints in the client's zone first, when the zone has some`,
      PreferSameZone: md`endpoints in the client's zone first, when the zone has some`,
      PreferSameNode: md`endpoints on the client's node first, then its zone`,
    };
    facts.push(md`${code(`trafficDistribution: ${service.trafficDistribution}`)}${known[service.trafficDistribution] ? md`: ${known[service.trafficDistribution]}` : md`: a value this version of Kubernetes may not know (ignored)`}`);
  }
  return facts.length ? lines([md`**Traffic**:`, ...facts.map((f) => md`- ${f}`)]) : undefined;
}

/** `variant aws` when the Service's file is in a variant of the workspace (ARCHITECTURE.md, apply scopes). */
function unitOf(analysis: Analysis, service: Service): string | undefined {
  const label = analysis.scopeOf(service.uri).label;
  return label ? `variant ${label}` : undefined;
}

/**
 * The second level, opened from the hover's "All DNS records…" link: every DNS record (SRV and PTR included), the
 * endpoints with their stable pod names, the port table, how clients spell the name, the environment variables.
 */
export function serviceDetails(analysis: Analysis, service: Service): Md {
  const zone = analysis.config.clusterDomain;
  const fqdn = `${service.name}.${service.namespace}.svc.${zone}`;
  const out: Md[] = [md`**Service** ${code(service.name)} in namespace ${code(service.namespace)}: ${describeType(service)}`];

  // StatefulSet pod names are listed under their endpoints below, not twice.
  const podNames = new Set(statefulPodRecords(analysis, service).map((r) => r.name));
  const records = analysis.dnsRecordsFor(service).filter((r) => !podNames.has(r.name) || r.type === 'SRV');
  out.push(md``, md`**DNS names that resolve**`);
  if (records.length) out.push(...bounded(records, 50, recordLine));
  else out.push(noNameReason(service));

  if (service.type !== 'ExternalName') {
    out.push(md``, ...portMap(analysis, service, 50));
    out.push(md``, ...endpointSection(analysis, service));
  }

  if (records.some((r) => r.name === fqdn && r.type !== 'SRV' && r.type !== 'PTR')) {
    out.push(md``, md`**How clients spell it**`);
    out.push(md`- from pods in ${code(service.namespace)}: ${code(service.name)}`);
    out.push(md`- from other namespaces: ${code(`${service.name}.${service.namespace}`)}, ${code(`${service.name}.${service.namespace}.svc`)} or ${code(fqdn)}`);
  }

  const env = analysis.serviceEnv(service.namespace).filter((v) => v.service === service);
  if (env.length) {
    out.push(md``, md`**Environment variables** of pods in ${code(service.namespace)} started after this Service exists:`);
    out.push(...bounded(env, 40, (v) => md`- ${code(`${v.name}=${v.value}`)}`));
  }

  const outside = externalAccess(analysis, service);
  if (outside.length) out.push(md``, md`**From outside the cluster**`, ...outside);

  out.push(md``, traceLink(service.namespace, service.name, analysis.scopeOf(service.uri).label ? service.uri : undefined));
  return lines(out);
}

/** Whether the Service works: who backs it (workloads ×replicas, or manual addresses), or why nothing does. */
function verdictLine(analysis: Analysis, service: Service): Md {
  if (service.type === 'ExternalName') {
    const target = service.externalName?.replace(/\.$/, '');
    if (!target || isIP(target)) return md`✖ **No answer**: CoreDNS answers NXDOMAIN for an ExternalName ${target ? md`whose target is an IP address` : md`without a target`} (semantics §2.1 E2).`;
    return md`✓ **Alias**: DNS answers with a CNAME to ${code(target)}; nothing proxies the traffic and ports are not remapped.`;
  }
  const eps = analysis.endpointsOf(service);
  if (eps.groups.length) {
    const total = eps.groups.reduce((n, g) => n + (g.replicas ?? 0), 0);
    const perNode = eps.groups.some((g) => g.replicas === undefined);
    const who = bounded(eps.groups, 3, (g) => md`${text(g.workload.kind)} ${code(g.workload.name)} ${g.replicas === undefined ? md`(one per node)` : md`×${g.replicas}`}`);
    const gated = eps.groups.every((g) => g.readinessGated) ? md` · only ready pods get traffic` : md``;
    if (!total && !perNode) return md`⚠ **No ready pods**: ${joined(who, ', ')} is scaled to 0, so the Service has no endpoints.`;
    const count = perNode ? (total ? md`${plural(total, 'pod')} plus one per node` : md`one pod per node`) : plural(total, 'pod');
    return md`✓ **Endpoints**: ${count}: ${joined(who, ', ').replace(/, - \u2026 and/, ', … and') as Md}${gated}`;
  }
  if (eps.source === 'manual') {
    const n = endpointCount(eps) ?? 0;
    const from = eps.manual.filter((m) => m.mirrored).map((m) => md`${text(m.resource.kind)} ${code(m.resource.name)}`);
    return md`${n ? md`✓` : md`✖`} **Endpoints**: ${plural(n, 'address', 'addresses')} written by hand in ${joined(from, ', ')}`;
  }
  if (!service.selector) {
    const ignored = eps.manual.filter((m) => !m.mirrored);
    const why = ignored.length ? md` A manual ${text(ignored[0].resource.kind)} exists but is ignored: ${escape(ignored[0].reason ?? '')}.` : md``;
    return md`✖ **No endpoints**: the Service has no selector, and no manual Endpoints or EndpointSlice gives it addresses.${why}`;
  }
  const selector = [...service.selector].map(([k, v]) => `${k}=${v}`).join(', ');
  return md`✖ **No endpoints**: no pod template in ${code(service.namespace)} carries ${code(selector)}.`;
}

/** The name clients use, said only when it resolves; otherwise why it does not (a hover never lists names that fail). */
function namesLine(analysis: Analysis, service: Service, fqdn: string): Md {
  const resolves = analysis.dnsRecordsFor(service).some((r) => r.name === fqdn && r.type !== 'SRV' && r.type !== 'PTR');
  if (!resolves) {
    const why = service.type === 'ExternalName' ? md`see above` : md`a headless Service answers only while it has ready endpoints`;
    return md`✖ ${code(fqdn)} does not resolve (NXDOMAIN): ${why}.`;
  }
  return md`**Name**: ${code(service.name)} from pods in ${code(service.namespace)}, ${code(`${service.name}.${service.namespace}`)} from other namespaces, or ${code(fqdn)}`;
}

/**
 * Each Service port on one line, with where it lands in each selected workload on lines under it. A list, not a
 * table: a table squeezes its columns and breaks names like `http-metrics` at the hyphen.
 */
function portMap(analysis: Analysis, service: Service, max = 4): Md[] {
  if (!service.ports.length) return [md`**Ports**: none; DNS answers A/AAAA queries only.`];
  const groups = analysis.endpointsOf(service).groups;
  const out: Md[] = [md`**Ports**`];
  const shown = service.ports.slice(0, max);
  for (const p of shown) {
    const target = p.targetPort === undefined || String(p.targetPort) === String(p.port) ? md`` : md` → targetPort ${code(String(p.targetPort))}`;
    const head = md`- ${code(portLabel(p))}${target}`;
    if (!groups.length) out.push(md`${head} → no selected pods`);
    else if (groups.length === 1) out.push(md`${head} → ${landingText(groups[0], groups[0].ports[p.index])}`);
    else out.push(head, ...bounded(groups, 3, (g) => md`  - ${landingText(g, g.ports[p.index])}`).map((l): Md => (l.startsWith('- …') ? md`  ${l}` : l)));
  }
  if (service.ports.length > shown.length) out.push(md`- … and ${service.ports.length - shown.length} more`);
  return out;
}

export function describeType(service: Service): Md {
  if (service.type === 'ExternalName') {
    return service.externalName ? md`ExternalName, a DNS alias (CNAME) for ${code(service.externalName)}` : md`ExternalName without an \`externalName\``;
  }
  if (service.headless) return md`headless (\`clusterIP: None\`): no virtual IP, DNS answers with the ready pods' own IPs`;
  const ip = service.clusterIP ? md`cluster IP ${code(service.clusterIP)}` : md`a cluster IP assigned when it is created`;
  return md`${code(service.type)} with ${ip}`;
}

export function conditionText(c: DnsCondition): Md {
  switch (c) {
    case 'always':
      return md`always`;
    case 'while-ready':
      return md`while at least one backing pod is ready`;
    case 'coredns-only':
      return md`CoreDNS only, not part of the Kubernetes DNS specification`;
    case 'config-dependent':
      return md`only with a matching CoreDNS option`;
  }
}

export function recordLine(r: DnsRecord): Md {
  // A/AAAA names below `<svc>.<ns>.svc` belong to one pod (semantics §2.1 H2, §2.3): they follow that pod's readiness.
  const perPod = (r.type === 'A' || r.type === 'AAAA') && r.condition === 'while-ready' && /^[^_.][^.]*\.[^.]+\.[^.]+\.svc\./.test(r.name);
  return md`- ${code(r.name)} ${text(r.type)} → ${code(r.answer)} · ${perPod ? md`while that pod is ready` : conditionText(r.condition)}`;
}

function noNameReason(service: Service): Md {
  if (service.type === 'ExternalName') return md`- none: CoreDNS does not answer for an ExternalName whose target is missing or looks like an IP address (semantics §2.1 E2)`;
  return md`- none`;
}

export function portLabel(p: ServicePort): string {
  return `${p.port ?? '?'}/${p.protocol}${p.name ? ` (${p.name})` : ''}`;
}

function landingText(g: EndpointGroup, t: PortTarget | undefined): Md {
  const who = md`${text(g.workload.kind)} ${code(g.workload.name)}`;
  if (!t) return md`${who}: unknown`;
  if (t.unresolved === 'missing-name') return md`⚠ not declared by ${who}`;
  if (t.unresolved === 'protocol-mismatch') return md`⚠ declared by ${who} with another protocol than ${text(t.servicePort.protocol)}`;
  const where = t.container ? md`, container ${code(t.container.name)}` : md`, declared by no container (used anyway)`;
  return md`${t.containerPort ?? md`?`} (${who}${where})`;
}

function endpointSection(analysis: Analysis, service: Service): Md[] {
  const eps = analysis.endpointsOf(service);
  if (eps.source === 'none') {
    if (!service.selector) {
      const ignored = eps.manual.filter((m) => !m.mirrored);
      const why = ignored.length ? md` A manual ${text(ignored[0].resource.kind)} exists but is ignored: ${escape(ignored[0].reason ?? '')}.` : md``;
      return [md`**Endpoints**: none. The Service has no selector, so only manual Endpoints or EndpointSlices can give it addresses.${why}`];
    }
    return [];
  }
  if (eps.source === 'manual') {
    const n = endpointCount(eps) ?? 0;
    return [md`**Endpoints**: ${plural(n, 'address', 'addresses')} from manual objects`, ...eps.manual.filter((m) => m.mirrored).map((m) => md`- ${text(m.resource.kind)} ${code(m.resource.name)}: ${plural(m.addresses.length, 'address', 'addresses')}`)];
  }
  if (!eps.groups.length) {
    const selector = [...(service.selector ?? [])].map(([k, v]) => `${k}=${v}`).join(', ');
    return [md`**Endpoints**: none. No pod template in namespace ${code(service.namespace)} carries ${code(selector)}.`];
  }
  const total = eps.groups.reduce((n, g) => n + (g.replicas ?? 0), 0);
  const perNode = eps.groups.some((g) => g.replicas === undefined);
  const out: Md[] = [md`**Endpoints**: ${perNode ? (total ? md`${plural(total, 'pod')} plus one pod per node` : md`one pod per node`) : plural(total, 'pod')}`];
  for (const g of eps.groups) {
    const count = g.replicas === undefined ? md`(one pod per node)` : md`×${g.replicas}`;
    const gate = g.readinessGated ? md` · only ready pods receive traffic` : md``;
    out.push(md`- ${text(g.workload.kind)} ${code(g.workload.name)} ${count}${gate}`);
    const names = statefulPodRecords(analysis, service, g);
    out.push(...bounded(names, 5, (r) => md`  - ${code(r.name)}`).map((l): Md => (l.startsWith('- …') ? md`  ${l}` : l)));
  }
  return out;
}

/** The stable per-pod A/AAAA names of StatefulSets governed by this Service (semantics §2.3). */
function statefulPodRecords(analysis: Analysis, service: Service, only?: EndpointGroup): DnsRecord[] {
  const suffix = `.${service.name}.${service.namespace}.svc.${analysis.config.clusterDomain}`;
  const groups = only ? [only] : service.type === 'ExternalName' ? [] : analysis.endpointsOf(service).groups;
  const governed = groups.filter((g) => g.workload.kind === 'StatefulSet' && g.workload.serviceName === service.name);
  if (!governed.length) return [];
  // Every name under the Service's own name is one of its records; the pod's are those made from its document.
  const under = analysis.dnsRecordsFor(service).filter((r) => r.name.endsWith(suffix) && (r.type === 'A' || r.type === 'AAAA'));
  return governed.flatMap((g) => under.filter((r) => madeFrom(r, g.workload)));
}

function madeFrom(r: DnsRecord, w: Workload): boolean {
  return r.resource.kind === w.kind && r.resource.name === w.name && r.source.uri === w.uri && r.source.span.start >= w.span.start && r.source.span.end <= w.span.end;
}

function externalAccess(analysis: Analysis, service: Service): Md[] {
  const out: Md[] = [];
  const [lo, hi] = analysis.config.nodePortRange;
  if (service.type === 'NodePort' || service.type === 'LoadBalancer') {
    for (const p of service.ports) {
      const np = p.nodePort !== undefined ? String(p.nodePort) : md`<a port from ${lo}-${hi} chosen by the cluster>`;
      out.push(md`- NodePort: ${code(`<any node IP>:${np}`)} → port ${text(`${p.port ?? '?'}/${p.protocol}`)}`);
    }
  }
  if (service.type === 'LoadBalancer') {
    for (const p of service.ports) out.push(md`- LoadBalancer: ${code(`${service.loadBalancerIP ?? '<load balancer address>'}:${p.port ?? '?'}`)}`);
  }
  if (service.type !== 'ExternalName') {
    for (const ip of service.externalIPs) for (const p of service.ports) out.push(md`- external IP: ${code(`${ip}:${p.port ?? '?'}`)}`);
  }
  return out;
}
