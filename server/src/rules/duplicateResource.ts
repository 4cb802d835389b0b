// duplicate-resource: the same kind/namespace/name defined twice; the API server keeps only one of them.

import { firstRelated, maxRelated } from './finding';
import { refOf } from './refOf';
import type { Rule } from './rule';

export const duplicateResource: Rule = {
  code: 'duplicate-resource',
  defaultSeverity: 'error',
  scope: 'namespace',
  title: 'The same object is defined more than once',
  description:
    'Two documents define the same kind, namespace and name. Only one can exist in the cluster: the one applied last silently replaces the other, so the analysis (and the cluster) may not be what either file says.',
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata: {name: api}
spec: {selector: {app: api}, ports: [{port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: api}
spec: {selector: {app: api-v2}, ports: [{port: 80}]}`,
    good: `apiVersion: v1
kind: Service
metadata: {name: api}
spec: {selector: {app: api}, ports: [{port: 80}]}`,
  },
  *check({ cluster }) {
    // Each definition reports itself (a rule reports on its own subjects, so a check can run for one file alone).
    for (const dup of cluster.resources) {
      const all = cluster.get(dup.kind, dup.namespace, dup.name);
      if (all.length < 2) continue;
      // At most `maxRelated` others, found without copying the whole list (copies × copies otherwise).
      const others: typeof all[number][] = [];
      for (const o of all) {
        if (o === dup) continue;
        if (others.length > maxRelated) break;
        others.push(o);
      }
      const { related } = firstRelated(others, (o) => ({ uri: o.uri, span: o.nameSpan, message: `Another definition of ${o.kind} "${o.name}"` }));
      yield {
        uri: dup.uri,
        span: dup.nameSpan,
        message: `${dup.kind} "${dup.name}" in namespace "${dup.namespace}" is defined ${all.length} times; only one can exist, and whichever is applied last replaces the others.`,
        resource: refOf(dup),
        related,
      };
    }
  },
};
