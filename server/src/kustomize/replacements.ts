// A kustomization's `replacements` (inline and `path:` files), the last of its builtin transformers
// (api/filters/replacement, plugin/builtin/replacementtransformer): a field
// of one selected object (source: select, fieldPath, delimiter and index) copied into fields of the selected objects
// (targets: select, reject, fieldPaths, create, delimiter and index).
//
// Only what is read here exactly as Kustomize reads it is evaluated; anything else stops the build as not evaluated
// (the real Kustomize may run): label and annotation selectors, wildcards, `[key=value]` in a source path or a
// created one, a list or map as the value or the target, a created index of a list, a value whose
// type in the target field this renderer would have to guess, the encoding option.

import { phrase, type Phrase } from '../l10n/l10n';
import { structField, entry, get, map, scalar, type KEntry, type KMap, type KNode, type KScalar, type Src } from './tree';
import { Stop, parseCached, readIn, type Ctx, type Id, type Kust, type Res } from './buildContext';
import { curId, effectiveNs } from './identity';
import { keySrc, srcOf, unreadable } from './load';
import { resolveUri } from './uriPath';

interface Selector {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
}

interface Options {
  readonly delimiter: string;
  readonly index: number;
  readonly create: boolean;
}

interface Target {
  readonly select: Selector;
  readonly reject: readonly Selector[];
  readonly fieldPaths: readonly string[];
  readonly options: Options;
}

interface Replacement {
  readonly source: Selector & { readonly fieldPath: string; readonly options: Options };
  readonly targets: readonly Target[];
  readonly src: Src;
}

class NotRead extends Error {}

/** A key of a map as Kustomize's structs read it (tree.ts `structField`); `null` is no value. */
function field(m: KMap, key: string): KNode | undefined {
  const v = structField(m, key, () => new NotRead());
  return v && v.t === 's' && v.v === null ? undefined : v;
}

function only(m: KNode, keys: readonly string[]): KMap {
  if (m.t !== 'm' || m.e.some((e) => !keys.includes(e.k.toLowerCase()))) throw new NotRead();
  return m;
}

function text(n: KNode | undefined): string {
  if (!n) return '';
  if (n.t !== 's' || typeof n.v !== 'string') throw new NotRead();
  return n.v;
}

function selector(n: KNode | undefined, extra: readonly string[] = []): Selector {
  if (!n) return { group: '', version: '', kind: '', name: '', namespace: '' };
  const m = only(n, ['group', 'version', 'kind', 'name', 'namespace', ...extra]);
  return {
    group: text(field(m, 'group')),
    version: text(field(m, 'version')),
    kind: text(field(m, 'kind')),
    name: text(field(m, 'name')),
    namespace: text(field(m, 'namespace')),
  };
}

function options(n: KNode | undefined): Options {
  if (!n) return { delimiter: '', index: 0, create: false };
  const m = only(n, ['delimiter', 'index', 'create']);
  const index = field(m, 'index');
  const create = field(m, 'create');
  if (index && !(index.t === 's' && typeof index.v === 'number' && Number.isSafeInteger(index.v))) throw new NotRead();
  if (create && !(create.t === 's' && typeof create.v === 'boolean')) throw new NotRead();
  return {
    delimiter: text(field(m, 'delimiter')),
    index: index ? ((index as KScalar).v as number) : 0,
    create: create ? (create as KScalar).v === true : false,
  };
}

