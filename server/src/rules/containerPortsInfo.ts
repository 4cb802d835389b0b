// Related information listing the ports a workload's containers declare, for findings about unresolved or undeclared target ports.

import type { Workload } from '../model/resources';
import type { RelatedInfo } from './finding';

/** One entry per declared container port, or one entry saying the containers declare none. */
export function containerPortsInfo(w: Workload): RelatedInfo[] {
  const out: RelatedInfo[] = [];
  for (const c of w.template.containers) {
    const kind = c.sidecar ? 'sidecar container' : 'container';
    for (const p of c.ports) {
      const label = `${p.containerPort ?? '(no number)'}/${p.protocol}${p.name ? ` named "${p.name}"` : ' (unnamed)'}`;
      out.push({ uri: w.uri, span: p.span, message: `${w.kind} "${w.name}", ${kind} "${c.name}" declares port ${label}` });
    }
  }
  if (!out.length) out.push({ uri: w.uri, span: w.template.labelsSpan ?? w.nameSpan, message: `${w.kind} "${w.name}" declares no container ports` });
  return out;
}
