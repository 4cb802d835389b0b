// The hover of a Service, short and in the order that matters (what it is, whether it works, the name, the ports),
// and its second level: every DNS record, the pods, how clients spell it, the env vars pods get, outside access.

import { publishedNames } from '../analysis/externalDns';
import type { Analysis, DnsCondition, DnsRecord } from '../analysis/analysis';
import { endpointCount, type EndpointGroup, type PortTarget, type ServiceEndpoints } from '../analysis/endpoints';
import type { Service, ServicePort, Workload } from '../model/resources';
import { isIP } from '../analysis/ip';
import { messages, say } from '../l10n/l10n';
import { bounded, code, detailsLink, escape, joined, lines, md, plural, text, traceLink, type Md, mdMessages, type MdMsg } from './markdown';

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
  const msg = mdMessages(analysis.config.locale);
  const zone = analysis.config.clusterDomain;
  // With variants side by side, the links name the definition (its file) so the trace opens this one.
  const uri = data.unit ? service.uri : undefined;
  const fqdn = `${service.name}.${service.namespace}.svc.${zone}`;
  const paragraphs: Md[] = [];
  paragraphs.push(
    msg(
      '**Service** {0} in namespace {1}{2}: {3}',
      code(service.name),
      code(service.namespace),
      data.unit ? md` (${escape(data.unit)})` : md``,
      describeType(msg, service),
    ),
  );
  paragraphs.push(verdictLine(analysis, service));
  paragraphs.push(namesLine(analysis, service, fqdn));
  if (service.type !== 'ExternalName') paragraphs.push(lines(portMap(analysis, service)));
  const traffic = trafficFacts(msg, service);
  if (traffic) paragraphs.push(traffic);
  const published = publishedNames(service);
  if (published.length) {
    const how =
      service.type === 'LoadBalancer'
        ? msg('records for its load balancer')
        : msg('records only if ExternalDNS runs with flags that publish {0} Services', text(service.type));
    paragraphs.push(
      msg(
        '**Public names** (ExternalDNS, {0}): {1}{2}',
        how,
        joined(
          published.slice(0, 5).map((n) => code(n)),
          ', ',
        ),
        published.length > 5 ? msg(' and {0} more', published.length - 5) : md``,
      ),
    );
  }
  const outside = externalAccess(analysis, service);
  if (outside.length) paragraphs.push(lines([msg('From outside the cluster:'), ...bounded(msg, outside, 2, (l) => l)]));
  paragraphs.push(md`${traceLink(msg, service.namespace, service.name, uri)} · ${detailsLink(msg, service.namespace, service.name, uri)}`);
  return joined(paragraphs, '\n\n');
}

/**
 * How kube-proxy picks an endpoint, when anything but the defaults is written: session affinity, the traffic
 * policies and trafficDistribution (network-semantics §5); undefined for a Service that uses the defaults.
 */
function trafficFacts(msg: MdMsg, service: Service): Md | undefined {
  if (service.type === 'ExternalName' || service.headless) return undefined;
  const facts: Md[] = [];
  if (service.sessionAffinity === 'ClientIP')
    facts.push(msg('{0}: each client IP sticks to one pod for {1} s', code('sessionAffinity: ClientIP'), service.sessionAffinityTimeout ?? 10800));
  if (service.internalTrafficPolicy === 'Local')
    facts.push(msg('{0}: pods reach only endpoints on their own node; from a node without one, connections are dropped', code('internalTrafficPolicy: Local')));
  if (service.externalTrafficPolicy === 'Local' && (service.type === 'NodePort' || service.type === 'LoadBalancer')) {
    facts.push(
      msg(
        '{0}: outside traffic goes only to pods on the node it arrives at (client IP kept); nodes without one drop it{1}',
        code('externalTrafficPolicy: Local'),
        service.type === 'LoadBalancer' ? msg(', and the load balancer skips them through the health-check node port') : md``,
      ),
    );
  }
  if (service.trafficDistribution) {
    const known: Record<string, Md> = {
      PreferClose: msg("endpoints in the client's zone first, when the zone has some"),
      PreferSameZone: msg("endpoints in the client's zone first, when the zone has some"),
      PreferSameNode: msg("endpoints on the client's node first, then its zone"),
    };
    facts.push(
      md`${code(`trafficDistribution: ${service.trafficDistribution}`)}${known[service.trafficDistribution] ? md`: ${known[service.trafficDistribution]}` : msg(': a value this version of Kubernetes may not know (ignored)')}`,
    );
  }
  return facts.length ? lines([msg('**Traffic**:'), ...facts.map((f) => md`- ${f}`)]) : undefined;
}

