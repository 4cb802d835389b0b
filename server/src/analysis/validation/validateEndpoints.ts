// Manual Endpoints validation as the API server does it (semantics §6.2): subsets, addresses, hostnames and ports.

import type { Endpoints } from '../../model/resources';
import { at, items } from '../../model/yamlTree';
import { isIP } from '../ip';
import { dns1123LabelErrors, portNumberErrors, specialIPReason } from './formats';
import { protocols } from './validateService';
import { invalid, readInt, readMap, readSeq, readString, report, shown, type ValidationContext } from './violation';
import { treeOf } from '../../model/trees';
import { phrase } from '../../l10n/l10n';

export function validateEndpoints(ctx: ValidationContext, ep: Endpoints): void {
  items(readSeq(ctx, at(treeOf(ep), 'subsets'), 'subsets')).forEach((s, i) => {
    const path = `subsets[${i}]`;
    const subset = readMap(ctx, s, path);
    if (!subset) return;
    const ready = items(readSeq(ctx, at(subset, 'addresses'), `${path}.addresses`));
    const notReady = items(readSeq(ctx, at(subset, 'notReadyAddresses'), `${path}.notReadyAddresses`));
    if (!ready.length && !notReady.length) {
      report(
        ctx,
        path,
        subset.span,
        'Required value: must specify `addresses` or `notReadyAddresses`',
        phrase('a subset without addresses gives the Service no backends'),
      );
    }
    for (const [list, field] of [
      [ready, 'addresses'],
      [notReady, 'notReadyAddresses'],
    ] as const) {
      list.forEach((a, j) => {
        const ap = `${path}.${field}[${j}]`;
        const am = readMap(ctx, a, ap);
        if (!am) return;
        const ipNode = at(am, 'ip');
        const ip = readString(ctx, ipNode, `${ap}.ip`);
        if (ipNode === undefined) report(ctx, `${ap}.ip`, am.span, 'Required value', phrase('each endpoint address needs the IP traffic is sent to'));
        else if (ip !== undefined) {
          if (!isIP(ip)) invalid(ctx, `${ap}.ip`, ipNode.span, ip, ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
          else {
            const special = specialIPReason(ip);
            if (special) invalid(ctx, `${ap}.ip`, ipNode.span, ip, [special], phrase('traffic to this address would never leave the node that sends it'));
          }
        }
        const hnNode = at(am, 'hostname');
        const hn = readString(ctx, hnNode, `${ap}.hostname`);
        if (hn) invalid(ctx, `${ap}.hostname`, hnNode!.span, hn, dns1123LabelErrors(hn));
      });
    }
    const ports = items(readSeq(ctx, at(subset, 'ports'), `${path}.ports`));
    const seen = new Set<string>();
    ports.forEach((p, j) => {
      const pp = `${path}.ports[${j}]`;
      const pm = readMap(ctx, p, pp);
      if (!pm) return;
      const nameNode = at(pm, 'name');
      const name = readString(ctx, nameNode, `${pp}.name`);
      if (ports.length > 1 && !name)
        report(
          ctx,
          `${pp}.name`,
          pm.span,
          'Required value',
          phrase("a subset with more than one port must name every port, with the names of the Service's ports"),
        );
      if (name) {
        invalid(ctx, `${pp}.name`, nameNode!.span, name, dns1123LabelErrors(name));
        if (seen.has(name)) report(ctx, `${pp}.name`, nameNode!.span, `Duplicate value: ${shown(name)}`);
        seen.add(name);
      }
      const portNode = at(pm, 'port');
      const port = readInt(ctx, portNode, `${pp}.port`);
      if (portNode === undefined) report(ctx, `${pp}.port`, pm.span, 'Required value', phrase('each endpoint port needs its number'));
      else if (port !== undefined) invalid(ctx, `${pp}.port`, portNode.span, port, portNumberErrors(port));
      const protoNode = at(pm, 'protocol');
      const proto = readString(ctx, protoNode, `${pp}.protocol`);
      if (proto !== undefined && !protocols.includes(proto)) {
        report(ctx, `${pp}.protocol`, protoNode!.span, `Unsupported value: ${shown(proto)}: supported values: ${protocols.map((s) => shown(s)).join(', ')}`);
      }
    });
  });
}
