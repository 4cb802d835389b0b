// What the API server would reject (semantics §6), once per object and settings: the api-validation rule reports it,
// and the cluster leaves rejected objects out, since an object the API server rejects never exists (semantics §9.4).

import { messages } from '../../l10n/l10n';
import type { AnalysisConfig } from '../../model/config';
import { isService, isWorkload, type Endpoints, type NetworkPolicy, type Resource } from '../../model/resources';
import { validateEndpoints } from './validateEndpoints';
import { validateIngress } from './validateIngress';
import { validateMetadata } from './validateMetadata';
import { validateNetworkPolicy } from './validateNetworkPolicy';
import { validatePodSpec } from './validatePodSpec';
import { validateService } from './validateService';
import type { ValidationContext, Violation } from './violation';

interface Verdict {
  readonly config: AnalysisConfig;
  readonly violations: readonly Violation[];
}

const memo = new WeakMap<Resource, Verdict>();
/** The verdict of every object the API server accepts, one per settings object: most objects share it. */
const accepted = new WeakMap<AnalysisConfig, Verdict>();

/** The reasons the API server would reject the object; empty when it accepts it. */
export function violationsOf(r: Resource, config: AnalysisConfig): readonly Violation[] {
  const hit = memo.get(r);
  if (hit && hit.config === config) return hit.violations;
  const out: Violation[] = [];
  const ctx: ValidationContext = { uri: r.uri, source: r.source.text, config, out };
  validateMetadata(ctx, r);
  if (isService(r)) validateService(ctx, r);
  else if (isWorkload(r)) validatePodSpec(ctx, r);
  else if (r.kind === 'Endpoints') validateEndpoints(ctx, r as Endpoints);
  else if (r.kind === 'Ingress') validateIngress(ctx, r);
  else if (r.kind === 'NetworkPolicy' && r.apiVersion === 'networking.k8s.io/v1') validateNetworkPolicy(ctx, r as NetworkPolicy);
  let verdict = out.length ? undefined : accepted.get(config);
  if (!verdict) {
    verdict = { config, violations: out };
    if (!out.length) accepted.set(config, verdict);
  }
  memo.set(r, verdict);
  return verdict.violations;
}

const rejectors = new WeakMap<AnalysisConfig, (r: Resource) => boolean>();

/** One predicate per settings object (the cluster keeps partitions built with the same one). */
export function rejectorFor(config: AnalysisConfig): (r: Resource) => boolean {
  let f = rejectors.get(config);
  if (!f) rejectors.set(config, (f = (r) => violationsOf(r, config).length > 0));
  return f;
}

/** Why the API server rejects the object, in a sentence in the settings' locale, for the messages of what depends on it. */
export function rejectionReason(r: Resource, config: AnalysisConfig): string | undefined {
  const v = violationsOf(r, config)[0];
  if (!v) return undefined;
  const msg = messages(config.locale);
  if (v.reason.startsWith('Required')) return msg('{0} "{1}" is rejected by the API server (its {2} is missing)', r.kind, r.name, v.path);
  if (v.reason.startsWith('Unsupported')) return msg('{0} "{1}" is rejected by the API server (its {2} has an unsupported value)', r.kind, r.name, v.path);
  return msg('{0} "{1}" is rejected by the API server (its {2} is invalid)', r.kind, r.name, v.path);
}