function parse(k: Kust, item: KNode): Replacement {
  const src = srcOf(item, keySrc(k, 'replacements'));
  const m = only(item, ['source', 'targets']);
  const s = field(m, 'source');
  const t = field(m, 'targets');
  if (!s || !t) throw new Stop(src.uri, src.span, phrase('replacements must specify a source and at least one target'));
  const sm = only(s, ['group', 'version', 'kind', 'name', 'namespace', 'fieldpath', 'options']);
  if (t.t !== 'q') throw new NotRead();
  const targets = t.items.map((ti): Target => {
    const tm = only(ti, ['select', 'reject', 'fieldpaths', 'options']);
    const select = field(tm, 'select');
    if (!select) throw new Stop(src.uri, src.span, phrase('target must specify resources to select'));
    const reject = field(tm, 'reject');
    if (reject && reject.t !== 'q') throw new NotRead();
    const paths = field(tm, 'fieldPaths');
    if (paths && paths.t !== 'q') throw new NotRead();
    const fieldPaths = paths?.t === 'q' ? paths.items.map((p) => text(p)) : [];
    return {
      select: selector(select),
      reject: reject?.t === 'q' ? reject.items.map((r) => selector(r)) : [],
      fieldPaths: fieldPaths.length ? fieldPaths : ['metadata.name'],
      options: options(field(tm, 'options')),
    };
  });
  return {
    source: { ...selector(sm, ['fieldpath', 'options']), fieldPath: text(field(sm, 'fieldPath')) || 'metadata.name', options: options(field(sm, 'options')) },
    targets,
    src,
  };
}

function selects(id: Id, s: Selector): boolean {
  return (
    (!s.name || s.name === id.name) &&
    (!s.namespace || effectiveNs({ gvk: { group: s.group, version: s.version, kind: s.kind }, name: s.name, namespace: s.namespace }) === effectiveNs(id)) &&
    (!s.group || s.group === id.gvk.group) &&
    (!s.version || s.version === id.gvk.version) &&
    (!s.kind || s.kind === id.gvk.kind)
  );
}

function isEmpty(s: Selector): boolean {
  return !s.group && !s.version && !s.kind && !s.name && !s.namespace;
}

function idsOf(r: Res): Id[] {
  return [curId(r), ...r.prevIds];
}

function selectorText(s: Selector): string {
  return [s.kind, s.group && `${s.group}/${s.version}`, s.namespace, s.name].filter(Boolean).join(' ') || '{}';
}

/**
 * A field path as kyaml's SmarterPathSplitter splits it: on dots, `[a.b]` one segment. Only plain keys, bracketed
 * keys and list indexes are read here.
 */
function segments(path: string): string[] {
  if (/\\|\*/.test(path)) throw new NotRead();
  const out: string[] = [];
  const parts = path.split('.');
  if (parts.length > 1 && parts[0] === '') parts.shift();
  for (let i = 0; i < parts.length; i++) {
    let p = parts[i];
    if (p.startsWith('[') && !p.endsWith(']')) {
      while (i < parts.length - 1 && !p.endsWith(']')) p += '.' + parts[++i];
    }
    if (p.startsWith('[')) {
      if (!p.endsWith(']') || p.includes('=')) throw new NotRead();
      p = p.slice(1, -1);
    } else if (p.includes('[') || p.includes(']') || p === '') throw new NotRead();
    out.push(p);
  }
  return out;
}

function lookup(n: KNode | undefined, path: readonly string[]): KNode | undefined {
  for (const seg of path) {
    if (!n) return undefined;
    if (n.t === 'q') {
      if (!/^\d+$/.test(seg)) throw new NotRead();
      n = n.items[Number(seg)];
    } else if (n.t === 'm') n = get(n, seg);
    else return undefined;
  }
  return n;
}

function scalarText(n: KScalar): string {
  if (n.v === null) throw new NotRead();
  return n.raw ?? String(n.v);
}

/** The replacement transformer of `k`, after its other builtin transformers. */
export function replacementTransformer(ctx: Ctx, k: Kust, ra: readonly Res[]): void {
  const list = get(k.node, 'replacements');
  if (!list || (list.t === 's' && list.v === null)) return;
  const key = entry(k.node, 'replacements')?.ks;
  const at = key ? { uri: k.uri, span: key.span } : keySrc(k, 'replacements');
  let parsed: Replacement[];
  try {
    if (list.t !== 'q') throw new NotRead();
    parsed = list.items.flatMap((i) => (i.t === 'm' && field(i, 'path') ? fromFile(ctx, k, i) : [parse(k, i)]));
  } catch (e) {
    if (e instanceof NotRead) throw new Stop(at.uri, at.span, phrase('these replacements are not read here as Kustomize reads them'), true, true);
    throw e;
  }
  for (const r of parsed) {
    try {
      apply(r, ra);
    } catch (e) {
      if (e instanceof NotRead) throw new Stop(r.src.uri, r.src.span, phrase('this replacement is not evaluated here as Kustomize evaluates it'), true, true);
      throw e;
    }
  }
}

