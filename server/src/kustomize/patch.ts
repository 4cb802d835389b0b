// Patches as Kustomize applies them: strategic merge (the kyaml merge Kustomize v5 uses, including its list order:
// the patch's elements first, and its handling of multi-key lists such as ports) and JSON 6902.

import { messages, phrase, say, type Phrase } from '../l10n/l10n';
import { clone, get, scalar, str, type KMap, type KNode, type KSeq } from './tree';
import { mergeKeys } from './fieldSpecs';

/** A patch Kustomize refuses to apply: the reason is a phrase of the catalogue (Kustomize's words as the English template). */
export class PatchError extends Error {
  constructor(readonly reason: Phrase) {
    super(say(reason, messages(undefined)));
  }
}

/** Kinds of the Kubernetes API schema Kustomize carries: their lists merge by key; other kinds' lists are replaced. */
const schemaKinds = new Set([
  'Pod',
  'PodTemplate',
  'Deployment',
  'ReplicaSet',
  'DaemonSet',
  'StatefulSet',
  'Job',
  'CronJob',
  'ReplicationController',
  'Service',
  'ConfigMap',
  'Secret',
  'ServiceAccount',
  'Ingress',
  'NetworkPolicy',
  'PersistentVolumeClaim',
  'PersistentVolume',
  'Namespace',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'HorizontalPodAutoscaler',
  'PodDisruptionBudget',
  'Endpoints',
  'EndpointSlice',
  'LimitRange',
  'ResourceQuota',
  'StorageClass',
  'PriorityClass',
  'IngressClass',
]);

function isNullNode(n: KNode | undefined): boolean {
  return !n || (n.t === 's' && n.v === null);
}

function isEmptyMap(n: KNode | undefined): boolean {
  return !!n && n.t === 'm' && n.e.length === 0;
}

function directive(n: KNode): string | undefined {
  if (n.t !== 'm') return undefined;
  const d = get(n, '$patch');
  return d ? str(d) : undefined;
}

function withoutDirective(n: KMap): KMap {
  n.e = n.e.filter((e) => e.k !== '$patch');
  return n;
}

/** Applies a strategic-merge patch to an object (in place). Returns false when the patch deletes the object. */
export function applyStrategicMerge(target: KMap, patch: KMap, kind: string): boolean {
  const p = clone(patch);
  const d = directive(p);
  if (d === 'delete') return false;
  if (d === 'replace') {
    target.e = withoutDirective(p).e;
    return true;
  }
  const merged = mergeMap(target, p, schemaKinds.has(kind), []);
  if (!merged) return false;
  target.e = merged.e;
  return true;
}

function mergeNode(dest: KNode | undefined, origin: KNode | undefined, known: boolean, path: string[]): KNode | undefined {
  if (origin === undefined) return dest;
  if (origin.t === 'm') {
    if (isNullNode(dest) || dest === undefined) {
      if (directive(origin) === 'delete') return undefined;
      return stripDirectives(origin);
    }
    if (dest.t !== 'm') return stripDirectives(origin);
    return mergeMap(dest, origin, known, path);
  }
  if (origin.t === 'q') {
    if (isNullNode(dest) || dest === undefined || dest.t !== 'q') return origin;
    const keys = known ? listKeys(path, dest, origin) : undefined;
    if (!keys) return listDirective(origin) === 'delete' ? undefined : origin;
    const ld = listDirective(origin);
    if (ld === 'delete') return undefined;
    if (ld === 'replace') return origin;
    return mergeAssociative(dest, origin, keys, known, path);
  }
  if (origin.v === null) return undefined;
  return origin;
}

function stripDirectives(n: KNode): KNode {
  if (n.t === 'm') {
    withoutDirective(n);
    for (const e of n.e) stripDirectives(e.v);
  } else if (n.t === 'q') for (const i of n.items) stripDirectives(i);
  return n;
}

function listDirective(list: KSeq): string | undefined {
  for (let i = 0; i < list.items.length; i++) {
    const it = list.items[i];
    if (it.t === 'm' && it.e.length === 1 && it.e[0].k === '$patch') {
      list.items.splice(i, 1);
      return str(it.e[0].v);
    }
  }
  return undefined;
}

