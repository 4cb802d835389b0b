// configMapGenerator and secretGenerator in a native Kustomize build (api/kv, api/internal/generators): literals,
// files and env files, options, and how a generated object merges with or replaces one of the same name.

import { phrase } from '../l10n/l10n';
import { base64, utf8Bytes } from './sha256';
import { entry, get, map, scalar, set, str, type KMap, type KNode, type Src } from './tree';
import { basenameUri, resolveUri } from './uriPath';
import { Stop, readIn, type Ctx, type Kust, type Res } from './buildContext';
import { curId, effectiveNs, gvkEquals, idText, nameOf } from './identity';
import { keySrc, newRes, srcOf, stringMap, unreadable } from './load';

interface GenOptions {
  labels: { key: string; value: string; src: Src }[];
  annotations: { key: string; value: string; src: Src }[];
  disableHash: boolean;
  immutable: boolean;
}

function genOptions(k: Kust, n: KNode | undefined, base: GenOptions | undefined): GenOptions {
  const o: GenOptions = base
    ? { labels: [...base.labels], annotations: [...base.annotations], disableHash: base.disableHash, immutable: base.immutable }
    : { labels: [], annotations: [], disableHash: false, immutable: false };
  if (!n || n.t !== 'm') return o;
  const fb = keySrc(k, 'generatorOptions');
  o.labels.push(...stringMap(k, get(n, 'labels'), 'labels', fb));
  o.annotations.push(...stringMap(k, get(n, 'annotations'), 'annotations', fb));
  const dh = get(n, 'disableNameSuffixHash');
  if (dh && dh.t === 's') o.disableHash = dh.v === true;
  const im = get(n, 'immutable');
  if (im && im.t === 's') o.immutable = im.v === true;
  return o;
}

export function runGenerators(ctx: Ctx, k: Kust, ra: Res[]): void {
  const global = genOptions(k, get(k.node, 'generatorOptions'), undefined);
  for (const [field, kind] of [
    ['configMapGenerator', 'ConfigMap'],
    ['secretGenerator', 'Secret'],
  ] as const) {
    const list = get(k.node, field);
    if (!list || (list.t === 's' && list.v === null)) continue;
    if (list.t !== 'q') throw new Stop(k.uri, keySrc(k, field).span, phrase("'{0}' must be a list", field));
    for (const g of list.items) {
      if (g.t !== 'm') throw new Stop(k.uri, srcOf(g, keySrc(k, field)).span, phrase("an entry of '{0}' must be a map", field));
      const res = generate(ctx, k, g, kind, field, global);
      const behavior = str(get(g, 'behavior')) ?? 'create';
      absorb(ra, res, behavior, srcOf(g, keySrc(k, field)));
    }
  }
}

