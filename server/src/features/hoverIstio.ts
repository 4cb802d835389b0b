// Hovers on Istio objects (istio-semantics §I1–§I3): a VirtualService destination (the Service its host lands on,
// its port, and the pods it reaches, per DestinationRule subset), and a DestinationRule subset (the pods it selects).

import type { Analysis } from '../analysis/analysis';
import { clusterHostView, destinationRulesFor, istioHostTarget, type IstioTarget } from '../analysis/istioHosts';
import type { DestinationRule, DestinationRuleSubset, IstioDestination, VirtualService } from '../model/istio';
import { selectsPods } from '../model/podLabels';
import type { Service, Workload } from '../model/resources';
import { portLabel } from './hoverService';
import { code, joined, lines, md, text, type Md, mdMessages, type MdMsg } from './markdown';

/** Workloads shown per subset; the rest are counted. */
const maxShown = 8;

export function istioDestinationHover(analysis: Analysis, vs: VirtualService, d: IstioDestination): Md {
  const msg = mdMessages(analysis.config.locale);
  const target = istioHostTarget(clusterHostView(analysis.cluster, analysis.config), analysis.config, d.host ?? '', vs.namespace);
  const head = msg(
    '**destination** {0}{1}{2} ({3})',
    code(d.host ?? '?'),
    d.subset ? msg(' subset {0}', code(d.subset)) : md``,
    d.port !== undefined ? msg(' port {0}', d.port) : md``,
    text(d.where),
  );
  const out: Md[] = [head, md``, msg('Istio reads the host as {0}.', code(target.fqdn || '?')), md``];
  const body = targetText(analysis, target);
  out.push(body);
  if (target.kind !== 'service') return lines(out);
  const service = target.service;
  const port = d.port !== undefined ? service.ports.find((p) => p.port === d.port) : service.ports.length === 1 ? service.ports[0] : undefined;
  if (port) out.push(msg('Port {0}.', code(portLabel(port))));
  else if (d.port !== undefined) out.push(msg('⚠ The Service has no port {0}.', d.port));
  else out.push(msg('No port written: the port the request came in on.'));
  const pods = analysis.endpointsOf(service).groups.map((g) => g.workload);
  const rules = destinationRulesFor(analysis.cluster, analysis.config, target.fqdn);
  out.push(md``);
  if (d.subset) {
    const found = findSubset(rules, d.subset);
    if (!found) out.push(msg('⚠ No DestinationRule in the workspace defines subset {0} for this host.', code(d.subset)));
    else out.push(subsetLine(msg, found.rule, found.subset, pods));
    return lines(out);
  }
  out.push(msg('Reaches every pod of the Service: {0}.', podList(msg, pods)));
  const subsets = rules.flatMap((rule) => rule.subsets.map((subset) => ({ rule, subset })));
  if (subsets.length) {
    out.push(md``, msg('Subsets of this host:'));
    for (const { rule, subset } of subsets.slice(0, maxShown)) out.push(md`- ${subsetLine(msg, rule, subset, pods)}`);
  }
  return lines(out);
}

export function istioSubsetHover(analysis: Analysis, rule: DestinationRule, subset: DestinationRuleSubset): Md {
  const msg = mdMessages(analysis.config.locale);
  const target = istioHostTarget(clusterHostView(analysis.cluster, analysis.config), analysis.config, rule.host ?? '', rule.namespace);
  const out: Md[] = [
    msg('**subset** {0} of DestinationRule {1}', code(subset.name ?? '?'), code(`${rule.namespace}/${rule.name}`)),
    md``,
    msg('Host {0}: {1}', code(target.fqdn || '?'), targetText(analysis, target)),
  ];
  if (target.kind === 'service') {
    out.push(
      md``,
      subsetLine(
        msg,
        rule,
        subset,
        analysis.endpointsOf(target.service).groups.map((g) => g.workload),
      ),
    );
  }
  return lines(out);
}

function targetText(analysis: Analysis, target: IstioTarget): Md {
  const msg = mdMessages(analysis.config.locale);
  switch (target.kind) {
    case 'service':
      return serviceLine(msg, target.service);
    case 'entry':
      return msg(
        'ServiceEntry {0}{1}.',
        code(`${target.entry.namespace}/${target.entry.name}`),
        target.entry.ports.length ? msg(' (ports {0})', text(target.entry.ports.join(', '))) : md``,
      );
    case 'missing':
      return msg('⚠ No Service {0} in namespace {1} and no ServiceEntry for it.', code(target.name), code(target.namespace));
    case 'unexpanded':
      return msg(
        '⚠ Istio expands only names without a dot: this host is not Service {0} (write {1}).',
        code(`${target.service.namespace}/${target.service.name}`),
        code(target.full),
      );
    case 'unknown':
      return analysis.cluster.namespaces.size
        ? msg('Not a Service of the workspace: a host outside the cluster domain, a wildcard, or a namespace the manifests do not describe.')
        : msg('Unknown.');
  }
}

function serviceLine(msg: MdMsg, s: Service): Md {
  return msg('→ Service {0}{1}.', code(`${s.namespace}/${s.name}`), s.type !== 'ClusterIP' ? md` (${text(s.type)})` : md``);
}

function findSubset(rules: readonly DestinationRule[], name: string): { rule: DestinationRule; subset: DestinationRuleSubset } | undefined {
  for (const rule of rules) for (const subset of rule.subsets) if (subset.name === name) return { rule, subset };
  return undefined;
}

function subsetLine(msg: MdMsg, rule: DestinationRule, subset: DestinationRuleSubset, pods: readonly Workload[]): Md {
  const labels = [...subset.labels].map(([k, v]) => `${k}=${v}`).join(', ');
  const selected = pods.filter((w) => selectsPods(w, subset.labels));
  const what = msg(
    'Subset {0} (DestinationRule {1}{2})',
    code(subset.name ?? '?'),
    code(rule.name),
    labels ? msg(', labels {0}', code(labels)) : msg(', every endpoint'),
  );
  if (!pods.length) return msg('{0}: the Service selects no pod template in the workspace.', what);
  return selected.length ? md`${what} → ${podList(msg, selected)}` : msg("{0}: ⚠ selects none of the Service's pods.", what);
}

function podList(msg: MdMsg, pods: readonly Workload[]): Md {
  if (!pods.length) return msg('no pod template in the workspace');
  const shown = pods
    .slice(0, maxShown)
    .map((w) => md`${text(w.kind)} ${code(w.name)}${w.replicas !== undefined ? md` ×${w.replicas}` : msg(' (one per node)')}`);
  if (pods.length > maxShown) shown.push(msg('and {0} more', pods.length - maxShown));
  return joined(shown, ', ');
}
