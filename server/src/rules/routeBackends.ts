// The backendRefs of a unit's routes with what each resolves to, shared by the route-backend-* rules.

import { backendShares, backendVerdict, failureOf, percent, portlessServiceRefs, type BackendVerdict } from '../analysis/gatewayRoutes';

export { problemsText } from '../analysis/gatewayRoutes';
import type { NamespaceObjects } from '../model/cluster';
import type { GatewayRoute, RouteBackendRef, RouteRule } from '../model/gatewayApi';

import type { Lookup } from './rule';

export interface BackendSubject {
  readonly route: GatewayRoute;
  readonly rule: RouteRule;
  readonly ref: RouteBackendRef;
  readonly verdict: BackendVerdict;
  /** The backend's share of the rule's requests. */
  readonly share: number;
}

export function* backendSubjects(subjects: Pick<NamespaceObjects, 'routes'>, lookup: Lookup): Generator<BackendSubject> {
  for (const route of subjects.routes) {
    for (const rule of route.rules) {
      const shares = backendShares(rule);
      for (const ref of rule.backendRefs) yield { route, rule, ref, verdict: backendVerdict(lookup, route, ref), share: shares[ref.index] };
    }
  }
}

/** What the clients of the backend's share see (gateway semantics §G7). */
export function consequence(b: BackendSubject): string {
  if (portlessServiceRefs(b.route).length) return `the API server rejects the whole ${b.route.kind} ("Must have port for Service reference") and none of its rules serve traffic`;
  const { traffic, fate } = failureOf(b.route.kind);
  const rule = `rule ${b.rule.index + 1}${b.rule.name ? ` ("${b.rule.name}")` : ''}`;
  if (b.rule.backendRefs.length === 1 || b.share >= 1) return `the backend is invalid (ResolvedRefs: False) and the ${traffic} matching ${rule} ${fate}`;
  return `the backend is invalid (ResolvedRefs: False) and its ${percent(b.share)} share of the ${traffic} matching ${rule} ${fate.replace(/^get /, 'gets ').replace(/^are /, 'is ')}`;
}

export function backendLabel(b: BackendSubject): string {
  return `${b.route.kind} "${b.route.name}"`;
}

