// duplicate-resource: the same kind/namespace/name defined twice in what is applied at once; only one of them can exist.

import { messages } from '../l10n/l10n';
import { firstRelated, maxRelated } from './finding';
import { refOf } from './refOf';
import { defineRule } from './rule';

export const duplicateResource = defineRule({
  code: 'duplicate-resource',
  subjects: ['resources'],
  defaultSeverity: 'error',
  title: 'The same object is defined more than once',
  description: `Two documents of one file define the same kind, namespace and name. Only one can exist in the cluster: the one applied last silently replaces the other, so the analysis (and the cluster) may not be what either document says.

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
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    // Each definition reports itself (a rule reports on its own subjects, so a check can run for one file alone).
    // The same-file definitions of each name, found once per name: 4,000 copies of one object cost 4,000 steps, not 4,000².
    const sameFile = new Map<string, ReturnType<typeof lookup.get>>();
    for (const dup of subjects.resources) {
      // Only what one apply creates at once can clash: the documents of one file (model/project.ts).
      const key = `${dup.kind}\u0000${dup.namespace}\u0000${dup.name}\u0000${dup.uri}`;
      let all = sameFile.get(key);
      if (!all) sameFile.set(key, (all = lookup.get(dup.kind, dup.namespace, dup.name).filter((o) => o.uri === dup.uri)));
      if (all.length < 2) continue;
      // At most `maxRelated` others, found without copying the whole list (copies × copies otherwise).
      const others: (typeof all)[number][] = [];
      for (const o of all) {
        if (o === dup) continue;
        if (others.length > maxRelated) break;
        others.push(o);
      }
      const { related } = firstRelated(others, (o) => ({ uri: o.uri, span: o.nameSpan, message: msg('Another definition of {0} "{1}"', o.kind, o.name) }));
      yield {
        uri: dup.uri,
        span: dup.nameSpan,
        message: msg(
          '{0} "{1}" in namespace "{2}" is defined {3} times in this file; only one can exist, and whichever is applied last replaces the others.',
          dup.kind,
          dup.name,
          dup.namespace,
          all.length,
        ),
        resource: refOf(dup),
        related,
      };
    }
  },
});
