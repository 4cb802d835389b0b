// The wording the gateway and route rules share: listeners, routes, lists.

import type { GatewayListener, GatewayRoute } from '../model/gatewayApi';
import type { Msg } from '../l10n/l10n';

export function listenerLabel(l: GatewayListener, msg: Msg): string {
  return msg('listener "{0}" ({1})', l.name ?? `#${l.index + 1}`, [l.protocol ?? '?', l.port ?? '?', l.hostname].filter((x) => x !== undefined).join(' '));
}

export function routeLabel(route: GatewayRoute): string {
  return `${route.kind} "${route.name}"`;
}

/** `5 blocks` style wording for a small list. */
export function listOf(values: readonly string[], msg: Msg): string {
  if (values.length <= 1) return values.join('');
  return msg('{0} and {1}', values.slice(0, -1).join(msg(', ')), values[values.length - 1]);
}
