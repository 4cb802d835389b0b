// Hovers inside a workload: StatefulSet serviceName, pod template labels, container ports, hostname/subdomain.

import type { Analysis } from '../analysis/analysis';
import { selectsPods } from '../model/podLabels';
import type { Container, ContainerPort, Service, Workload } from '../model/resources';
import { unmatchedPairs } from '../model/selector';
import { recordLine } from './hoverService';
import { bounded, code } from './markdown';

/** semantics §2.3: `<sts>-<i>.<serviceName>.<ns>.svc.<zone>` resolves only under all four conditions. */
export function serviceNameHover(analysis: Analysis, w: Workload, diagnosed = false): string {
  const name = w.serviceName ?? '';
  const out = [`**StatefulSet serviceName** ${code(name)}: the governing Service that gives each pod a stable DNS name`, ''];
  const svc = analysis.cluster.service(w.namespace, name);
  const why = whyNoPodNames(analysis, w, svc);
  if (why) {
    // With a diagnostic here, the editor already shows why (and the likely fix) right above this hover.
    out.push(diagnosed ? 'No per-pod DNS names for its pods.' : `No per-pod DNS names: ${why}`);
    return out.join('\n');
  }
  const suffix = `.${name}.${w.namespace}.svc.${analysis.config.clusterDomain}`;
  const records = analysis.dnsRecordsFor(w).filter((r) => r.name.endsWith(suffix));
  out.push('Per-pod names:');
  out.push(...bounded(records, 6, recordLine));
  if ((w.podManagementPolicy ?? 'OrderedReady') === 'OrderedReady' && (w.replicas ?? 1) > 1) {
    out.push('', 'With `podManagementPolicy: OrderedReady` (the default) a pod is created only after the previous one is ready, so later names appear one by one.');
  }
  return out.join('\n');
}

export function whyNoPodNames(analysis: Analysis, w: Workload, svc: Service | undefined): string | undefined {
  const name = w.serviceName ?? '';
  const ns = w.namespace;
  if (!name) return 'serviceName is empty, so the pods get no subdomain.';
  if (!svc) {
    const headless = analysis.cluster.servicesIn(ns).filter((s) => s.headless).map((s) => code(s.name));
    const hint = headless.length ? ` Headless Services in ${code(ns)}: ${headless.slice(0, 5).join(', ')}.` : ` There is no headless Service in ${code(ns)}.`;
    return `no Service named ${code(name)} exists in namespace ${code(ns)}; Kubernetes does not check this field, so names like ${code(`${w.name}-${w.ordinalsStart}.${name}.${ns}.svc.${analysis.config.clusterDomain}`)} silently never resolve.${hint}`;
  }
  if (svc.type === 'ExternalName') return `Service ${code(name)} is an ExternalName alias, which has no endpoints.`;
  if (!svc.selector) return `Service ${code(name)} has no selector, so the EndpointSlice controller never lists these pods (manual Endpoints with hostnames would be needed).`;
  const missing = selectsPods(w, svc.selector) ? [] : unmatchedPairs(svc.selector, w.template.labels).map(([k, v]) => code(`${k}=${v}`));
  if (missing.length) return `Service ${code(name)} does not select these pods: the pod template lacks ${missing.join(', ')}.`;
  if (!svc.headless) return `Service ${code(name)} is not headless (it has a cluster IP); only CoreDNS answers per-pod names under it, outside the DNS specification. Set \`clusterIP: None\`.`;
  return undefined;
}

