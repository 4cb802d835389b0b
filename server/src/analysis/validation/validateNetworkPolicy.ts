// NetworkPolicy ports as the API server validates them (VAL `ValidateNetworkPolicyPort`, docs/networkpolicy-semantics.md
// netpol §6): `endPort` needs a numeric `port` no greater than it; the protocol is TCP, UDP or SCTP.

import type { NetworkPolicy } from '../../model/resources';
import { at, items } from '../../model/yamlTree';
import { treeOf } from '../../model/trees';
import { phrase } from '../../l10n/l10n';
import { protocols, unsupported } from './validateService';
import { invalid, readMap, readSeq, type ValidationContext } from './violation';

export function validateNetworkPolicy(ctx: ValidationContext, np: NetworkPolicy): void {
  const spec = readMap(ctx, at(treeOf(np), 'spec'), 'spec');
  if (!spec) return;
  for (const direction of ['ingress', 'egress'] as const) {
    items(readSeq(ctx, at(spec, direction), `spec.${direction}`)).forEach((rule, i) => {
      items(at(rule, 'ports')).forEach((p, j) => {
        const path = `spec.${direction}[${i}].ports[${j}]`;
        const entry = readMap(ctx, p, path);
        if (!entry) return;
        const protocol = at(entry, 'protocol');
        if (protocol?.type === 'scalar' && typeof protocol.value === 'string' && !protocols.includes(protocol.value)) {
          unsupported(ctx, `${path}.protocol`, protocol, protocol.value, protocols);
        }
        const endPort = at(entry, 'endPort');
        if (endPort?.type !== 'scalar' || typeof endPort.value !== 'number') return;
        const port = at(entry, 'port');
        const value = port?.type === 'scalar' ? port.value : undefined;
        if (value === undefined || value === null) {
          invalid(
            ctx,
            `${path}.endPort`,
            endPort.span,
            endPort.value,
            ['may not be specified when `port` is not specified'],
            phrase('a range needs its first port in `port`'),
          );
        } else if (typeof value === 'string') {
          invalid(
            ctx,
            `${path}.endPort`,
            endPort.span,
            endPort.value,
            ['may not be specified when `port` is non-numeric'],
            phrase('a named port is one port of each pod; write the range with numbers'),
          );
        } else if (typeof value === 'number' && endPort.value < value) {
          // The API server prints `port`'s value here.
          invalid(
            ctx,
            `${path}.endPort`,
            endPort.span,
            value,
            ['must be greater than or equal to `port`'],
            phrase('the range {0}-{1} is empty', value, endPort.value),
          );
        }
      });
    });
  }
}
