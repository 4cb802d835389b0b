// Pod spec fields that matter for networking and DNS, validated as the API server does (semantics §6.3), for Pods and every pod template.

import type { Workload } from '../../model/resources';
import { at, atPath, items, type YMap } from '../../model/yamlTree';
import { isIP } from '../ip';
import { dns1123LabelErrors, dns1123SubdomainErrors, portNameErrors, portNumberErrors } from './formats';
import { protocols } from './validateService';
import { invalid, keySpanOf, readBool, readInt, readMap, readSeq, readString, report, shown, type ValidationContext } from './violation';
import { treeOf } from '../../model/trees';
import { phrase } from '../../l10n/l10n';

const dnsPolicies = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'];
const maxNameservers = 3;
const maxSearchPaths = 32;
const maxSearchChars = 2048;

/** The path of the pod spec inside each kind of object. */
export function podSpecPath(kind: string): string[] {
  if (kind === 'Pod') return ['spec'];
  if (kind === 'CronJob') return ['spec', 'jobTemplate', 'spec', 'template', 'spec'];
  return ['spec', 'template', 'spec'];
}

export function validatePodSpec(ctx: ValidationContext, w: Workload): void {
  const segments = podSpecPath(w.kind);
  const prefix = segments.join('.');
  const spec = readMap(ctx, atPath(treeOf(w), segments), prefix);
  if (!spec) return;
  for (const field of ['hostname', 'subdomain'] as const) {
    const n = at(spec, field);
    const v = readString(ctx, n, `${prefix}.${field}`);
    if (v)
      invalid(
        ctx,
        `${prefix}.${field}`,
        n!.span,
        v,
        dns1123LabelErrors(v),
        field === 'subdomain'
          ? phrase('the subdomain must be the name of a headless Service, a single DNS label')
          : phrase("the hostname is the first label of the pod's DNS name"),
      );
  }
  readBool(ctx, at(spec, 'hostNetwork'), `${prefix}.hostNetwork`);
  readBool(ctx, at(spec, 'setHostnameAsFQDN'), `${prefix}.setHostnameAsFQDN`);
  for (const list of ['containers', 'initContainers'] as const) {
    items(readSeq(ctx, at(spec, list), `${prefix}.${list}`)).forEach((c, i) => {
      const cm = readMap(ctx, c, `${prefix}.${list}[${i}]`);
      if (cm) validateContainerPorts(ctx, cm, `${prefix}.${list}[${i}]`);
    });
  }
  validateDns(ctx, spec, prefix);
}

/** Port names are IANA service names, unique within one container (not across containers: semantics §5.3). */
function validateContainerPorts(ctx: ValidationContext, c: YMap, path: string): void {
  const seen = new Map<string, number>();
  items(readSeq(ctx, at(c, 'ports'), `${path}.ports`)).forEach((p, i) => {
    const pp = `${path}.ports[${i}]`;
    const m = readMap(ctx, p, pp);
    if (!m) return;
    const nameNode = at(m, 'name');
    const name = readString(ctx, nameNode, `${pp}.name`);
    if (name) {
      invalid(
        ctx,
        `${pp}.name`,
        nameNode!.span,
        name,
        portNameErrors(name),
        phrase(
          "a container port name is what a Service's targetPort refers to: at most 15 lower-case letters, digits and single hyphens, with at least one letter",
        ),
      );
      const prev = seen.get(name);
      if (prev !== undefined)
        report(
          ctx,
          `${pp}.name`,
          nameNode!.span,
          `Duplicate value: ${shown(name)}`,
          phrase('{0}.ports[{1}] already uses this name in the same container', path, prev),
        );
      else seen.set(name, i);
    }
    const cpNode = at(m, 'containerPort');
    const cp = readInt(ctx, cpNode, `${pp}.containerPort`);
    if (cpNode === undefined) report(ctx, `${pp}.containerPort`, m.span, 'Required value', phrase('every declared container port needs its number'));
    else if (cp !== undefined) invalid(ctx, `${pp}.containerPort`, cpNode.span, cp, portNumberErrors(cp));
    const hpNode = at(m, 'hostPort');
    const hp = readInt(ctx, hpNode, `${pp}.hostPort`);
    if (hp !== undefined && hp !== 0) invalid(ctx, `${pp}.hostPort`, hpNode!.span, hp, portNumberErrors(hp));
    const protoNode = at(m, 'protocol');
    const proto = readString(ctx, protoNode, `${pp}.protocol`);
    if (proto !== undefined && !protocols.includes(proto)) {
      const match = protocols.find((s) => s.toLowerCase() === proto.toLowerCase());
      report(
        ctx,
        `${pp}.protocol`,
        protoNode!.span,
        `Unsupported value: ${shown(proto)}: supported values: ${protocols.map((s) => shown(s)).join(', ')}`,
        match ? phrase('values are case-sensitive; write {0}', match) : undefined,
      );
    }
  });
}