function mergeMap(dest: KMap, origin: KMap, known: boolean, path: string[]): KMap | undefined {
  const d = directive(origin);
  if (d === 'delete') return undefined;
  if (d === 'replace') return withoutDirective(origin);
  for (const oe of origin.e) {
    if (oe.k === '$patch') continue;
    if (oe.k.startsWith('$')) throw new PatchError(phrase("the strategic-merge directive '{0}' is not evaluated", oe.k));
    const i = dest.e.findIndex((e) => e.k === oe.k);
    const cur = i >= 0 ? dest.e[i].v : undefined;
    const next = isNullNode(oe.v) ? undefined : mergeNode(cur, oe.v, known, [...path, oe.k]);
    if (next !== undefined && cur !== undefined && cur.t === 's' && next.t === 's' && next !== cur) {
      // kyaml sets an existing scalar in place (its other occurrences change with it).
      cur.v = next.v;
      cur.raw = next.raw;
      cur.src = next.src;
      continue;
    }
    if (next === undefined) {
      if (i >= 0) dest.e.splice(i, 1);
    } else if (i >= 0) dest.e[i] = { k: dest.e[i].k, ks: next === cur ? dest.e[i].ks : (oe.ks ?? dest.e[i].ks), v: next };
    else dest.e.push({ k: oe.k, ks: oe.ks, v: next });
  }
  return dest;
}

function listKeys(path: readonly string[], dest: KSeq, origin: KSeq): string[] | undefined {
  const field = path[path.length - 1];
  if (field === 'ports') {
    const all = [...dest.items, ...origin.items];
    if (all.some((i) => get(i, 'containerPort') !== undefined)) return ['containerPort', 'protocol'];
    if (all.some((i) => get(i, 'port') !== undefined)) return ['port', 'protocol'];
    return undefined;
  }
  if (field === 'topologySpreadConstraints') return ['topologyKey', 'whenUnsatisfiable'];
  const k = mergeKeys[field];
  return k ? [k] : undefined;
}

// ---- kyaml's associative-list merge, step by step (walk/associative_sequence.go) --------------------------------

function fieldValue(el: KNode, key: string): string {
  if (el.t !== 'm') return '';
  const v = get(el, key);
  if (!v || (v.t === 's' && (v.v === null || v.v === ''))) return '';
  return str(v) ?? (v.t === 's' ? '' : 'x');
}

function matchElement(items: readonly KNode[], keys: readonly string[], values: readonly string[]): KNode | undefined {
  return items.find((el) => el.t === 'm' && keys.every((k, i) => fieldValue(el, k) === values[i]));
}

function validateKeys(valuesList: readonly string[][], values: readonly string[], keys: readonly string[]): [string[], string[]] {
  const valid = new Set<string>();
  for (const vs of valuesList) vs.forEach((v, i) => v !== '' && valid.add(keys[i]));
  if (!valid.size) return [[...keys], [...values]];
  return [keys.filter((k) => valid.has(k)), values.filter((v, i) => v !== '' || valid.has(keys[i]))];
}

function mergeValues(valuesList: string[][]): void {
  for (let i = 0; i < valuesList.length; i++)
    for (let j = 0; j < valuesList.length; j++) {
      const m = matchValues(valuesList[i], valuesList[j]);
      if (m) {
        valuesList[i] = m;
        valuesList[j] = m;
      }
    }
}

function matchValues(a: readonly string[], b: readonly string[]): string[] | undefined {
  if (a.length !== b.length) return undefined;
  let common = false;
  const res: string[] = [];
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) {
      common = true;
      res.push(a[i]);
      continue;
    }
    if (a[i] !== '' && b[i] !== '') return undefined;
    res.push(a[i] !== '' ? a[i] : b[i]);
  }
  return common ? res : undefined;
}

function fieldMatches(el: KNode, key: string, value: string): boolean {
  if (el.t !== 'm') return false;
  const v = get(el, key);
  if (v === undefined) return false;
  return value === '' || str(v) === value;
}

