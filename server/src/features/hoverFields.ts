// Hovers on Service fields that change traffic (selector, externalName, publishNotReadyAddresses,
// sessionAffinity, externalTrafficPolicy) and on Ingress backends.

import type { Analysis, IngressRoute } from '../analysis/analysis';
import { isIP } from '../analysis/ip';
import { selectsPods } from '../model/podLabels';
import type { Service } from '../model/resources';
import { unmatchedPairs } from '../model/selector';
import { portLabel } from './hoverService';
import { bounded, code, escape } from './markdown';

/** semantics §1.1: the selector is an equality map, matched only against pods in the Service's namespace. */
export function selectorHover(analysis: Analysis, service: Service, key: string): string {
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

export function ingressBackendHover(analysis: Analysis, route: IngressRoute): string {
  const where = `${route.host ?? '*'}${route.path}`;
  const out = [`**Ingress backend** for ${code(where)}`, ''];
  if (route.problem || !route.service) {
    out.push(`⚠ ${route.problem ? escape(route.problem) : `Service ${code(route.serviceName ?? '')} does not exist in ${code(route.ingress.namespace)}.`}`);
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
