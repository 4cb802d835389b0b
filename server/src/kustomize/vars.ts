// A kustomization's `vars`: `$(NAME)` in the varReference fields replaced by a field of the object a var names, as
// Kustomize does (api/internal/accumulator ResAccumulator.MergeVars and ResolveVars, api/filters/refvar).
//
// Each kustomization, after its transformers, marks the one object its vars name (by any id the object has had, so
// a later rename keeps the mark) and adds the vars to the build's set (a name twice fails). At the root, once names
// are final (hashes, name references), each var's value is read from its object and replaced in the varReference
// fields (the built-in ones and the configured ones) of every object. A var whose value or path this renderer does
// not read as Kustomize does (a map or list, a float, an indexed path) is not evaluated (the real Kustomize may run).

import { phrase } from '../l10n/l10n';
import { gvkSelected, varReferenceSpecs, type FieldSpec, type Gvk } from './fieldSpecs';
import { structField, get, scalar, type KMap, type KNode, type KScalar, type Src } from './tree';
import { Stop, type Kust, type Res } from './buildContext';
import { curId, effectiveNs, gvkEquals, isClusterScoped } from './identity';
import { keySrc, srcOf } from './load';
import { visitField } from './transformers';

export interface Var {
  readonly name: string;
  readonly gvk: Gvk;
  readonly objName: string;
  readonly namespace: string;
  readonly fieldPath: string;
  readonly src: Src;
}

function text(n: KNode | undefined, notRead: () => Stop): string {
  if (!n || (n.t === 's' && n.v === null)) return '';
  if (n.t !== 's' || typeof n.v !== 'string') throw notRead();
  return n.v;
}

function parseVar(k: Kust, item: KNode): Var {
  const src = srcOf(item, keySrc(k, 'vars'));
  const notRead = () => new Stop(src.uri, src.span, phrase('this var is not read here as Kustomize reads it'), true, true);
  if (item.t !== 'm') throw notRead();
  const known: Record<string, readonly string[]> = {
    top: ['name', 'objref', 'fieldref'],
    objref: ['apiversion', 'group', 'version', 'kind', 'name', 'namespace'],
    fieldref: ['fieldpath'],
  };
  const only = (m: KMap, which: string) => {
    if (m.e.some((e) => !known[which].includes(e.k.toLowerCase()))) throw notRead();
  };
  only(item, 'top');
  const name = text(structField(item, 'name', notRead), notRead);
  const objref = structField(item, 'objref', notRead);
  const fieldref = structField(item, 'fieldref', notRead);
  if (!name || !objref || objref.t !== 'm' || (fieldref && !(fieldref.t === 'm' || (fieldref.t === 's' && fieldref.v === null)))) throw notRead();
  only(objref, 'objref');
  if (fieldref?.t === 'm') only(fieldref, 'fieldref');
  let group = text(structField(objref, 'group', notRead), notRead);
  let version = text(structField(objref, 'version', notRead), notRead);
  const apiVersion = text(structField(objref, 'apiVersion', notRead), notRead);
  if (apiVersion) {
    const parts = apiVersion.split('/');
    if (parts.length > 2) throw notRead();
    if (parts.length === 2) [group, version] = parts;
    else version = parts[0];
  }
  const kind = text(structField(objref, 'kind', notRead), notRead);
  const fieldPath = (fieldref?.t === 'm' && text(structField(fieldref, 'fieldPath', notRead), notRead)) || 'metadata.name';
  return {
    name,
    gvk: { group, version, kind },
    objName: text(structField(objref, 'name', notRead), notRead),
    namespace: text(structField(objref, 'namespace', notRead), notRead),
    fieldPath,
    src,
  };
}

/** ResAccumulator.MergeVars for `k`'s vars, after its transformers: marks the object each names, adds them to `vars`. */
export function mergeVars(k: Kust, ra: readonly Res[], vars: Var[]): void {
  const list = get(k.node, 'vars');
  if (!list || (list.t === 's' && list.v === null)) return;
  if (list.t !== 'q') throw new Stop(k.uri, keySrc(k, 'vars').span, phrase('this var is not read here as Kustomize reads it'), true, true);
  const incoming = list.items.map((i) => parseVar(k, i));
  for (const v of incoming) {
    const target = { gvk: v.gvk, name: v.objName, namespace: v.namespace };
    const withNs = v.namespace !== '' || isClusterScoped(v.gvk);
    const matched = ra.filter((r) =>
      [...r.prevIds, curId(r)].some((id) => id.name === target.name && gvkEquals(id.gvk, target.gvk) && (!withNs || effectiveNs(id) === effectiveNs(target))),
    );
    if (matched.length > 1)
      throw new Stop(v.src.uri, v.src.span, phrase('found {0} resId matches for var {1} (unable to disambiguate)', matched.length, v.name));
    // the mark is the object's (Resource.AppendRefVarName): copies of a kept build keep it
    if (matched.length === 1) matched[0].refVars = [...(matched[0].refVars ?? []), v.name];
  }
  addVars(vars, incoming);
}