/** kyaml's ElementSetter: drops empty elements, removes those matching, and puts `element` in the first match's place or at the end. */
function elementSetter(list: KNode[], keys: readonly string[], values: readonly string[], element: KNode | undefined): KNode[] {
  const out: KNode[] = [];
  let found = false;
  const mappingSetter = keys.length > 0 && keys[0] !== '' && values.length > 0 && values[0] !== '';
  for (const el of list) {
    if (isNullNode(el) || isEmptyMap(el)) continue;
    if (el.t !== 'm' && mappingSetter) {
      out.push(el);
      continue;
    }
    let ok = true;
    let matched = false;
    for (let j = 0; j < keys.length; j++) {
      if (j < values.length) matched = keys[j] === '' ? el.t === 's' && str(el) === values[j] : fieldMatches(el, keys[j], values[j]);
      if (!matched) {
        ok = false;
        break;
      }
    }
    if (!ok) {
      if (values.length > 0) out.push(el);
      continue;
    }
    found = true;
    if (element) out.push(element);
  }
  if (element && !found) out.push(element);
  return out;
}

function mergeAssociative(dest: KSeq, origin: KSeq, keys: readonly string[], known: boolean, path: string[]): KSeq {
  const valuesList: string[][] = [];
  const seen = new Set<string>();
  for (const src of [origin, dest])
    for (const el of src.items) {
      const vs = keys.map((k) => fieldValue(el, k));
      const id = JSON.stringify(vs);
      if (seen.has(id)) continue;
      seen.add(id);
      valuesList.push(vs);
    }
  if (keys.length > 1) mergeValues(valuesList);
  let destItems = dest.items;
  let items: KNode[] = [];
  let validKeys: string[] = [...keys];
  for (const values of valuesList) {
    if (!values.length) continue;
    const [vk, vv] = validateKeys(valuesList, values, keys);
    validKeys = vk;
    const d = matchElement(destItems, vk, vv);
    const o = matchElement(origin.items, vk, vv);
    let val: KNode | undefined;
    if (o === undefined) val = d;
    else if (d === undefined) val = directive(o) === 'delete' ? undefined : stripDirectives(o);
    else val = mergeNode(d, o, known, path);
    if (isNullNode(val) || isEmptyMap(val) || val === undefined) {
      destItems = elementSetter(destItems, vk, vv, undefined);
      continue;
    }
    if (val.t === 'm') vk.forEach((k, i) => get(val, k) === undefined && vv[i] !== '' && (val as KMap).e.push({ k, v: scalar(vv[i]) }));
    items = elementSetter(items, vk, vv, val);
  }
  // appendListNode(itemsToBeAdded, dest): the destination's elements, merged in place, set again in their order.
  for (const el of destItems) {
    const v: string[] = [];
    for (const k of validKeys) {
      const fv = get(el, k);
      if (fv === undefined) {
        items.push(el);
        continue;
      }
      v.push(str(fv) ?? '');
    }
    if (validKeys.length > 1) items = elementSetter(items, validKeys, v, undefined);
    items = elementSetter(items, validKeys, v, el);
  }
  return { t: 'q', items, src: dest.src };
}

// ---- JSON 6902 ---------------------------------------------------------------------------------------------------

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new PatchError(phrase("the JSON pointer '{0}' does not start with '/'", path));
  return path
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(root: KNode, parts: readonly string[], path: string): KNode {
  let n: KNode | undefined = root;
  for (const p of parts.slice(0, -1)) {
    n = child(n, p);
    if (!n) throw new PatchError(phrase("the path '{0}' does not exist in the object", path));
  }
  return n as KNode;
}

function child(n: KNode | undefined, p: string): KNode | undefined {
  if (!n) return undefined;
  if (n.t === 'm') return get(n, p);
  if (n.t === 'q') {
    if (!/^(0|[1-9][0-9]*)$/.test(p)) return undefined;
    return n.items[Number(p)];
  }
  return undefined;
}

function index(list: KSeq, p: string, path: string, forAdd: boolean): number {
  if (forAdd && p === '-') return list.items.length;
  if (!/^(0|[1-9][0-9]*)$/.test(p)) throw new PatchError(phrase("'{0}' in '{1}' is not an index", p, path));
  const i = Number(p);
  if (i > list.items.length || (!forAdd && i >= list.items.length)) throw new PatchError(phrase("the index {0} in '{1}' is out of range", p, path));
  return i;
}

function getAt(root: KNode, path: string): KNode {
  const parts = pointer(path);
  let n: KNode | undefined = root;
  for (const p of parts) n = child(n, p);
  if (!n) throw new PatchError(phrase("the path '{0}' does not exist in the object", path));
  return n;
}

