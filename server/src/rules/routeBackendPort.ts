// route-backend-port: a route backendRef's port is missing, or is not a port of its Service (often the targetPort or container port).

import { joinSentences, messages, type Msg } from '../l10n/l10n';
import type { Service, ServicePort } from '../model/resources';
import type { Fix, TextEdit } from './finding';
import { lineEndOf, lineStartOf } from './insertMapEntry';
import { defineRule, type Lookup } from './rule';
import { refOf } from './refOf';
import { backendLabel, backendSubjects, consequence, type BackendSubject } from './routeBackends';

export const routeBackendPort = defineRule({
  code: 'route-backend-port',
  subjects: ['routes'],
  defaultSeverity: 'warning',
  title: 'A route backendRef port is missing or is not a port of the Service',
  description: `A backendRef's \`port\` is the **Service port**, never the targetPort or the container port, and it is required when the backend is a Service: without it the API server rejects the whole route (\`BackendObjectReference\` validation "Must have port for Service reference", *gateway semantics §G5*). A port the Service does not have makes the backend invalid, and the requests it would get receive HTTP 500 (*gateway semantics §G7*). When the port written is the targetPort or a container port behind one of the Service's ports, the finding offers that Service port.`,
  examples: {
    bad: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec:
  rules: [{backendRefs: [{name: web, port: 8080}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80, targetPort: 8080}]}`,
    good: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec:
  rules: [{backendRefs: [{name: web, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80, targetPort: 8080}]}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const b of backendSubjects(subjects, lookup)) {
      const svc = b.verdict.service;
      if (b.verdict.problems.includes('port-missing')) yield missingPort(lookup, b, svc, msg);
      else if (svc && b.verdict.problems.includes('port-unknown')) yield wrongPort(lookup, b, svc, msg);
    }
  },
});

function portsOf(svc: Service, msg: Msg): string {
  return svc.ports.length ? svc.ports.map((p) => (p.name ? `${p.port} (${p.name})` : `${p.port}`)).join(', ') : msg('none');
}

function missingPort(lookup: Lookup, b: BackendSubject, svc: Service | undefined, msg: Msg) {
  const only = svc?.ports.length === 1 ? svc.ports[0] : undefined;
  const fixes: Fix[] = [];
  const text = lookup.fileText(b.route.uri);
  if (only?.port !== undefined && text !== undefined) {
    const edit = insertFirstKey(b.route.uri, text, b.ref.span.start, `port: ${only.port}`);
    if (edit) fixes.push({ title: msg('Add port {0} of Service "{1}"', only.port, svc!.name), edits: [edit], isPreferred: true });
  }
  return {
    uri: b.route.uri,
    span: b.ref.nameSpan ?? b.ref.span,
    message: svc
      ? msg(
          '{0} sends traffic to Service "{1}" without a port; a Service backend must name the Service port (its ports: {2}), so {3}.',
          backendLabel(b),
          String(b.ref.name),
          portsOf(svc, msg),
          consequence(b, msg),
        )
      : msg(
          '{0} sends traffic to Service "{1}" without a port; a Service backend must name the Service port, so {2}.',
          backendLabel(b),
          String(b.ref.name),
          consequence(b, msg),
        ),
    resource: refOf(b.route),
    related: svc ? [{ uri: svc.uri, span: svc.portsSpan ?? svc.nameSpan, message: msg('The ports of Service "{0}"', svc.name) }] : [],
    fixes,
  };
}

function wrongPort(lookup: Lookup, b: BackendSubject, svc: Service, msg: Msg) {
  const written = b.ref.port!;
  const behind = portsBehind(lookup, svc, written, msg);
  const hint = behind.length
    ? msg('{0} is the {1} behind Service port {2}; a backendRef names the Service port.', written, behind[0].via, String(behind[0].port.port))
    : '';
  const offered = behind.length ? behind.map((x) => x.port) : svc.ports.length === 1 ? [svc.ports[0]] : [];
  const fixes: Fix[] = [];
  if (b.ref.portSpan) {
    for (const p of offered.slice(0, 5)) {
      if (p.port === undefined) continue;
      fixes.push({
        title: p.name ? msg('Use port {0} ({1}) of Service "{2}"', p.port, p.name, svc.name) : msg('Use port {0} of Service "{1}"', p.port, svc.name),
        edits: [{ uri: b.route.uri, span: b.ref.portSpan, newText: String(p.port) }],
        isPreferred: offered.length === 1 || undefined,
      });
    }
  }
  return {
    uri: b.route.uri,
    span: b.ref.portSpan ?? b.ref.span,
    message: joinSentences([
      msg(
        '{0} sends traffic to port {1} of Service "{2}", which has no such port (its ports: {3}), so {4}.',
        backendLabel(b),
        written,
        svc.name,
        portsOf(svc, msg),
        consequence(b, msg),
      ),
      ...(hint ? [hint] : []),
    ]),
    resource: refOf(b.route),
    related: [{ uri: svc.uri, span: svc.portsSpan ?? svc.nameSpan, message: msg('The ports of Service "{0}"', svc.name) }],
    fixes,
  };
}

/** The Service ports whose targetPort is `written`, or whose named targetPort is `written` in a selected container (semantics §5). */
function portsBehind(lookup: Lookup, svc: Service, written: number, msg: Msg): { port: ServicePort; via: string }[] {
  const out: { port: ServicePort; via: string }[] = [];
  for (const p of svc.ports) {
    if (p.port === undefined) continue;
    if (p.targetPort === written) out.push({ port: p, via: 'targetPort' });
    else if (typeof p.targetPort === 'string' && svc.selector) {
      const named = lookup
        .workloadsMatching(svc.namespace, svc.selector)
        .some((w) => w.template.containers.some((c) => c.ports.some((cp) => cp.name === p.targetPort && cp.containerPort === written)));
      if (named) out.push({ port: p, via: msg('container port (named "{0}")', p.targetPort) });
    }
  }
  return out;
}

/** Inserts `entry` as the first key of the mapping starting at `start` (flow or block style). */
function insertFirstKey(uri: string, text: string, start: number, entry: string): TextEdit | undefined {
  if (text[start] === '{') return { uri, span: { start: start + 1, end: start + 1 }, newText: `${entry}, ` };
  const column = start - lineStartOf(text, start);
  if (column < 0) return undefined;
  return { uri, span: { start, end: start }, newText: `${entry}${lineEndOf(text)}${' '.repeat(column)}` };
}