/** VarSet.MergeSlice: a var name already in the set fails the build. */
export function addVars(into: Var[], incoming: readonly Var[]): void {
  for (const v of incoming) {
    if (into.some((x) => x.name === v.name)) throw new Stop(v.src.uri, v.src.span, phrase("var '{0}' already encountered", v.name));
    into.push(v);
  }
}

type Value = string | number | boolean;

/** ResAccumulator.ResolveVars, at the root once names are final. */
export function resolveVars(ra: readonly Res[], vars: readonly Var[], configured: readonly FieldSpec[]): void {
  if (!vars.length) return;
  const values = new Map<string, Value>();
  for (const v of [...vars].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const r = ra.find((x) => x.refVars?.includes(v.name));
    if (!r) throw new Stop(v.src.uri, v.src.span, phrase("var '{0}' cannot be mapped to a field in the set of known resources", v.name));
    values.set(v.name, fieldValue(r, v));
  }
  const specs = [...varReferenceSpecs, ...configured];
  for (const r of ra) {
    for (const spec of specs) {
      if (!gvkSelected(curId(r).gvk, spec)) continue;
      visitField(r.node, spec.path, false, r.docSrc ?? { uri: '', span: { start: 0, end: 0 } }, (parent, key) => {
        const e = parent.e.find((x) => x.k === key);
        if (!e || (e.v.t === 's' && e.v.v === null)) return;
        const n = e.v;
        if (n.t === 's') e.v = replaced(n, values);
        else if (n.t === 'm') for (const x of n.e) x.v = x.v.t === 's' ? replaced(x.v, values) : x.v;
        else
          n.items = n.items.map((i) => {
            if (i.t !== 's' || typeof i.v !== 'string')
              throw new Stop(r.docSrc?.uri ?? '', r.docSrc?.span ?? { start: 0, end: 0 }, phrase('invalid value type expect a string'));
            return replaced(i, values);
          });
      });
    }
  }
}

/** The var's value: its object's field (GetFieldValue), a string, an integer or a boolean. */
function fieldValue(r: Res, v: Var): Value {
  const notRead = () =>
    new Stop(v.src.uri, v.src.span, phrase("the var '{0}' reads '{1}', which is not read here as Kustomize reads it", v.name, v.fieldPath), true, true);
  // Kustomize splits the path on dots (`\.` escapes one) and reads `[n]` and `[k=v]` segments: only plain ones here
  if (/[\\[\]]/.test(v.fieldPath)) throw notRead();
  let n: KNode | undefined = r.node;
  for (const seg of v.fieldPath.replace(/^\./, '').split('.')) {
    if (!n || n.t === 'q') throw notRead();
    n = n.t === 'm' ? get(n, seg) : undefined;
  }
  if (!n) throw new Stop(v.src.uri, v.src.span, phrase("field specified in var '{0}' not found in corresponding resource", v.name));
  if (n.t !== 's' || n.v === null) throw notRead();
  // an integer as strconv.Atoi reads its text; a float (printed as Go prints it) is not read here
  if (typeof n.v === 'number' && (!Number.isSafeInteger(n.v) || (n.raw !== undefined && !/^[-+]?(?:0|[1-9][0-9]*)$/.test(n.raw)))) throw notRead();
  return n.v;
}

/** A string field with its `$(NAME)` replaced (refvar's DoReplacements); other scalars are left as they are. */
function replaced(n: KScalar, values: ReadonlyMap<string, Value>): KScalar {
  if (typeof n.v !== 'string') return n;
  const out = doReplacements(n.v, values);
  if (out === n.v) return n;
  return scalar(out, n.src && { uri: n.src.uri, span: n.src.span, via: 'vars' });
}

export function doReplacements(input: string, values: ReadonlyMap<string, Value>): Value {
  const mapped = (name: string): Value => values.get(name) ?? `$(${name})`;
  let out = '';
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor++) {
    if (input[cursor] !== '$' || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const rest = input.slice(cursor + 1);
    let read: string;
    let isVar = false;
    let advance = 1;
    if (rest[0] === '$') read = '$';
    else if (rest[0] === '(') {
      const close = rest.indexOf(')', 1);
      if (close >= 0) {
        read = rest.slice(1, close);
        isVar = true;
        advance = close + 1;
      } else read = '$(';
    } else read = '$' + rest[0];
    if (isVar) {
      const value = mapped(read);
      if (input === `$(${read})`) return value;
      out += String(value);
    } else out += read;
    cursor += advance;
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}
