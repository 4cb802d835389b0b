// The patch transformers of a native Kustomize build: patchesStrategicMerge, patches (strategic merge or JSON 6902,
// with targets chosen by a selector) and patchesJson6902 (api/internal/builtins PatchTransformer,
// PatchStrategicMergeTransformer, PatchJson6902Transformer). The patch algorithms themselves are kustomize/patch.ts.

import type { Span } from '../model/span';
import { phrase } from '../l10n/l10n';
import { gvkSelected } from './fieldSpecs';
import { PatchError, applyJson6902, applyStrategicMerge } from './patch';
import {
  clone,
  dropBlankNulls,
  entry,
  explicitNulls,
  get,
  map,
  parseYaml,
  scalar,
  set,
  str,
  type KMap,
  type KNode,
  type KSeq,
  type ParseResult,
  type Src,
} from './tree';
import { basenameUri, dirnameUri, resolveUri } from './uriPath';
import { Stop, isFile, parseCached, readIn, type Ctx, type Id, type Kust, type Res } from './buildContext';
import { curId, effectiveNs, gvkOf, idEquals, idText, metadata, nameOf, namespaceOf, orgId } from './identity';
import { keySrc, srcOf, unreadable } from './load';

interface LoadedPatch {
  readonly docs: KNode[];
  readonly src: Src;
}

/** A patch's documents, from a file or inline; inline text is mapped back into the kustomization. */
function loadPatchText(ctx: Ctx, k: Kust, value: string, node: KNode, isPath: boolean, at: Src): LoadedPatch {
  const content = (parsed: ParseResult) => parsed.docs.map((d) => d.node).filter((d): d is KNode => d !== undefined && !(d.t === 's' && d.v === null));
  if (isPath) {
    const uri = resolveUri(k.dir, value);
    const text = readIn(ctx, k.dir, uri, at);
    if (text === undefined) throw unreadable(ctx, uri, at, phrase("cannot read the patch file '{0}'", value));
    const parsed = parseCached(ctx, text, uri);
    if (parsed.error) throw new Stop(uri, parsed.error.span, phrase('YAML error in the patch: {0}', parsed.error.message));
    return { docs: content(parsed), src: { uri, span: { start: 0, end: text.length } } };
  }
  // An inline patch is parsed once per kustomization text (kept in the parse cache under the kustomization's URI)
  // with its spans mapped into the kustomization; each use gets a copy.
  const key = `${k.uri}${inlineKey}${node.src?.span.start ?? 0}`;
  const whole = `${k.text}\u0000${value}`;
  let kept = ctx.parsed?.get(key);
  if (!kept || kept.text !== whole) {
    const parsed = parseYaml(value, k.uri);
    const remap = inlineMapper(k.text, node, value);
    const result: ParseResult = parsed.error ? { docs: [], error: { message: parsed.error.message, span: remap(parsed.error.span) } } : parsed;
    for (const d of result.docs) if (d.node) remapSpans(d.node, remap);
    kept = { text: whole, result };
    ctx.parsed?.set(key, kept);
  }
  const { error } = kept.result;
  if (error) throw new Stop(k.uri, error.span, phrase('YAML error in the inline patch: {0}', error.message));
  return { docs: content(kept.result).map(clone), src: at };
}

/** Separates a kustomization's URI from the place of an inline patch in parse-cache keys. */
export const inlineKey = '\u0000inline@';

function remapSpans(n: KNode, f: (s: Span) => Span): void {
  if (n.src) n.src = { ...n.src, span: f(n.src.span) };
  if (n.t === 'm')
    for (const e of n.e) {
      if (e.ks) e.ks = { ...e.ks, span: f(e.ks.span) };
      remapSpans(e.v, f);
    }
  else if (n.t === 'q') for (const i of n.items) remapSpans(i, f);
}

