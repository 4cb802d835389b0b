// Hovers on Service fields that change traffic (selector, ports' targetPort and name, externalName,
// publishNotReadyAddresses, sessionAffinity, externalTrafficPolicy) and on Ingress backends.

import type { Analysis, IngressRoute } from '../analysis/analysis';
import { isIP } from '../analysis/ip';
import { selectsPods } from '../model/podLabels';
import type { Service, ServicePort } from '../model/resources';
import { unmatchedPairs } from '../model/selector';
import { portLabel } from './hoverService';
import { bounded, code, escape, joined, lines, md, text, type Md, mdMessages, type MdMsg } from './markdown';

/** semantics §1.1: the selector is an equality map, matched only against pods in the Service's namespace. */
export function selectorHover(analysis: Analysis, service: Service, key: string, diagnosed = false): Md {
  const msg = mdMessages(analysis.config.locale);
  const value = service.selector?.get(key) ?? '';
  const out: Md[] = [msg('**Selector** {0} of Service {1}', code(`${key}=${value}`), code(service.name)), md``];
  if (!service.selector) {
    out.push(msg('An empty selector means no selector: the Service gets endpoints only from manual Endpoints or EndpointSlices.'));
    return lines(out);
  }
  const groups = analysis.endpointsOf(service).groups;
  if (groups.length) {
    out.push(msg('Pod templates in {0} matching the whole selector:', code(service.namespace)));
    out.push(
      ...bounded(msg, groups, 8, (g) => md`- ${text(g.workload.kind)} ${code(g.workload.name)}${g.replicas === undefined ? md`` : md` ×${g.replicas}`}`),
    );
    return lines(out);
  }
  out.push(msg('No pod template in {0} matches the whole selector, so the Service has no endpoints.', code(service.namespace)));
  // The diagnostic shown with this hover already names the near miss.
  if (diagnosed) return lines(out);
  const near = nearMisses(analysis, service);
  if (near.length) out.push(md``, msg('Near misses:'), ...bounded(msg, near, 6, (n) => md`- ${n}`));
  return lines(out);
}

