// A small, read-only tree of one YAML document with a span on every node.
// It is what the model reads Kubernetes fields from: keys live in Maps (no prototype
// pitfalls with `__proto__` labels), aliases are shared rather than expanded.

import type { Span } from './span';

export type YNode = YMap | YSeq | YScalar;

export interface YEntry {
  readonly key: string;
  readonly keySpan: Span;
  readonly value: YNode;
}

export interface YMap {
  readonly type: 'map';
  readonly span: Span;
  readonly entries: ReadonlyMap<string, YEntry>;
}

export interface YSeq {
  readonly type: 'seq';
  readonly span: Span;
  readonly items: readonly YNode[];
}

export interface YScalar {
  readonly type: 'scalar';
  readonly span: Span;
  readonly value: string | number | boolean | null;
  /** True when the scalar was written in quotes (so `"8080"` is a string, not a number). */
  readonly quoted: boolean;
}

export function isMap(n: YNode | undefined): n is YMap {
  return n?.type === 'map';
}

export function isSeq(n: YNode | undefined): n is YSeq {
  return n?.type === 'seq';
}

/** The entry `key` of a mapping node, if the node is a mapping and has it. */
export function entry(n: YNode | undefined, key: string): YEntry | undefined {
  return isMap(n) ? n.entries.get(key) : undefined;
}

/**
 * The value at a path of up to four mapping keys, e.g. `at(doc, 'spec', 'template', 'spec')` (fixed parameters, not
 * a rest list: every object is read through here, and a list per call costs more than the lookups); `atPath` for a
 * path held in an array.
 */
export function at(n: YNode | undefined, k1: string, k2?: string, k3?: string, k4?: string): YNode | undefined {
  let cur = entry(n, k1)?.value;
  if (k2 === undefined || !cur) return cur;
  cur = entry(cur, k2)?.value;
  if (k3 === undefined || !cur) return cur;
  cur = entry(cur, k3)?.value;
  if (k4 === undefined || !cur) return cur;
  return entry(cur, k4)?.value;
}

/** The value at a path of mapping keys held in an array. */
export function atPath(n: YNode | undefined, path: readonly string[]): YNode | undefined {
  let cur = n;
  for (const key of path) {
    cur = entry(cur, key)?.value;
    if (!cur) return undefined;
  }
  return cur;
}

/** The items of a sequence node; an empty list for anything else. */
export function items(n: YNode | undefined): readonly YNode[] {
  return isSeq(n) ? n.items : [];
}

/** A string scalar's value (numbers and booleans are not strings). */
export function str(n: YNode | undefined): string | undefined {
  return n?.type === 'scalar' && typeof n.value === 'string' ? n.value : undefined;
}

/** A scalar's value as text, whatever its type; undefined for null, maps and sequences. */
export function text(n: YNode | undefined): string | undefined {
  if (n?.type !== 'scalar' || n.value === null) return undefined;
  return String(n.value);
}

/** A finite integer scalar's value. */
export function int(n: YNode | undefined): number | undefined {
  return n?.type === 'scalar' && typeof n.value === 'number' && Number.isInteger(n.value) ? n.value : undefined;
}

export function bool(n: YNode | undefined): boolean | undefined {
  return n?.type === 'scalar' && typeof n.value === 'boolean' ? n.value : undefined;
}

/** A mapping of strings to strings (labels, selectors, annotations); non-string values are skipped. */
export function stringMap(n: YNode | undefined): ReadonlyMap<string, string> {
  if (!isMap(n) || !n.entries.size) return noStrings;
  const out = new Map<string, string>();
  for (const [k, e] of n.entries) {
    const v = text(e.value);
    if (v !== undefined) out.set(k, v);
  }
  return out;
}

/**
 * The one empty map every absent `labels`, `annotations` or selector reads to (read-only, so it is never written):
 * most objects have no annotations, and an empty Map per object was 2 MB of the live heap at 10,000 resources.
 */
const noStrings: ReadonlyMap<string, string> = new Map();
