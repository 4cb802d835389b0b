// Related information listing the ports a workload's containers declare, for findings about unresolved or undeclared target ports.

import type { Workload } from '../model/resources';
import type { Msg } from '../l10n/l10n';
import type { RelatedInfo } from './finding';

/** One entry per declared container port, or one entry saying the containers declare none. */
export function containerPortsInfo(w: Workload, msg: Msg): RelatedInfo[] {
  const out: RelatedInfo[] = [];
  for (const c of w.template.containers) {
    for (const p of c.ports) {
      const number = p.containerPort ?? msg('(no number)');
      const label = p.name ? msg('{0}/{1} named "{2}"', number, p.protocol, p.name) : msg('{0}/{1} (unnamed)', number, p.protocol);
      const message = c.sidecar
        ? msg('{0} "{1}", sidecar container "{2}" declares port {3}', w.kind, w.name, c.name, label)
        : msg('{0} "{1}", container "{2}" declares port {3}', w.kind, w.name, c.name, label);
      out.push({ uri: w.uri, span: p.span, message });
    }
  }
  if (!out.length) out.push({ uri: w.uri, span: w.template.labelsSpan ?? w.nameSpan, message: msg('{0} "{1}" declares no container ports', w.kind, w.name) });
  return out;
}
