// The hover of a Service: what it is, the DNS names that answer and when, where each port lands,
// which pods back it, how clients spell it, the env vars pods get, and how to reach it from outside.

import type { Analysis, DnsCondition, DnsRecord } from '../analysis/analysis';
import { endpointCount, type EndpointGroup, type PortTarget } from '../analysis/endpoints';
import type { Service, ServicePort, Workload } from '../model/resources';
import { bounded, cell, code, escape, plural, traceLink } from './markdown';

export function serviceHover(analysis: Analysis, service: Service): string {
  const zone = analysis.config.clusterDomain;
  const fqdn = `${service.name}.${service.namespace}.svc.${zone}`;
  const out: string[] = [`**Service** ${code(service.name)} in namespace ${code(service.namespace)}: ${describeType(service)}`];

  // StatefulSet pod names are listed under their endpoints below, not twice.
  const podNames = new Set(statefulPodRecords(analysis, service).map((r) => r.name));
  const records = analysis.dnsRecordsFor(service).filter((r) => !podNames.has(r.name) || r.type === 'SRV');
  out.push('', '**DNS names that resolve**');
  if (records.length) out.push(...bounded(records, 8, recordLine));
  else out.push(noNameReason(service));

  if (service.type !== 'ExternalName') {
    out.push('', ...portSection(analysis, service));
    out.push('', ...endpointSection(analysis, service));
  }

  out.push('', '**How clients spell it**');
  out.push(`- from pods in ${code(service.namespace)}: ${code(service.name)}`);
  out.push(`- from other namespaces: ${code(`${service.name}.${service.namespace}`)}, ${code(`${service.name}.${service.namespace}.svc`)} or ${code(fqdn)}`);

  const env = analysis.serviceEnv(service.namespace).filter((v) => v.service === service);
  if (env.length) {
    out.push('', `**Environment variables** of pods in ${code(service.namespace)} started after this Service exists:`);
    out.push(...bounded(env, 6, (v) => `- ${code(`${v.name}=${v.value}`)}`));
  }

  const outside = externalAccess(analysis, service);
  if (outside.length) out.push('', '**From outside the cluster**', ...outside);

  out.push('', traceLink(service.namespace, service.name, analysis.scopeOf(service.uri).label ? service.uri : undefined));
  return out.join('\n');
}

export function describeType(service: Service): string {
  if (service.type === 'ExternalName') {
    return service.externalName ? `ExternalName, a DNS alias (CNAME) for ${code(service.externalName)}` : 'ExternalName without an `externalName`';
  }
  if (service.headless) return 'headless (`clusterIP: None`): no virtual IP, DNS answers with the ready pods\' own IPs';
  const ip = service.clusterIP ? `cluster IP ${code(service.clusterIP)}` : 'a cluster IP assigned when it is created';
  return `${code(service.type)} with ${ip}`;
}

export function conditionText(c: DnsCondition): string {
  switch (c) {
    case 'always':
      return 'always';
    case 'while-ready':
      return 'while at least one backing pod is ready';
    case 'coredns-only':
      return 'CoreDNS only, not part of the Kubernetes DNS specification';
    case 'config-dependent':
      return 'only with a matching CoreDNS option';
  }
}

export function recordLine(r: DnsRecord): string {
  // A/AAAA names below `<svc>.<ns>.svc` belong to one pod (semantics §2.1 H2, §2.3): they follow that pod's readiness.
  const perPod = (r.type === 'A' || r.type === 'AAAA') && r.condition === 'while-ready' && /^[^_.][^.]*\.[^.]+\.[^.]+\.svc\./.test(r.name);
  return `- ${code(r.name)} ${r.type} → ${code(r.answer)} · ${perPod ? 'while that pod is ready' : conditionText(r.condition)}`;
}

function noNameReason(service: Service): string {
  if (service.type === 'ExternalName') return '- none: CoreDNS does not answer for an ExternalName whose target is missing or looks like an IP address (semantics §2.1 E2)';
  return '- none';
}

