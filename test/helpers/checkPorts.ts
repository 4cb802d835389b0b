// The one place tests call endpoint and port resolution: where each Service port lands, per workload.

import type { Analysis } from '../../server/src/analysis/analysis';
import { messages, say } from '../../server/src/l10n/l10n';

/** `Deployment/api-v1` → `http:8080 grpc:9000 stats:✗(protocol-mismatch)`, per workload the Service selects. */
export function portMap(analysis: Analysis, namespace: string, service: string): Record<string, string> {
  const svc = analysis.cluster.service(namespace, service);
  if (!svc) throw new Error(`no Service ${namespace}/${service}`);
  const out: Record<string, string> = {};
  for (const g of analysis.endpointsOf(svc).groups) {
    out[`${g.workload.kind}/${g.workload.name}`] = g.ports
      .map((t) => `${t.servicePort.name ?? t.servicePort.port}:${t.containerPort ?? `✗(${t.unresolved})`}${t.container ? `@${t.container.name}` : ''}`)
      .join(' ');
  }
  return out;
}

/** Manual endpoints of a Service: `Endpoints/name mirrored|ignored: reason`. */
export function manualEndpoints(analysis: Analysis, namespace: string, service: string): string[] {
  const svc = analysis.cluster.service(namespace, service)!;
  const eps = analysis.endpointsOf(svc);
  return [
    eps.source,
    ...eps.manual.map(
      (m) =>
        `${m.resource.kind}/${m.resource.name} ${m.mirrored ? 'mirrored' : `ignored: ${m.reason ? say(m.reason, messages(undefined)) : ''}`} ${m.addresses.map((a) => a.ip).join(',')}`,
    ),
  ];
}