/** `variant aws` when the Service's file is in a variant of the workspace (ARCHITECTURE.md, apply scopes). */
function unitOf(analysis: Analysis, service: Service): string | undefined {
  const label = analysis.scopeOf(service.uri).label;
  const msg = messages(analysis.config.locale);
  return label ? msg('variant {0}', label) : undefined;
}

/**
 * The second level, opened from the hover's "All DNS records…" link: every DNS record (SRV and PTR included), the
 * endpoints with their stable pod names, the port table, how clients spell the name, the environment variables.
 */
export function serviceDetails(analysis: Analysis, service: Service): Md {
  const msg = mdMessages(analysis.config.locale);
  const zone = analysis.config.clusterDomain;
  const fqdn = `${service.name}.${service.namespace}.svc.${zone}`;
  const out: Md[] = [msg('**Service** {0} in namespace {1}: {2}', code(service.name), code(service.namespace), describeType(msg, service))];

  // StatefulSet pod names are listed under their endpoints below, not twice.
  const podNames = new Set(statefulPodRecords(analysis, service).map((r) => r.name));
  const records = analysis.dnsRecordsFor(service).filter((r) => !podNames.has(r.name) || r.type === 'SRV');
  out.push(md``, msg('**DNS names that resolve**'));
  if (records.length) out.push(...bounded(msg, records, 50, (r) => recordLine(msg, r)));
  else out.push(noNameReason(msg, service));

  if (service.type !== 'ExternalName') {
    out.push(md``, ...portMap(analysis, service, 50));
    out.push(md``, ...endpointSection(analysis, service));
  }

  if (records.some((r) => r.name === fqdn && r.type !== 'SRV' && r.type !== 'PTR')) {
    out.push(md``, msg('**How clients spell it**'));
    out.push(msg('- from pods in {0}: {1}', code(service.namespace), code(service.name)));
    out.push(
      msg(
        '- from other namespaces: {0}, {1} or {2}',
        code(`${service.name}.${service.namespace}`),
        code(`${service.name}.${service.namespace}.svc`),
        code(fqdn),
      ),
    );
  }

  const env = analysis.serviceEnv(service.namespace).filter((v) => v.service === service);
  if (env.length) {
    out.push(md``, msg('**Environment variables** of pods in {0} started after this Service exists:', code(service.namespace)));
    out.push(...bounded(msg, env, 40, (v) => md`- ${code(`${v.name}=${v.value}`)}`));
  }

  const outside = externalAccess(analysis, service);
  if (outside.length) out.push(md``, msg('**From outside the cluster**'), ...outside);

  out.push(md``, traceLink(msg, service.namespace, service.name, analysis.scopeOf(service.uri).label ? service.uri : undefined));
  return lines(out);
}

