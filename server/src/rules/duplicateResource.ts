// duplicate-resource: the same kind/namespace/name defined twice; the API server keeps only one of them.

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
    // Every object with the same kind, namespace and name is in the same list (the namespace's, or the whole
    // cluster's), so counting keys there finds the candidates; only those are looked up.
    const count = new Map<string, number>();
    const keys = cluster.resources.map((r) => {
      const key = `${r.kind}/${r.namespace}/${r.name}`;
      count.set(key, (count.get(key) ?? 0) + 1);
      return key;
    });
    const seen = new Set<string>();
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (count.get(key)! < 2 || seen.has(key)) continue;
      const r = cluster.resources[i];
      const all = cluster.get(r.kind, r.namespace, r.name);
      if (all.length < 2) continue;
      seen.add(key);
      for (const dup of all) {
        const others = all.filter((o) => o !== dup);
        yield {
          uri: dup.uri,
          span: dup.nameSpan,
          message: `${dup.kind} "${dup.name}" in namespace "${dup.namespace}" is defined ${all.length} times; only one can exist, and whichever is applied last replaces the others.`,
          resource: refOf(dup),
          related: others.map((o) => ({ uri: o.uri, span: o.nameSpan, message: `Another definition of ${o.kind} "${o.name}"` })),
        };
      }
    }
  },
};