/** A `path:` entry: the file holds one replacement or a list of them (read through the load restrictor). */
function fromFile(ctx: Ctx, k: Kust, item: KMap): Replacement[] {
  const src = srcOf(item, keySrc(k, 'replacements'));
  if (field(item, 'source') || field(item, 'targets')) throw new Stop(src.uri, src.span, phrase('cannot specify both path and inline replacement'));
  only(item, ['path']);
  const path = text(field(item, 'path'));
  const uri = resolveUri(k.dir, path);
  const body = readIn(ctx, k.dir, uri, src);
  if (body === undefined) throw unreadable(ctx, uri, src, phrase("cannot read the file '{0}'", path));
  const parsed = parseCached(ctx, body, uri);
  const docs = parsed.docs.filter((d) => d.node && !(d.node.t === 's' && d.node.v === null));
  if (parsed.error || docs.length !== 1) throw new NotRead();
  const node = docs[0].node!;
  if (node.t === 'q') return node.items.map((i) => parse(k, i));
  if (node.t === 'm') return [parse(k, node)];
  throw new NotRead();
}

function apply(r: Replacement, ra: readonly Res[]): void {
  const fail = (message: Phrase) => new Stop(r.src.uri, r.src.span, message);
  const matches = ra.filter((x) => idsOf(x).some((id) => selects(id, r.source)));
  if (matches.length > 1) throw fail(phrase('multiple matches for selector {0}', selectorText(r.source)));
  if (!matches.length) throw fail(phrase('nothing selected by {0}', selectorText(r.source)));
  const found = lookup(matches[0].node, segments(r.source.fieldPath));
  if (!found || (found.t === 's' && found.v === null) || (found.t !== 's' && (found.t === 'm' ? !found.e.length : !found.items.length)))
    throw fail(phrase('fieldPath `{0}` is missing for replacement source {1}', r.source.fieldPath, selectorText(r.source)));
  if (found.t !== 's') throw new NotRead();
  let value = scalarText(found);
  if (r.source.options.delimiter) {
    const parts = value.split(r.source.options.delimiter);
    if (r.source.options.index >= parts.length || r.source.options.index < 0)
      throw fail(phrase('options.index {0} is out of bounds for value {1}', r.source.options.index, value));
    value = parts[r.source.options.index];
  }
  const valueSrc = found.src && { uri: found.src.uri, span: found.src.span, via: 'replacements' };
  for (const t of r.targets) {
    for (const target of ra) {
      const ids = idsOf(target);
      if (!ids.some((id) => selects(id, t.select))) continue;
      if (t.reject.some((rj) => !isEmpty(rj) && ids.some((id) => selects(id, rj)))) continue;
      for (const fp of t.fieldPaths) setAt(target, targetSegments(fp), fp, value, t.options, valueSrc, fail);
    }
  }
}

/** A segment of a target's field path: a key, a list index, or `[key=value]` (the list elements whose key holds value). */
type Segment = string | { readonly key: string; readonly value: string };

function targetSegments(path: string): Segment[] {
  if (/\\|\*/.test(path)) throw new NotRead();
  const matchers = new Map<string, { key: string; value: string }>();
  // `[key=value]` is one segment whatever dots the value holds
  const plain = path.replace(/\[([^\]=]+)=([^\]]*)\]/g, (_m, key: string, value: string) => {
    const mark = `\u0000${matchers.size}`;
    matchers.set(mark, { key, value });
    return mark;
  });
  return segments(plain).map((seg) => matchers.get(seg) ?? seg);
}

/**
 * kyaml's PathMatcher and the replacement's setter: every field the path reaches (a `[key=value]` segment reaches
 * each matching element) gets the value; with `create`, missing map keys are made on the way. Nothing reached fails.
 */