/** Whether the Service works: who backs it (workloads ×replicas, or manual addresses), or why nothing does. */
function verdictLine(analysis: Analysis, service: Service): Md {
  const msg = mdMessages(analysis.config.locale);
  if (service.type === 'ExternalName') {
    const target = service.externalName?.replace(/\.$/, '');
    if (!target || isIP(target))
      return msg(
        '✖ **No answer**: CoreDNS answers NXDOMAIN for an ExternalName {0} (semantics §2.1 E2).',
        target ? msg('whose target is an IP address') : msg('without a target'),
      );
    return msg('✓ **Alias**: DNS answers with a CNAME to {0}; nothing proxies the traffic and ports are not remapped.', code(target));
  }
  const eps = analysis.endpointsOf(service);
  if (eps.groups.length) {
    const total = eps.groups.reduce((n, g) => n + (g.replicas ?? 0), 0);
    const perNode = eps.groups.some((g) => g.replicas === undefined);
    const who = bounded(
      msg,
      eps.groups,
      3,
      (g) => md`${text(g.workload.kind)} ${code(g.workload.name)} ${g.replicas === undefined ? msg('(one per node)') : md`×${g.replicas}`}`,
    );
    const gated = eps.groups.every((g) => g.readinessGated) ? msg(' · only ready pods get traffic') : md``;
    if (!total && !perNode) return msg('⚠ **No ready pods**: {0} is scaled to 0, so the Service has no endpoints.', joined(who, ', '));
    const count = perNode
      ? total
        ? msg('{0} plus one per node', plural(total, msg('{0} pod', total), msg('{0} pods', total)))
        : msg('one pod per node')
      : plural(total, msg('{0} pod', total), msg('{0} pods', total));
    return msg('✓ **Endpoints**: {0}: {1}{2}', count, joined(who, ', ').replace(/, - \u2026 and/, ', … and') as Md, gated);
  }
  if (eps.source === 'manual') {
    const n = endpointCount(eps) ?? 0;
    const from = eps.manual.filter((m) => m.mirrored).map((m) => md`${text(m.resource.kind)} ${code(m.resource.name)}`);
    return msg(
      '{0} **Endpoints**: {1} written by hand in {2}',
      n ? md`✓` : md`✖`,
      plural(n, msg('{0} address', n), msg('{0} addresses', n)),
      joined(from, ', '),
    );
  }
  if (!service.selector) {
    const why = ignoredManualNote(analysis, eps, msg);
    return msg('✖ **No endpoints**: the Service has no selector, and no manual Endpoints or EndpointSlice gives it addresses.{0}', why);
  }
  const selector = [...service.selector].map(([k, v]) => `${k}=${v}`).join(', ');
  return msg('✖ **No endpoints**: no pod template in {0} carries {1}.', code(service.namespace), code(selector));
}

/** The name clients use, said only when it resolves; otherwise why it does not (a hover never lists names that fail). */
function namesLine(analysis: Analysis, service: Service, fqdn: string): Md {
  const msg = mdMessages(analysis.config.locale);
  const resolves = analysis.dnsRecordsFor(service).some((r) => r.name === fqdn && r.type !== 'SRV' && r.type !== 'PTR');
  if (!resolves) {
    const why = service.type === 'ExternalName' ? msg('see above') : msg('a headless Service answers only while it has ready endpoints');
    return msg('✖ {0} does not resolve (NXDOMAIN): {1}.', code(fqdn), why);
  }
  return msg(
    '**Name**: {0} from pods in {1}, {2} from other namespaces, or {3}',
    code(service.name),
    code(service.namespace),
    code(`${service.name}.${service.namespace}`),
    code(fqdn),
  );
}

/**
 * Each Service port on one line, with where it lands in each selected workload on lines under it. A list, not a
 * table: a table squeezes its columns and breaks names like `http-metrics` at the hyphen.
 */
