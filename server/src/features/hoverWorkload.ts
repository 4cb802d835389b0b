// Hovers inside a workload: StatefulSet serviceName, pod template labels, container ports, hostname/subdomain.

import type { Analysis } from '../analysis/analysis';
import { selectsPods } from '../model/podLabels';
import type { Container, ContainerPort, Service, Workload } from '../model/resources';
import { unmatchedPairs } from '../model/selector';
import { recordLine } from './hoverService';
import { bounded, code, joined, lines, md, text, type Md } from './markdown';

/** semantics §2.3: md`<sts>-<i>.<serviceName>.<ns>.svc.<zone>` resolves only under all four conditions. */
export function serviceNameHover(analysis: Analysis, w: Workload, diagnosed = false): Md {
  const name = w.serviceName ?? '';
  const out: Md[] = [md`**StatefulSet serviceName** ${code(name)}: the governing Service that gives each pod a stable DNS name`, md``];
  const svc = analysis.cluster.service(w.namespace, name);
  const why = whyNoPodNames(analysis, w, svc);
  if (why) {
    // With a diagnostic here, the editor already shows why (and the likely fix) right above this hover.
    out.push(diagnosed ? md`No per-pod DNS names for its pods.` : md`No per-pod DNS names: ${why}`);
    return lines(out);
  }
  const suffix = `.${name}.${w.namespace}.svc.${analysis.config.clusterDomain}`;
  const records = analysis.dnsRecordsFor(w).filter((r) => r.name.endsWith(suffix));
  out.push(md`Per-pod names:`);
  out.push(...bounded(records, 6, recordLine));
  if ((w.podManagementPolicy ?? 'OrderedReady') === 'OrderedReady' && (w.replicas ?? 1) > 1) {
    out.push(md``, md`With \`podManagementPolicy: OrderedReady\` (the default) a pod is created only after the previous one is ready, so later names appear one by one.`);
  }
  return lines(out);
}

export function whyNoPodNames(analysis: Analysis, w: Workload, svc: Service | undefined): Md | undefined {
  const name = w.serviceName ?? '';
  const ns = w.namespace;
  if (!name) return md`serviceName is empty, so the pods get no subdomain.`;
  if (!svc) {
    const headless = analysis.cluster.servicesIn(ns).filter((s) => s.headless).map((s) => code(s.name));
    const hint = headless.length ? md` Headless Services in ${code(ns)}: ${joined(headless.slice(0, 5), ', ')}.` : md` There is no headless Service in ${code(ns)}.`;
    return md`no Service named ${code(name)} exists in namespace ${code(ns)}; Kubernetes does not check this field, so names like ${code(`${w.name}-${w.ordinalsStart}.${name}.${ns}.svc.${analysis.config.clusterDomain}`)} silently never resolve.${hint}`;
  }
  if (svc.type === 'ExternalName') return md`Service ${code(name)} is an ExternalName alias, which has no endpoints.`;
  if (!svc.selector) return md`Service ${code(name)} has no selector, so the EndpointSlice controller never lists these pods (manual Endpoints with hostnames would be needed).`;
  const missing = selectsPods(w, svc.selector) ? [] : unmatchedPairs(svc.selector, w.template.labels).map(([k, v]) => code(`${k}=${v}`));
  if (missing.length) return md`Service ${code(name)} does not select these pods: the pod template lacks ${joined(missing, ', ')}.`;
  if (!svc.headless) return md`Service ${code(name)} is not headless (it has a cluster IP); only CoreDNS answers per-pod names under it, outside the DNS specification. Set \`clusterIP: None\`.`;
  return undefined;
}