export function labelsHover(analysis: Analysis, w: Workload, key: string): string {
  const value = w.template.labels.get(key) ?? '';
  const out = [`**Pod label** ${code(`${key}=${value}`)} of ${w.kind} ${code(w.name)}`, ''];
  const services = analysis.cluster.servicesIn(w.namespace).filter((s) => s.selector && selectsPods(w, s.selector));
  if (services.length) {
    out.push('Services selecting these pods:');
    out.push(...bounded(services, 8, (s) => `- ${code(s.name)}${s.selector!.has(key) ? ` (uses ${code(key)})` : ''}`));
  } else out.push(`No Service in ${code(w.namespace)} selects these pods.`);
  const policies = analysis.policiesSelecting(w);
  out.push('');
  if (policies.length) {
    out.push('NetworkPolicies selecting these pods:');
    out.push(...bounded(policies, 8, (p) => `- ${code(p.name)} (isolates ${p.policyTypes.join(' and ').toLowerCase()})`));
  } else out.push('No NetworkPolicy selects these pods, so all traffic to and from them is allowed.');
  return out.join('\n');
}

export function containerPortHover(analysis: Analysis, w: Workload, c: Container, port: ContainerPort): string {
  const label = `${port.containerPort ?? '?'}/${port.protocol}${port.name ? ` (${port.name})` : ''}`;
  const out = [`**Container port** ${code(label)} of container ${code(c.name)}`, ''];
  const routes: string[] = [];
  for (const s of analysis.cluster.servicesIn(w.namespace)) {
    if (!s.selector) continue;
    const g = analysis.endpointsOf(s).groups.find((x) => x.workload === w);
    if (!g) continue;
    for (const t of g.ports) {
      if (t.declared === port || (t.container === c && t.containerPort === port.containerPort && t.servicePort.protocol === port.protocol)) {
        const sp = t.servicePort;
        routes.push(`- Service ${code(s.name)} port ${sp.port ?? '?'}/${sp.protocol}${sp.name ? ` (${code(sp.name)})` : ''} via targetPort ${code(String(sp.targetPort))}`);
      }
    }
  }
  if (routes.length) out.push('Service ports that route here:', ...routes);
  else out.push('No Service port routes here. Declaring a container port is informational; a Service reaches it only through a matching targetPort.');
  return out.join('\n');
}

/** semantics §2.2 P2: hostname + subdomain give `<hostname>.<subdomain>.<ns>.svc.<zone>` only through a selecting headless Service. */
export function hostnameHover(analysis: Analysis, w: Workload, field: 'hostname' | 'subdomain'): string {
  const t = w.template;
  const zone = analysis.config.clusterDomain;
  const out = [`**Pod ${field}** ${code((field === 'hostname' ? t.hostname : t.subdomain) ?? '')}`, ''];
  out.push(field === 'hostname'
    ? 'Sets the pod\'s host name. It becomes part of a DNS name only together with `subdomain`.'
    : 'Names the headless Service under which the pod gets a DNS name.');
  if (w.kind === 'StatefulSet') {
    out.push('', 'A StatefulSet overwrites both: each pod gets hostname `<name>-<ordinal>` and subdomain = `serviceName`.');
    return out.join('\n');
  }
  if (!t.hostname || !t.subdomain) {
    out.push('', `No DNS name: both \`hostname\` and \`subdomain\` must be set (kubelet still writes /etc/hosts, which is not DNS).`);
    return out.join('\n');
  }
  const name = `${t.hostname}.${t.subdomain}.${w.namespace}.svc.${zone}`;
  const svc = analysis.cluster.service(w.namespace, t.subdomain);
  let why: string | undefined;
  if (!svc) why = `no Service named ${code(t.subdomain)} exists in ${code(w.namespace)}`;
  else if (svc.type === 'ExternalName') why = `Service ${code(svc.name)} is an ExternalName alias`;
  else if (!svc.selector || !selectsPods(w, svc.selector)) why = `Service ${code(svc.name)} does not select this pod`;
  if (why) out.push('', `${code(name)} does not resolve: ${why}.`);
  else if (!svc!.headless) out.push('', `${code(name)} is answered by CoreDNS only (Service ${code(svc!.name)} is not headless), outside the DNS specification.`);
  else out.push('', `${code(name)} resolves to the pod IP while the pod is ready${svc!.publishNotReadyAddresses ? ' (or as soon as it has an IP: publishNotReadyAddresses)' : ''}.`);
  return out.join('\n');
}