function portMap(analysis: Analysis, service: Service, max = 4): Md[] {
  const msg = mdMessages(analysis.config.locale);
  if (!service.ports.length) return [msg('**Ports**: none; DNS answers A/AAAA queries only.')];
  const groups = analysis.endpointsOf(service).groups;
  const out: Md[] = [msg('**Ports**')];
  const shown = service.ports.slice(0, max);
  for (const p of shown) {
    const target = p.targetPort === undefined || String(p.targetPort) === String(p.port) ? md`` : msg(' → targetPort {0}', code(String(p.targetPort)));
    const head = md`- ${code(portLabel(p))}${target}`;
    if (!groups.length) out.push(msg('{0} → no selected pods', head));
    else if (groups.length === 1) out.push(md`${head} → ${landingText(msg, groups[0], groups[0].ports[p.index])}`);
    else
      out.push(
        head,
        ...bounded(msg, groups, 3, (g) => md`  - ${landingText(msg, g, g.ports[p.index])}`).map((l): Md => (l.startsWith('- …') ? md`  ${l}` : l)),
      );
  }
  if (service.ports.length > shown.length) out.push(msg('- … and {0} more', service.ports.length - shown.length));
  return out;
}

export function describeType(msg: MdMsg, service: Service): Md {
  if (service.type === 'ExternalName') {
    return service.externalName ? msg('ExternalName, a DNS alias (CNAME) for {0}', code(service.externalName)) : msg('ExternalName without an `externalName`');
  }
  if (service.headless) return msg("headless (`clusterIP: None`): no virtual IP, DNS answers with the ready pods' own IPs");
  const ip = service.clusterIP ? msg('cluster IP {0}', code(service.clusterIP)) : msg('a cluster IP assigned when it is created');
  return msg('{0} with {1}', code(service.type), ip);
}

export function conditionText(msg: MdMsg, c: DnsCondition): Md {
  switch (c) {
    case 'always':
      return msg('always');
    case 'while-ready':
      return msg('while at least one backing pod is ready');
    case 'coredns-only':
      return msg('CoreDNS only, not part of the Kubernetes DNS specification');
    case 'config-dependent':
      return msg('only with a matching CoreDNS option');
  }
}

export function recordLine(msg: MdMsg, r: DnsRecord): Md {
  // A/AAAA names below `<svc>.<ns>.svc` belong to one pod (semantics §2.1 H2, §2.3): they follow that pod's readiness.
  const perPod = (r.type === 'A' || r.type === 'AAAA') && r.condition === 'while-ready' && /^[^_.][^.]*\.[^.]+\.[^.]+\.svc\./.test(r.name);
  return md`- ${code(r.name)} ${text(r.type)} → ${code(r.answer)} · ${perPod ? msg('while that pod is ready') : conditionText(msg, r.condition)}`;
}

function noNameReason(msg: MdMsg, service: Service): Md {
  if (service.type === 'ExternalName')
    return msg('- none: CoreDNS does not answer for an ExternalName whose target is missing or looks like an IP address (semantics §2.1 E2)');
  return msg('- none');
}

export function portLabel(p: ServicePort): string {
  return `${p.port ?? '?'}/${p.protocol}${p.name ? ` (${p.name})` : ''}`;
}

function landingText(msg: MdMsg, g: EndpointGroup, t: PortTarget | undefined): Md {
  const who = md`${text(g.workload.kind)} ${code(g.workload.name)}`;
  if (!t) return msg('{0}: unknown', who);
  if (t.unresolved === 'missing-name') return msg('⚠ not declared by {0}', who);
  if (t.unresolved === 'protocol-mismatch') return msg('⚠ declared by {0} with another protocol than {1}', who, text(t.servicePort.protocol));
  const where = t.container ? msg(', container {0}', code(t.container.name)) : msg(', declared by no container (used anyway)');
  return md`${t.containerPort ?? md`?`} (${who}${where})`;
}

/** ` A manual Endpoints exists but is ignored: <why>.` for a Service without a selector, or nothing. */
function ignoredManualNote(analysis: Analysis, eps: ServiceEndpoints, msg: MdMsg): Md {
  const ignored = eps.manual.filter((m) => !m.mirrored);
  if (!ignored.length) return md``;
  const why = ignored[0].reason ? say(ignored[0].reason, messages(analysis.config.locale)) : '';
  return msg(' A manual {0} exists but is ignored: {1}.', text(ignored[0].resource.kind), escape(why));
}

