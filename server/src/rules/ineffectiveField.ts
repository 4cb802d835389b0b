// ineffective-field: Service fields and annotations that are accepted but change nothing (semantics §2.4, §6.1 warnings, §5.4).

import { joinSentences, messages, type Msg } from '../l10n/l10n';
import type { Service } from '../model/resources';
import type { Span } from '../model/span';
import { at, entry, type YEntry, type YNode } from '../model/yamlTree';
import type { FindingDraft, Fix } from './finding';
import { removeEntry } from './fixes/fieldEdits';
import { refOf } from './refOf';
import { defineRule } from './rule';
import { treeOf } from '../model/trees';

const tolerateUnready = 'service.alpha.kubernetes.io/tolerate-unready-endpoints';

export const ineffectiveField = defineRule({
  code: 'ineffective-field',
  subjects: ['services'],
  defaultSeverity: 'information',
  title: 'A field that has no effect',
  description: `The API server accepts these fields, but nothing reads them, so they suggest a behaviour the cluster will not have:

- the \`${tolerateUnready}\` annotation: the EndpointSlice controller only reads \`spec.publishNotReadyAddresses\` (network-semantics §2.4);
- \`publishNotReadyAddresses\` on a Service without a selector: manual Endpoints keep their own readiness when mirrored, and manual EndpointSlices carry theirs (§1.2, §2.4);
- \`externalName\` on a Service whose type is not ExternalName, and \`externalIPs\` on an ExternalName Service (the API server's own warnings, §6.1);
- \`sessionAffinity: ClientIP\` on a headless or ExternalName Service: kube-proxy does not handle those Services, and clients connect to pod IPs or the external name directly (§5.4).

A headless Service's \`targetPort\` is not reported: kube-proxy ignores it, but it still sets the port in the Service's SRV records (§5.5).`,
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata:
  name: db
  annotations:
    service.alpha.kubernetes.io/tolerate-unready-endpoints: "true"
spec:
  clusterIP: None
  selector: {app: db}
  ports: [{name: pg, port: 5432}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: pg, image: postgres, ports: [{containerPort: 5432}]}]}`,
    good: `apiVersion: v1
kind: Service
metadata:
  name: db
spec:
  clusterIP: None
  publishNotReadyAddresses: true
  selector: {app: db}
  ports: [{name: pg, port: 5432}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: pg, image: postgres, ports: [{containerPort: 5432}]}]}`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const svc of subjects.services) yield* checkService(svc, lookup.fileText(svc.uri) ?? '', msg);
  },
});

function* checkService(svc: Service, source: string, msg: Msg): Iterable<FindingDraft> {
  // The tree is read again from the file (model/trees.ts) only for a Service with something to report.
  let specTree: YNode | undefined;
  const spec = () => (specTree ??= at(treeOf(svc), 'spec'));
  const finding = (e: YEntry | undefined, span: Span | undefined, message: string, fixTitle: string): FindingDraft | undefined => {
    if (!span) return undefined;
    const edit = e && removeEntry(svc.uri, source, e);
    const fixes: Fix[] = edit ? [{ title: fixTitle, edits: [edit], isPreferred: true }] : [];
    return { uri: svc.uri, span, message, resource: refOf(svc), tags: ['unnecessary'], fixes };
  };
  const out: (FindingDraft | undefined)[] = [];
  const annotation = svc.annotations.has(tolerateUnready) ? entry(at(treeOf(svc), 'metadata', 'annotations'), tolerateUnready) : undefined;
  if (annotation) {
    const instead = svc.publishNotReadyAddresses
      ? msg('Spec.publishNotReadyAddresses is already set, which is what counts.')
      : msg('Set spec.publishNotReadyAddresses: true instead.');
    out.push(
      finding(
        annotation,
        annotation.keySpan,
        joinSentences([
          msg(
            'The {0} annotation has no effect: endpoints are published by the EndpointSlice controller, which ignores it, so not-ready pods stay out of DNS and load balancing.',
            tolerateUnready,
          ),
          instead,
        ]),
        msg('Remove the annotation'),
      ),
    );
  }
  if (svc.publishNotReadyAddresses && !svc.selector) {
    const why =
      svc.type === 'ExternalName'
        ? msg('an ExternalName Service has no endpoints at all')
        : msg(
            'this Service has no selector, so its endpoints come from manual Endpoints or EndpointSlices, which carry their own readiness (notReadyAddresses stay not ready, EndpointSlice conditions are used as written)',
          );
    out.push(
      finding(
        entry(spec(), 'publishNotReadyAddresses'),
        svc.publishNotReadyAddressesSpan,
        msg('publishNotReadyAddresses has no effect here: {0}.', why),
        msg('Remove publishNotReadyAddresses'),
      ),
    );
  }
  if (svc.type !== 'ExternalName' && svc.externalName !== undefined) {
    out.push(
      finding(
        entry(spec(), 'externalName'),
        svc.externalNameSpan,
        svc.headless
          ? msg(
              'spec.externalName is ignored because the type is {0}, not ExternalName: "{1}" gets a cluster IP (or pod addresses), not an alias to {2}. Set type: ExternalName if an alias was intended, or remove the field.',
              String(svc.type),
              svc.name,
              svc.externalName,
            )
          : msg(
              'spec.externalName is ignored because the type is {0}, not ExternalName: "{1}" gets a cluster IP, not an alias to {2}. Set type: ExternalName if an alias was intended, or remove the field.',
              String(svc.type),
              svc.name,
              svc.externalName,
            ),
        msg('Remove externalName'),
      ),
    );
  }
  const externalIPs = svc.type === 'ExternalName' && svc.externalIPs.length ? entry(spec(), 'externalIPs') : undefined;
  if (externalIPs) {
    out.push(
      finding(
        undefined,
        externalIPs.keySpan,
        msg(
          'spec.externalIPs is ignored for an ExternalName Service: it is only a DNS alias to {0}, and kube-proxy does not route any address to it.',
          svc.externalName ?? msg('an external name'),
        ),
        msg('Remove externalIPs'),
      ),
    );
  }
  if (svc.sessionAffinity === 'ClientIP' && (svc.headless || svc.type === 'ExternalName')) {
    const affinity = entry(spec(), 'sessionAffinity');
    const what =
      svc.type === 'ExternalName'
        ? msg('an ExternalName Service is only a DNS alias')
        : msg('clients of a headless Service connect to pod IPs from DNS directly');
    out.push(
      finding(
        affinity,
        affinity?.value.span,
        msg('sessionAffinity: ClientIP has no effect: kube-proxy implements session affinity, and it does not handle this Service because {0}.', what),
        msg('Remove sessionAffinity'),
      ),
    );
  }
  for (const f of out) if (f) yield f;
}
