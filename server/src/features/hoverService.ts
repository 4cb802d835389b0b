// The hover of a Service: what it is, the DNS names that answer and when, where each port lands,
// which pods back it, how clients spell it, the env vars pods get, and how to reach it from outside.

import type { Analysis, DnsCondition, DnsRecord } from '../analysis/analysis';
import { endpointCount, type EndpointGroup, type PortTarget } from '../analysis/endpoints';
import type { Service, ServicePort, Workload } from '../model/resources';
import { bounded, cell, code, inCell, joined, lines, md, plural, text, traceLink, type Md } from './markdown';

export function serviceHover(analysis: Analysis, service: Service): Md {
  const zone = analysis.config.clusterDomain;
  const fqdn = `${service.name}.${service.namespace}.svc.${zone}`;
  const out: Md[] = [md`**Service** ${code(service.name)} in namespace ${code(service.namespace)}: ${describeType(service)}`];

  // StatefulSet pod names are listed under their endpoints below, not twice.
  const podNames = new Set(statefulPodRecords(analysis, service).map((r) => r.name));
  const records = analysis.dnsRecordsFor(service).filter((r) => !podNames.has(r.name) || r.type === 'SRV');
  out.push(md``, md`**DNS names that resolve**`);
  if (records.length) out.push(...bounded(records, 8, recordLine));
  else out.push(noNameReason(service));

  if (service.type !== 'ExternalName') {
    out.push(md``, ...portSection(analysis, service));
    out.push(md``, ...endpointSection(analysis, service));
  }

  out.push(md``, md`**How clients spell it**`);
  out.push(md`- from pods in ${code(service.namespace)}: ${code(service.name)}`);
  out.push(md`- from other namespaces: ${code(`${service.name}.${service.namespace}`)}, ${code(`${service.name}.${service.namespace}.svc`)} or ${code(fqdn)}`);

  const env = analysis.serviceEnv(service.namespace).filter((v) => v.service === service);
  if (env.length) {
    out.push(md``, md`**Environment variables** of pods in ${code(service.namespace)} started after this Service exists:`);
    out.push(...bounded(env, 6, (v) => md`- ${code(`${v.name}=${v.value}`)}`));
  }

  const outside = externalAccess(analysis, service);
  if (outside.length) out.push(md``, md`**From outside the cluster**`, ...outside);

  out.push(md``, traceLink(service.namespace, service.name, analysis.scopeOf(service.uri).label ? service.uri : undefined));
  return lines(out);
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

function portSection(analysis: Analysis, service: Service): Md[] {
  if (!service.ports.length) return [md`**Ports**: none; DNS answers A/AAAA queries only.`];
  const groups = analysis.endpointsOf(service).groups;
  const out: Md[] = [md`**Ports**`, md``, md`| port | targetPort | container port |`, md`|---|---|---|`];
  for (const p of service.ports) {
    const landing = groups.length ? joined(groups.map((g) => landingText(g, g.ports[p.index])), '; ') : md`no selected pods`;
    out.push(md`| ${cell(portLabel(p))} | ${p.targetPort === undefined ? md`` : cell(String(p.targetPort))} | ${inCell(landing)} |`);
  }
  return out;
}

export function portLabel(p: ServicePort): string {
  return `${p.port ?? '?'}/${p.protocol}${p.name ? ` (${p.name})` : ''}`;
}

function landingText(g: EndpointGroup, t: PortTarget | undefined): Md {
  const who = md`${text(g.workload.kind)} ${code(g.workload.name)}`;
  if (!t) return md`${who}: unknown`;
  if (t.unresolved === 'missing-name') return md`${who}: ⚠ no container declares a port named ${code(String(t.servicePort.targetPort))}`;
  if (t.unresolved === 'protocol-mismatch') return md`${who}: ⚠ port ${code(String(t.servicePort.targetPort))} is declared with another protocol than ${text(t.servicePort.protocol)}`;
  const where = t.container ? md`, container ${code(t.container.name)}` : md`, not declared by any container (used anyway)`;
  return md`${t.containerPort ?? md`?`} (${who}${where})`;
}

function endpointSection(analysis: Analysis, service: Service): Md[] {
  const eps = analysis.endpointsOf(service);
  if (eps.source === 'none') {
    if (!service.selector) {
      const ignored = eps.manual.filter((m) => !m.mirrored);
      const why = ignored.length ? md` A manual ${text(ignored[0].resource.kind)} exists but is ignored: ${text(ignored[0].reason ?? '')}.` : md``;
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
    out.push(...bounded(names, 5, (r) => md`  - ${code(r.name)}`).map((l) => (l.startsWith('- …') ? md`  ${l}` : l)));
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
      const np = p.nodePort !== undefined ? String(p.nodePort) : `<a port from ${lo}-${hi} chosen by the cluster>`;
      out.push(md`- NodePort: ${code(`<any node IP>:${np}`)} → port ${p.port ?? md`?`}/${text(p.protocol)}`);
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
