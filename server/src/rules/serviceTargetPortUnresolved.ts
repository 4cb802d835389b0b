// service-target-port-unresolved: a named targetPort that some or all selected pod templates do not declare with that name and protocol.

import { joinSentences, messages, type Msg } from '../l10n/l10n';
import type { EndpointGroup } from '../analysis/endpoints';
import { isNearMiss } from './closestName';
import type { Fix } from './finding';
import { isProtocol, type ServicePort } from '../model/resources';
import { containerPortsInfo } from './containerPortsInfo';
import { portNameErrors } from '../analysis/validation/formats';
import { refOf } from './refOf';
import { renderSource } from '../model/rendered';
import { defineRule } from './rule';

export const serviceTargetPortUnresolved = defineRule({
  code: 'service-target-port-unresolved',
  subjects: ['services'],
  defaultSeverity: 'warning',
  traceHop: 'unresolved-port',
  title: 'Named targetPort is not declared by the selected pods',
  description: `A named \`targetPort\` (for example \`targetPort: http\`) is looked up in **each** selected pod: the first container port with that name **and** the Service port's protocol, in container order, then sidecar init containers (semantics §5.3). A pod that has no such port gets no endpoint for that Service port, silently: the pod stays behind the Service's other ports, but traffic to this port never reaches it. A port with the right name but another protocol (\`dns\` declared as UDP, Service port TCP) does not count.

Kubernetes does not check this when you apply the Service (semantics §6.1).

Stays quiet when a workload in the Service's own folder declares the port and only workloads written in other folders lack it: examples side by side that reuse one app label (\`app: gemma-server\` for each serving engine's sample) are not one app.`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: http}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, ports: [{name: web, containerPort: 8080}]}]`,
    good: `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: http}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, ports: [{name: http, containerPort: 8080}]}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const service of subjects.services) {
      const eps = lookup.endpointsOf(service);
      if (eps.source !== 'selector' || !eps.groups.length) continue;
      for (const port of service.ports) {
        // A name the API server rejects (semantics §6.1) is api-validation's to report; the Service would not exist.
        if (typeof port.targetPort !== 'string' || portNameErrors(port.targetPort).length || !isProtocol(port.protocol)) continue;
        const failing = eps.groups.filter((g) => g.ports[port.index]?.unresolved);
        if (!failing.length) continue;
        // Examples side by side that reuse one app label: a workload in the Service's own folder declares the port,
        // and only workloads written in other folders lack it. Those are other examples' pods, not this Service's.
        if (
          failing.length < eps.groups.length &&
          failing.every((g) => !inFolderOf(service.uri, g.workload.uri)) &&
          eps.groups.some((g) => !g.ports[port.index]?.unresolved && inFolderOf(service.uri, g.workload.uri))
        )
          continue;
        yield {
          uri: service.uri,
          span: port.targetPortSpan ?? port.span,
          message: messageFor(service.name, port, eps.groups.length, failing, msg),
          resource: refOf(service),
          related: failing.flatMap((g) => containerPortsInfo(g.workload, msg)),
          fixes: renameFix(service.uri, port, eps.groups, msg),
        };
      }
    }
  },
});

/** Whether a workload is written in the folder of the Service's file, or below it (one render is one folder). */
function inFolderOf(serviceUri: string, workloadUri: string): boolean {
  if (serviceUri === workloadUri) return true;
  const s = renderSource(serviceUri);
  const folder = s.slice(0, s.lastIndexOf('/') + 1);
  return folder !== '' && renderSource(workloadUri).startsWith(folder);
}

function messageFor(serviceName: string, port: ServicePort, selected: number, failing: readonly EndpointGroup[], msg: Msg): string {
  const name = String(port.targetPort);
  const which =
    failing.length === selected
      ? selected === 1
        ? msg('the only selected workload')
        : msg('any of the {0} selected workloads', selected)
      : msg('{0} of the {1} selected workloads', failing.length, selected);
  const names = failing.map((g) => `${g.workload.kind} "${g.workload.name}"`).join(', ');
  const portLabel = port.name ? msg('port "{0}" ({1})', port.name, String(port.port)) : msg('port {0}', String(port.port));
  const parts = [
    failing.length === 1
      ? msg(
          'targetPort "{0}" ({1}) is not declared as a container port by {2} ({3}), so Service "{4}" {5} gets no endpoints from its pods and traffic to it never reaches them.',
          name,
          port.protocol,
          which,
          names,
          serviceName,
          portLabel,
        )
      : msg(
          'targetPort "{0}" ({1}) is not declared as a container port by {2} ({3}), so Service "{4}" {5} gets no endpoints from their pods and traffic to it never reaches them.',
          name,
          port.protocol,
          which,
          names,
          serviceName,
          portLabel,
        ),
  ];
  const mismatched = failing.filter((g) => g.ports[port.index]?.unresolved === 'protocol-mismatch');
  for (const g of mismatched) {
    const other = g.workload.template.containers.flatMap((c) => c.ports).find((p) => p.name === name);
    parts.push(
      msg(
        '{0} "{1}" does name a port "{2}", but with protocol {3}; ports match by name and protocol, so set protocol: {4} on this Service port or declare the port with {5}.',
        g.workload.kind,
        g.workload.name,
        name,
        other?.protocol ?? msg('another protocol'),
        other?.protocol ?? 'undefined',
        port.protocol,
      ),
    );
  }
  if (mismatched.length < failing.length)
    parts.push(
      failing.length === 1
        ? msg('Name a container port "{0}" in that workload, or point targetPort at a port they declare.', name)
        : msg('Name a container port "{0}" in those workloads, or point targetPort at a port they declare.', name),
    );
  return joinSentences(parts);
}

/**
 * "Change targetPort to <name>": offered only when, in every selected workload, exactly one declared port of the
 * Service port's protocol is the likely target (it has the Service's port number, or a near-miss name such as
 * `metrics` for `http-metrics`, or both) and they all share that name, so the change breaks no workload that works now.
 */
function renameFix(uri: string, port: ServicePort, groups: readonly EndpointGroup[], msg: Msg): Fix[] {
  if (!port.targetPortSpan) return [];
  const written = String(port.targetPort);
  let chosen: string | undefined;
  for (const g of groups) {
    const declared = g.workload.template.containers.flatMap((c) => c.ports).filter((p) => p.name && p.protocol === port.protocol);
    const byNumber = declared.filter((p) => p.containerPort === port.port);
    const byName = declared.filter((p) => nearName(p.name!, written));
    const both = byNumber.filter((p) => byName.includes(p));
    // The strongest evidence that names exactly one port wins: number and name, then the number, then the name.
    const pick = [both, byNumber, byName].find((l) => new Set(l.map((p) => p.name)).size === 1);
    if (!pick) return [];
    const name = pick[0].name!;
    if (chosen !== undefined && chosen !== name) return [];
    chosen = name;
  }
  return chosen ? [{ title: msg('Change targetPort to "{0}"', chosen), edits: [{ uri, span: port.targetPortSpan, newText: chosen }], isPreferred: true }] : [];
}

/** A typo, or the same name with a prefix or suffix word (`http-metrics` / `metrics`, `grpc` / `grpc-api`). */
function nearName(a: string, b: string): boolean {
  return isNearMiss(a, b) || a.endsWith(`-${b}`) || b.endsWith(`-${a}`) || a.startsWith(`${b}-`) || b.startsWith(`${a}-`);
}
