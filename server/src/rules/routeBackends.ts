// The backendRefs of a unit's routes with what each resolves to, shared by the route-backend-* rules.

import { backendShares, backendVerdict, percent, portlessServiceRefs, type BackendVerdict } from '../analysis/gatewayRoutes';
export { problemsText } from '../analysis/gatewayRoutes';
import type { Msg } from '../l10n/l10n';
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
export function consequence(b: BackendSubject, msg: Msg): string {
  if (portlessServiceRefs(b.route).length)
    return msg('the API server rejects the whole {0} ("Must have port for Service reference") and none of its rules serve traffic', b.route.kind);
  const rule = ruleLabel(b.rule, msg);
  const whole = b.rule.backendRefs.length === 1 || b.share >= 1;
  const share = percent(b.share);
  switch (b.route.kind) {
    case 'HTTPRoute':
      return whole
        ? msg('the backend is invalid (ResolvedRefs: False) and the requests matching {0} get HTTP 500', rule)
        : msg('the backend is invalid (ResolvedRefs: False) and its {0} share of the requests matching {1} gets HTTP 500', share, rule);
    case 'GRPCRoute':
      return whole
        ? msg('the backend is invalid (ResolvedRefs: False) and the calls matching {0} get gRPC status UNAVAILABLE', rule)
        : msg('the backend is invalid (ResolvedRefs: False) and its {0} share of the calls matching {1} gets gRPC status UNAVAILABLE', share, rule);
    case 'UDPRoute':
      return whole
        ? msg('the backend is invalid (ResolvedRefs: False) and the datagrams matching {0} are dropped', rule)
        : msg('the backend is invalid (ResolvedRefs: False) and its {0} share of the datagrams matching {1} is dropped', share, rule);
    default:
      return whole
        ? msg('the backend is invalid (ResolvedRefs: False) and the connections matching {0} are refused', rule)
        : msg('the backend is invalid (ResolvedRefs: False) and its {0} share of the connections matching {1} is refused', share, rule);
  }
}

/** `rule 2 ("canary")`. */
export function ruleLabel(rule: RouteRule, msg: Msg): string {
  return rule.name ? msg('rule {0} ("{1}")', rule.index + 1, rule.name) : msg('rule {0}', rule.index + 1);
}

export function backendLabel(b: BackendSubject): string {
  return `${b.route.kind} "${b.route.name}"`;
}
