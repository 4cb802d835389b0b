// The root's content hashes of generated ConfigMaps and Secrets in a native Kustomize build (api/hasher: the hash of
// the object's kind, name and data as Go's encoding/json writes them).

import { sha256Hex } from './sha256';
import { get, str, type KNode } from './tree';
import type { Res } from './buildContext';
import { gvkOf, nameOf, setMeta, storePreviousId } from './identity';

/** Go's encoding/json string escaping (HTML-safe), so hashes match Kustomize's. */
function goJsonString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

function goJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return '[' + v.map(goJson).join(',') + ']';
  const o = v as Record<string, unknown>;
  return (
    '{' +
    Object.keys(o)
      .sort()
      .map((key) => goJsonString(key) + ':' + goJson(o[key]))
      .join(',') +
    '}'
  );
}

function dataOf(node: KNode, key: string): unknown {
  const n = get(node, key);
  if (!n) return '';
  if (n.t === 's') return n.v === null ? '' : (str(n) ?? '');
  if (n.t !== 'm') return '';
  const o: Record<string, string> = {};
  for (const e of n.e) o[e.k] = str(e.v) ?? '';
  return o;
}

/**
 * The name suffix Kustomize gives a generated ConfigMap or Secret (api/hasher): SHA-256 of a JSON encoding of kind,
 * type, data and binaryData/stringData. Its `name` is always empty: Kustomize looks the name up as one field called
 * `metadata/name`, which no object has.
 */
export function contentHash(node: KNode): string {
  const name = '';
  const kind = str(get(node, 'kind'));
  let m: Record<string, unknown>;
  if (kind === 'ConfigMap') {
    m = { kind: 'ConfigMap', name, data: dataOf(node, 'data') };
    const bd = dataOf(node, 'binaryData');
    if (typeof bd === 'object') m.binaryData = bd;
  } else {
    m = { kind: 'Secret', type: str(get(node, 'type')) ?? '', name, data: dataOf(node, 'data') };
    const sd = dataOf(node, 'stringData');
    if (typeof sd === 'object') m.stringData = sd;
  }
  const hex = sha256Hex(goJson(m));
  return hex.slice(0, 10).replace(/[013ae]/g, (c) => ({ '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' })[c] as string);
}

export function addHashes(ra: readonly Res[]): void {
  for (const r of ra) {
    if (!r.needsHash) continue;
    const kind = gvkOf(r.node).kind;
    if (kind !== 'ConfigMap' && kind !== 'Secret') continue;
    const h = contentHash(r.node);
    storePreviousId(r);
    const nameNode = get(get(r.node, 'metadata'), 'name');
    // The hashed name is the generator's making: it maps to the generator's name line.
    const src = r.generatedBy ?? nameNode?.src;
    if (src) setMeta(r, 'name', `${nameOf(r.node)}-${h}`, src);
  }
}
