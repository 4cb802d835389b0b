// Hovers on Istio objects (istio-semantics §I1–§I3): a VirtualService destination (the Service its host lands on,
// its port, and the pods it reaches, per DestinationRule subset), and a DestinationRule subset (the pods it selects).

import type { Analysis } from '../analysis/analysis';
import { clusterHostView, destinationRulesFor, istioHostTarget, type IstioTarget } from '../analysis/istioHosts';
import type { DestinationRule, DestinationRuleSubset, IstioDestination, VirtualService } from '../model/istio';
import { selectsPods } from '../model/podLabels';
import type { Service, Workload } from '../model/resources';
import { portLabel } from './hoverService';
import { code, joined, lines, md, text, type Md } from './markdown';

/** Workloads shown per subset; the rest are counted. */
const maxShown = 8;

export function istioDestinationHover(analysis: Analysis, vs: VirtualService, d: IstioDestination): Md {
  const target = istioHostTarget(clusterHostView(analysis.cluster, analysis.config), analysis.config, d.host ?? '', vs.namespace);
  const head = md`**destination** ${code(d.host ?? '?')}${d.subset ? md` subset ${code(d.subset)}` : md``}${d.port !== undefined ? md` port ${d.port}` : md``} (${text(d.where)})`;
  const out: Md[] = [head, md``, md`Istio reads the host as ${code(target.fqdn || '?')}.`, md``];
  const body = targetText(analysis, target);
  out.push(body);
  if (target.kind !== 'service') return lines(out);
  const service = target.service;
  const port = d.port !== undefined ? service.ports.find((p) => p.port === d.port) : service.ports.length === 1 ? service.ports[0] : undefined;
  if (port) out.push(md`Port ${code(portLabel(port))}.`);
  else if (d.port !== undefined) out.push(md`⚠ The Service has no port ${d.port}.`);
  else out.push(md`No port written: the port the request came in on.`);
  const pods = analysis.endpointsOf(service).groups.map((g) => g.workload);
  const rules = destinationRulesFor(analysis.cluster, analysis.config, target.fqdn);
  out.push(md``);
  if (d.subset) {
    const found = findSubset(rules, d.subset);
    if (!found) out.push(md`⚠ No DestinationRule in the workspace defines subset ${code(d.subset)} for this host.`);
    else out.push(subsetLine(found.rule, found.subset, pods));
    return lines(out);
  }
  out.push(md`Reaches every pod of the Service: ${podList(pods)}.`);
  const subsets = rules.flatMap((rule) => rule.subsets.map((subset) => ({ rule, subset })));
  if (subsets.length) {
    out.push(md``, md`Subsets of this host:`);
    for (const { rule, subset } of subsets.slice(0, maxShown)) out.push(md`- ${subsetLine(rule, subset, pods)}`);
  }
  return lines(out);
}

export function istioSubsetHover(analysis: Analysis, rule: DestinationRule, subset: DestinationRuleSubset): Md {
  const target = istioHostTarget(clusterHostView(analysis.cluster, analysis.config), analysis.config, rule.host ?? '', rule.namespace);
  const out: Md[] = [md`**subset** ${code(subset.name ?? '?')} of DestinationRule ${code(`${rule.namespace}/${rule.name}`)}`, md``, md`Host ${code(target.fqdn || '?')}: ${targetText(analysis, target)}`];
  if (target.kind === 'service') {
    out.push(md``, subsetLine(rule, subset, analysis.endpointsOf(target.service).groups.map((g) => g.workload)));
  }
  return lines(out);
}

function targetText(analysis: Analysis, target: IstioTarget): Md {
  switch (target.kind) {
    case 'service':
      return serviceLine(target.service);
    case 'entry':
      return md`ServiceEntry ${code(`${target.entry.namespace}/${target.entry.name}`)}${target.entry.ports.length ? md` (ports ${text(target.entry.ports.join(', '))})` : md``}.`;
    case 'missing':
      return md`⚠ No Service ${code(target.name)} in namespace ${code(target.namespace)} and no ServiceEntry for it.`;
    case 'unexpanded':
      return md`⚠ Istio expands only names without a dot: this host is not Service ${code(`${target.service.namespace}/${target.service.name}`)} (write ${code(target.full)}).`;
    case 'unknown':
      return analysis.cluster.namespaces.size ? md`Not a Service of the workspace: a host outside the cluster domain, a wildcard, or a namespace the manifests do not describe.` : md`Unknown.`;
  }
}

function serviceLine(s: Service): Md {
  return md`→ Service ${code(`${s.namespace}/${s.name}`)}${s.type !== 'ClusterIP' ? md` (${text(s.type)})` : md``}.`;
}

function findSubset(rules: readonly DestinationRule[], name: string): { rule: DestinationRule; subset: DestinationRuleSubset } | undefined {
  for (const rule of rules) for (const subset of rule.subsets) if (subset.name === name) return { rule, subset };
  return undefined;
}

function subsetLine(rule: DestinationRule, subset: DestinationRuleSubset, pods: readonly Workload[]): Md {
  const labels = [...subset.labels].map(([k, v]) => `${k}=${v}`).join(', ');
  const selected = pods.filter((w) => selectsPods(w, subset.labels));
  const what = md`Subset ${code(subset.name ?? '?')} (DestinationRule ${code(rule.name)}${labels ? md`, labels ${code(labels)}` : md`, every endpoint`})`;
  if (!pods.length) return md`${what}: the Service selects no pod template in the workspace.`;
  return selected.length ? md`${what} → ${podList(selected)}` : md`${what}: ⚠ selects none of the Service's pods.`;
}

function podList(pods: readonly Workload[]): Md {
  if (!pods.length) return md`no pod template in the workspace`;
  const shown = pods.slice(0, maxShown).map((w) => md`${text(w.kind)} ${code(w.name)}${w.replicas !== undefined ? md` ×${w.replicas}` : md` (one per node)`}`);
  if (pods.length > maxShown) shown.push(md`and ${pods.length - maxShown} more`);
  return joined(shown, ', ');
}