function generate(ctx: Ctx, k: Kust, g: KMap, kind: 'ConfigMap' | 'Secret', field: string, global: GenOptions): Res {
  const at = srcOf(g, keySrc(k, field));
  const nameNode = get(g, 'name');
  const name = str(nameNode);
  if (!name) throw new Stop(k.uri, at.span, phrase('a {0} entry needs a name', field));
  const via = { uri: k.uri, span: at.span, via: field };
  const entries: { key: string; value: string; src: Src }[] = [];
  const add = (key: string, value: string, src: Src) => {
    if (entries.some((e) => e.key === key)) throw new Stop(src.uri, src.span, phrase("{0} {1}: the key '{2}' is set twice", kind, name, key));
    entries.push({ key, value, src });
  };
  // `env: FILE`, the field before `envs`, is read after them (Kustomize's fix of legacy kustomizations).
  for (const f of listOf(k, g, 'envs', at).concat(listOf(k, g, 'env', at, true))) {
    const uri = resolveUri(k.dir, f.value);
    const text = readIn(ctx, k.dir, uri, f.src);
    if (text === undefined) throw unreadable(ctx, uri, f.src, phrase("cannot read the env file '{0}'", f.value));
    for (const [key, value] of parseEnvFile(text, f.src)) add(key, value, f.src);
  }
  for (const l of listOf(k, g, 'literals', at)) {
    const i = l.value.indexOf('=');
    if (i <= 0) throw new Stop(l.src.uri, l.src.span, phrase("the literal '{0}' is not KEY=VALUE", l.value));
    let value = l.value.slice(i + 1);
    if (value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))) value = value.slice(1, -1);
    add(l.value.slice(0, i), value, l.src);
  }
  for (const f of listOf(k, g, 'files', at)) {
    const i = f.value.indexOf('=');
    const key = i > 0 ? f.value.slice(0, i) : basenameUri(resolveUri(k.dir, f.value));
    const path = i > 0 ? f.value.slice(i + 1) : f.value;
    const uri = resolveUri(k.dir, path);
    const text = readIn(ctx, k.dir, uri, f.src);
    // the file, as Kustomize names it: `KEY=PATH` names the file PATH
    if (text === undefined) throw unreadable(ctx, uri, f.src, phrase("cannot read the file '{0}'", path));
    if (isBinary(text)) {
      // Kustomize puts such files in binaryData, base64-encoded from their bytes, which a text reader no longer has.
      throw new Stop(f.src.uri, f.src.span, phrase("the file '{0}' is binary, which is not evaluated", f.value), true);
    }
    add(key, text, f.src);
  }
  const opts = genOptions(k, get(g, 'options'), global);
  const node = map([], via);
  node.e.push({ k: 'apiVersion', ks: via, v: scalar('v1', via) });
  node.e.push({ k: 'kind', ks: via, v: scalar(kind, via) });
  const meta = map([], via);
  meta.e.push({ k: 'name', ks: via, v: scalar(name, { uri: k.uri, span: nameNode?.src?.span ?? at.span, via: field }) });
  const ns = str(get(g, 'namespace'));
  if (ns) meta.e.push({ k: 'namespace', ks: via, v: scalar(ns, srcOf(get(g, 'namespace'), via)) });
  if (opts.labels.length)
    meta.e.push({
      k: 'labels',
      ks: via,
      v: map(
        opts.labels.map((l) => ({ k: l.key, ks: l.src, v: scalar(l.value, l.src) })),
        via,
      ),
    });
  if (opts.annotations.length)
    meta.e.push({
      k: 'annotations',
      ks: via,
      v: map(
        opts.annotations.map((l) => ({ k: l.key, ks: l.src, v: scalar(l.value, l.src) })),
        via,
      ),
    });
  node.e.push({ k: 'metadata', ks: via, v: meta });
  if (kind === 'Secret') {
    const type = str(get(g, 'type')) ?? 'Opaque';
    node.e.push({ k: 'type', ks: via, v: scalar(type, srcOf(get(g, 'type'), via)) });
  }
  // a Secret always has data (`data: {}` when nothing is generated), a ConfigMap only when something is
  if (entries.length || kind === 'Secret')
    node.e.push({
      k: 'data',
      ks: via,
      v: map(
        entries.map((e) => ({ k: e.key, ks: e.src, v: scalar(kind === 'Secret' ? base64(utf8Bytes(e.value)) : e.value, e.src) })),
        via,
      ),
    });
  if (opts.immutable) node.e.push({ k: 'immutable', ks: via, v: scalar(true, via) });
  const res = newRes(node, via);
  res.needsHash = !opts.disableHash;
  res.generatedBy = { uri: k.uri, span: nameNode?.src?.span ?? at.span, via: field };
  return res;
}

function isBinary(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfffd || (c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 11)) return true;
  }
  return false;
}

