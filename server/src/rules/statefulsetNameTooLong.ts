// statefulset-name-too-long: a StatefulSet name the API server accepts but whose pods can never be created (semantics §6.4).

import { messages } from '../l10n/l10n';
import { refOf } from './refOf';
import { defineRule } from './rule';

/** The `controller-revision-hash` label value is `<name>-<10-character hash>` and must fit in 63 characters. */
const maxName = 52;

export const statefulsetNameTooLong = defineRule({
  code: 'statefulset-name-too-long',
  subjects: ['workloads'],
  defaultSeverity: 'warning',
  title: 'A StatefulSet name longer than 52 characters',
  description: `The API server accepts StatefulSet names up to 63 characters, but the controller labels every pod with
\`controller-revision-hash: <name>-<hash>\`, and a label value may not exceed 63 characters. With a name longer than 52 characters
that label is invalid, so no pod is ever created (network-semantics §6.4, kubernetes/kubernetes#64023). The pod hostname
\`<name>-<ordinal>\` must also stay within 63 characters. A StatefulSet cannot be renamed in place, so pick a short name before the first apply.
Names longer than 63 characters are reported by api-validation instead.`,
  examples: {
    bad: `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: payments-ledger-postgresql-primary-replica-europe-west
spec:
  serviceName: ledger
  selector: {matchLabels: {app: ledger}}
  template:
    metadata: {labels: {app: ledger}}
    spec: {containers: [{name: pg, image: postgres}]}
---
apiVersion: v1
kind: Service
metadata: {name: ledger}
spec: {clusterIP: None, selector: {app: ledger}}`,
    good: `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: ledger-pg
spec:
  serviceName: ledger
  selector: {matchLabels: {app: ledger}}
  template:
    metadata: {labels: {app: ledger}}
    spec: {containers: [{name: pg, image: postgres}]}
---
apiVersion: v1
kind: Service
metadata: {name: ledger}
spec: {clusterIP: None, selector: {app: ledger}}`,
  },
  *check({ subjects, config }) {
    const msg = messages(config.locale);
    for (const w of subjects.workloads) {
      if (w.kind !== 'StatefulSet' || w.name.length <= maxName || w.name.length > 63) continue;
      yield {
        uri: w.uri,
        span: w.nameSpan,
        message: msg(
          'This StatefulSet name is {0} characters long; above {1} its pods cannot be created, because each pod gets the label controller-revision-hash=<name>-<10-character hash>, which would exceed the 63-character limit. Shorten the name to {1} characters or fewer.',
          w.name.length,
          maxName,
        ),
        resource: refOf(w),
      };
    }
  },
});