function removeAt(root: KNode, path: string): KNode {
  const parts = pointer(path);
  if (!parts.length) throw new PatchError(phrase('cannot remove the whole object'));
  const parent = parentOf(root, parts, path);
  const last = parts[parts.length - 1];
  if (parent.t === 'm') {
    const i = parent.e.findIndex((e) => e.k === last);
    if (i < 0) throw new PatchError(phrase("the path '{0}' does not exist in the object", path));
    return parent.e.splice(i, 1)[0].v;
  }
  if (parent.t === 'q') return parent.items.splice(index(parent, last, path, false), 1)[0];
  throw new PatchError(phrase("the path '{0}' does not exist in the object", path));
}

function addAt(root: KNode, path: string, value: KNode, keySrc: KMap['e'][number]['ks'], replace: boolean): void {
  const parts = pointer(path);
  if (!parts.length) throw new PatchError(phrase('cannot replace the whole object'));
  const parent = parentOf(root, parts, path);
  const last = parts[parts.length - 1];
  if (parent.t === 'm') {
    const i = parent.e.findIndex((e) => e.k === last);
    // A `replace` of a key its map lacks adds it: the JSON patch library Kustomize uses (evanphx/json-patch v4) only
    // requires the parent to exist (semantics differ from RFC 6902 here; Kustomize's output is the reference).
    if (i >= 0) parent.e[i] = { k: last, ks: parent.e[i].ks, v: value };
    else parent.e.push({ k: last, ks: keySrc, v: value });
    return;
  }
  if (parent.t === 'q') {
    if (replace) parent.items[index(parent, last, path, false)] = value;
    else parent.items.splice(index(parent, last, path, true), 0, value);
    return;
  }
  throw new PatchError(phrase("the path '{0}' does not exist in the object", path));
}

/** Applies JSON 6902 operations (a sequence of maps) to an object, in place. */
export function applyJson6902(target: KMap, ops: KSeq): void {
  for (const op of ops.items) {
    if (op.t !== 'm') throw new PatchError(phrase('a JSON patch operation must be a map'));
    const kind = str(get(op, 'op'));
    const path = str(get(op, 'path'));
    if (path === undefined) throw new PatchError(phrase('a JSON patch operation needs a path'));
    const value = get(op, 'value');
    const valueSrc = get(op, 'path')?.src;
    switch (kind) {
      case 'add':
      case 'replace':
        if (!value) throw new PatchError(phrase("the '{0}' operation on '{1}' has no value", kind, path));
        addAt(target, path, clone(value), valueSrc, kind === 'replace');
        break;
      case 'remove':
        removeAt(target, path);
        break;
      case 'move':
      case 'copy': {
        const from = str(get(op, 'from'));
        if (from === undefined) throw new PatchError(phrase("the '{0}' operation on '{1}' has no from", kind, path));
        const v = kind === 'move' ? removeAt(target, from) : clone(getAt(target, from));
        addAt(target, path, v, valueSrc, false);
        break;
      }
      case 'test': {
        // as evanphx/json-patch (Kustomize's): a missing member of a map that is there, or a null one, passes a
        // test of null (`value: null`); anything else there fails it
        const isNull = (n: KNode | undefined) => !n || (n.t === 's' && n.v === null);
        const parts = pointer(path);
        const parent = parts.length ? parentOf(target, parts, path) : undefined;
        if (parent?.t === 'm' && isNull(get(parent, parts[parts.length - 1]))) {
          if (!isNull(value)) throw new PatchError(phrase("the test of '{0}' failed", path));
          break;
        }
        const v = getAt(target, path);
        if (!value || JSON.stringify(plain(v)) !== JSON.stringify(plain(value))) throw new PatchError(phrase("the test of '{0}' failed", path));
        break;
      }
      default:
        throw new PatchError(phrase("unknown JSON patch operation '{0}'", kind ?? ''));
    }
  }
}

function plain(n: KNode): unknown {
  if (n.t === 's') return n.v;
  if (n.t === 'q') return n.items.map(plain);
  const o: Record<string, unknown> = {};
  for (const e of [...n.e].sort((a, b) => (a.k < b.k ? -1 : 1))) o[e.k] = plain(e.v);
  return o;
}