export function labelsHover(analysis: Analysis, w: Workload, key: string): Md {
  const value = w.template.labels.get(key) ?? '';
  const out: Md[] = [md`**Pod label** ${code(`${key}=${value}`)} of ${text(w.kind)} ${code(w.name)}`, md``];
  const services = analysis.cluster.servicesIn(w.namespace).filter((s) => s.selector && selectsPods(w, s.selector));
  if (services.length) {
    out.push(md`Services selecting these pods:`);
    out.push(...bounded(services, 8, (s) => md`- ${code(s.name)}${s.selector!.has(key) ? md` (uses ${code(key)})` : md``}`));
  } else out.push(md`No Service in ${code(w.namespace)} selects these pods.`);
  const policies = analysis.policiesSelecting(w);
  out.push(md``);
  if (policies.length) {
    out.push(md`NetworkPolicies selecting these pods:`);
    out.push(...bounded(policies, 8, (p) => md`- ${code(p.name)} (isolates ${text(p.policyTypes.join(' and ').toLowerCase())})`));
  } else out.push(md`No NetworkPolicy selects these pods, so all traffic to and from them is allowed.`);
  return lines(out);
}

export function containerPortHover(analysis: Analysis, w: Workload, c: Container, port: ContainerPort): Md {
  const label = `${port.containerPort ?? '?'}/${port.protocol}${port.name ? ` (${port.name})` : ''}`;
  const out: Md[] = [md`**Container port** ${code(label)} of container ${code(c.name)}`, md``];
  const routes: Md[] = [];
  for (const s of analysis.cluster.servicesIn(w.namespace)) {
    if (!s.selector) continue;
    const g = analysis.endpointsOf(s).groups.find((x) => x.workload === w);
    if (!g) continue;
    for (const t of g.ports) {
      if (t.declared === port || (t.container === c && t.containerPort === port.containerPort && t.servicePort.protocol === port.protocol)) {
        const sp = t.servicePort;
        routes.push(md`- Service ${code(s.name)} port ${code(`${sp.port ?? '?'}/${sp.protocol}`)}${sp.name ? md` (${code(sp.name)})` : md``} via targetPort ${code(String(sp.targetPort))}`);
      }
    }
  }
  if (routes.length) out.push(md`Service ports that route here:`, ...routes);
  else out.push(md`No Service port routes here. Declaring a container port is informational; a Service reaches it only through a matching targetPort.`);
  return lines(out);
}

/** semantics §2.2 P2: hostname + subdomain give `<hostname>.<subdomain>.<ns>.svc.<zone>` only through a selecting headless Service. */
export function hostnameHover(analysis: Analysis, w: Workload, field: 'hostname' | 'subdomain'): Md {
  const t = w.template;
  const zone = analysis.config.clusterDomain;
  const out: Md[] = [md`**Pod ${text(field)}** ${code((field === 'hostname' ? t.hostname : t.subdomain) ?? '')}`, md``];
  out.push(field === 'hostname'
    ? md`Sets the pod's host name. It becomes part of a DNS name only together with \`subdomain\`.`
    : md`Names the headless Service under which the pod gets a DNS name.`);
  if (w.kind === 'StatefulSet') {
    out.push(md``, md`A StatefulSet overwrites both: each pod gets hostname \`<name>-<ordinal>\` and subdomain = \`serviceName\`.`);
    return lines(out);
  }
  if (!t.hostname || !t.subdomain) {
    out.push(md``, md`No DNS name: both \`hostname\` and \`subdomain\` must be set (kubelet still writes /etc/hosts, which is not DNS).`);
    return lines(out);
  }
  const name = `${t.hostname}.${t.subdomain}.${w.namespace}.svc.${zone}`;
  const svc = analysis.cluster.service(w.namespace, t.subdomain);
  let why: Md | undefined;
  if (!svc) why = md`no Service named ${code(t.subdomain)} exists in ${code(w.namespace)}`;
  else if (svc.type === 'ExternalName') why = md`Service ${code(svc.name)} is an ExternalName alias`;
  else if (!svc.selector || !selectsPods(w, svc.selector)) why = md`Service ${code(svc.name)} does not select this pod`;
  if (why) out.push(md``, md`${code(name)} does not resolve: ${why}.`);
  else if (!svc!.headless) out.push(md``, md`${code(name)} is answered by CoreDNS only (Service ${code(svc!.name)} is not headless), outside the DNS specification.`);
  else out.push(md``, md`${code(name)} resolves to the pod IP while the pod is ready${svc!.publishNotReadyAddresses ? md` (or as soon as it has an IP: publishNotReadyAddresses)` : md``}.`);
  return lines(out);
}
