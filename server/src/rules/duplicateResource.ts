// duplicate-resource: the same kind/namespace/name defined twice in what is applied at once; only one of them can exist.

import { refOf } from './refOf';
import type { Rule } from './rule';

export const duplicateResource: Rule = {
  code: 'duplicate-resource',
  defaultSeverity: 'error',
  title: 'The same object is defined more than once',
  description:
    `Two documents of one file define the same kind, namespace and name. Only one can exist in the cluster: the one applied last silently replaces the other, so the analysis (and the cluster) may not be what either document says.

Stays quiet when the two definitions are in different files: identical copies (a generated bundle next to its sources) are one object, and different definitions in different files are variants of one install that are never applied together (per provider, HA and non-HA, dev and prod); each variant is analysed on its own (ARCHITECTURE.md, "apply scopes").`,
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
  *check({ subjects, lookup }) {
    // Each definition reports itself (a rule reports on its own subjects, so a check can run for one file alone).
    for (const dup of subjects.resources) {
      // Only what one apply creates at once can clash: the documents of one file (model/project.ts).
      const all = lookup.get(dup.kind, dup.namespace, dup.name).filter((o) => o.uri === dup.uri);
      if (all.length < 2) continue;
      const others = all.filter((o) => o !== dup);
      yield {
        uri: dup.uri,
        span: dup.nameSpan,
        message: `${dup.kind} "${dup.name}" in namespace "${dup.namespace}" is defined ${all.length} times in this file; only one can exist, and whichever is applied last replaces the others.`,
        resource: refOf(dup),
        related: others.map((o) => ({ uri: o.uri, span: o.nameSpan, message: `Another definition of ${o.kind} "${o.name}"` })),
      };
    }
  },
};