/** Maps offsets in a block scalar's value back to the kustomization text (other scalar styles: the whole scalar). */
function inlineMapper(text: string, node: KNode, value: string): (s: Span) => Span {
  const whole = node.src?.span ?? { start: 0, end: 0 };
  const source = text.slice(whole.start, whole.end);
  if (!/^[|>]/.test(source) || source.startsWith('>')) return () => whole;
  const valueLines: number[] = [0];
  for (let i = 0; i < value.length; i++) if (value[i] === '\n') valueLines.push(i + 1);
  const srcLines: number[] = [];
  let pos = whole.start + source.indexOf('\n') + 1;
  let indent = -1;
  while (pos <= whole.end && srcLines.length < valueLines.length) {
    const eol = text.indexOf('\n', pos);
    const line = text.slice(pos, eol < 0 ? text.length : eol);
    if (indent < 0 && line.trim()) indent = line.length - line.trimStart().length;
    srcLines.push(pos + Math.min(Math.max(indent, 0), line.length));
    if (eol < 0) break;
    pos = eol + 1;
  }
  const one = (o: number): number => {
    let lo = 0;
    let hi = valueLines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (valueLines[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    const base = srcLines[lo];
    return base === undefined ? whole.end : Math.min(base + (o - valueLines[lo]), whole.end);
  };
  return (s) => ({ start: one(s.start), end: one(s.end) });
}

function isJsonPatch(docs: readonly KNode[]): boolean {
  return docs.length === 1 && docs[0].t === 'q';
}

function patchIdMatches(r: Res, patch: KNode): boolean {
  const pid: Id = { gvk: gvkOf(patch), name: nameOf(patch), namespace: namespaceOf(patch) };
  return [curId(r), ...r.prevIds].some((x) => idEquals(x, pid));
}

function applySmp(r: Res, patch: KMap, at: Src): boolean {
  const name = nameOf(r.node);
  const ns = namespaceOf(r.node);
  const gvk = gvkOf(r.node);
  try {
    const keep = applyStrategicMerge(r.node, patch, gvk.kind);
    if (!keep) return false;
    dropBlankNulls(r.node);
  } catch (err) {
    if (err instanceof PatchError) throw new Stop(at.uri, at.span, err.reason, true);
    throw err;
  }
  if (r.node.e.length === 0) return false;
  // Kustomize keeps the target's identity when the patch does not allow a change.
  const meta = metadata(r);
  if (nameOf(r.node) !== name) set(meta, 'name', scalar(name));
  if (namespaceOf(r.node) !== ns) {
    if (ns) set(meta, 'namespace', scalar(ns));
  }
  return true;
}

function smpOnTargets(ra: Res[], targets: readonly Res[], patch: KMap, at: Src, retarget: boolean): Res[] {
  let out = ra;
  for (const r of targets) {
    let p = patch;
    if (retarget) {
      p = clone(patch);
      const meta = get(p, 'metadata');
      if (meta && meta.t === 'm') {
        meta.e = meta.e.filter((e) => e.k !== 'name' && e.k !== 'namespace');
      }
      p.e = p.e.filter((e) => e.k !== 'apiVersion' && e.k !== 'kind');
    }
    if (!applySmp(r, p, at)) out = out.filter((x) => x !== r);
  }
  return out;
}

export function patchStrategicMerge(ctx: Ctx, k: Kust, ra: Res[]): Res[] {
  const list = get(k.node, 'patchesStrategicMerge');
  if (!list || (list.t === 's' && list.v === null)) return ra;
  if (list.t !== 'q') throw new Stop(k.uri, keySrc(k, 'patchesStrategicMerge').span, phrase("'{0}' must be a list", 'patchesStrategicMerge'));
  for (const item of list.items) {
    const value = str(item) ?? '';
    const at = srcOf(item, keySrc(k, 'patchesStrategicMerge'));
    const puri = resolveUri(k.dir, value);
    const isPath = !value.includes('\n') && (isFile(ctx, puri) || !!ctx.fsys.list(dirnameUri(puri))?.includes(basenameUri(puri)));
    if (!isPath && !value.includes('\n') && !/:\s/.test(value)) throw new Stop(at.uri, at.span, phrase("cannot read the patch file '{0}'", value));
    const loaded = loadPatchText(ctx, k, value, item, isPath, at);
    for (const doc of loaded.docs) {
      if (doc.t !== 'm') throw new Stop(at.uri, at.span, phrase('a strategic-merge patch must be a map'));
      const targets = ra.filter((r) => patchIdMatches(r, doc));
      if (targets.length !== 1)
        throw new Stop(
          at.uri,
          at.span,
          phrase('no unique target for the patch of {0} {1} (found {2})', str(get(doc, 'kind')) ?? '?', nameOf(doc), targets.length),
        );
      ra = smpOnTargets(ra, targets, doc, at, false);
    }
  }
  return ra;
}

interface Selector {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

function readSelector(k: Kust, n: KNode | undefined, at: Src): Selector | undefined {
  if (!n || (n.t === 's' && n.v === null)) return undefined;
  if (n.t !== 'm') throw new Stop(at.uri, at.span, phrase('a patch target must be a map'));
  const s: Selector = {};
  for (const e of n.e) {
    const v = str(e.v);
    if (['group', 'version', 'kind', 'name', 'namespace', 'labelSelector', 'annotationSelector'].includes(e.k))
      (s as Record<string, string | undefined>)[e.k] = v;
    else throw new Stop(k.uri, e.ks?.span ?? at.span, phrase("unknown patch target field '{0}'", e.k));
  }
  return s;
}

function anchored(pattern: string, at: Src): RegExp {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch {
    throw new Stop(at.uri, at.span, phrase("the target pattern '{0}' is not a regular expression", pattern));
  }
}

function selectTargets(ra: readonly Res[], s: Selector, at: Src): Res[] {
  const ns = s.namespace ? anchored(s.namespace, at) : undefined;
  const nm = s.name ? anchored(s.name, at) : undefined;
  const labels = s.labelSelector ? parseLabelSelector(s.labelSelector, at) : undefined;
  const annotations = s.annotationSelector ? parseLabelSelector(s.annotationSelector, at) : undefined;
  return ra.filter((r) => {
    const cur = curId(r);
    const org = orgId(r);
    if (ns && !ns.test(effectiveNs(org)) && !ns.test(effectiveNs(cur))) return false;
    if (nm && !nm.test(org.name) && !nm.test(cur.name)) return false;
    if (!gvkSelected(cur.gvk, s)) return false;
    if (labels && !labels(stringsAt(r.node, ['metadata', 'labels']))) return false;
    if (annotations && !annotations(stringsAt(r.node, ['metadata', 'annotations']))) return false;
    return true;
  });
}

function stringsAt(n: KNode, path: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  let cur: KNode | undefined = n;
  for (const p of path) cur = get(cur, p);
  if (cur && cur.t === 'm') for (const e of cur.e) out[e.k] = str(e.v) ?? '';
  return out;
}

/** Kubernetes label-selector strings: `a=b`, `a==b`, `a!=b`, `a`, `!a`, `a in (x,y)`, `a notin (x)`, comma-joined. */
function parseLabelSelector(text: string, at: Src): (labels: Record<string, string>) => boolean {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  const tests = parts.map((raw) => {
    const p = raw.trim();
    let m: RegExpExecArray | null;
    if ((m = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(p))) {
      const [, key, op, vals] = m;
      const set = vals.split(',').map((v) => v.trim());
      return (l: Record<string, string>) => (op === 'in' ? key in l && set.includes(l[key]) : !(key in l) || !set.includes(l[key]));
    }
    if ((m = /^([^\s!=]+)\s*(==|=|!=)\s*([^\s]*)$/.exec(p))) {
      const [, key, op, val] = m;
      return (l: Record<string, string>) => (op === '!=' ? l[key] !== val : l[key] === val);
    }
    if ((m = /^!\s*([^\s!=]+)$/.exec(p))) {
      const key = m[1];
      return (l: Record<string, string>) => !(key in l);
    }
    if (/^[^\s!=()]+$/.test(p)) return (l: Record<string, string>) => p in l;
    throw new Stop(at.uri, at.span, phrase("cannot read the selector '{0}'", text));
  });
  return (l) => tests.every((t) => t(l));
}

export function patches(ctx: Ctx, k: Kust, ra: Res[]): Res[] {
  const list = get(k.node, 'patches');
  if (!list || (list.t === 's' && list.v === null)) return ra;
  if (list.t !== 'q') throw new Stop(k.uri, keySrc(k, 'patches').span, phrase("'{0}' must be a list", 'patches'));
  for (const item of list.items) {
    const at = srcOf(item, keySrc(k, 'patches'));
    if (item.t !== 'm') throw new Stop(at.uri, at.span, phrase('an entry of patches must be a map with path or patch'));
    const pathNode = get(item, 'path');
    const patchNode = get(item, 'patch');
    const options = get(item, 'options');
    if (options && options.t === 'm' && options.e.length)
      throw new Stop(at.uri, at.span, phrase('patch options (allowNameChange, allowKindChange) are not evaluated'), true);
    if (!!pathNode === !!patchNode) throw new Stop(at.uri, at.span, phrase('a patch needs exactly one of path and patch'));
    const value = str(pathNode ?? patchNode) ?? '';
    const loaded = loadPatchText(ctx, k, value, (pathNode ?? patchNode) as KNode, !!pathNode, at);
    const target = readSelector(k, get(item, 'target'), at);
    if (isJsonPatch(loaded.docs)) {
      if (!target) throw new Stop(at.uri, at.span, phrase('a JSON 6902 patch needs a target'));
      for (const r of selectTargets(ra, target, at)) json6902On(r, loaded.docs[0] as KSeq, at);
      continue;
    }
    for (const doc of loaded.docs) {
      if (doc.t !== 'm') throw new Stop(at.uri, at.span, phrase('a strategic-merge patch must be a map'));
      if (!target) {
        const targets = ra.filter((r) => patchIdMatches(r, doc));
        if (targets.length !== 1)
          throw new Stop(
            at.uri,
            at.span,
            phrase('no unique target for the patch of {0} {1} (found {2})', str(get(doc, 'kind')) ?? '?', nameOf(doc), targets.length),
          );
        ra = smpOnTargets(ra, targets, doc, at, false);
      } else ra = smpOnTargets(ra, selectTargets(ra, target, at), doc, at, true);
    }
  }
  return ra;
}

function json6902On(r: Res, ops: KSeq, at: Src): void {
  // Kustomize's objects carry internal annotations while it builds (removed before output), so a patch always finds a
  // `/metadata/annotations` map to add into, even where the file has none; an empty one is dropped at the end.
  const meta = get(r.node, 'metadata');
  if (meta && meta.t === 'm') {
    const a = entry(meta, 'annotations');
    if (!a) meta.e.push({ k: 'annotations', ks: meta.src, v: map([], meta.src) });
    else if (a.v.t === 's' && a.v.v === null) a.v = map([], a.v.src);
  }
  try {
    applyJson6902(r.node, ops);
    // Kustomize applies JSON patches to a JSON copy of the object: no value node is shared afterwards.
    r.node = clone(r.node);
    explicitNulls(r.node);
  } catch (err) {
    if (err instanceof PatchError) throw new Stop(at.uri, at.span, phrase('JSON patch on {0}: {1}', idText(curId(r)), err.reason));
    throw err;
  }
}

export function patchesJson6902(ctx: Ctx, k: Kust, ra: Res[]): void {
  const list = get(k.node, 'patchesJson6902');
  if (!list || (list.t === 's' && list.v === null)) return;
  if (list.t !== 'q') throw new Stop(k.uri, keySrc(k, 'patchesJson6902').span, phrase("'{0}' must be a list", 'patchesJson6902'));
  for (const item of list.items) {
    const at = srcOf(item, keySrc(k, 'patchesJson6902'));
    if (item.t !== 'm') throw new Stop(at.uri, at.span, phrase('an entry of patchesJson6902 must be a map'));
    const target = readSelector(k, get(item, 'target'), at);
    if (!target) throw new Stop(at.uri, at.span, phrase('a JSON 6902 patch needs a target'));
    const pathNode = get(item, 'path');
    const patchNode = get(item, 'patch');
    if (!!pathNode === !!patchNode) throw new Stop(at.uri, at.span, phrase('a patch needs exactly one of path and patch'));
    const loaded = loadPatchText(ctx, k, str(pathNode ?? patchNode) ?? '', (pathNode ?? patchNode) as KNode, !!pathNode, at);
    if (!isJsonPatch(loaded.docs)) throw new Stop(at.uri, at.span, phrase('a JSON 6902 patch must be a list of operations'));
    for (const r of selectTargets(ra, target, at)) json6902On(r, loaded.docs[0] as KSeq, at);
  }
}
