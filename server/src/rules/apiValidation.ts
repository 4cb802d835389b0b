// api-validation: objects the API server would reject on apply, with the field path and the reason in its own wording (semantics §6).

import { refOf } from './refOf';
import { defineRule } from './rule';
import { violationsOf } from '../analysis/validation/rejection';
import { messageOf } from '../analysis/validation/violation';
import { messages } from '../l10n/l10n';

export const apiValidation = defineRule({
  code: 'api-validation',
  subjects: ['resources'],
  defaultSeverity: 'error',
  title: 'The API server would reject this object',
  description: `The manifest breaks a rule the Kubernetes API server enforces, so \`kubectl apply\` fails and nothing in the object takes effect.
The message gives the field path and the reason as the API server words it, followed by what it means.

Checked (network-semantics §6): Service names (DNS-1035 labels), types, ports (required unless headless or ExternalName; names required
when there is more than one, DNS-1123 labels, unique; numbers 1–65535; protocols \`TCP\`, \`UDP\`, \`SCTP\` exactly), targetPorts
(a number, or a container port name: a quoted \`"8080"\` is a name and fails), duplicate port/protocol pairs, node ports (forbidden for
ClusterIP, inside the configured range, unique per protocol), \`clusterIP: None\` rules, ExternalName rules, the kubelet port on
LoadBalancers, dual-stack fields (\`ipFamilies\` with a family twice or more than two entries, \`ipFamilyPolicy: SingleStack\` with two
families or two cluster IPs; \`RequireDualStack\` with one family is accepted: a dual-stack cluster adds the other family, and whether
the cluster is dual-stack is unknown); manual Endpoints (§6.2); pod hostname, subdomain, container ports, \`dnsPolicy\` and \`dnsConfig\` (§6.3);
StatefulSet names (§6.4); and fields of the wrong type, such as \`port: "eighty"\` or an unquoted \`name: 1.10\`.

An object the API server rejects does not exist (network-semantics §9.4): it gives no DNS records, endpoints or hover names,
and the findings of objects that depend on it say that it is rejected. Fields holding a placeholder that a tool fills in
before applying (\`\${VAR}\`, \`{{ .Values.x }}\`) are unknown and not judged, and so are the upper-case words of a
documentation example that says "replace PORT with your port" (\`containerPort: PORT\`), when the file shows it is such
an example: its image is such a word too (\`image: CONTAINER_IMAGE\`), or the same word stands for several values.

For a multi-port Service with unnamed ports, the quick fix names them (\`http\` for 80, \`https\` for 443, otherwise \`port-<number>\`).`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  selector:
    app: api
  ports:
    - port: 80
      targetPort: "8080"
    - port: 443
      targetPort: 8443
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: api, image: api, ports: [{containerPort: 8080}, {containerPort: 8443}]}]}`,
    good: `apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  selector:
    app: api
  ports:
    - name: http
      port: 80
      targetPort: 8080
    - name: https
      port: 443
      targetPort: 8443
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: api, image: api, ports: [{containerPort: 8080}, {containerPort: 8443}]}]}`,
  },
  *check({ subjects, config }) {
    const msg = messages(config.locale);
    for (const r of subjects.resources) {
      for (const v of violationsOf(r, config)) {
        yield { uri: r.uri, span: v.span, message: messageOf(v, msg), resource: refOf(r), fixes: v.fixes };
      }
    }
  },
});
