// Service validation as the API server does it (semantics §6.1, §5.6): type, cluster IPs, ExternalName, ports, node ports, selector.

import type { Service } from '../../model/resources';
import { at, items, type YMap, type YNode } from '../../model/yamlTree';
import type { Fix } from '../../model/edit';
import { isIP, isIPv4 } from '../ip';
import {
  dns1123LabelErrors,
  dns1123SubdomainErrors,
  labelValueErrors,
  portNameErrors,
  portNumberErrors,
  qualifiedNameErrors,
  specialIPReason,
} from './formats';
import { invalid, keySpanOf, readInt, readMap, readSeq, readString, readStringMap, report, shown, written, type ValidationContext } from './violation';
import { treeOf } from '../../model/trees';
import { messages, phrase, type Phrase } from '../../l10n/l10n';

const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
export const protocols = ['SCTP', 'TCP', 'UDP'];
/** The kubelet's port; a LoadBalancer may not expose it (VAL validateServicePort). */
const kubeletPort = 10250;

export function validateService(ctx: ValidationContext, svc: Service): void {
  const spec = readMap(ctx, at(treeOf(svc), 'spec'), 'spec');
  // A missing field is reported on the Service's name: the `spec:` key sits in column 0, where a squiggle is easy to miss.
  const specSpan = svc.nameSpan;
  const typeNode = at(spec, 'type');
  const declaredType = readString(ctx, typeNode, 'spec.type');
  if (declaredType !== undefined && !serviceTypes.includes(declaredType)) {
    report(
      ctx,
      'spec.type',
      typeNode!.span,
      `Unsupported value: ${shown(declaredType)}: supported values: ${serviceTypes.map((t) => shown(t)).join(', ')}`,
      caseHint(declaredType, serviceTypes),
    );
  }
  const type = declaredType ?? 'ClusterIP';
  const headless = validateClusterIPs(ctx, spec, type);
  if (type === 'ExternalName') validateExternalName(ctx, spec, typeNode?.span ?? specSpan);
  validatePorts(ctx, spec, type, headless, specSpan);

  for (const [key, { value, node, keySpan }] of readStringMap(ctx, at(spec, 'selector'), 'spec.selector')) {
    invalid(ctx, 'spec.selector', keySpan, key, qualifiedNameErrors(key));
    invalid(ctx, `spec.selector[${key}]`, node.span, value, labelValueErrors(value));
  }
  const externalIPs = items(readSeq(ctx, at(spec, 'externalIPs'), 'spec.externalIPs'));
  externalIPs.forEach((n, i) => {
    const ip = readString(ctx, n, `spec.externalIPs[${i}]`);
    if (ip === undefined) return;
    if (!isIP(ip)) invalid(ctx, `spec.externalIPs[${i}]`, n.span, ip, ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
    else
      invalid(
        ctx,
        `spec.externalIPs[${i}]`,
        n.span,
        ip,
        [specialIPReason(ip)].filter((s): s is string => !!s),
      );
  });
  const etpNode = at(spec, 'externalTrafficPolicy');
  const etp = readString(ctx, etpNode, 'spec.externalTrafficPolicy');
  if (etp !== undefined && etp !== '') {
    if (etp !== 'Cluster' && etp !== 'Local') unsupported(ctx, 'spec.externalTrafficPolicy', etpNode!, etp, ['Cluster', 'Local']);
    else if (type !== 'NodePort' && type !== 'LoadBalancer' && !externalIPs.length) {
      invalid(
        ctx,
        'spec.externalTrafficPolicy',
        etpNode!.span,
        etp,
        ['may only be set for externally-accessible services'],
        phrase('it only applies to traffic arriving from outside the cluster (NodePort, LoadBalancer or externalIPs); this Service is {0}', type),
      );
    }
  }
  for (const [field, values] of [
    ['internalTrafficPolicy', ['Cluster', 'Local']],
    ['sessionAffinity', ['ClientIP', 'None']],
    ['ipFamilyPolicy', ['PreferDualStack', 'RequireDualStack', 'SingleStack']],
  ] as const) {
    const n = at(spec, field);
    const v = readString(ctx, n, `spec.${field}`);
    if (v !== undefined && v !== '' && !(values as readonly string[]).includes(v)) unsupported(ctx, `spec.${field}`, n!, v, values);
  }
  items(readSeq(ctx, at(spec, 'ipFamilies'), 'spec.ipFamilies')).forEach((n, i) => {
    const v = readString(ctx, n, `spec.ipFamilies[${i}]`);
    if (v !== undefined && v !== 'IPv4' && v !== 'IPv6') unsupported(ctx, `spec.ipFamilies[${i}]`, n, v, ['IPv4', 'IPv6']);
  });
  validateIpFamilies(ctx, spec, type);
  const pnra = at(spec, 'publishNotReadyAddresses');
  if (pnra && !(pnra.type === 'scalar' && (typeof pnra.value === 'boolean' || pnra.value === null))) {
    report(
      ctx,
      'spec.publishNotReadyAddresses',
      pnra.span,
      'Invalid type',
      phrase('must be true or false, but {0} is not; the API server cannot decode the object', written(ctx, pnra)),
    );
  }
}

/**
 * Dual-stack fields (semantics §6.1; the API server's validateServiceIPFamily): at most one entry per family in
 * ipFamilies, at most two, and a SingleStack policy with two families or two cluster IPs. RequireDualStack with one
 * family is not rejected by validation: a dual-stack cluster adds the other family, a single-stack cluster refuses
 * the policy, and which one the cluster is the manifests do not say (semantics §9).
 */
function validateIpFamilies(ctx: ValidationContext, spec: YMap | undefined, type: string): void {
  if (type === 'ExternalName') return;
  const listNode = at(spec, 'ipFamilies');
  const families = items(listNode).map((n) => ({ n, v: n.type === 'scalar' && typeof n.value === 'string' ? n.value : undefined }));
  const seen = new Set<string>();
  families.forEach(({ n, v }, i) => {
    if (v === undefined) return;
    if (seen.has(v))
      report(ctx, `spec.ipFamilies[${i}]`, n.span, `Duplicate value: ${shown(v)}`, phrase('a Service has at most one address of each IP family'));
    seen.add(v);
  });
  if (families.length > 2 && listNode)
    invalid(ctx, 'spec.ipFamilies', listNode.span, families.map((f) => f.v ?? '').join(','), ['may not have more than 2 values']);
  const policyNode = at(spec, 'ipFamilyPolicy');
  if (!policyNode || policyNode.type !== 'scalar' || policyNode.value !== 'SingleStack') return;
  const ips = items(at(spec, 'clusterIPs')).filter((n) => n.type === 'scalar' && typeof n.value === 'string' && n.value !== '' && n.value !== 'None');
  if (families.length > 1) {
    invalid(
      ctx,
      'spec.ipFamilyPolicy',
      policyNode.span,
      'SingleStack',
      ["must be 'RequireDualStack' or 'PreferDualStack' when multiple 'ipFamilies' are specified"],
      phrase('a SingleStack Service gets one address of one family; remove the second ipFamilies entry, or use PreferDualStack'),
    );
  } else if (ips.length > 1) {
    invalid(
      ctx,
      'spec.ipFamilyPolicy',
      policyNode.span,
      'SingleStack',
      ["must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"],
      phrase('a SingleStack Service gets one cluster IP; remove the second clusterIPs entry, or use PreferDualStack'),
    );
  }
}

/** semantics §6.1 clusterIP/clusterIPs rows; returns whether the Service is headless. */
function validateClusterIPs(ctx: ValidationContext, spec: YMap | undefined, type: string): boolean {
  const ipNode = at(spec, 'clusterIP');
  const ip = readString(ctx, ipNode, 'spec.clusterIP');
  const listNode = readSeq(ctx, at(spec, 'clusterIPs'), 'spec.clusterIPs');
  const list = items(listNode).map((n, i) => ({ n, v: readString(ctx, n, `spec.clusterIPs[${i}]`) }));
  // Defaulting copies clusterIP into clusterIPs[0] when only one is given.
  const effective: { v: string; n: YNode; path: string }[] = list.length
    ? list.flatMap(({ n, v }, i) => (v === undefined ? [] : [{ v, n, path: `spec.clusterIPs[${i}]` }]))
    : ip
      ? [{ v: ip, n: ipNode!, path: 'spec.clusterIP' }]
      : [];
  if (ip && list.length && list[0].v && list[0].v !== ip) {
    invalid(ctx, 'spec.clusterIPs[0]', list[0].n.span, list[0].v, ['must match `clusterIP` when both are specified'], phrase('clusterIP is {0}', shown(ip)));
  }
  if (list.length > 2) invalid(ctx, 'spec.clusterIPs', listNode!.span, list.map((x) => x.v ?? '').join(','), ['may only hold up to 2 values']);
  const first = effective[0]?.v;
  const headless = first === 'None';
  effective.forEach(({ v, n, path }, i) => {
    if (v === 'None') {
      if (i > 0 || effective.length > 1) invalid(ctx, path, n.span, v, ["'None' must be the first and only value"]);
      return;
    }
    if (v !== '' && !isIP(v))
      invalid(
        ctx,
        path,
        n.span,
        v,
        ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
        v === 'none' ? phrase('a headless Service is written with a capital N: clusterIP: None') : undefined,
      );
  });
  if (effective.length === 2 && isIP(effective[0].v) && isIP(effective[1].v) && isIPv4(effective[0].v) === isIPv4(effective[1].v)) {
    invalid(ctx, effective[1].path, effective[1].n.span, effective[1].v, ['may specify no more than one IP for each IP family']);
  }
  if (type === 'ExternalName') {
    if (effective.some((e) => e.v !== ''))
      report(
        ctx,
        effective[0].path === 'spec.clusterIP' ? 'spec.clusterIP' : 'spec.clusterIPs',
        effective[0].n.span,
        'Forbidden: may not be set for ExternalName services',
        phrase('an ExternalName Service is only a DNS alias (CNAME) and never gets a cluster IP; remove the field'),
      );
    for (const field of ['ipFamilies', 'ipFamilyPolicy'] as const) {
      const n = at(spec, field);
      if (n && !(n.type === 'scalar' && n.value === null) && !(n.type === 'seq' && !n.items.length))
        report(
          ctx,
          `spec.${field}`,
          keySpanOf(spec, field)!,
          'Forbidden: may not be set for ExternalName services',
          phrase('an ExternalName Service has no IP addresses, so it has no IP families'),
        );
    }
  } else if (headless && (type === 'NodePort' || type === 'LoadBalancer')) {
    invalid(
      ctx,
      effective[0].path === 'spec.clusterIP' ? 'spec.clusterIPs[0]' : effective[0].path,
      effective[0].n.span,
      'None',
      [`may not be set to 'None' for ${type} services`],
      phrase('a {0} Service forwards node traffic to its cluster IP, so it cannot be headless', type),
    );
  }
  return headless;
}

/** semantics §6.1 ExternalName row: required, one trailing dot stripped, then a DNS-1123 subdomain; IP-shaped values pass. */
function validateExternalName(ctx: ValidationContext, spec: YMap | undefined, fallback: { start: number; end: number }): void {
  const n = at(spec, 'externalName');
  const v = readString(ctx, n, 'spec.externalName');
  if (v === undefined || v === '') {
    if (n === undefined || (n.type === 'scalar' && (n.value === null || n.value === '')))
      report(
        ctx,
        'spec.externalName',
        n?.span ?? fallback,
        'Required value',
        phrase('an ExternalName Service is a DNS alias, so it needs the host name it points to'),
      );
    return;
  }
  const host = v.endsWith('.') ? v.slice(0, -1) : v;
  invalid(ctx, 'spec.externalName', n!.span, v, dns1123SubdomainErrors(host), phrase('it must be a lower-case DNS name such as db.example.com'));
}

function validatePorts(ctx: ValidationContext, spec: YMap | undefined, type: string, headless: boolean, specSpan: { start: number; end: number }): void {
  const portsNode = readSeq(ctx, at(spec, 'ports'), 'spec.ports');
  const list = items(portsNode);
  const raw = at(spec, 'ports');
  const wrongType = raw !== undefined && raw.type !== 'seq' && !(raw.type === 'scalar' && raw.value === null);
  if (!list.length && !wrongType && !headless && type !== 'ExternalName') {
    report(
      ctx,
      'spec.ports',
      keySpanOf(spec, 'ports') ?? specSpan,
      'Required value',
      phrase('a Service with a cluster IP needs at least one port; only headless (clusterIP: None) and ExternalName Services may omit ports'),
    );
  }
  const parsed = list.map((n, i) => {
    const path = `spec.ports[${i}]`;
    const m = readMap(ctx, n, path);
    return {
      i,
      n,
      m,
      path,
      name: m && readString(ctx, at(m, 'name'), `${path}.name`),
      port: m && readInt(ctx, at(m, 'port'), `${path}.port`),
      protocol: (m && readString(ctx, at(m, 'protocol'), `${path}.protocol`)) || 'TCP',
      nodePort: m && readInt(ctx, at(m, 'nodePort'), `${path}.nodePort`),
    };
  });
  const usedNames = new Set(parsed.map((p) => p.name).filter((s): s is string => !!s));
  const unnamed = parsed.filter((p) => p.m && !p.name);
  const generated = new Map<number, string>();
  for (const p of unnamed) {
    const name = suggestPortName(p.port, p.protocol, p.i, usedNames);
    usedNames.add(name);
    generated.set(p.i, name);
  }
  const msg = messages(ctx.config.locale);
  const nameAll: Fix | undefined =
    unnamed.length > 1
      ? { title: msg('Name all {0} unnamed ports', unnamed.length), edits: unnamed.map((p) => insertPortName(ctx, p.m!, generated.get(p.i)!)) }
      : undefined;
  const seenNames = new Map<string, number>();
  const seenPorts = new Map<string, number>();
  const seenNodePorts = new Map<string, number>();
  for (const p of parsed) {
    if (!p.m) continue;
    const { m, path } = p;
    if (list.length > 1 && !p.name) {
      const name = generated.get(p.i)!;
      const own: Fix = { title: msg('Name this port "{0}"', name), edits: [insertPortName(ctx, m, name)], isPreferred: true };
      report(
        ctx,
        `${path}.name`,
        portSpanFor(m),
        'Required value',
        phrase('a Service with more than one port must name every port'),
        nameAll ? [own, nameAll] : [own],
      );
    }
    if (p.name) {
      const nameNode = at(m, 'name')!;
      invalid(ctx, `${path}.name`, nameNode.span, p.name, dns1123LabelErrors(p.name));
      const prev = seenNames.get(p.name);
      if (prev !== undefined)
        report(ctx, `${path}.name`, nameNode.span, `Duplicate value: ${shown(p.name)}`, phrase('spec.ports[{0}] already uses this name', prev));
      else seenNames.set(p.name, p.i);
    }
    const portNode = at(m, 'port');
    if (portNode === undefined)
      report(ctx, `${path}.port`, m.span, 'Required value', phrase('every Service port needs a port number (the port clients connect to)'));
    else if (p.port !== undefined) invalid(ctx, `${path}.port`, portNode.span, p.port, portNumberErrors(p.port));
    const protoNode = at(m, 'protocol');
    if (protoNode && protoNode.type === 'scalar' && typeof protoNode.value === 'string' && !protocols.includes(protoNode.value)) {
      unsupported(ctx, `${path}.protocol`, protoNode, protoNode.value, protocols);
    }
    validateTargetPort(ctx, at(m, 'targetPort'), `${path}.targetPort`);
    const appProtocolNode = at(m, 'appProtocol');
    const appProtocol = readString(ctx, appProtocolNode, `${path}.appProtocol`);
    if (appProtocol) invalid(ctx, `${path}.appProtocol`, appProtocolNode!.span, appProtocol, qualifiedNameErrors(appProtocol));
    if (p.port !== undefined && portNode) {
      const key = `${p.protocol}/${p.port}`;
      const prev = seenPorts.get(key);
      if (prev !== undefined)
        report(
          ctx,
          path,
          portNode.span,
          `Duplicate value: ${p.port}/${p.protocol}`,
          phrase('spec.ports[{0}] already exposes port {1}/{2}; the same number is only allowed once per protocol', prev, p.port, p.protocol),
        );
      else seenPorts.set(key, p.i);
      if (type === 'LoadBalancer' && p.port === kubeletPort) {
        invalid(ctx, `${path}.port`, portNode.span, p.port, [`may not expose port ${kubeletPort} externally since it is used by kubelet`]);
      }
    }
    const nodePortNode = at(m, 'nodePort');
    if (p.nodePort !== undefined && p.nodePort !== 0 && nodePortNode) {
      if (type === 'ClusterIP') {
        report(
          ctx,
          `${path}.nodePort`,
          nodePortNode.span,
          "Forbidden: may not be used when `type` is 'ClusterIP'",
          phrase('node ports only exist for type NodePort or LoadBalancer; set the type or remove nodePort'),
        );
      } else if (type === 'NodePort' || type === 'LoadBalancer') {
        const [lo, hi] = ctx.config.nodePortRange;
        if (p.nodePort < lo || p.nodePort > hi) {
          invalid(ctx, `${path}.nodePort`, nodePortNode.span, p.nodePort, [`provided port is not in the valid range. The range of valid ports is ${lo}-${hi}`]);
        }
        const key = `${p.protocol}/${p.nodePort}`;
        const prev = seenNodePorts.get(key);
        if (prev !== undefined)
          report(
            ctx,
            `${path}.nodePort`,
            nodePortNode.span,
            `Duplicate value: ${p.nodePort}`,
            phrase('spec.ports[{0}] already uses node port {1} for {2}', prev, p.nodePort, p.protocol),
          );
        else seenNodePorts.set(key, p.i);
      }
    }
  }
}

/** targetPort: an integer 1–65535, or an IANA_SVC_NAME naming a container port; 0 and "" mean "same as port" (semantics §5.1, §5.2). */
function validateTargetPort(ctx: ValidationContext, n: YNode | undefined, path: string): void {
  if (n === undefined || (n.type === 'scalar' && n.value === null)) return;
  if (n.type === 'scalar' && typeof n.value === 'number' && Number.isInteger(n.value)) {
    if (n.value !== 0) invalid(ctx, path, n.span, n.value, portNumberErrors(n.value));
    return;
  }
  if (n.type === 'scalar' && typeof n.value === 'string') {
    if (n.value === '') return;
    const quotedNumber = /^\d+$/.test(n.value);
    invalid(
      ctx,
      path,
      n.span,
      n.value,
      portNameErrors(n.value),
      quotedNumber
        ? phrase('in quotes, {0} is a port name, not a number; write {1} without quotes', written(ctx, n), n.value)
        : phrase('a targetPort is either a number or the name of a container port'),
    );
    return;
  }
  report(
    ctx,
    path,
    n.span,
    'Invalid type',
    phrase('must be a port number or a container port name, but {0} is neither; the API server cannot decode the object', written(ctx, n)),
  );
}

export function unsupported(ctx: ValidationContext, path: string, n: YNode, value: string, supported: readonly string[]): void {
  report(
    ctx,
    path,
    n.span,
    `Unsupported value: ${shown(value)}: supported values: ${[...supported]
      .sort()
      .map((s) => shown(s))
      .join(', ')}`,
    caseHint(value, supported),
  );
}

function caseHint(value: string, supported: readonly string[]): Phrase | undefined {
  const match = supported.find((s) => s.toLowerCase() === value.toLowerCase());
  return match ? phrase('values are case-sensitive; write {0}', match) : undefined;
}

/** The span a missing-name finding points at: the port number if present, otherwise the whole port item. */
function portSpanFor(m: YMap): { start: number; end: number } {
  const port = m.entries.get('port');
  return port ? port.keySpan : m.span;
}

/** http for 80, https for 443, otherwise port-<number>; never a name the Service already uses. */
export function suggestPortName(port: number | undefined, protocol: string, index: number, used: ReadonlySet<string>): string {
  const base = port === 80 ? 'http' : port === 443 ? 'https' : port !== undefined && port > 0 ? `port-${port}` : `port-${index}`;
  for (const candidate of [base, `${base}-${protocol.toLowerCase()}`, `port-${index}`]) {
    if (!used.has(candidate) && dns1123LabelErrors(candidate).length === 0) return candidate;
  }
  let i = index + 1;
  while (used.has(`port-${i}`)) i++;
  return `port-${i}`;
}

/** Inserts `name: <name>` as the first key of a port item, in flow (`{port: 80}`) or block style, keeping the indentation. */
function insertPortName(ctx: ValidationContext, m: YMap, name: string) {
  const start = m.span.start;
  if (ctx.source[start] === '{') {
    let at = start + 1;
    while (ctx.source[at] === ' ') at++;
    const empty = ctx.source[at] === '}';
    return { uri: ctx.uri, span: { start: at, end: at }, newText: empty ? `name: ${name}` : `name: ${name}, ` };
  }
  const lineStart = ctx.source.lastIndexOf('\n', start - 1) + 1;
  return { uri: ctx.uri, span: { start, end: start }, newText: `name: ${name}\n${' '.repeat(start - lineStart)}` };
}