function endpointSection(analysis: Analysis, service: Service): Md[] {
  const msg = mdMessages(analysis.config.locale);
  const eps = analysis.endpointsOf(service);
  if (eps.source === 'none') {
    if (!service.selector) {
      const why = ignoredManualNote(analysis, eps, msg);
      return [msg('**Endpoints**: none. The Service has no selector, so only manual Endpoints or EndpointSlices can give it addresses.{0}', why)];
    }
    return [];
  }
  if (eps.source === 'manual') {
    const n = endpointCount(eps) ?? 0;
    return [
      msg('**Endpoints**: {0} from manual objects', plural(n, msg('{0} address', n), msg('{0} addresses', n))),
      ...eps.manual
        .filter((m) => m.mirrored)
        .map(
          (m) =>
            md`- ${text(m.resource.kind)} ${code(m.resource.name)}: ${plural(m.addresses.length, msg('{0} address', m.addresses.length), msg('{0} addresses', m.addresses.length))}`,
        ),
    ];
  }
  if (!eps.groups.length) {
    const selector = [...(service.selector ?? [])].map(([k, v]) => `${k}=${v}`).join(', ');
    return [msg('**Endpoints**: none. No pod template in namespace {0} carries {1}.', code(service.namespace), code(selector))];
  }
  const total = eps.groups.reduce((n, g) => n + (g.replicas ?? 0), 0);
  const perNode = eps.groups.some((g) => g.replicas === undefined);
  const out: Md[] = [
    msg(
      '**Endpoints**: {0}',
      perNode
        ? total
          ? msg('{0} plus one pod per node', plural(total, msg('{0} pod', total), msg('{0} pods', total)))
          : msg('one pod per node')
        : plural(total, msg('{0} pod', total), msg('{0} pods', total)),
    ),
  ];
  for (const g of eps.groups) {
    const count = g.replicas === undefined ? msg('(one pod per node)') : md`×${g.replicas}`;
    const gate = g.readinessGated ? msg(' · only ready pods receive traffic') : md``;
    out.push(md`- ${text(g.workload.kind)} ${code(g.workload.name)} ${count}${gate}`);
    const names = statefulPodRecords(analysis, service, g);
    out.push(...bounded(msg, names, 5, (r) => md`  - ${code(r.name)}`).map((l): Md => (l.startsWith('- …') ? md`  ${l}` : l)));
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
  return (
    r.resource.kind === w.kind && r.resource.name === w.name && r.source.uri === w.uri && r.source.span.start >= w.span.start && r.source.span.end <= w.span.end
  );
}

function externalAccess(analysis: Analysis, service: Service): Md[] {
  const msg = mdMessages(analysis.config.locale);
  const out: Md[] = [];
  const [lo, hi] = analysis.config.nodePortRange;
  if (service.type === 'NodePort' || service.type === 'LoadBalancer') {
    for (const p of service.ports) {
      const np = p.nodePort !== undefined ? String(p.nodePort) : msg('<a port from {0}-{1} chosen by the cluster>', lo, hi);
      out.push(msg('- NodePort: {0} → port {1}', code(`<any node IP>:${np}`), text(`${p.port ?? '?'}/${p.protocol}`)));
    }
  }
  if (service.type === 'LoadBalancer') {
    for (const p of service.ports) out.push(msg('- LoadBalancer: {0}', code(`${service.loadBalancerIP ?? '<load balancer address>'}:${p.port ?? '?'}`)));
  }
  if (service.type !== 'ExternalName') {
    for (const ip of service.externalIPs) for (const p of service.ports) out.push(msg('- external IP: {0}', code(`${ip}:${p.port ?? '?'}`)));
  }
  return out;
}
