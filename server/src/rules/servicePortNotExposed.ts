// service-port-not-exposed: a numeric targetPort that no container of a selected workload declares (it still receives traffic).

import { messages } from '../l10n/l10n';
import { isProtocol } from '../model/resources';
import { containerPortsInfo } from './containerPortsInfo';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const servicePortNotExposed = defineRule({
  code: 'service-port-not-exposed',
  subjects: ['services'],
  defaultSeverity: 'information',
  traceHop: 'resolved-port',
  title: 'Numeric targetPort is not declared by the selected containers',
  description: `A numeric \`targetPort\` (or the Service \`port\` itself, when targetPort is omitted) is used as is for every selected pod: Kubernetes never compares it with the declared \`containerPort\`s (semantics §5.2). So this may well work, if the process listens on that port anyway. But an undeclared port is often a sign that the Service points at the wrong number, and declaring it documents the port and lets the Service refer to it by name.

Stays quiet for a workload whose containers declare no ports at all: declaring them is optional, so nothing shows the number is wrong.`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8000}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, ports: [{containerPort: 8080}]}]`,
    good: `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, ports: [{containerPort: 8080}]}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const service of subjects.services) {
      const eps = lookup.endpointsOf(service);
      if (eps.source !== 'selector' || !eps.groups.length) continue;
      for (const port of service.ports) {
        const target = port.targetPort;
        // An out-of-range number or unknown protocol is api-validation's to report (semantics §6.1).
        if (typeof target !== 'number' || target < 1 || target > 65535 || !isProtocol(port.protocol)) continue;
        // Declaring container ports is optional: only a workload that declares its ports, none of them this one,
        // shows that the number may be wrong. One that declares none says nothing.
        const undeclared = eps.groups.filter((g) => !g.ports[port.index]?.declared && g.workload.template.containers.some((c) => c.ports.length > 0));
        if (!undeclared.length) continue;
        const names = undeclared.map((g) => `${g.workload.kind} "${g.workload.name}"`).join(', ');
        const where = port.targetPortExplicit
          ? `targetPort ${target}/${port.protocol}`
          : msg('Port {0}/{1} (no targetPort, so the Service port is used)', target, port.protocol);
        yield {
          uri: service.uri,
          span: (port.targetPortExplicit ? port.targetPortSpan : port.portSpan) ?? port.span,
          message: msg(
            '{0} is not declared as a container port by {1}. Kubernetes does not check this and still sends traffic to {2}, so it works only if the process listens there; check the number, and declare the port in the pod template.',
            where,
            names,
            target,
          ),
          resource: refOf(service),
          related: undeclared.flatMap((g) => containerPortsInfo(g.workload, msg)),
        };
      }
    }
  },
});
