// Hovers on Service fields that change traffic (selector, ports' targetPort and name, externalName,
// publishNotReadyAddresses, sessionAffinity, externalTrafficPolicy) and on Ingress backends.

import type { Analysis, IngressRoute } from '../analysis/analysis';
import { isIP } from '../analysis/ip';
import { selectsPods } from '../model/podLabels';
import type { Service, ServicePort } from '../model/resources';
import { unmatchedPairs } from '../model/selector';
import { portLabel } from './hoverService';
import { bounded, code, escape } from './markdown';

/** semantics §1.1: the selector is an equality map, matched only against pods in the Service's namespace. */
export function selectorHover(analysis: Analysis, service: Service, key: string, diagnosed = false): string {
  const value = service.selector?.get(key) ?? '';
  const out = [`**Selector** ${code(`${key}=${value}`)} of Service ${code(service.name)}`, ''];
  if (!service.selector) {
    out.push('An empty selector means no selector: the Service gets endpoints only from manual Endpoints or EndpointSlices.');
    return out.join('\n');
  }
  const groups = analysis.endpointsOf(service).groups;
  if (groups.length) {
    out.push(`Pod templates in ${code(service.namespace)} matching the whole selector:`);
    out.push(...bounded(groups, 8, (g) => `- ${g.workload.kind} ${code(g.workload.name)}${g.replicas === undefined ? '' : ` ×${g.replicas}`}`));
    return out.join('\n');
  }
  out.push(`No pod template in ${code(service.namespace)} matches the whole selector, so the Service has no endpoints.`);
  // The diagnostic shown with this hover already names the near miss.
  if (diagnosed) return out.join('\n');
  const near = nearMisses(analysis, service);
  if (near.length) out.push('', 'Near misses:', ...bounded(near, 6, (n) => `- ${n}`));
  return out.join('\n');
}

function nearMisses(analysis: Analysis, service: Service): string[] {
  const sel = service.selector!;
  const out: string[] = [];
  for (const w of analysis.cluster.workloadsIn(service.namespace)) {
    const wrong = unmatchedPairs(sel, w.template.labels);
    if (wrong.length !== 1 && wrong.length >= sel.size) continue;
    const diffs = wrong.map(([k, v]) => {
      const has = w.template.labels.get(k);
      return has === undefined ? `lacks ${code(k)}` : `has ${code(`${k}=${has}`)} instead of ${code(v)}`;
    });
    out.push(`${w.kind} ${code(w.name)} ${diffs.join(', ')}`);
  }
  for (const w of analysis.cluster.workloads) {
    if (w.namespace === service.namespace) continue;
    if (selectsPods(w, sel)) {
      out.push(`${w.kind} ${code(w.name)} in namespace ${code(w.namespace)} matches, but a Service only selects pods in its own namespace`);
    }
  }
  return out;
}

/**
 * A Service port's `targetPort` or `name`: which container port each selected workload resolves it to, or why it
 * resolves to none (semantics §5.2, §5.3). The port's diagnostic, when there is one, says what is wrong; this says
 * what each workload declares instead.
 */
export function servicePortHover(analysis: Analysis, service: Service, port: ServicePort, field: 'targetPort' | 'name'): string {
  const target = port.targetPort === undefined ? String(port.port ?? '?') : String(port.targetPort);
  const out = field === 'targetPort'
    ? [`**targetPort** ${code(target)} of Service port ${code(portLabel(port))}`, '']
    : [`**Service port name** ${code(port.name ?? '')}: port ${code(`${port.port ?? '?'}/${port.protocol}`)} of Service ${code(service.name)}`, '',
      `Ingress backends can name this port; it is the service label of its SRV record ${code(`_${port.name ?? ''}._${port.protocol.toLowerCase()}.${service.name}.${service.namespace}.svc.${analysis.config.clusterDomain}`)}, and kube-proxy matches endpoint ports by it.`, ''];
  if (service.type === 'ExternalName') {
    out.push('No effect: an ExternalName Service has no endpoints; clients connect to the external host\'s own port.');
    return out.join('\n');
  }
  if (service.headless && field === 'targetPort') out.push('kube-proxy ignores it on a headless Service, but the EndpointSlice (and so the DNS SRV record) carries the container port it names.', '');
  const eps = analysis.endpointsOf(service);
  if (eps.source !== 'selector' || !eps.groups.length) {
    out.push(service.selector ? 'No pod template matches the selector, so nothing resolves it.' : 'The Service has no selector: manual Endpoints give the port numbers, and targetPort is not used.');
    return out.join('\n');
  }
  const lookup = typeof port.targetPort === 'string' ? `, looked up by name and protocol ${port.protocol}` : '';
  out.push(field === 'name' ? `Its targetPort ${code(target)}${lookup}${lookup ? "," : ""} lands on:` : typeof port.targetPort === 'string' ? `Looked up by name and protocol ${port.protocol} in each selected workload:` : 'Each selected workload receives it on:');
  out.push(...bounded(eps.groups, 8, (g) => {
    const t = g.ports[port.index];
    const who = `${g.workload.kind} ${code(g.workload.name)}`;
    if (!t || t.containerPort === undefined) {
      const declared = g.workload.template.containers.flatMap((c) => c.ports).filter((p) => p.name);
      const names = declared.map((p) => `${code(p.name!)} (${p.containerPort ?? '?'}/${p.protocol})`);
      return `- ${who}: none; it names ${names.length ? names.slice(0, 4).join(', ') : 'no container port'}`;
    }
    const where = t.container ? `container ${code(t.container.name)}` : 'no container declares it';
    return `- ${who}: ${t.containerPort}/${port.protocol}, ${where}${t.declared?.name ? ` as ${code(t.declared.name)}` : ''}`;
  }));
  return out.join('\n');
}

