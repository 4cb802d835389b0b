// The one place tests call ingressRoutes: each route as one line.

import type { Analysis } from '../../server/src/analysis/analysis';

export function routeLines(analysis: Analysis): string[] {
  return analysis.ingressRoutes().map((r) => {
    const where = r.isDefault ? `${r.ingress.name} (default)` : `${r.host ?? '*'}${r.path}`;
    if (r.problem) return `${where} → ${r.serviceName}: ${r.problem}`;
    const targets = (r.targets ?? []).map((t) => `${t.workload.name}:${t.target.containerPort ?? '✗'}`).join(' ');
    return `${where} → ${r.service?.name}:${r.servicePort?.port} → ${targets}`;
  });
}
