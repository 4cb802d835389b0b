// Object identities in a native Kustomize build: group/version/kind, name and namespace, the current and the original
// one (Kustomize's ResId and OrgId), and the history a rename leaves (prevIds).

import { clusterScopedGvks, type Gvk } from './fieldSpecs';
import { entry, get, map, scalar, set, str, type KMap, type KNode, type Src } from './tree';
import type { Id, Res } from './buildContext';

export function gvkOf(node: KNode): Gvk {
  const apiVersion = str(get(node, 'apiVersion')) ?? '';
  const i = apiVersion.lastIndexOf('/');
  return { group: i < 0 ? '' : apiVersion.slice(0, i), version: i < 0 ? apiVersion : apiVersion.slice(i + 1), kind: str(get(node, 'kind')) ?? '' };
}

export function nameOf(node: KNode): string {
  return str(get(get(node, 'metadata'), 'name')) ?? '';
}

export function namespaceOf(node: KNode): string {
  return str(get(get(node, 'metadata'), 'namespace')) ?? '';
}

export function curId(r: Res): Id {
  return { gvk: gvkOf(r.node), name: nameOf(r.node), namespace: namespaceOf(r.node) };
}

export function orgId(r: Res): Id {
  return r.prevIds[0] ?? curId(r);
}

export function isClusterScoped(gvk: Gvk): boolean {
  return clusterScopedGvks.has(`${gvk.kind} ${gvk.group}/${gvk.version}`);
}

export function effectiveNs(id: Id): string {
  if (isClusterScoped(id.gvk)) return '~cluster';
  return id.namespace === '' || id.namespace === 'default' ? 'default' : id.namespace;
}

export function gvkEquals(a: Gvk, b: Gvk): boolean {
  return a.group === b.group && a.version === b.version && a.kind === b.kind;
}

export function idEquals(a: Id, b: Id): boolean {
  return gvkEquals(a.gvk, b.gvk) && a.name === b.name && effectiveNs(a) === effectiveNs(b);
}

export function idText(id: Id): string {
  const gv = id.gvk.group ? `${id.gvk.group}/${id.gvk.version}` : id.gvk.version;
  return `${id.gvk.kind}.${gv} ${id.namespace ? id.namespace + '/' : ''}${id.name}`;
}

export function storePreviousId(r: Res): void {
  r.prevIds.push(curId(r));
}

export function metadata(r: Res, src?: Src): KMap {
  let m = get(r.node, 'metadata');
  if (!m || m.t !== 'm') {
    m = map([], src);
    set(r.node, 'metadata', m, src);
  }
  return m;
}

export function setMeta(r: Res, key: 'name' | 'namespace', value: string, src: Src): void {
  const m = metadata(r, src);
  const e = entry(m, key);
  if (e) e.v = scalar(value, src);
  else m.e.push({ k: key, ks: src, v: scalar(value, src) });
}
