// The Gateway API subjects of a check (its routes and Gateways) and the wording the gateway rules share.

import type { NamespaceObjects } from '../model/cluster';
import { isGateway, isRoute, type Gateway, type GatewayListener, type GatewayRoute } from '../model/gatewayApi';

/** The routes among a check's subjects. */
export function routeSubjects(subjects: NamespaceObjects): GatewayRoute[] {
  const out: GatewayRoute[] = [];
  for (const r of subjects.resources) if (isRoute(r)) out.push(r);
  return out;
}

/** The Gateways among a check's subjects. */
export function gatewaySubjects(subjects: NamespaceObjects): Gateway[] {
  const out: Gateway[] = [];
  for (const r of subjects.resources) if (isGateway(r)) out.push(r);
  return out;
}

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
