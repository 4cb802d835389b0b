// The wording the gateway and route rules share: listeners, routes, lists.

import type { GatewayListener, GatewayRoute } from '../model/gatewayApi';

export function listenerLabel(l: GatewayListener): string {
  return `listener "${l.name ?? `#${l.index + 1}`}" (${[l.protocol ?? '?', l.port ?? '?', l.hostname].filter((x) => x !== undefined).join(' ')})`;
}

export function routeLabel(route: GatewayRoute): string {
  return `${route.kind} "${route.name}"`;
}

/** `5 blocks` style wording for a small list. */
export function listOf(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}`;
}
