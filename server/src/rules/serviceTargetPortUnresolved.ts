// service-target-port-unresolved: a named targetPort that some or all selected pod templates do not declare with that name and protocol.

import type { EndpointGroup } from '../analysis/endpoints';
import { isNearMiss } from './closestName';
import type { Fix } from './finding';
import { isProtocol, type ServicePort } from '../model/resources';
import { containerPortsInfo } from './containerPortsInfo';
import { portNameErrors } from '../analysis/validation/formats';
import { refOf } from './refOf';
import { renderSource } from './selectorEvidence';
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
  *check({ subjects, lookup }) {
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
        if (failing.length < eps.groups.length && failing.every((g) => !inFolderOf(service.uri, g.workload.uri)) && eps.groups.some((g) => !g.ports[port.index]?.unresolved && inFolderOf(service.uri, g.workload.uri))) continue;
        yield {
          uri: service.uri,
          span: port.targetPortSpan ?? port.span,
          message: messageFor(service.name, port, eps.groups.length, failing),
          resource: refOf(service),
          related: failing.flatMap((g) => containerPortsInfo(g.workload)),
          fixes: renameFix(service.uri, port, eps.groups),
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

function messageFor(serviceName: string, port: ServicePort, selected: number, failing: readonly EndpointGroup[]): string {
  const name = String(port.targetPort);
  const which = failing.length === selected ? (selected === 1 ? 'the only selected workload' : `any of the ${selected} selected workloads`) : `${failing.length} of the ${selected} selected workloads`;
  const names = failing.map((g) => `${g.workload.kind} "${g.workload.name}"`).join(', ');
  const portLabel = port.name ? `port "${port.name}" (${port.port})` : `port ${port.port}`;
  const parts = [
    `targetPort "${name}" (${port.protocol}) is not declared as a container port by ${which} (${names}), so Service "${serviceName}" ${portLabel} gets no endpoints from ${failing.length === 1 ? 'its' : 'their'} pods and traffic to it never reaches them.`,
  ];
  const mismatched = failing.filter((g) => g.ports[port.index]?.unresolved === 'protocol-mismatch');
  for (const g of mismatched) {
    const other = g.workload.template.containers.flatMap((c) => c.ports).find((p) => p.name === name);
    parts.push(`${g.workload.kind} "${g.workload.name}" does name a port "${name}", but with protocol ${other?.protocol ?? 'another protocol'}; ports match by name and protocol, so set protocol: ${other?.protocol} on this Service port or declare the port with ${port.protocol}.`);
  }
  if (mismatched.length < failing.length) parts.push(`Name a container port "${name}" in ${failing.length === 1 ? 'that workload' : 'those workloads'}, or point targetPort at a port they declare.`);
  return parts.join(' ');
}

/**
 * "Change targetPort to <name>": offered only when, in every selected workload, exactly one declared port of the
 * Service port's protocol is the likely target (it has the Service's port number, or a near-miss name such as
 * `metrics` for `http-metrics`, or both) and they all share that name, so the change breaks no workload that works now.
 */
function renameFix(uri: string, port: ServicePort, groups: readonly EndpointGroup[]): Fix[] {
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
  return chosen ? [{ title: `Change targetPort to "${chosen}"`, edits: [{ uri, span: port.targetPortSpan, newText: chosen }], isPreferred: true }] : [];
}

/** A typo, or the same name with a prefix or suffix word (`http-metrics` / `metrics`, `grpc` / `grpc-api`). */
function nearName(a: string, b: string): boolean {
  return isNearMiss(a, b) || a.endsWith(`-${b}`) || b.endsWith(`-${a}`) || a.startsWith(`${b}-`) || b.startsWith(`${a}-`);
}