function nearMisses(analysis: Analysis, service: Service): Md[] {
  const msg = mdMessages(analysis.config.locale);
  const sel = service.selector!;
  const out: Md[] = [];
  for (const w of analysis.cluster.workloadsIn(service.namespace)) {
    const wrong = unmatchedPairs(sel, w.template.labels);
    if (wrong.length !== 1 && wrong.length >= sel.size) continue;
    const diffs = wrong.map(([k, v]) => {
      const has = w.template.labels.get(k);
      return has === undefined ? msg('lacks {0}', code(k)) : msg('has {0} instead of {1}', code(`${k}=${has}`), code(v));
    });
    out.push(md`${text(w.kind)} ${code(w.name)} ${joined(diffs, ', ')}`);
  }
  for (const w of analysis.cluster.workloads) {
    if (w.namespace === service.namespace) continue;
    if (selectsPods(w, sel)) {
      out.push(msg('{0} {1} in namespace {2} matches, but a Service only selects pods in its own namespace', text(w.kind), code(w.name), code(w.namespace)));
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
  const msg = mdMessages(analysis.config.locale);
  const target = port.targetPort === undefined ? String(port.port ?? '?') : String(port.targetPort);
  const out: Md[] =
    field === 'targetPort'
      ? [msg('**targetPort** {0} of Service port {1}', code(target), code(portLabel(port))), md``]
      : [
          msg('**Service port name** {0}: port {1} of Service {2}', code(port.name ?? ''), code(`${port.port ?? '?'}/${port.protocol}`), code(service.name)),
          md``,
          msg(
            'Ingress backends can name this port; it is the service label of its SRV record {0}, and kube-proxy matches endpoint ports by it.',
            code(`_${port.name ?? ''}._${port.protocol.toLowerCase()}.${service.name}.${service.namespace}.svc.${analysis.config.clusterDomain}`),
          ),
          md``,
        ];
  if (service.type === 'ExternalName') {
    out.push(msg("No effect: an ExternalName Service has no endpoints; clients connect to the external host's own port."));
    return lines(out);
  }
  if (service.headless && field === 'targetPort')
    out.push(msg('kube-proxy ignores it on a headless Service, but the EndpointSlice (and so the DNS SRV record) carries the container port it names.'), md``);
  const eps = analysis.endpointsOf(service);
  if (eps.source !== 'selector' || !eps.groups.length) {
    out.push(
      service.selector
        ? msg('No pod template matches the selector, so nothing resolves it.')
        : msg('The Service has no selector: manual Endpoints give the port numbers, and targetPort is not used.'),
    );
    return lines(out);
  }
  const lookup = typeof port.targetPort === 'string' ? msg(', looked up by name and protocol {0}', text(port.protocol)) : md``;
  out.push(
    field === 'name'
      ? msg('Its targetPort {0}{1}{2} lands on:', code(target), lookup, lookup ? md`,` : md``)
      : typeof port.targetPort === 'string'
        ? msg('Looked up by name and protocol {0} in each selected workload:', text(port.protocol))
        : msg('Each selected workload receives it on:'),
  );
  out.push(
    ...bounded(msg, eps.groups, 8, (g) => {
      const t = g.ports[port.index];
      const who = md`${text(g.workload.kind)} ${code(g.workload.name)}`;
      if (!t || t.containerPort === undefined) {
        const declared = g.workload.template.containers.flatMap((c) => c.ports).filter((p) => p.name);
        const names = declared.map((p) => md`${code(p.name!)} (${p.containerPort ?? md`?`}/${text(p.protocol)})`);
        return msg('- {0}: none; it names {1}', who, names.length ? joined(names.slice(0, 4), ', ') : msg('no container port'));
      }
      const where = t.container ? msg('container {0}', code(t.container.name)) : msg('no container declares it');
      return md`- ${who}: ${t.containerPort}/${text(port.protocol)}, ${where}${t.declared?.name ? msg(' as {0}', code(t.declared.name)) : md``}`;
    }),
  );
  return lines(out);
}

export function externalNameHover(msg: MdMsg, service: Service): Md {
  const target = service.externalName ?? '';
  const out: Md[] = [msg('**externalName** {0}', code(target)), md``];
  if (service.type !== 'ExternalName') {
    out.push(msg('Ignored: this Service is {0}, and only `type: ExternalName` uses externalName.', code(service.type)));
    return lines(out);
  }
  // semantics §2.1 E1/E2: a CNAME unless the value parses as an IP, in which case CoreDNS answers NXDOMAIN.
  if (isIP(target)) {
    out.push(
      msg(
        '⚠ This looks like an IP address. The API accepts it, but CoreDNS does not answer for the Service at all (NXDOMAIN). Use a Service with manual Endpoints for a fixed IP.',
      ),
    );
  } else {
    out.push(
      msg(
        'DNS answers the Service name with a CNAME to {0}; the client then resolves that name itself. No endpoints, no kube-proxy rules and no port mapping: clients must use the port the external host listens on.',
        code(`${target}.`),
      ),
    );
  }
  return lines(out);
}

/** semantics §2.4: the field, not the old annotation, decides whether unready pods are published. */
export function publishNotReadyHover(msg: MdMsg, service: Service): Md {
  const out: Md[] = [msg('**publishNotReadyAddresses** {0}', code(String(service.publishNotReadyAddresses))), md``];
  if (!service.selector) {
    out.push(msg('No effect here: the Service has no selector, and manual Endpoints are mirrored with their own readiness regardless of this field.'));
  } else if (service.publishNotReadyAddresses) {
    out.push(
      msg(
        'Pods count as ready endpoints as soon as they have an IP, before their readiness probe passes and while terminating. Their DNS names answer early (useful for StatefulSet peer discovery), and kube-proxy sends them traffic too.',
      ),
    );
  } else {
    out.push(
      msg(
        'Only ready pods are endpoints: a pod gets DNS records and traffic once its readiness probe passes, and loses them when it stops being ready or starts terminating.',
      ),
    );
  }
  return lines(out);
}

export function sessionAffinityHover(msg: MdMsg, service: Service): Md {
  const out: Md[] = [msg('**sessionAffinity** {0}', code(service.sessionAffinity)), md``];
  if (service.headless || service.type === 'ExternalName') {
    out.push(msg('No effect: kube-proxy does not handle headless or ExternalName Services; clients connect to pod IPs (or the external host) directly.'));
  } else if (service.sessionAffinity === 'ClientIP') {
    const t = service.sessionAffinityTimeout ?? 10800;
    out.push(
      msg(
        'kube-proxy sends every connection from the same client IP to the same pod for {0} seconds after the last one. Behind SNAT or a proxy, many clients share one IP and land on one pod.',
        t,
      ),
    );
  } else {
    out.push(msg('Each new connection picks a pod at random; long-lived connections stay where they landed.'));
  }
  return lines(out);
}

export function externalTrafficPolicyHover(msg: MdMsg, service: Service): Md {
  const policy = service.externalTrafficPolicy ?? 'Cluster';
  const out: Md[] = [msg('**externalTrafficPolicy** {0}', code(policy)), md``];
  if (service.type !== 'NodePort' && service.type !== 'LoadBalancer') {
    out.push(msg('No effect: it applies only to traffic entering through node ports or a load balancer, and this Service is {0}.', code(service.type)));
  } else if (policy === 'Local') {
    out.push(
      msg(
        'Traffic arriving at a node goes only to pods on that node, and the client source IP is preserved. Nodes without a ready pod drop it (a load balancer learns this from the health-check node port), and pods may be unevenly loaded.',
      ),
    );
  } else {
    out.push(
      msg('Any node forwards to any ready pod, possibly on another node; the packet is SNATed on the way, so pods see a node IP instead of the client IP.'),
    );
  }
  return lines(out);
}

export function ingressBackendHover(analysis: Analysis, route: IngressRoute, diagnosed = false): Md {
  const msg = mdMessages(analysis.config.locale);
  const where = `${route.host ?? '*'}${route.path}`;
  const out: Md[] = [msg('**Ingress backend** for {0}', code(where)), md``];
  if (route.problem || !route.service) {
    if (diagnosed) out.push(msg('→ Service {0}: the controller cannot route these requests.', code(route.serviceName ?? '')));
    else
      out.push(
        md`⚠ ${route.problem ? escape(route.problem) : msg('Service {0} does not exist in {1}.', code(route.serviceName ?? ''), code(route.ingress.namespace))}`,
      );
    return lines(out);
  }
  const svc = route.service;
  const sp = route.servicePort;
  out.push(msg('→ Service {0}{1}', code(svc.name), sp ? msg(' port {0}', code(portLabel(sp))) : md``));
  if (!sp) return lines(out);
  const groups = analysis.endpointsOf(svc).groups;
  if (!groups.length) out.push(msg('→ no pods: the Service has no selected endpoints'));
  for (const g of groups) {
    const t = g.ports[sp.index];
    if (!t || t.containerPort === undefined)
      out.push(msg('→ {0} {1}: ⚠ targetPort {2} does not resolve in its pods', text(g.workload.kind), code(g.workload.name), code(String(sp.targetPort))));
    else
      out.push(
        msg(
          '→ targetPort {0} → container port {1} of {2} {3}{4}',
          code(String(sp.targetPort)),
          t.containerPort,
          text(g.workload.kind),
          code(g.workload.name),
          t.container ? msg(' (container {0})', code(t.container.name)) : md``,
        ),
      );
  }
  return lines(out);
}
