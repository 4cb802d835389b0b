// Hovers inside a workload: StatefulSet serviceName, pod template labels, container ports, hostname/subdomain.

import type { Analysis } from '../analysis/analysis';
import { selectsPods } from '../model/podLabels';
import type { Container, ContainerPort, Service, Workload } from '../model/resources';
import { unmatchedPairs } from '../model/selector';
import { recordLine } from './hoverService';
import { bounded, code, joined, lines, md, text, type Md, mdMessages } from './markdown';

/** semantics §2.3: md`<sts>-<i>.<serviceName>.<ns>.svc.<zone>` resolves only under all four conditions. */
export function serviceNameHover(analysis: Analysis, w: Workload, diagnosed = false): Md {
  const msg = mdMessages(analysis.config.locale);
  const name = w.serviceName ?? '';
  const out: Md[] = [msg('**StatefulSet serviceName** {0}: the governing Service that gives each pod a stable DNS name', code(name)), md``];
  const svc = analysis.cluster.service(w.namespace, name);
  const why = whyNoPodNames(analysis, w, svc);
  if (why) {
    // With a diagnostic here, the editor already shows why (and the likely fix) right above this hover.
    out.push(diagnosed ? msg('No per-pod DNS names for its pods.') : msg('No per-pod DNS names: {0}', why));
    return lines(out);
  }
  const suffix = `.${name}.${w.namespace}.svc.${analysis.config.clusterDomain}`;
  const records = analysis.dnsRecordsFor(w).filter((r) => r.name.endsWith(suffix));
  out.push(msg('Per-pod names:'));
  out.push(...bounded(msg, records, 6, (r) => recordLine(msg, r)));
  if ((w.podManagementPolicy ?? 'OrderedReady') === 'OrderedReady' && (w.replicas ?? 1) > 1) {
    out.push(
      md``,
      msg('With `podManagementPolicy: OrderedReady` (the default) a pod is created only after the previous one is ready, so later names appear one by one.'),
    );
  }
  return lines(out);
}

export function whyNoPodNames(analysis: Analysis, w: Workload, svc: Service | undefined): Md | undefined {
  const msg = mdMessages(analysis.config.locale);
  const name = w.serviceName ?? '';
  const ns = w.namespace;
  if (!name) return msg('serviceName is empty, so the pods get no subdomain.');
  if (!svc) {
    const headless = analysis.cluster
      .servicesIn(ns)
      .filter((s) => s.headless)
      .map((s) => code(s.name));
    const hint = headless.length
      ? msg(' Headless Services in {0}: {1}.', code(ns), joined(headless.slice(0, 5), ', '))
      : msg(' There is no headless Service in {0}.', code(ns));
    return msg(
      'no Service named {0} exists in namespace {1}; Kubernetes does not check this field, so names like {2} silently never resolve.{3}',
      code(name),
      code(ns),
      code(`${w.name}-${w.ordinalsStart}.${name}.${ns}.svc.${analysis.config.clusterDomain}`),
      hint,
    );
  }
  if (svc.type === 'ExternalName') return msg('Service {0} is an ExternalName alias, which has no endpoints.', code(name));
  if (!svc.selector)
    return msg(
      'Service {0} has no selector, so the EndpointSlice controller never lists these pods (manual Endpoints with hostnames would be needed).',
      code(name),
    );
  const missing = selectsPods(w, svc.selector) ? [] : unmatchedPairs(svc.selector, w.template.labels).map(([k, v]) => code(`${k}=${v}`));
  if (missing.length) return msg('Service {0} does not select these pods: the pod template lacks {1}.', code(name), joined(missing, ', '));
  if (!svc.headless)
    return msg(
      'Service {0} is not headless (it has a cluster IP); only CoreDNS answers per-pod names under it, outside the DNS specification. Set `clusterIP: None`.',
      code(name),
    );
  return undefined;
}

