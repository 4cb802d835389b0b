// The quick pick of Services to trace: grouped by namespace, each showing its type and how many endpoints it has;
// then the Gateway routes, each leading to the trace of a Service it sends traffic to (the trace starts at the listener).
import type { ServiceSummary } from '../../server/src/protocol';

export type ServicePick =
  | { readonly separator: string }
  | { readonly label: string; readonly description: string; readonly service: ServiceSummary };

export function servicePicks(services: readonly ServiceSummary[]): ServicePick[] {
  const sorted = [...services].sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  const picks: ServicePick[] = [];
  let namespace: string | undefined;
  for (const s of sorted) {
    if (s.namespace !== namespace) {
      namespace = s.namespace;
      picks.push({ separator: s.namespace });
    }
    picks.push({ label: s.name, description: `${s.type}${endpointsNote(s)}${s.release ? ` · ${s.release}` : ''}`, service: s });
  }
  const routed = sorted.flatMap((s) => (s.routes ?? []).map((r) => ({ r, s })));
  if (routed.length) picks.push({ separator: 'Gateway routes' });
  for (const { r, s } of routed) {
    const via = r.listeners.length ? `via ${r.listeners.join(', ')}` : 'accepted by no Gateway';
    picks.push({ label: `${r.kind} ${r.namespace}/${r.name} → ${s.name}`, description: via, service: s });
  }
  return picks;
}

function endpointsNote(s: ServiceSummary): string {
  if (s.endpoints === undefined) return '';
  if (s.endpoints === 0) return ' · no endpoints';
  return ` · ${s.endpoints} endpoint${s.endpoints === 1 ? '' : 's'}`;
}