/** dnsPolicy values and the dnsConfig limits (semantics §6.3, §3.1). */
function validateDns(ctx: ValidationContext, spec: YMap, prefix: string): void {
  const policyNode = at(spec, 'dnsPolicy');
  const policy = readString(ctx, policyNode, `${prefix}.dnsPolicy`);
  if (policy !== undefined && policy !== '' && !dnsPolicies.includes(policy)) {
    const match = dnsPolicies.find((s) => s.toLowerCase() === policy.toLowerCase());
    report(
      ctx,
      `${prefix}.dnsPolicy`,
      policyNode!.span,
      `Unsupported value: ${shown(policy)}: supported values: ${dnsPolicies.map((s) => shown(s)).join(', ')}`,
      match ? phrase('values are case-sensitive; write {0}', match) : undefined,
    );
  }
  const configNode = at(spec, 'dnsConfig');
  const config = readMap(ctx, configNode, `${prefix}.dnsConfig`);
  const nsNode = readSeq(ctx, at(config, 'nameservers'), `${prefix}.dnsConfig.nameservers`);
  const nameservers = items(nsNode);
  if (policy === 'None') {
    if (!config) {
      report(
        ctx,
        `${prefix}.dnsConfig`,
        policyNode!.span,
        'Required value: must provide `dnsConfig` when `dnsPolicy` is None',
        phrase('with dnsPolicy None the pod gets no resolver at all unless dnsConfig lists one'),
      );
    } else if (!nameservers.length) {
      report(
        ctx,
        `${prefix}.dnsConfig.nameservers`,
        keySpanOf(config, 'nameservers') ?? keySpanOf(spec, 'dnsConfig')!,
        'Required value: must provide at least one DNS nameserver when `dnsPolicy` is None',
        phrase('with dnsPolicy None, dnsConfig.nameservers is the only resolver the pod has'),
      );
    }
  }
  if (nameservers.length > maxNameservers) {
    invalid(ctx, `${prefix}.dnsConfig.nameservers`, nsNode!.span, nameservers.length, [`must not have more than ${maxNameservers} nameservers`]);
  }
  nameservers.forEach((n, i) => {
    const v = readString(ctx, n, `${prefix}.dnsConfig.nameservers[${i}]`);
    if (v !== undefined && !isIP(v))
      invalid(ctx, `${prefix}.dnsConfig.nameservers[${i}]`, n.span, v, ['must be valid IP address'], phrase('nameservers are IP addresses, not host names'));
  });
  const searchNode = readSeq(ctx, at(config, 'searches'), `${prefix}.dnsConfig.searches`);
  const searches = items(searchNode).map((n, i) => ({ n, i, v: readString(ctx, n, `${prefix}.dnsConfig.searches[${i}]`) }));
  if (searches.length > maxSearchPaths)
    invalid(ctx, `${prefix}.dnsConfig.searches`, searchNode!.span, searches.length, [`must not have more than ${maxSearchPaths} search paths`]);
  const chars = searches.reduce((sum, s) => sum + (s.v?.length ?? 0), 0) + Math.max(0, searches.length - 1);
  if (chars > maxSearchChars)
    invalid(ctx, `${prefix}.dnsConfig.searches`, searchNode!.span, chars, [
      `must not have more than ${maxSearchChars} characters (including spaces) in the search list`,
    ]);
  for (const { n, i, v } of searches) {
    if (v === undefined || v === '.') continue;
    // RelaxedDNSSearchValidation (KEP-4427) also accepts '_' in search domains; checked leniently so as not to reject what newer clusters accept.
    const domain = (v.endsWith('.') ? v.slice(0, -1) : v).replace(/_/g, 'a');
    invalid(ctx, `${prefix}.dnsConfig.searches[${i}]`, n.span, v, dns1123SubdomainErrors(domain));
  }
}