function portSection(analysis: Analysis, service: Service): string[] {
  if (!service.ports.length) return ['**Ports**: none; DNS answers A/AAAA queries only.'];
  const groups = analysis.endpointsOf(service).groups;
  const out = ['**Ports**', '', '| port | targetPort | container port |', '|---|---|---|'];
  for (const p of service.ports) {
    const landing = groups.length ? groups.map((g) => landingText(g, g.ports[p.index])).join('; ') : 'no selected pods';
    out.push(`| ${cell(portLabel(p))} | ${p.targetPort === undefined ? '' : cell(String(p.targetPort))} | ${landing.replace(/\|/g, '\\|')} |`);
  }
  return out;
}

export function portLabel(p: ServicePort): string {
  return `${p.port ?? '?'}/${p.protocol}${p.name ? ` (${p.name})` : ''}`;
}

function landingText(g: EndpointGroup, t: PortTarget | undefined): string {
  const who = `${g.workload.kind} ${code(g.workload.name)}`;
  if (!t) return `${who}: unknown`;
  if (t.unresolved === 'missing-name') return `${who}: ⚠ no container declares a port named ${code(String(t.servicePort.targetPort))}`;
  if (t.unresolved === 'protocol-mismatch') return `${who}: ⚠ port ${code(String(t.servicePort.targetPort))} is declared with another protocol than ${t.servicePort.protocol}`;
  const where = t.container ? `, container ${code(t.container.name)}` : ', not declared by any container (used anyway)';
  return `${t.containerPort ?? '?'} (${who}${where})`;
}

function endpointSection(analysis: Analysis, service: Service): string[] {
  const eps = analysis.endpointsOf(service);
  if (eps.source === 'none') {
    if (!service.selector) {
      const ignored = eps.manual.filter((m) => !m.mirrored);
      const why = ignored.length ? ` A manual ${ignored[0].resource.kind} exists but is ignored: ${escape(ignored[0].reason ?? '')}.` : '';
      return [`**Endpoints**: none. The Service has no selector, so only manual Endpoints or EndpointSlices can give it addresses.${why}`];
    }
    return [];
  }
  if (eps.source === 'manual') {
    const n = endpointCount(eps) ?? 0;
    return [`**Endpoints**: ${plural(n, 'address', 'addresses')} from manual objects`, ...eps.manual.filter((m) => m.mirrored).map((m) => `- ${m.resource.kind} ${code(m.resource.name)}: ${plural(m.addresses.length, 'address', 'addresses')}`)];
  }
  if (!eps.groups.length) {
    const selector = [...(service.selector ?? [])].map(([k, v]) => `${k}=${v}`).join(', ');
    return [`**Endpoints**: none. No pod template in namespace ${code(service.namespace)} carries ${code(selector)}.`];
  }
  const total = eps.groups.reduce((n, g) => n + (g.replicas ?? 0), 0);
  const perNode = eps.groups.some((g) => g.replicas === undefined);
  const out = [`**Endpoints**: ${perNode ? (total ? `${plural(total, 'pod')} plus one pod per node` : 'one pod per node') : plural(total, 'pod')}`];
  for (const g of eps.groups) {
    const count = g.replicas === undefined ? '(one pod per node)' : `×${g.replicas}`;
    const gate = g.readinessGated ? ' · only ready pods receive traffic' : '';
    out.push(`- ${g.workload.kind} ${code(g.workload.name)} ${count}${gate}`);
    const names = statefulPodRecords(analysis, service, g);
    out.push(...bounded(names, 5, (r) => `  - ${code(r.name)}`).map((l) => (l.startsWith('- …') ? `  ${l}` : l)));
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

function externalAccess(analysis: Analysis, service: Service): string[] {
  const out: string[] = [];
  const [lo, hi] = analysis.config.nodePortRange;
  if (service.type === 'NodePort' || service.type === 'LoadBalancer') {
    for (const p of service.ports) {
      const np = p.nodePort !== undefined ? String(p.nodePort) : `<a port from ${lo}-${hi} chosen by the cluster>`;
      out.push(`- NodePort: ${code(`<any node IP>:${np}`)} → port ${p.port ?? '?'}/${p.protocol}`);
    }
  }
  if (service.type === 'LoadBalancer') {
    for (const p of service.ports) out.push(`- LoadBalancer: ${code(`${service.loadBalancerIP ?? '<load balancer address>'}:${p.port ?? '?'}`)}`);
  }
  if (service.type !== 'ExternalName') {
    for (const ip of service.externalIPs) for (const p of service.ports) out.push(`- external IP: ${code(`${ip}:${p.port ?? '?'}`)}`);
  }
  return out;
}
