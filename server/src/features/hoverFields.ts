// Hovers on Service fields that change traffic (selector, ports' targetPort and name, externalName,
// publishNotReadyAddresses, sessionAffinity, externalTrafficPolicy) and on Ingress backends.

import type { Analysis, IngressRoute } from '../analysis/analysis';
import { isIP } from '../analysis/ip';
import { selectsPods } from '../model/podLabels';
import type { Service, ServicePort } from '../model/resources';
import { unmatchedPairs } from '../model/selector';
import { portLabel } from './hoverService';
import { bounded, code, escape, joined, lines, md, text, type Md } from './markdown';

/** semantics §1.1: the selector is an equality map, matched only against pods in the Service's namespace. */
export function selectorHover(analysis: Analysis, service: Service, key: string, diagnosed = false): Md {
  const value = service.selector?.get(key) ?? '';
  const out: Md[] = [md`**Selector** ${code(`${key}=${value}`)} of Service ${code(service.name)}`, md``];
  if (!service.selector) {
    out.push(md`An empty selector means no selector: the Service gets endpoints only from manual Endpoints or EndpointSlices.`);
    return lines(out);
  }
  const groups = analysis.endpointsOf(service).groups;
  if (groups.length) {
    out.push(md`Pod templates in ${code(service.namespace)} matching the whole selector:`);
    out.push(...bounded(groups, 8, (g) => md`- ${text(g.workload.kind)} ${code(g.workload.name)}${g.replicas === undefined ? md`` : md` ×${g.replicas}`}`));
    return lines(out);
  }
  out.push(md`No pod template in ${code(service.namespace)} matches the whole selector, so the Service has no endpoints.`);
  // The diagnostic shown with this hover already names the near miss.
  if (diagnosed) return lines(out);
  const near = nearMisses(analysis, service);
  if (near.length) out.push(md``, md`Near misses:`, ...bounded(near, 6, (n) => md`- ${n}`));
  return lines(out);
}

function nearMisses(analysis: Analysis, service: Service): Md[] {
  const sel = service.selector!;
  const out: Md[] = [];
  for (const w of analysis.cluster.workloadsIn(service.namespace)) {
    const wrong = unmatchedPairs(sel, w.template.labels);
    if (wrong.length !== 1 && wrong.length >= sel.size) continue;
    const diffs = wrong.map(([k, v]) => {
      const has = w.template.labels.get(k);
      return has === undefined ? md`lacks ${code(k)}` : md`has ${code(`${k}=${has}`)} instead of ${code(v)}`;
    });
    out.push(md`${text(w.kind)} ${code(w.name)} ${joined(diffs, ', ')}`);
  }
  for (const w of analysis.cluster.workloads) {
    if (w.namespace === service.namespace) continue;
    if (selectsPods(w, sel)) {
      out.push(md`${text(w.kind)} ${code(w.name)} in namespace ${code(w.namespace)} matches, but a Service only selects pods in its own namespace`);
    }
  }
  return out;
}

/**
 * A Service port's `targetPort` or `name`: which container port each selected workload resolves it to, or why it
 * resolves to none (semantics §5.2, §5.3). The port's diagnostic, when there is one, says what is wrong; this says
 * what each workload declares instead.
 */
export function servicePortHover(analysis: Analysis, service: Service, port: ServicePort, field: 'targetPort' | 'name'): Md {
  const target = port.targetPort === undefined ? String(port.port ?? '?') : String(port.targetPort);
  const out: Md[] = field === 'targetPort'
    ? [md`**targetPort** ${code(target)} of Service port ${code(portLabel(port))}`, md``]
    : [md`**Service port name** ${code(port.name ?? '')}: port ${code(`${port.port ?? '?'}/${port.protocol}`)} of Service ${code(service.name)}`, md``,
      md`Ingress backends can name this port; it is the service label of its SRV record ${code(`_${port.name ?? ''}._${port.protocol.toLowerCase()}.${service.name}.${service.namespace}.svc.${analysis.config.clusterDomain}`)}, and kube-proxy matches endpoint ports by it.`, md``];
  if (service.type === 'ExternalName') {
    out.push(md`No effect: an ExternalName Service has no endpoints; clients connect to the external host's own port.`);
    return lines(out);
  }
  if (service.headless && field === 'targetPort') out.push(md`kube-proxy ignores it on a headless Service, but the EndpointSlice (and so the DNS SRV record) carries the container port it names.`, md``);
  const eps = analysis.endpointsOf(service);
  if (eps.source !== 'selector' || !eps.groups.length) {
    out.push(service.selector ? md`No pod template matches the selector, so nothing resolves it.` : md`The Service has no selector: manual Endpoints give the port numbers, and targetPort is not used.`);
    return lines(out);
  }
  const lookup = typeof port.targetPort === 'string' ? md`, looked up by name and protocol ${text(port.protocol)}` : md``;
  out.push(field === 'name' ? md`Its targetPort ${code(target)}${lookup}${lookup ? md`,` : md``} lands on:` : typeof port.targetPort === 'string' ? md`Looked up by name and protocol ${text(port.protocol)} in each selected workload:` : md`Each selected workload receives it on:`);
  out.push(...bounded(eps.groups, 8, (g) => {
    const t = g.ports[port.index];
    const who = md`${text(g.workload.kind)} ${code(g.workload.name)}`;
    if (!t || t.containerPort === undefined) {
      const declared = g.workload.template.containers.flatMap((c) => c.ports).filter((p) => p.name);
      const names = declared.map((p) => md`${code(p.name!)} (${p.containerPort ?? md`?`}/${text(p.protocol)})`);
      return md`- ${who}: none; it names ${names.length ? joined(names.slice(0, 4), ', ') : md`no container port`}`;
    }
    const where = t.container ? md`container ${code(t.container.name)}` : md`no container declares it`;
    return md`- ${who}: ${t.containerPort}/${text(port.protocol)}, ${where}${t.declared?.name ? md` as ${code(t.declared.name)}` : md``}`;
  }));
  return lines(out);
}