export function listOf(k: Kust, g: KMap, key: string, at: Src, oneString = false): { value: string; src: Src }[] {
  const n = get(g, key);
  if (!n || (n.t === 's' && n.v === null)) return [];
  if (oneString && n.t === 's') return str(n) ? [{ value: str(n)!, src: srcOf(n, at) }] : [];
  if (n.t !== 'q') throw new Stop(k.uri, srcOf(n, at).span, phrase("'{0}' must be a list", key));
  return n.items.map((i) => ({ value: str(i) ?? '', src: srcOf(i, at) }));
}

/** An env file as Kustomize reads it: KEY=VALUE lines, `#` comments and blank lines skipped, a bare KEY is an error. */
function parseEnvFile(text: string, at: Src): [string, string][] {
  const out: [string, string][] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  lines.forEach((raw, n) => {
    const line = raw.replace(/\r$/, '');
    if (!line.trim() || line.trimStart().startsWith('#')) return;
    const i = line.indexOf('=');
    if (i < 0)
      throw new Stop(
        at.uri,
        at.span,
        phrase('line {0} of the env file is not KEY=VALUE (reading the value from the environment is not evaluated)', n + 1),
        true,
      );
    const key = line.slice(0, i).trimStart();
    if (!key || /\s/.test(key)) throw new Stop(at.uri, at.span, phrase('line {0} of the env file has an invalid key', n + 1));
    out.push([key, line.slice(i + 1)]);
  });
  return out;
}

function absorb(ra: Res[], res: Res, behavior: string, at: Src): void {
  const id = curId(res);
  const matches = ra.filter((r) => {
    const ids = [curId(r), ...r.prevIds];
    return ids.some((x) => gvkEquals(x.gvk, id.gvk) && x.name === id.name && (id.namespace === '' || effectiveNs(x) === effectiveNs(id)));
  });
  // Kustomize reads any other word (`add`, a typo) as unspecified, which it treats as create (types.NewGenerationBehavior).
  if (behavior !== 'merge' && behavior !== 'replace') {
    if (matches.length) throw new Stop(at.uri, at.span, phrase('{0} already exists; set behavior: merge or replace to change it', idText(id)));
    ra.push(res);
    return;
  }
  if (matches.length !== 1)
    throw new Stop(
      at.uri,
      at.span,
      phrase('behavior: {0} needs exactly one existing {1} named {2}, found {3}', behavior, id.gvk.kind, id.name, matches.length),
    );
  const old = matches[0];
  // Kustomize keeps the existing object's identity, labels and annotations (the generator's win), and for merge
  // its data too (resmap appendReplaceOrMerge, CopyMergeMetaDataFieldsFrom).
  const node = res.node;
  const meta = get(node, 'metadata') as KMap;
  set(meta, 'name', get(get(old.node, 'metadata'), 'name') ?? scalar(nameOf(old.node)));
  const oldNs = get(get(old.node, 'metadata'), 'namespace');
  if (oldNs) set(meta, 'namespace', oldNs);
  else meta.e = meta.e.filter((e) => e.k !== 'namespace');
  const fields: [KMap, KMap | undefined, string][] = [
    [meta, get(old.node, 'metadata') as KMap | undefined, 'labels'],
    [meta, get(old.node, 'metadata') as KMap | undefined, 'annotations'],
  ];
  if (behavior === 'merge') fields.push([node, old.node, 'data'], [node, old.node, 'binaryData']);
  for (const [into, from, field] of fields) {
    const before = get(from, field);
    if (!before || before.t !== 'm' || !before.e.length) continue;
    const mine = get(into, field);
    const merged = map(
      before.e.map((e) => ({ ...e })),
      before.src,
    );
    if (mine && mine.t === 'm') for (const e of mine.e) set(merged, e.k, e.v, e.ks);
    set(into, field, merged, entry(from as KMap, field)?.ks);
  }
  old.node = node;
  // The hash suffix stays only when both the existing object and the generator ask for one.
  old.needsHash = old.needsHash && res.needsHash;
  old.generatedBy = old.generatedBy ?? res.generatedBy;
}
