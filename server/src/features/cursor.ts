// What is under the cursor: the resource whose document holds the offset, and the chain of YAML keys down to it.

import type { Analysis } from '../analysis/analysis';
import { fileNamed } from '../model/cluster';
import type { Resource } from '../model/resources';
import { spanContains, type Span } from '../model/span';
import type { YNode } from '../model/yamlTree';
import { treeOf } from '../model/trees';

export interface PathStep {
  /** A mapping key, or an index into a sequence. */
  readonly key: string | number;
  readonly keySpan?: Span;
  /** The value under the key (or the sequence item). */
  readonly node: YNode;
  /** The mapping or sequence that holds this step. */
  readonly parent: YNode;
}

export interface CursorPlace {
  readonly resource: Resource;
  readonly path: readonly PathStep[];
  /** True when the cursor is on the last step's key rather than inside its value. */
  readonly onKey: boolean;
}

/** The innermost resource of `uri` whose span holds `offset` (a `kind: List` item before the list). */
export function resourceAt(analysis: Analysis, uri: string, offset: number): Resource | undefined {
  let best: Resource | undefined;
  // Only this file's resources: the cluster-wide list is large in a big workspace. A cluster's files are in URI
  // order (model/cluster.ts), so the file is found by a binary search, not a pass over every file.
  const file = fileNamed(analysis.cluster.files, uri);
  for (const r of file?.resources ?? []) {
    if (!spanContains(r.span, offset)) continue;
    if (!best || r.span.end - r.span.start < best.span.end - best.span.start) best = r;
  }
  return best;
}

export function placeAt(analysis: Analysis, uri: string, offset: number): CursorPlace | undefined {
  const resource = resourceAt(analysis, uri, offset);
  if (!resource) return undefined;
  // The path is read from the file's YAML tree, which is read again when the tree cache no longer holds it: only when
  // asked for (a hover on a workload's name needs the resource alone).
  let found: ReturnType<typeof pathAt> | undefined;
  const read = () => (found ??= pathAt(treeOf(resource), offset));
  return {
    resource,
    get path() {
      return read().path;
    },
    get onKey() {
      return read().onKey;
    },
  };
}

export function pathAt(root: YNode, offset: number): { path: PathStep[]; onKey: boolean } {
  const path: PathStep[] = [];
  let node: YNode | undefined = root;
  while (node) {
    let next: YNode | undefined;
    if (node.type === 'map') {
      for (const e of node.entries.values()) {
        if (spanContains(e.keySpan, offset) && offset < e.keySpan.end + 1) {
          path.push({ key: e.key, keySpan: e.keySpan, node: e.value, parent: node });
          return { path, onKey: true };
        }
        if (spanContains(e.value.span, offset)) {
          path.push({ key: e.key, keySpan: e.keySpan, node: e.value, parent: node });
          next = e.value;
          break;
        }
      }
    } else if (node.type === 'seq') {
      const parent: YNode = node;
      node.items.forEach((it, i) => {
        if (!next && spanContains(it.span, offset)) {
          path.push({ key: i, node: it, parent });
          next = it;
        }
      });
    }
    node = next;
  }
  return { path, onKey: false };
}

/** The string keys of a path, without sequence indexes: `spec.ports[0].name` → ['spec', 'ports', 'name']. */
export function keysOf(path: readonly PathStep[]): string[] {
  return path.filter((s) => typeof s.key === 'string').map((s) => s.key as string);
}

/** Whether `keys` ends with `suffix`. */
export function endsWith(keys: readonly string[], ...suffix: string[]): boolean {
  if (suffix.length > keys.length) return false;
  return suffix.every((k, i) => keys[keys.length - suffix.length + i] === k);
}