export function externalNameHover(service: Service): string {
  const target = service.externalName ?? '';
  const out = [`**externalName** ${code(target)}`, ''];
  if (service.type !== 'ExternalName') {
    out.push(`Ignored: this Service is ${code(service.type)}, and only \`type: ExternalName\` uses externalName.`);
    return out.join('\n');
  }
  // semantics §2.1 E1/E2: a CNAME unless the value parses as an IP, in which case CoreDNS answers NXDOMAIN.
  if (isIP(target)) {
    out.push(`⚠ This looks like an IP address. The API accepts it, but CoreDNS does not answer for the Service at all (NXDOMAIN). Use a Service with manual Endpoints for a fixed IP.`);
  } else {
    out.push(`DNS answers the Service name with a CNAME to ${code(`${target}.`)}; the client then resolves that name itself. No endpoints, no kube-proxy rules and no port mapping: clients must use the port the external host listens on.`);
  }
  return out.join('\n');
}

/** semantics §2.4: the field, not the old annotation, decides whether unready pods are published. */
export function publishNotReadyHover(service: Service): string {
  const out = [`**publishNotReadyAddresses** ${code(String(service.publishNotReadyAddresses))}`, ''];
  if (!service.selector) {
    out.push('No effect here: the Service has no selector, and manual Endpoints are mirrored with their own readiness regardless of this field.');
  } else if (service.publishNotReadyAddresses) {
    out.push('Pods count as ready endpoints as soon as they have an IP, before their readiness probe passes and while terminating. Their DNS names answer early (useful for StatefulSet peer discovery), and kube-proxy sends them traffic too.');
  } else {
    out.push('Only ready pods are endpoints: a pod gets DNS records and traffic once its readiness probe passes, and loses them when it stops being ready or starts terminating.');
  }
  return out.join('\n');
}

export function sessionAffinityHover(service: Service): string {
  const out = [`**sessionAffinity** ${code(service.sessionAffinity)}`, ''];
  if (service.headless || service.type === 'ExternalName') {
    out.push('No effect: kube-proxy does not handle headless or ExternalName Services; clients connect to pod IPs (or the external host) directly.');
  } else if (service.sessionAffinity === 'ClientIP') {
    const t = service.sessionAffinityTimeout ?? 10800;
    out.push(`kube-proxy sends every connection from the same client IP to the same pod for ${t} seconds after the last one. Behind SNAT or a proxy, many clients share one IP and land on one pod.`);
  } else {
    out.push('Each new connection picks a pod at random; long-lived connections stay where they landed.');
  }
  return out.join('\n');
}

export function externalTrafficPolicyHover(service: Service): string {
  const policy = service.externalTrafficPolicy ?? 'Cluster';
  const out = [`**externalTrafficPolicy** ${code(policy)}`, ''];
  if (service.type !== 'NodePort' && service.type !== 'LoadBalancer') {
    out.push(`No effect: it applies only to traffic entering through node ports or a load balancer, and this Service is ${code(service.type)}.`);
  } else if (policy === 'Local') {
    out.push('Traffic arriving at a node goes only to pods on that node, and the client source IP is preserved. Nodes without a ready pod drop it (a load balancer learns this from the health-check node port), and pods may be unevenly loaded.');
  } else {
    out.push('Any node forwards to any ready pod, possibly on another node; the packet is SNATed on the way, so pods see a node IP instead of the client IP.');
  }
  return out.join('\n');
}

export function ingressBackendHover(analysis: Analysis, route: IngressRoute, diagnosed = false): string {
  const where = `${route.host ?? '*'}${route.path}`;
  const out = [`**Ingress backend** for ${code(where)}`, ''];
  if (route.problem || !route.service) {
    if (diagnosed) out.push(`→ Service ${code(route.serviceName ?? '')}: the controller cannot route these requests.`);
    else out.push(`⚠ ${route.problem ? escape(route.problem) : `Service ${code(route.serviceName ?? '')} does not exist in ${code(route.ingress.namespace)}.`}`);
    return out.join('\n');
  }
  const svc = route.service;
  const sp = route.servicePort;
  out.push(`→ Service ${code(svc.name)}${sp ? ` port ${code(portLabel(sp))}` : ''}`);
  if (!sp) return out.join('\n');
  const groups = analysis.endpointsOf(svc).groups;
  if (!groups.length) out.push('→ no pods: the Service has no selected endpoints');
  for (const g of groups) {
    const t = g.ports[sp.index];
    if (!t || t.containerPort === undefined) out.push(`→ ${g.workload.kind} ${code(g.workload.name)}: ⚠ targetPort ${code(String(sp.targetPort))} does not resolve in its pods`);
    else out.push(`→ targetPort ${code(String(sp.targetPort))} → container port ${t.containerPort} of ${g.workload.kind} ${code(g.workload.name)}${t.container ? ` (container ${code(t.container.name)})` : ''}`);
  }
  return out.join('\n');
}