export function labelsHover(analysis: Analysis, w: Workload, key: string): Md {
  const msg = mdMessages(analysis.config.locale);
  const value = w.template.labels.get(key) ?? '';
  const out: Md[] = [msg('**Pod label** {0} of {1} {2}', code(`${key}=${value}`), text(w.kind), code(w.name)), md``];
  const services = analysis.cluster.servicesIn(w.namespace).filter((s) => s.selector && selectsPods(w, s.selector));
  if (services.length) {
    out.push(msg('Services selecting these pods:'));
    out.push(...bounded(msg, services, 8, (s) => md`- ${code(s.name)}${s.selector!.has(key) ? msg(' (uses {0})', code(key)) : md``}`));
  } else out.push(msg('No Service in {0} selects these pods.', code(w.namespace)));
  const policies = analysis.policiesSelecting(w);
  out.push(md``);
  if (policies.length) {
    out.push(msg('NetworkPolicies selecting these pods:'));
    out.push(...bounded(msg, policies, 8, (p) => msg('- {0} (isolates {1})', code(p.name), text(p.policyTypes.join(' and ').toLowerCase()))));
  } else out.push(msg('No NetworkPolicy selects these pods, so all traffic to and from them is allowed.'));
  return lines(out);
}

export function containerPortHover(analysis: Analysis, w: Workload, c: Container, port: ContainerPort): Md {
  const msg = mdMessages(analysis.config.locale);
  const label = `${port.containerPort ?? '?'}/${port.protocol}${port.name ? ` (${port.name})` : ''}`;
  const out: Md[] = [msg('**Container port** {0} of container {1}', code(label), code(c.name)), md``];
  const routes: Md[] = [];
  for (const s of analysis.cluster.servicesIn(w.namespace)) {
    if (!s.selector) continue;
    const g = analysis.endpointsOf(s).groups.find((x) => x.workload === w);
    if (!g) continue;
    for (const t of g.ports) {
      if (t.declared === port || (t.container === c && t.containerPort === port.containerPort && t.servicePort.protocol === port.protocol)) {
        const sp = t.servicePort;
        routes.push(
          msg(
            '- Service {0} port {1}{2} via targetPort {3}',
            code(s.name),
            code(`${sp.port ?? '?'}/${sp.protocol}`),
            sp.name ? md` (${code(sp.name)})` : md``,
            code(String(sp.targetPort)),
          ),
        );
      }
    }
  }
  if (routes.length) out.push(msg('Service ports that route here:'), ...routes);
  else out.push(msg('No Service port routes here. Declaring a container port is informational; a Service reaches it only through a matching targetPort.'));
  return lines(out);
}

/** semantics §2.2 P2: hostname + subdomain give `<hostname>.<subdomain>.<ns>.svc.<zone>` only through a selecting headless Service. */
export function hostnameHover(analysis: Analysis, w: Workload, field: 'hostname' | 'subdomain'): Md {
  const msg = mdMessages(analysis.config.locale);
  const t = w.template;
  const zone = analysis.config.clusterDomain;
  const out: Md[] = [msg('**Pod {0}** {1}', text(field), code((field === 'hostname' ? t.hostname : t.subdomain) ?? '')), md``];
  out.push(
    field === 'hostname'
      ? msg("Sets the pod's host name. It becomes part of a DNS name only together with `subdomain`.")
      : msg('Names the headless Service under which the pod gets a DNS name.'),
  );
  if (w.kind === 'StatefulSet') {
    out.push(md``, msg('A StatefulSet overwrites both: each pod gets hostname `<name>-<ordinal>` and subdomain = `serviceName`.'));
    return lines(out);
  }
  if (!t.hostname || !t.subdomain) {
    out.push(md``, msg('No DNS name: both `hostname` and `subdomain` must be set (kubelet still writes /etc/hosts, which is not DNS).'));
    return lines(out);
  }
  const name = `${t.hostname}.${t.subdomain}.${w.namespace}.svc.${zone}`;
  const svc = analysis.cluster.service(w.namespace, t.subdomain);
  let why: Md | undefined;
  if (!svc) why = msg('no Service named {0} exists in {1}', code(t.subdomain), code(w.namespace));
  else if (svc.type === 'ExternalName') why = msg('Service {0} is an ExternalName alias', code(svc.name));
  else if (!svc.selector || !selectsPods(w, svc.selector)) why = msg('Service {0} does not select this pod', code(svc.name));
  if (why) out.push(md``, msg('{0} does not resolve: {1}.', code(name), why));
  else if (!svc!.headless)
    out.push(md``, msg('{0} is answered by CoreDNS only (Service {1} is not headless), outside the DNS specification.', code(name), code(svc!.name)));
  else
    out.push(
      md``,
      msg(
        '{0} resolves to the pod IP while the pod is ready{1}.',
        code(name),
        svc!.publishNotReadyAddresses ? msg(' (or as soon as it has an IP: publishNotReadyAddresses)') : md``,
      ),
    );
  return lines(out);
}