function setAt(target: Res, path: readonly Segment[], fp: string, value: string, o: Options, src: Src | undefined, fail: (m: Phrase) => Stop): void {
  const sets: (() => void)[] = [];
  const walk = (n: KNode, i: number): void => {
    const seg = path[i];
    const last = i === path.length - 1;
    if (n.t === 'q') {
      if (typeof seg !== 'string') {
        const items = n.items.filter((item) => {
          if (item.t !== 'm') throw new NotRead();
          const v = get(item, seg.key);
          if (!v) return false;
          if (v.t !== 's' || v.v === null) throw new NotRead();
          return scalarText(v) === seg.value;
        });
        if (!items.length && o.create) throw new NotRead();
        if (last) {
          if (items.length) throw new NotRead();
          return;
        }
        for (const item of items) walk(item, i + 1);
        return;
      }
      if (!/^\d+$/.test(seg)) throw new NotRead();
      const index = Number(seg);
      const item: KNode | undefined = n.items[index];
      if (!item) {
        if (o.create) throw new NotRead();
        return;
      }
      if (last) {
        if (item.t !== 's') throw new NotRead();
        sets.push(() => (n.items[index] = newValue(item, value, o, src)));
        return;
      }
      walk(item, i + 1);
      return;
    }
    if (n.t !== 'm' || typeof seg !== 'string') throw new NotRead();
    const e: KEntry | undefined = n.e.find((x) => x.k === seg);
    // a null target would keep its null tag under the new text: not evaluated here
    if (e && e.v.t === 's' && e.v.v === null) throw new NotRead();
    if (!e) {
      if (!o.create) return;
      // a created field: a map on the way (a list when the next segment is an index is not created here)
      if (!last && (typeof path[i + 1] !== 'string' || /^\d+$/.test(path[i + 1] as string))) throw new NotRead();
      if (last) {
        const made = createdValue(value, o, src);
        sets.push(() => n.e.push({ k: seg, ks: src, v: made }));
        return;
      }
      const made = map([], src);
      n.e.push({ k: seg, ks: src, v: made });
      walk(made, i + 1);
      return;
    }
    if (last) {
      if (e.v.t !== 's') throw new NotRead();
      const cur = e.v;
      sets.push(() => (e.v = newValue(cur, value, o, src)));
      return;
    }
    walk(e.v, i + 1);
  };
  walk(target.node, 0);
  if (!sets.length)
    throw fail(
      o.create ? phrase('unable to find or create field "{0}" in replacement target', fp) : phrase('unable to find field "{0}" in replacement target', fp),
    );
  for (const set of sets) set();
}

/** A created field holds the text as a plain scalar does: only a value that reads back as a string is created here. */
function createdValue(value: string, o: Options, src: Src | undefined): KScalar {
  if (o.delimiter) throw new NotRead();
  if (!/^[A-Za-z_/][A-Za-z0-9_./:@-]*$/.test(value) || /^(?:true|false|null|yes|no|on|off|y|n|~)$/i.test(value)) throw new NotRead();
  return scalar(value, src);
}

/** The target's text replaced (or its delimited part), its type kept: Kustomize sets the node's value, not its tag. */
function newValue(cur: KScalar, value: string, o: Options, src: Src | undefined): KScalar {
  let textValue = value;
  if (o.delimiter) {
    const parts = scalarText(cur).split(o.delimiter);
    if (o.index < 0) parts.unshift(value);
    else if (o.index >= parts.length) parts.push(value);
    else parts[o.index] = value;
    textValue = parts.join(o.delimiter);
  }
  if (typeof cur.v === 'string') return scalar(textValue, src);
  if (typeof cur.v === 'number' && /^(?:0|-?[1-9][0-9]*)$/.test(textValue) && Number.isSafeInteger(Number(textValue))) return scalar(Number(textValue), src);
  if (typeof cur.v === 'boolean' && (textValue === 'true' || textValue === 'false')) return scalar(textValue === 'true', src);
  throw new NotRead();
}