export function externalNameHover(service: Service): Md {
  const target = service.externalName ?? '';
  const out: Md[] = [md`**externalName** ${code(target)}`, md``];
  if (service.type !== 'ExternalName') {
    out.push(md`Ignored: this Service is ${code(service.type)}, and only \`type: ExternalName\` uses externalName.`);
    return lines(out);
  }
  // semantics §2.1 E1/E2: a CNAME unless the value parses as an IP, in which case CoreDNS answers NXDOMAIN.
  if (isIP(target)) {
    out.push(md`⚠ This looks like an IP address. The API accepts it, but CoreDNS does not answer for the Service at all (NXDOMAIN). Use a Service with manual Endpoints for a fixed IP.`);
  } else {
    out.push(md`DNS answers the Service name with a CNAME to ${code(`${target}.`)}; the client then resolves that name itself. No endpoints, no kube-proxy rules and no port mapping: clients must use the port the external host listens on.`);
  }
  return lines(out);
}

/** semantics §2.4: the field, not the old annotation, decides whether unready pods are published. */
export function publishNotReadyHover(service: Service): Md {
  const out: Md[] = [md`**publishNotReadyAddresses** ${code(String(service.publishNotReadyAddresses))}`, md``];
  if (!service.selector) {
    out.push(md`No effect here: the Service has no selector, and manual Endpoints are mirrored with their own readiness regardless of this field.`);
  } else if (service.publishNotReadyAddresses) {
    out.push(md`Pods count as ready endpoints as soon as they have an IP, before their readiness probe passes and while terminating. Their DNS names answer early (useful for StatefulSet peer discovery), and kube-proxy sends them traffic too.`);
  } else {
    out.push(md`Only ready pods are endpoints: a pod gets DNS records and traffic once its readiness probe passes, and loses them when it stops being ready or starts terminating.`);
  }
  return lines(out);
}

export function sessionAffinityHover(service: Service): Md {
  const out: Md[] = [md`**sessionAffinity** ${code(service.sessionAffinity)}`, md``];
  if (service.headless || service.type === 'ExternalName') {
    out.push(md`No effect: kube-proxy does not handle headless or ExternalName Services; clients connect to pod IPs (or the external host) directly.`);
  } else if (service.sessionAffinity === 'ClientIP') {
    const t = service.sessionAffinityTimeout ?? 10800;
    out.push(md`kube-proxy sends every connection from the same client IP to the same pod for ${t} seconds after the last one. Behind SNAT or a proxy, many clients share one IP and land on one pod.`);
  } else {
    out.push(md`Each new connection picks a pod at random; long-lived connections stay where they landed.`);
  }
  return lines(out);
}

export function externalTrafficPolicyHover(service: Service): Md {
  const policy = service.externalTrafficPolicy ?? 'Cluster';
  const out: Md[] = [md`**externalTrafficPolicy** ${code(policy)}`, md``];
  if (service.type !== 'NodePort' && service.type !== 'LoadBalancer') {
    out.push(md`No effect: it applies only to traffic entering through node ports or a load balancer, and this Service is ${code(service.type)}.`);
  } else if (policy === 'Local') {
    out.push(md`Traffic arriving at a node goes only to pods on that node, and the client source IP is preserved. Nodes without a ready pod drop it (a load balancer learns this from the health-check node port), and pods may be unevenly loaded.`);
  } else {
    out.push(md`Any node forwards to any ready pod, possibly on another node; the packet is SNATed on the way, so pods see a node IP instead of the client IP.`);
  }
  return lines(out);
}

export function ingressBackendHover(analysis: Analysis, route: IngressRoute, diagnosed = false): Md {
  const where = `${route.host ?? '*'}${route.path}`;
  const out: Md[] = [md`**Ingress backend** for ${code(where)}`, md``];
  if (route.problem || !route.service) {
    if (diagnosed) out.push(md`→ Service ${code(route.serviceName ?? '')}: the controller cannot route these requests.`);
    else out.push(md`⚠ ${route.problem ? escape(route.problem) : md`Service ${code(route.serviceName ?? '')} does not exist in ${code(route.ingress.namespace)}.`}`);
    return lines(out);
  }
  const svc = route.service;
  const sp = route.servicePort;
  out.push(md`→ Service ${code(svc.name)}${sp ? md` port ${code(portLabel(sp))}` : md``}`);
  if (!sp) return lines(out);
  const groups = analysis.endpointsOf(svc).groups;
  if (!groups.length) out.push(md`→ no pods: the Service has no selected endpoints`);
  for (const g of groups) {
    const t = g.ports[sp.index];
    if (!t || t.containerPort === undefined) out.push(md`→ ${text(g.workload.kind)} ${code(g.workload.name)}: ⚠ targetPort ${code(String(sp.targetPort))} does not resolve in its pods`);
    else out.push(md`→ targetPort ${code(String(sp.targetPort))} → container port ${t.containerPort} of ${text(g.workload.kind)} ${code(g.workload.name)}${t.container ? md` (container ${code(t.container.name)})` : md``}`);
  }
  return lines(out);
}
