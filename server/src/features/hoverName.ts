// The hover of a host name written in an env value, command/args item or ConfigMap data: what it resolves to
// from that namespace through the pod's search list (semantics §3.3), or exactly why it does not.

import type { Analysis } from '../analysis/analysis';
import { describeType, recordLine } from './hoverService';
import { bounded, code, escape, lines, md, text, type Md, mdMessages } from './markdown';
import type { NameAt } from './nameToken';

export function nameHover(analysis: Analysis, at: NameAt, fromNamespace: string, diagnosed = false): Md {
  const msg = mdMessages(analysis.config.locale);
  const r = at.resolution;
  const out: Md[] = [msg('**DNS name** {0} looked up from namespace {1} ({2})', code(at.token.text), code(fromNamespace), code(at.value.where)), md``];
  if (!r.resolves || !r.service) {
    // semantics §9: what the manifests cannot know is said as unknown, never as "does not resolve". A diagnostic on the
    // name already says why it does not resolve; the hover does not say it twice.
    if (r.unknown) out.push(msg('Unknown: {0}', escape(r.reason ?? String(msg('the manifests do not describe what answers this name.')))));
    else
      out.push(
        diagnosed ? msg('Does not resolve.') : msg('Does not resolve: {0}', escape(r.reason ?? String(msg('no Service in the manifests answers this name.')))),
      );
    return lines(out);
  }
  const s = r.service;
  out.push(msg('Resolves as {0} to Service {1} in {2}: {3}.', code(r.fqdn ?? r.host), code(s.name), code(s.namespace), describeType(msg, s)));
  if (r.port !== undefined) {
    if (r.portKnown === false) {
      const ports = s.ports
        .map((p) => p.port)
        .filter((p) => p !== undefined)
        .join(', ');
      out.push(
        md``,
        msg(
          '⚠ Port {0} is not a port of this Service{1}; connections to it are refused or time out.',
          r.port,
          ports ? msg(' (its ports: {0})', text(ports)) : md``,
        ),
      );
    } else out.push(md``, msg('Port {0} is a port of this Service.', r.port));
  }
  const records = r.records.length ? r.records : analysis.dnsRecordsFor(s).filter((x) => x.name === r.fqdn);
  if (records.length) out.push(md``, ...bounded(msg, records, 5, (r) => recordLine(msg, r)));
  return lines(out);
}
