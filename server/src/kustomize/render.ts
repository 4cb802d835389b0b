// `kustomize build`, natively: a kustomization folder + a read-only view of the files → the rendered objects as
// YAML text with a source map (model/rendered.ts). Pure: no file system, no state; every problem is a value.
// The order of steps follows Kustomize v5 (api/internal/target/kusttarget.go): resources, generators, components,
// then the built-in transformers in their fixed order; name hashes and name references are fixed once, at the root.

import type { LoadRestrictor } from '../model/config';
import type { RenderedUnit, RenderProblem } from '../model/rendered';
import type { Span } from '../model/span';
import { messages, phrase, say, worded, type Phrase } from '../l10n/l10n';
import { emitDocuments } from './emit';
import {
  clusterScopedGvks,
  commonAnnotationSpecs,
  commonLabelSpecs,
  gvkSelected,
  imageSpecs,
  metadataLabelSpec,
  nameReferences,
  orderFirst,
  orderLast,
  replicaSpecs,
  splitFieldPath,
  templateLabelSpecs,
  type FieldSpec,
  type Gvk,
} from './fieldSpecs';
import { notRewritten } from './notRewritten';
import { applyJson6902, applyStrategicMerge, PatchError } from './patch';
import { base64, sha256Hex, utf8Bytes } from './sha256';
import { clone, dropBlankNulls, entry, explicitNulls, get, map, parseYaml, scalar, set, str, type KEntry, type KMap, type KNode, type KScalar, type KSeq, type ParseResult, type Src, kustomizeOutputValues } from './tree';
import { basenameUri, dirnameUri, isWithin, relativeUri, resolveUri } from './uriPath';

/** A read-only view of the workspace, keyed by URI. */
export interface FileReader {
  /** A file's text, or undefined when there is no such file. */
  read(uri: string): string | undefined;
  /** The names (not URIs) of a folder's entries, or undefined when there is no such folder. */
  list(dirUri: string): readonly string[] | undefined;
  /**
   * The URI with every link in its path resolved (what `realpath` answers), spelt as the URI was; undefined when
   * nothing is there. A view without it has no links (texts in memory): paths are compared as written.
   */
  realUri?(uri: string): string | undefined;
}

export const kustomizationFileNames = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

/** Whether a URI or path names a kustomization file (asked of every file at every snapshot: no allocation). */
export function isKustomizationUri(uri: string): boolean {
  for (const n of kustomizationFileNames) {
    if (uri.endsWith(n) && (uri.length === n.length || uri.charCodeAt(uri.length - n.length - 1) === 47)) return true;
  }
  return false;
}

const maxDepth = 40;

/** The kustomization file of a folder, if it has one. */
export function kustomizationFileOf(fsys: FileReader, dirUri: string): string | undefined {
  const names = fsys.list(dirUri);
  if (!names) return undefined;
  for (const n of kustomizationFileNames) if (names.includes(n)) return resolveUri(dirUri, n);
  return undefined;
}

interface Id {
  readonly gvk: Gvk;
  readonly name: string;
  readonly namespace: string;
}

interface Res {
  node: KMap;
  docSrc?: Src;
  prevIds: Id[];
  prefixes: string[];
  suffixes: string[];
  needsHash: boolean;
  /** The generator entry that made the object, for the source of its hashed name. */
  generatedBy?: Src;
}

/**
 * Stops a render: something in the input Kustomize would refuse, or something not evaluated here. The reason is a
 * phrase when it is ours to word (what is not evaluated, the load restrictor); Kustomize's own error texts, which
 * the native renderer repeats so that they read as `kustomize build` prints them, stay as written.
 */
class Stop extends Error {
  constructor(
    readonly uri: string,
    readonly span: Span,
    readonly reason: string | Phrase,
    readonly notRendered = false,
  ) {
    super(typeof reason === 'string' ? reason : say(reason, messages(undefined)));
  }
}

interface Ctx {
  /** Read file contents only through readIn (the load restrictor); probes and listings may use it directly. */
  readonly fsys: FileReader;
  readonly inputs: Set<string>;
  readonly parsed?: ParseCache;
  readonly builds?: BuildCache;
  readonly restrictor: LoadRestrictor;
  /** A URI as messages show it: relative to the workspace, never an absolute path of the user's machine. */
  readonly shown: (uri: string) => string;
}

/**
 * The one reader of a file a kustomization loads: its kustomization file, resource files, patch files, generator
 * `files`, `envs` and `env`. It is Kustomize's FileLoader.Load (api/internal/loader/fileloader.go) under the load
 * restrictor: with LoadRestrictionsRootOnly, kustomize's default (loadrestrictions.go RestrictionRootOnly), the file
 * with every link resolved (kyaml filesys CleanedAbs: filepath.EvalSymlinks of the whole path) must lie in or below
 * `root`, the loading kustomization's folder with its links resolved (ConfirmDir; ConfirmedDir.HasPrefix), else the
 * build fails with kustomize's words "security; file '…' is not in or below '…'". An absolute path is held to the
 * same rule. A folder (a base, a component) is not loaded through here: kustomize's FileLoader.New gives it a loader
 * rooted at that folder, with no restriction against the referring root (only cycles are refused), and so does
 * accumulate(). Undefined: there is no such file. With LoadRestrictionsNone (the user's choice only) any file reads.
 */
function readIn(ctx: Ctx, root: string, uri: string, at: Src): string | undefined {
  if (ctx.restrictor !== 'none') {
    const resolved = ctx.fsys.realUri?.(uri);
    // nothing there (a reader that resolves links says so): Kustomize's file loader fails resolving the path
    // (its evalsymlink failure) before its restrictor looks, so the caller's 'not there' is the reason, inside or out
    if (ctx.fsys.realUri && resolved === undefined) {
      ctx.inputs.add(uri);
      return undefined;
    }
    const realRoot = ctx.fsys.realUri?.(root) ?? root;
    const real = resolved ?? uri;
    // the check comes before the read: a refused file's contents are never asked for
    if (!isWithin(realRoot, dirnameUri(real))) throw new Stop(at.uri, at.span, phrase("security; file '{0}' is not in or below '{1}'", ctx.shown(uri), ctx.shown(root)));
  }
  // an input of the build (rendered again when it changes); a refused file is not one: it is never read
  ctx.inputs.add(uri);
  return ctx.fsys.read(uri);
}

/** Whether a file is there (a probe: its text is not used). */
function isFile(ctx: Ctx, uri: string): boolean {
  return ctx.fsys.read(uri) !== undefined;
}

/**
 * Builds of included kustomizations (a base), by folder URI, shared by the renders of the roots that include them
 * (a base three overlays include is built once, not three times) and kept while every file and folder the build
 * looked at reads the same. What is kept is never changed: each use transforms a copy.
 */
export type BuildCache = Map<string, KeptBuild>;

interface KeptBuild {
  /** Every read, listing and link resolution the build made, with its answer (a listing as its names joined). */
  readonly reads: ReadonlyMap<string, string | undefined>;
  readonly lists: ReadonlyMap<string, string | undefined>;
  readonly reals: ReadonlyMap<string, string | undefined>;
  readonly restrictor: LoadRestrictor;
  readonly inputs: readonly string[];
  readonly objects: readonly Res[];
}

/**
 * Parsed YAML files by URI and text, shared by the renders of several roots (a base three overlays include is
 * parsed once). The renderer transforms copies; the cached trees are never changed.
 */
export type ParseCache = Map<string, { readonly text: string; readonly result: ParseResult }>;

/** The parse of a file from the cache (or parsed and cached): read-only, shared. */
export function parseShared(cache: ParseCache | undefined, text: string, uri: string): ParseResult {
  const hit = cache?.get(uri);
  if (hit && hit.text === text) return hit.result;
  const result = parseYaml(text, uri);
  cache?.set(uri, { text, result });
  return result;
}

function parseCached(ctx: Ctx, text: string, uri: string): ParseResult {
  const result = parseShared(ctx.parsed, text, uri);
  return { docs: result.docs.map((d) => ({ node: d.node && clone(d.node), span: d.span })), error: result.error };
}

interface Kust {
  readonly uri: string;
  readonly dir: string;
  readonly node: KMap;
  readonly text: string;
  /**
   * The fields not evaluated here, each with the stop it raises, in file order. They stop the build where Kustomize
   * would run them (kusttarget.go's accumulateTarget), not when the file is read: what Kustomize refuses earlier
   * (a resource it cannot load, a configuration file that is not there) is refused for its own reason first.
   */
  readonly notEvaluated: readonly { readonly field: string; readonly stop: Stop }[];
}

// ---- identities ------------------------------------------------------------------------------------------------

function gvkOf(node: KNode): Gvk {
  const apiVersion = str(get(node, 'apiVersion')) ?? '';
  const i = apiVersion.lastIndexOf('/');
  return { group: i < 0 ? '' : apiVersion.slice(0, i), version: i < 0 ? apiVersion : apiVersion.slice(i + 1), kind: str(get(node, 'kind')) ?? '' };
}

function nameOf(node: KNode): string {
  return str(get(get(node, 'metadata'), 'name')) ?? '';
}

function namespaceOf(node: KNode): string {
  return str(get(get(node, 'metadata'), 'namespace')) ?? '';
}

function curId(r: Res): Id {
  return { gvk: gvkOf(r.node), name: nameOf(r.node), namespace: namespaceOf(r.node) };
}

function orgId(r: Res): Id {
  return r.prevIds[0] ?? curId(r);
}

function isClusterScoped(gvk: Gvk): boolean {
  return clusterScopedGvks.has(`${gvk.kind} ${gvk.group}/${gvk.version}`);
}

function effectiveNs(id: Id): string {
  if (isClusterScoped(id.gvk)) return '~cluster';
  return id.namespace === '' || id.namespace === 'default' ? 'default' : id.namespace;
}

function gvkEquals(a: Gvk, b: Gvk): boolean {
  return a.group === b.group && a.version === b.version && a.kind === b.kind;
}

function idEquals(a: Id, b: Id): boolean {
  return gvkEquals(a.gvk, b.gvk) && a.name === b.name && effectiveNs(a) === effectiveNs(b);
}

function idText(id: Id): string {
  const gv = id.gvk.group ? `${id.gvk.group}/${id.gvk.version}` : id.gvk.version;
  return `${id.gvk.kind}.${gv} ${id.namespace ? id.namespace + '/' : ''}${id.name}`;
}

function storePreviousId(r: Res): void {
  r.prevIds.push(curId(r));
}

function metadata(r: Res, src?: Src): KMap {
  let m = get(r.node, 'metadata');
  if (!m || m.t !== 'm') {
    m = map([], src);
    set(r.node, 'metadata', m, src);
  }
  return m;
}

function setMeta(r: Res, key: 'name' | 'namespace', value: string, src: Src): void {
  const m = metadata(r, src);
  const e = entry(m, key);
  if (e) e.v = scalar(value, src);
  else m.e.push({ k: key, ks: src, v: scalar(value, src) });
}

// ---- the kustomization file ------------------------------------------------------------------------------------

const evaluated = new Set([
  'apiVersion', 'kind', 'metadata', 'resources', 'bases', 'components', 'namespace', 'namePrefix', 'nameSuffix',
  'commonLabels', 'labels', 'commonAnnotations', 'patches', 'patchesStrategicMerge', 'patchesJson6902', 'replicas',
  'images', 'configMapGenerator', 'secretGenerator', 'generatorOptions', 'sortOptions',
]);

const notEvaluatedWhy: Record<string, Phrase> = {
  replacements: phrase('replacements are not evaluated'),
  vars: phrase('vars are not evaluated'),
  helmCharts: phrase('Helm charts are not inflated'),
  helmGlobals: phrase('Helm charts are not inflated'),
  helmChartInflationGenerator: phrase('Helm charts are not inflated'),
  transformers: phrase('transformer configurations and plugins are not run'),
  generators: phrase('generator configurations and plugins are not run'),
  validators: phrase('validator plugins are not run'),
  configurations: phrase('custom transformer configurations are not read'),
  openapi: phrase('custom OpenAPI schemas are not read'),
  crds: phrase('CRD field specifications are not read'),
  buildMetadata: phrase('buildMetadata annotations are not written'),
};

function loadKustomization(ctx: Ctx, dir: string, at: Src | undefined): Kust {
  const names = ctx.fsys.list(dir);
  const present = kustomizationFileNames.filter((n) => names?.includes(n));
  const where = at ?? { uri: dir, span: { start: 0, end: 0 } };
  if (!present.length) throw new Stop(where.uri, where.span, `no kustomization.yaml, kustomization.yml or Kustomization in ${dir}`);
  if (present.length > 1) throw new Stop(where.uri, where.span, `${dir} holds more than one kustomization file (${present.join(', ')})`);
  const uri = resolveUri(dir, present[0]);
  // kusttarget.go loads the kustomization file through the folder's own loader, restricted like any other file
  const text = readIn(ctx, dir, uri, at ?? { uri, span: { start: 0, end: 0 } });
  if (text === undefined) throw unreadable(ctx, uri, where, `cannot read ${uri}`);
  const parsed = parseCached(ctx, text, uri);
  if (parsed.error) throw new Stop(uri, parsed.error.span, `YAML error in the kustomization: ${parsed.error.message}`);
  const docs = parsed.docs.filter((d) => d.node !== undefined);
  const first = docs[0]?.node;
  const node = !first || (first.t === 's' && first.v === null) ? map() : first;
  if (node.t !== 'm') throw new Stop(uri, docs[0]?.span ?? { start: 0, end: 0 }, 'the kustomization is not a map');
  // Kustomize refuses a kustomization without a field (an empty file, only comments, `{}`)
  if (!node.e.length) throw new Stop(uri, docs[0]?.span ?? { start: 0, end: 0 }, `${present[0]} is empty`);
  const notEvaluated: { field: string; stop: Stop }[] = [];
  for (const e of node.e) {
    if (evaluated.has(e.k)) continue;
    const why = notEvaluatedWhy[e.k];
    // a field that is not Kustomize's at all: Kustomize refuses the file as it reads it
    if (!why) throw new Stop(uri, e.ks?.span ?? { start: 0, end: 0 }, phrase("the field '{0}' is not a Kustomization field Kubernetes Network Lens evaluates", e.k), true);
    notEvaluated.push({ field: e.k, stop: new Stop(uri, e.ks?.span ?? { start: 0, end: 0 }, why, true) });
  }
  return { uri, dir, node, text, notEvaluated };
}

/**
 * The step of kusttarget.go's accumulateTarget that reads each field not evaluated here: after the resources the
 * transformer configurations, CRD field specifications and schema (and the build metadata); after the builtin
 * generators the Helm charts and generator plugins; after the components the transformers, validators, replacements
 * and vars.
 */
const notEvaluatedStep: Record<string, 'afterResources' | 'afterGenerators' | 'afterComponents'> = {
  configurations: 'afterResources',
  crds: 'afterResources',
  openapi: 'afterResources',
  buildMetadata: 'afterResources',
  helmCharts: 'afterGenerators',
  helmGlobals: 'afterGenerators',
  helmChartInflationGenerator: 'afterGenerators',
  generators: 'afterGenerators',
  transformers: 'afterComponents',
  validators: 'afterComponents',
  replacements: 'afterComponents',
  vars: 'afterComponents',
};

/** Stops the build at `step` if the kustomization has a field not evaluated here that Kustomize reads by then. */
function stopIfNotEvaluated(ctx: Ctx, k: Kust, step: 'afterResources' | 'afterGenerators' | 'afterComponents'): void {
  if (step === 'afterResources')
    // Kustomize reads these files before it refuses anything about them: one that is not there fails the build
    for (const field of ['configurations', 'crds'])
      if (k.notEvaluated.some((n) => n.field === field))
        for (const entry of stringList(k, field)) {
          const uri = resolveUri(k.dir, entry.value);
          if (isFile(ctx, uri)) continue;
          readIn(ctx, k.dir, uri, entry.src);
          throw unreadable(ctx, uri, entry.src, `cannot read the file '${entry.value}'`);
        }
  const order = ['afterResources', 'afterGenerators', 'afterComponents'];
  const first = k.notEvaluated.find((n) => order.indexOf(notEvaluatedStep[n.field]) <= order.indexOf(step));
  if (first) throw first.stop;
}

function keySrc(k: Kust, key: string, via?: string): Src {
  const e = entry(k.node, key);
  const span = e?.ks ? { start: e.ks.span.start, end: e.v.src?.span.end ?? e.ks.span.end } : { start: 0, end: 0 };
  return via ? { uri: k.uri, span, via } : { uri: k.uri, span };
}

function srcOf(n: KNode | undefined, fallback: Src, via?: string): Src {
  const s = n?.src ?? fallback;
  return via ? { uri: s.uri, span: s.span, via } : s;
}

function stringList(k: Kust, key: string): { value: string; src: Src }[] {
  const n = get(k.node, key);
  if (!n || (n.t === 's' && n.v === null)) return [];
  if (n.t !== 'q') throw new Stop(k.uri, keySrc(k, key).span, `'${key}' must be a list`);
  return n.items.map((i) => {
    const v = str(i);
    if (v === undefined) throw new Stop(k.uri, srcOf(i, keySrc(k, key)).span, `an entry of '${key}' must be a string`);
    return { value: v, src: srcOf(i, keySrc(k, key)) };
  });
}

function stringMap(k: Kust, n: KNode | undefined, what: string, fallback: Src): { key: string; value: string; src: Src }[] {
  if (!n || (n.t === 's' && n.v === null)) return [];
  if (n.t !== 'm') throw new Stop(k.uri, srcOf(n, fallback).span, `'${what}' must be a map of strings`);
  return n.e.map((e) => {
    const src = { uri: k.uri, span: { start: e.ks?.span.start ?? 0, end: e.v.src?.span.end ?? e.ks?.span.end ?? 0 } };
    // Kustomize reads these into map[string]string: a number or a boolean is refused (quote it), null is ''
    if (e.v.t !== 's' || (e.v.v !== null && typeof e.v.v !== 'string')) throw new Stop(k.uri, src.span, `'${what}' must be a map of strings: the value of '${e.k}' is ${e.v.t === 's' ? `the ${typeof e.v.v} ${String(e.v.v)} (quote it)` : e.v.t === 'm' ? 'a map' : 'a list'}`);
    return { key: e.k, value: str(e.v) ?? '', src };
  });
}

const remote = /^(?:[a-z][a-z0-9+.-]*:\/\/|git@|github\.com\/|gitlab\.com\/|bitbucket\.org\/)|\?ref=|\.git(?:\/\/|$)/i;

// ---- loading objects ---------------------------------------------------------------------------------------------

function loadObjects(ctx: Ctx, root: string, uri: string, at: Src): Res[] {
  const text = readIn(ctx, root, uri, at);
  if (text === undefined) throw unreadable(ctx, uri, at, `cannot read ${uri}`);
  const parsed = parseCached(ctx, text, uri);
  if (parsed.error) throw new Stop(uri, parsed.error.span, `YAML error: ${parsed.error.message}`);
  const out: Res[] = [];
  for (const d of parsed.docs) {
    if (!d.node || (d.node.t === 's' && d.node.v === null)) continue;
    if (d.node.t !== 'm') throw new Stop(uri, d.span, 'a document that is not a map cannot be a Kubernetes object');
    const kind = str(get(d.node, 'kind'));
    const items = get(d.node, 'items');
    if (kind?.endsWith('List') && items?.t === 'q') {
      for (const it of items.items) if (it.t === 'm') out.push(newRes(it, it.src));
      continue;
    }
    out.push(newRes(d.node, { uri, span: d.span }));
  }
  for (const r of out) {
    const g = gvkOf(r.node);
    if (!g.kind) throw new Stop(r.docSrc?.uri ?? uri, r.docSrc?.span ?? at.span, `an object in ${basenameUri(uri)} has no kind`);
    if (!nameOf(r.node)) throw new Stop(r.docSrc?.uri ?? uri, r.docSrc?.span ?? at.span, `the ${g.kind} in ${basenameUri(uri)} has no metadata.name`);
  }
  return out;
}

/**
 * A file that cannot be read: missing (the build fails), or present in its folder but not available here (too large,
 * excluded from the analysis): then the build is not analysed, rather than said to fail.
 */
function unreadable(ctx: Ctx, uri: string, at: Src, missing: string): Stop {
  const present = ctx.fsys.list(dirnameUri(uri))?.includes(basenameUri(uri));
  if (present) return new Stop(at.uri, at.span, phrase('{0} is not read (too large, excluded or not text)', basenameUri(uri)), true);
  return new Stop(at.uri, at.span, missing);
}

function newRes(node: KMap, docSrc?: Src): Res {
  return { node, docSrc, prevIds: [], prefixes: [], suffixes: [], needsHash: false };
}

function appendAll(into: Res[], add: readonly Res[], at: Src): void {
  for (const r of add) {
    const id = curId(r);
    if (into.some((x) => idEquals(curId(x), id))) throw new Stop(at.uri, at.span, `may not add resource with an already registered id: ${idText(id)}`);
    into.push(r);
  }
}

// ---- accumulation ------------------------------------------------------------------------------------------------

function accumulate(ctx: Ctx, k: Kust, ra: Res[], stack: readonly string[], component: boolean): Res[] {
  if (stack.length > maxDepth) throw new Stop(k.uri, { start: 0, end: 0 }, 'kustomizations nest too deeply');
  const kind = str(get(k.node, 'kind'));
  if (component && kind !== 'Component') throw new Stop(k.uri, { start: 0, end: 0 }, `${relativeUri(k.dir, k.uri)} is listed as a component but is not of kind Component`);
  // a Component built directly (the root) is built as a kustomization, as Kustomize does; listed as a resource it is refused
  if (!component && kind === 'Component' && stack.length > 1) throw new Stop(k.uri, { start: 0, end: 0 }, 'a Component can only be used in components, not built or listed as a resource');
  for (const field of ['resources', 'bases'])
    for (const entry of stringList(k, field)) {
      if (remote.test(entry.value)) throw new Stop(entry.src.uri, entry.src.span, phrase("the remote resource '{0}' is not fetched", entry.value), true);
      const uri = resolveUri(k.dir, entry.value);
      if (isFile(ctx, uri)) {
        appendAll(ra, loadObjects(ctx, k.dir, uri, entry.src), entry.src);
        continue;
      }
      if (ctx.fsys.list(uri) !== undefined) {
        if (stack.includes(uri)) throw new Stop(entry.src.uri, entry.src.span, `cycle: ${entry.value} includes this kustomization again`);
        appendAll(ra, buildIncluded(ctx, uri, entry.src, stack), entry.src);
        continue;
      }
      // nothing the view may show there (an untrusted workspace reads nothing outside its folders): outside the
      // kustomization's folder that is the restrictor's refusal, as kustomize words it for a file it cannot load
      readIn(ctx, k.dir, uri, entry.src);
      throw unreadable(ctx, uri, entry.src, `'${entry.value}' is neither a file nor a folder`);
    }
  stopIfNotEvaluated(ctx, k, 'afterResources');
  runGenerators(ctx, k, ra);
  stopIfNotEvaluated(ctx, k, 'afterGenerators');
  for (const entry of stringList(k, 'components')) {
    if (remote.test(entry.value)) throw new Stop(entry.src.uri, entry.src.span, phrase("the remote component '{0}' is not fetched", entry.value), true);
    const uri = resolveUri(k.dir, entry.value);
    if (stack.includes(uri)) throw new Stop(entry.src.uri, entry.src.span, `cycle: ${entry.value} includes this kustomization again`);
    if (ctx.fsys.list(uri) === undefined) throw new Stop(entry.src.uri, entry.src.span, `the component folder '${entry.value}' does not exist`);
    const sub = loadKustomization(ctx, uri, entry.src);
    ra = accumulate(ctx, sub, ra, [...stack, uri], true);
  }
  stopIfNotEvaluated(ctx, k, 'afterComponents');
  return runTransformers(ctx, k, ra);
}

/** An included kustomization's objects: kept from an earlier build while what it read is unchanged, else built. */
function buildIncluded(ctx: Ctx, uri: string, at: Src, stack: readonly string[]): Res[] {
  const cache = ctx.builds;
  if (!cache) return accumulate(ctx, loadKustomization(ctx, uri, at), [], [...stack, uri], false);
  const kept = cache.get(uri);
  if (kept && kept.restrictor === ctx.restrictor && stillReads(ctx.fsys, kept) && !stack.some((d) => kept.lists.has(d))) {
    for (const u of kept.inputs) ctx.inputs.add(u);
    return copyObjects(kept.objects);
  }
  // the build reads through a recording reader, so what it looked at can be checked the next time
  const reads = new Map<string, string | undefined>();
  const lists = new Map<string, string | undefined>();
  const reals = new Map<string, string | undefined>();
  const real = ctx.fsys.realUri?.bind(ctx.fsys);
  const fsys: FileReader = {
    ...(real && {
      realUri: (u: string) => {
        const r = real(u);
        reals.set(u, r);
        return r;
      },
    }),
    read: (u) => {
      const t = ctx.fsys.read(u);
      reads.set(u, t);
      return t;
    },
    list: (d) => {
      const l = ctx.fsys.list(d);
      lists.set(d, l?.join('\u0000'));
      return l;
    },
  };
  const sub: Ctx = { ...ctx, fsys, inputs: new Set() };
  try {
    const objects = accumulate(sub, loadKustomization(sub, uri, at), [], [...stack, uri], false);
    cache.set(uri, { reads, lists, reals, restrictor: ctx.restrictor, inputs: [...sub.inputs], objects: copyObjects(objects) });
    return objects;
  } finally {
    // what a failed build read counts too (the root is rendered again when one of those files changes)
    for (const u of sub.inputs) ctx.inputs.add(u);
  }
}

function stillReads(fsys: FileReader, kept: KeptBuild): boolean {
  for (const [u, t] of kept.reads) if (fsys.read(u) !== t) return false;
  for (const [d, l] of kept.lists) if (fsys.list(d)?.join('\u0000') !== l) return false;
  for (const [u, r] of kept.reals) if (fsys.realUri?.(u) !== r) return false;
  return true;
}

/**
 * Copies the transformers may change (trees, ids and name affixes are copied; sources are never changed). A value
 * node the label transformers put into several fields stays one node in the copy (setShared): a later overwrite must
 * show in all of them, as it does in the original.
 */
function copyObjects(objects: readonly Res[]): Res[] {
  const seen = new Map<KNode, KNode>();
  const copy = <T extends KNode>(n: T): T => {
    const known = seen.get(n);
    if (known) return known as T;
    const c = (n.t === 's' ? { ...n } : n.t === 'q' ? { t: 'q', items: [] as KNode[], src: n.src } : { t: 'm', e: [] as KEntry[], src: n.src }) as T;
    seen.set(n, c);
    if (n.t === 'q') (c as KSeq).items = n.items.map(copy);
    else if (n.t === 'm') (c as KMap).e = n.e.map((e) => ({ k: e.k, ks: e.ks, v: copy(e.v) }));
    return c;
  };
  return objects.map((r) => ({ ...r, node: copy(r.node), prevIds: [...r.prevIds], prefixes: [...r.prefixes], suffixes: [...r.suffixes] }));
}

// ---- generators --------------------------------------------------------------------------------------------------

interface GenOptions {
  labels: { key: string; value: string; src: Src }[];
  annotations: { key: string; value: string; src: Src }[];
  disableHash: boolean;
  immutable: boolean;
}

function genOptions(k: Kust, n: KNode | undefined, base: GenOptions | undefined): GenOptions {
  const o: GenOptions = base ? { labels: [...base.labels], annotations: [...base.annotations], disableHash: base.disableHash, immutable: base.immutable } : { labels: [], annotations: [], disableHash: false, immutable: false };
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

function runGenerators(ctx: Ctx, k: Kust, ra: Res[]): void {
  const global = genOptions(k, get(k.node, 'generatorOptions'), undefined);
  for (const [field, kind] of [['configMapGenerator', 'ConfigMap'], ['secretGenerator', 'Secret']] as const) {
    const list = get(k.node, field);
    if (!list || (list.t === 's' && list.v === null)) continue;
    if (list.t !== 'q') throw new Stop(k.uri, keySrc(k, field).span, `'${field}' must be a list`);
    for (const g of list.items) {
      if (g.t !== 'm') throw new Stop(k.uri, srcOf(g, keySrc(k, field)).span, `an entry of '${field}' must be a map`);
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
  if (!name) throw new Stop(k.uri, at.span, `a ${field} entry needs a name`);
  const via = { uri: k.uri, span: at.span, via: field };
  const entries: { key: string; value: string; src: Src }[] = [];
  const add = (key: string, value: string, src: Src) => {
    if (entries.some((e) => e.key === key)) throw new Stop(src.uri, src.span, `${kind} ${name}: the key '${key}' is set twice`);
    entries.push({ key, value, src });
  };
  // `env: FILE`, the field before `envs`, is read after them (Kustomize's fix of legacy kustomizations).
  for (const f of listOf(k, g, 'envs', at).concat(listOf(k, g, 'env', at, true))) {
    const uri = resolveUri(k.dir, f.value);
    const text = readIn(ctx, k.dir, uri, f.src);
    if (text === undefined) throw unreadable(ctx, uri, f.src, `cannot read the env file '${f.value}'`);
    for (const [key, value] of parseEnvFile(text, f.src)) add(key, value, f.src);
  }
  for (const l of listOf(k, g, 'literals', at)) {
    const i = l.value.indexOf('=');
    if (i <= 0) throw new Stop(l.src.uri, l.src.span, `the literal '${l.value}' is not KEY=VALUE`);
    let value = l.value.slice(i + 1);
    if (value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))) value = value.slice(1, -1);
    add(l.value.slice(0, i), value, l.src);
  }
  for (const f of listOf(k, g, 'files', at)) {
    const i = f.value.indexOf('=');
    const key = i > 0 ? f.value.slice(0, i) : basenameUri(resolveUri(k.dir, f.value));
    const uri = resolveUri(k.dir, i > 0 ? f.value.slice(i + 1) : f.value);
    const text = readIn(ctx, k.dir, uri, f.src);
    if (text === undefined) throw unreadable(ctx, uri, f.src, `cannot read the file '${f.value}'`);
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
  if (opts.labels.length) meta.e.push({ k: 'labels', ks: via, v: map(opts.labels.map((l) => ({ k: l.key, ks: l.src, v: scalar(l.value, l.src) })), via) });
  if (opts.annotations.length) meta.e.push({ k: 'annotations', ks: via, v: map(opts.annotations.map((l) => ({ k: l.key, ks: l.src, v: scalar(l.value, l.src) })), via) });
  node.e.push({ k: 'metadata', ks: via, v: meta });
  if (kind === 'Secret') {
    const type = str(get(g, 'type')) ?? 'Opaque';
    node.e.push({ k: 'type', ks: via, v: scalar(type, srcOf(get(g, 'type'), via)) });
  }
  // a Secret always has data (`data: {}` when nothing is generated), a ConfigMap only when something is
  if (entries.length || kind === 'Secret') node.e.push({ k: 'data', ks: via, v: map(entries.map((e) => ({ k: e.key, ks: e.src, v: scalar(kind === 'Secret' ? base64(utf8Bytes(e.value)) : e.value, e.src) })), via) });
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

function listOf(k: Kust, g: KMap, key: string, at: Src, oneString = false): { value: string; src: Src }[] {
  const n = get(g, key);
  if (!n || (n.t === 's' && n.v === null)) return [];
  if (oneString && n.t === 's') return str(n) ? [{ value: str(n)!, src: srcOf(n, at) }] : [];
  if (n.t !== 'q') throw new Stop(k.uri, srcOf(n, at).span, `'${key}' must be a list`);
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
    if (i < 0) throw new Stop(at.uri, at.span, phrase('line {0} of the env file is not KEY=VALUE (reading the value from the environment is not evaluated)', n + 1), true);
    const key = line.slice(0, i).trimStart();
    if (!key || /\s/.test(key)) throw new Stop(at.uri, at.span, `line ${n + 1} of the env file has an invalid key`);
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
    if (matches.length) throw new Stop(at.uri, at.span, `${idText(id)} already exists; set behavior: merge or replace to change it`);
    ra.push(res);
    return;
  }
  if (matches.length !== 1) throw new Stop(at.uri, at.span, `behavior: ${behavior} needs exactly one existing ${id.gvk.kind} named ${id.name}, found ${matches.length}`);
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
    const merged = map(before.e.map((e) => ({ ...e })), before.src);
    if (mine && mine.t === 'm') for (const e of mine.e) set(merged, e.k, e.v, e.ks);
    set(into, field, merged, entry(from as KMap, field)?.ks);
  }
  old.node = node;
  // The hash suffix stays only when both the existing object and the generator ask for one.
  old.needsHash = old.needsHash && res.needsHash;
  old.generatedBy = old.generatedBy ?? res.generatedBy;
}

// ---- transformers ------------------------------------------------------------------------------------------------

/**
 * Patches one kustomization may list (patches, patchesStrategicMerge and patchesJson6902 together). Every patch is
 * matched against every object, so a kustomization of 10,000 patches took the renderer most of a minute; no
 * hand-written kustomization comes near this. Past it the build is not evaluated here (the real Kustomize may run).
 */
export const maxPatchesPerKustomization = 1000;

function countPatches(k: Kust): number {
  let n = 0;
  for (const field of ['patches', 'patchesStrategicMerge', 'patchesJson6902']) {
    const list = get(k.node, field);
    if (list?.t === 'q') n += list.items.length;
  }
  return n;
}

function runTransformers(ctx: Ctx, k: Kust, ra: Res[]): Res[] {
  const patchCount = countPatches(k);
  if (patchCount > maxPatchesPerKustomization) {
    throw new Stop(k.uri, { start: 0, end: 0 }, phrase('this kustomization lists {0} patches; at most {1} are evaluated here', patchCount.toLocaleString('en-US'), maxPatchesPerKustomization.toLocaleString('en-US')), true);
  }
  ra = patchStrategicMerge(ctx, k, ra);
  ra = patches(ctx, k, ra);
  namespaceTransformer(k, ra);
  prefixSuffix(k, ra, 'namePrefix');
  prefixSuffix(k, ra, 'nameSuffix');
  labelTransformer(k, ra);
  annotationTransformer(k, ra);
  patchesJson6902(ctx, k, ra);
  replicaTransformer(k, ra);
  imageTransformer(k, ra);
  return ra;
}

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
    if (text === undefined) throw unreadable(ctx, uri, at, `cannot read the patch file '${value}'`);
    const parsed = parseCached(ctx, text, uri);
    if (parsed.error) throw new Stop(uri, parsed.error.span, `YAML error in the patch: ${parsed.error.message}`);
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
  if (error) throw new Stop(k.uri, error.span, `YAML error in the inline patch: ${error.message}`);
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
    if (err instanceof PatchError) throw new Stop(at.uri, at.span, err.message, true);
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

function patchStrategicMerge(ctx: Ctx, k: Kust, ra: Res[]): Res[] {
  const list = get(k.node, 'patchesStrategicMerge');
  if (!list || (list.t === 's' && list.v === null)) return ra;
  if (list.t !== 'q') throw new Stop(k.uri, keySrc(k, 'patchesStrategicMerge').span, "'patchesStrategicMerge' must be a list");
  for (const item of list.items) {
    const value = str(item) ?? '';
    const at = srcOf(item, keySrc(k, 'patchesStrategicMerge'));
    const puri = resolveUri(k.dir, value);
    const isPath = !value.includes('\n') && (isFile(ctx, puri) || !!ctx.fsys.list(dirnameUri(puri))?.includes(basenameUri(puri)));
    if (!isPath && !value.includes('\n') && !/:\s/.test(value)) throw new Stop(at.uri, at.span, `cannot read the patch file '${value}'`);
    const loaded = loadPatchText(ctx, k, value, item, isPath, at);
    for (const doc of loaded.docs) {
      if (doc.t !== 'm') throw new Stop(at.uri, at.span, 'a strategic-merge patch must be a map');
      const targets = ra.filter((r) => patchIdMatches(r, doc));
      if (targets.length !== 1) throw new Stop(at.uri, at.span, `no unique target for the patch of ${str(get(doc, 'kind')) ?? '?'} ${nameOf(doc)} (found ${targets.length})`);
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
  if (n.t !== 'm') throw new Stop(at.uri, at.span, 'a patch target must be a map');
  const s: Selector = {};
  for (const e of n.e) {
    const v = str(e.v);
    if (['group', 'version', 'kind', 'name', 'namespace', 'labelSelector', 'annotationSelector'].includes(e.k)) (s as Record<string, string | undefined>)[e.k] = v;
    else throw new Stop(k.uri, e.ks?.span ?? at.span, `unknown patch target field '${e.k}'`);
  }
  return s;
}

function anchored(pattern: string, at: Src): RegExp {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch {
    throw new Stop(at.uri, at.span, `the target pattern '${pattern}' is not a regular expression`);
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
    throw new Stop(at.uri, at.span, `cannot read the selector '${text}'`);
  });
  return (l) => tests.every((t) => t(l));
}

function patches(ctx: Ctx, k: Kust, ra: Res[]): Res[] {
  const list = get(k.node, 'patches');
  if (!list || (list.t === 's' && list.v === null)) return ra;
  if (list.t !== 'q') throw new Stop(k.uri, keySrc(k, 'patches').span, "'patches' must be a list");
  for (const item of list.items) {
    const at = srcOf(item, keySrc(k, 'patches'));
    if (item.t !== 'm') throw new Stop(at.uri, at.span, 'an entry of patches must be a map with path or patch');
    const pathNode = get(item, 'path');
    const patchNode = get(item, 'patch');
    const options = get(item, 'options');
    if (options && options.t === 'm' && options.e.length) throw new Stop(at.uri, at.span, phrase('patch options (allowNameChange, allowKindChange) are not evaluated'), true);
    if (!!pathNode === !!patchNode) throw new Stop(at.uri, at.span, 'a patch needs exactly one of path and patch');
    const value = str(pathNode ?? patchNode) ?? '';
    const loaded = loadPatchText(ctx, k, value, (pathNode ?? patchNode) as KNode, !!pathNode, at);
    const target = readSelector(k, get(item, 'target'), at);
    if (isJsonPatch(loaded.docs)) {
      if (!target) throw new Stop(at.uri, at.span, 'a JSON 6902 patch needs a target');
      for (const r of selectTargets(ra, target, at)) json6902On(r, loaded.docs[0] as KSeq, at);
      continue;
    }
    for (const doc of loaded.docs) {
      if (doc.t !== 'm') throw new Stop(at.uri, at.span, 'a strategic-merge patch must be a map');
      if (!target) {
        const targets = ra.filter((r) => patchIdMatches(r, doc));
        if (targets.length !== 1) throw new Stop(at.uri, at.span, `no unique target for the patch of ${str(get(doc, 'kind')) ?? '?'} ${nameOf(doc)} (found ${targets.length})`);
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
    if (err instanceof PatchError) throw new Stop(at.uri, at.span, `JSON patch on ${idText(curId(r))}: ${err.message}`);
    throw err;
  }
}

function patchesJson6902(ctx: Ctx, k: Kust, ra: Res[]): void {
  const list = get(k.node, 'patchesJson6902');
  if (!list || (list.t === 's' && list.v === null)) return;
  if (list.t !== 'q') throw new Stop(k.uri, keySrc(k, 'patchesJson6902').span, "'patchesJson6902' must be a list");
  for (const item of list.items) {
    const at = srcOf(item, keySrc(k, 'patchesJson6902'));
    if (item.t !== 'm') throw new Stop(at.uri, at.span, 'an entry of patchesJson6902 must be a map');
    const target = readSelector(k, get(item, 'target'), at);
    if (!target) throw new Stop(at.uri, at.span, 'a JSON 6902 patch needs a target');
    const pathNode = get(item, 'path');
    const patchNode = get(item, 'patch');
    if (!!pathNode === !!patchNode) throw new Stop(at.uri, at.span, 'a patch needs exactly one of path and patch');
    const loaded = loadPatchText(ctx, k, str(pathNode ?? patchNode) ?? '', (pathNode ?? patchNode) as KNode, !!pathNode, at);
    if (!isJsonPatch(loaded.docs)) throw new Stop(at.uri, at.span, 'a JSON 6902 patch must be a list of operations');
    for (const r of selectTargets(ra, target, at)) json6902On(r, loaded.docs[0] as KSeq, at);
  }
}

function namespaceTransformer(k: Kust, ra: Res[]): void {
  const ns = str(get(k.node, 'namespace'));
  if (!ns) return;
  const src = keySrc(k, 'namespace', 'namespace');
  for (const r of ra) {
    const gvk = gvkOf(r.node);
    storePreviousId(r);
    if (gvk.kind === 'Namespace' && gvk.group === '') {
      setMeta(r, 'name', ns, src);
      continue;
    }
    // Kustomize's roleBindingHack (namespace filter, default subjects only): every subject named `default`, of any
    // kind, of a RoleBinding or a ClusterRoleBinding (cluster-scoped itself) is put into the new namespace.
    if (gvk.kind === 'RoleBinding' || gvk.kind === 'ClusterRoleBinding') {
      const subjects = get(r.node, 'subjects');
      if (subjects?.t === 'q') for (const s of subjects.items) if (s.t === 'm' && str(get(s, 'name')) === 'default') set(s, 'namespace', scalar(ns, src));
    }
    if (isClusterScoped(gvk)) continue;
    setMeta(r, 'namespace', ns, src);
  }
}

function prefixSuffix(k: Kust, ra: Res[], field: 'namePrefix' | 'nameSuffix'): void {
  const value = str(get(k.node, field));
  if (!value) return;
  const src = keySrc(k, field, field);
  for (const r of ra) {
    const org = orgId(r).gvk;
    if (org.kind === 'CustomResourceDefinition' || org.kind === 'Namespace' || (org.kind === 'APIService' && org.group === 'apiregistration.k8s.io')) continue;
    const old = nameOf(r.node);
    if (field === 'namePrefix') r.prefixes.push(value);
    else r.suffixes.push(value);
    storePreviousId(r);
    setMeta(r, 'name', field === 'namePrefix' ? value + old : old + value, src);
  }
}

/** Visits the fields a field spec names in one object, creating maps on the way when it says so. */
function visitField(node: KNode, path: readonly string[], create: boolean, createSrc: Src, visit: (parent: KMap, key: string) => void): void {
  if (node.t === 'q') {
    for (const i of node.items) visitField(i, path, create, createSrc, visit);
    return;
  }
  if (node.t !== 'm' || !path.length) return;
  const [segment, ...rest] = path;
  // `name[]` names a sequence: walked into when present, never created.
  const isSeq = segment.endsWith('[]');
  const head = isSeq ? segment.slice(0, -2) : segment;
  if (!rest.length) {
    visit(node, head);
    return;
  }
  let next = get(node, head);
  if (!next || (next.t === 's' && next.v === null)) {
    if (!create || isSeq) return;
    next = map([], createSrc);
    set(node, head, next, createSrc);
  }
  visitField(next, rest, create, createSrc, visit);
}

function applyToSpecs(ra: readonly Res[], specs: readonly FieldSpec[], fn: (r: Res, spec: FieldSpec) => void): void {
  for (const r of ra) {
    const gvk = gvkOf(r.node);
    for (const spec of specs) if (gvkSelected(gvk, spec)) fn(r, spec);
  }
}

function setPairs(ra: readonly Res[], specs: readonly FieldSpec[], pairs: readonly { key: string; value: string; src: Src }[], via: string): void {
  if (!pairs.length) return;
  const nodes = new Map<Res, Map<string, KScalar>>();
  const shared = (r: Res, p: { key: string; value: string; src: Src }): KScalar => {
    let per = nodes.get(r);
    if (!per) nodes.set(r, (per = new Map()));
    let n = per.get(p.key);
    if (!n) per.set(p.key, (n = scalar(p.value, { ...p.src, via })));
    return n;
  };
  applyToSpecs(ra, specs, (r, spec) => {
    const createSrc = { ...pairs[0].src, via };
    visitField(r.node, spec.path, spec.create, createSrc, (parent, key) => {
      let m = get(parent, key);
      if (!m || (m.t === 's' && m.v === null)) {
        if (!spec.create) return;
        m = map([], createSrc);
        set(parent, key, m, createSrc);
      }
      if (m.t !== 'm') return;
      for (const p of pairs) setShared(m, p.key, shared(r, p));
    });
  });
}

/**
 * Kustomize's label and annotation transformers write one value node per key into every field of an object they
 * set, and overwrite an existing value in place; later changes to one of those fields show in all of them
 * (`labels` with includeTemplates then a patch of metadata.labels changes the template's label too). Kept as is.
 */
function setShared(m: KMap, key: string, value: KScalar): void {
  const e = entry(m, key);
  if (e && e.v.t === 's') assignScalar(e.v, value);
  else if (e) e.v = value;
  else m.e.push({ k: key, ks: value.src, v: value });
}

function assignScalar(into: KScalar, from: KScalar): void {
  into.v = from.v;
  into.raw = from.raw;
  into.src = from.src;
}

function labelTransformer(k: Kust, ra: Res[]): void {
  const labels = get(k.node, 'labels');
  if (labels && !(labels.t === 's' && labels.v === null)) {
    if (labels.t !== 'q') throw new Stop(k.uri, keySrc(k, 'labels').span, "'labels' must be a list");
    for (const l of labels.items) {
      const at = srcOf(l, keySrc(k, 'labels'));
      if (l.t !== 'm') throw new Stop(at.uri, at.span, 'an entry of labels must be a map');
      const pairs = stringMap(k, get(l, 'pairs'), 'pairs', at);
      let specs: FieldSpec[];
      if (get(l, 'includeSelectors')?.t === 's' && (get(l, 'includeSelectors') as { v: unknown }).v === true) specs = [...commonLabelSpecs];
      else {
        specs = [metadataLabelSpec];
        if (get(l, 'includeTemplates')?.t === 's' && (get(l, 'includeTemplates') as { v: unknown }).v === true) specs.push(...templateLabelSpecs.filter((s) => s !== templateLabelSpecs[0]));
      }
      const fields = get(l, 'fields');
      if (fields && fields.t === 'q')
        for (const f of fields.items) {
          const path = str(get(f, 'path'));
          if (!path) continue;
          specs.push({ path: splitFieldPath(path), kind: str(get(f, 'kind')), group: str(get(f, 'group')), version: str(get(f, 'version')), create: get(f, 'create')?.t === 's' && (get(f, 'create') as { v: unknown }).v === true });
        }
      setPairs(ra, dedupeSpecs(specs), pairs, 'labels');
    }
  }
  const common = stringMap(k, get(k.node, 'commonLabels'), 'commonLabels', keySrc(k, 'commonLabels'));
  setPairs(ra, commonLabelSpecs, common, 'commonLabels');
}

function dedupeSpecs(specs: readonly FieldSpec[]): FieldSpec[] {
  const seen = new Set<string>();
  return specs.filter((s) => {
    const key = `${s.group ?? ''}|${s.version ?? ''}|${s.kind ?? ''}|${s.path.join('/')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function annotationTransformer(k: Kust, ra: Res[]): void {
  const pairs = stringMap(k, get(k.node, 'commonAnnotations'), 'commonAnnotations', keySrc(k, 'commonAnnotations'));
  setPairs(ra, commonAnnotationSpecs, pairs, 'commonAnnotations');
}

function replicaTransformer(k: Kust, ra: Res[]): void {
  const list = get(k.node, 'replicas');
  if (!list || (list.t === 's' && list.v === null)) return;
  if (list.t !== 'q') throw new Stop(k.uri, keySrc(k, 'replicas').span, "'replicas' must be a list");
  for (const item of list.items) {
    const at = srcOf(item, keySrc(k, 'replicas'));
    const name = str(get(item, 'name'));
    const countNode = get(item, 'count');
    if (!name || !countNode || countNode.t !== 's' || typeof countNode.v !== 'number') throw new Stop(at.uri, at.span, 'a replicas entry needs a name and a numeric count');
    const src = { ...srcOf(countNode, at), via: 'replicas' };
    let found = false;
    for (const r of ra) {
      if (![curId(r), ...r.prevIds].some((x) => x.name === name)) continue;
      const gvk = gvkOf(r.node);
      for (const spec of replicaSpecs)
        if (gvkSelected(gvk, spec)) {
          found = true;
          visitField(r.node, spec.path, true, src, (parent, key) => set(parent, key, scalar(countNode.v, src), src));
        }
    }
    // Kustomize's replica count transformer refuses an entry that names no object it can scale
    if (!found) throw new Stop(at.uri, at.span, `replicas: no ${[...new Set(replicaSpecs.map((f) => f.kind))].join(', ')} is named ${name}`);
  }
}

function imageTransformer(k: Kust, ra: Res[]): void {
  const list = get(k.node, 'images');
  if (!list || (list.t === 's' && list.v === null)) return;
  if (list.t !== 'q') throw new Stop(k.uri, keySrc(k, 'images').span, "'images' must be a list");
  for (const item of list.items) {
    const at = srcOf(item, keySrc(k, 'images'));
    const name = str(get(item, 'name'));
    if (!name) throw new Stop(at.uri, at.span, 'an images entry needs a name');
    const newName = str(get(item, 'newName'));
    const newTag = str(get(item, 'newTag'));
    const digest = str(get(item, 'digest'));
    const src = { ...at, via: 'images' };
    const update = (parent: KMap, key: string) => {
      const cur = get(parent, key);
      const image = str(cur);
      if (image === undefined || !imageMatches(image, name)) return;
      set(parent, key, scalar(newImage(image, newName, newTag, digest), src));
    };
    for (const r of ra) {
      // Kustomize's legacy image filter: every `containers` and `initContainers` list anywhere in the object.
      legacyImages(r.node, update, 0);
      const gvk = gvkOf(r.node);
      for (const spec of imageSpecs) if (gvkSelected(gvk, spec) && !isPodTemplatePath(spec.path)) visitField(r.node, spec.path, false, src, update);
    }
  }
}

function isPodTemplatePath(path: readonly string[]): boolean {
  return path.includes('containers') || path.includes('initContainers');
}

function legacyImages(n: KNode, update: (parent: KMap, key: string) => void, depth: number): void {
  if (depth > 100) return;
  if (n.t === 'q') for (const i of n.items) legacyImages(i, update, depth + 1);
  if (n.t !== 'm') return;
  for (const e of n.e) {
    if ((e.k === 'containers' || e.k === 'initContainers') && e.v.t === 'q') {
      for (const c of e.v.items) if (c.t === 'm' && get(c, 'image')) update(c, 'image');
    } else legacyImages(e.v, update, depth + 1);
  }
}

function imageMatches(image: string, name: string): boolean {
  if (!image.startsWith(name)) return false;
  const rest = image.slice(name.length);
  return rest === '' || rest.startsWith(':') || rest.startsWith('@');
}

function splitImage(image: string): { name: string; tag: string; digest: string } {
  let name = image;
  let digest = '';
  const at = name.indexOf('@');
  if (at >= 0) {
    digest = name.slice(at + 1);
    name = name.slice(0, at);
  }
  let tag = '';
  const colon = name.lastIndexOf(':');
  if (colon > name.lastIndexOf('/')) {
    tag = name.slice(colon + 1);
    name = name.slice(0, colon);
  }
  return { name, tag, digest };
}

function newImage(image: string, newName: string | undefined, newTag: string | undefined, digest: string | undefined): string {
  const cur = splitImage(image);
  const name = newName ?? cur.name;
  if (digest) return `${name}@${digest}`;
  if (newTag) return `${name}:${newTag}`;
  if (cur.digest) return `${name}${cur.tag ? ':' + cur.tag : ''}@${cur.digest}`;
  return cur.tag ? `${name}:${cur.tag}` : name;
}

// ---- the root's last steps: hashes, name references, order ----------------------------------------------------

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
  return '{' + Object.keys(o).sort().map((key) => goJsonString(key) + ':' + goJson(o[key])).join(',') + '}';
}

function dataOf(node: KNode, key: string): unknown {
  const n = get(node, key);
  if (!n) return '';
  if (n.t === 's') return n.v === null ? '' : str(n) ?? '';
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

function addHashes(ra: readonly Res[]): void {
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

function sameEndingSubSlice(a: readonly string[], b: readonly string[]): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  for (let i = 1; i <= short.length; i++) if (short[short.length - i] !== long[long.length - i]) return false;
  return true;
}

function prefixSuffixEquals(r: Res, o: Res, allowEmpty: boolean): boolean {
  if (allowEmpty) {
    const pe = !r.prefixes.length || !o.prefixes.length;
    const se = !r.suffixes.length || !o.suffixes.length;
    return (pe || sameEndingSubSlice(r.prefixes, o.prefixes)) && (se || sameEndingSubSlice(r.suffixes, o.suffixes));
  }
  return sameEndingSubSlice(r.prefixes, o.prefixes) && sameEndingSubSlice(r.suffixes, o.suffixes);
}

function selectReferral(referrer: Res, oldName: string, candidates: readonly Res[], referral: NameRefTarget, roleRef: Gvk | undefined, withNs: boolean): Res | undefined {
  let c = candidates.filter((r) => r.prevIds.some((id) => id.name === oldName));
  c = c.filter((r) => r.prevIds.some((id) => gvkSelected(id.gvk, referral)));
  if (roleRef) c = c.filter((r) => r.prevIds.some((id) => gvkSelected(id.gvk, roleRef)));
  const refCur = curId(referrer);
  if (!isClusterScoped(refCur.gvk))
    c = c.filter((r) => {
      const id = curId(r);
      return isClusterScoped(id.gvk) || id.gvk.kind === 'ServiceAccount' || effectiveNs(id) === effectiveNs(refCur);
    });
  if (c.length === 1) return c[0];
  c = c.filter((r) => prefixSuffixEquals(r, referrer, true));
  if (c.length > 1) c = c.filter((r) => prefixSuffixEquals(r, referrer, false));
  if (c.length === 1) return c[0];
  if (!c.length) return undefined;
  const first = c[0];
  const same = c.every((r) => nameOf(r.node) === nameOf(first.node) && (!withNs || namespaceOf(r.node) === namespaceOf(first.node)));
  if (same) return first;
  throw new Stop(referrer.docSrc?.uri ?? '', referrer.docSrc?.span ?? { start: 0, end: 0 }, `found multiple possible referrals for '${oldName}': ${c.map((r) => idText(curId(r))).join(', ')}`);
}

type NameRefTarget = { group?: string; version?: string; kind: string };

function fixNameReferences(ra: readonly Res[]): void {
  // names are rewritten here, never apiVersion or kind: each object's type is read once
  const gvks = new Map(ra.map((r) => [r, gvkOf(r.node)]));
  for (const ref of nameReferences) {
    const candidates = ra.filter((r) => r.prevIds.length > 0 || gvkSelected(gvks.get(r)!, ref.referral));
    for (const referrer of ra) {
      const gvk = gvks.get(referrer)!;
      for (const spec of ref.fields) {
        if (!gvkSelected(gvk, spec)) continue;
        let roleRef: Gvk | undefined;
        if (spec.path.join('/').endsWith('roleRef/name')) {
          const rr = get(referrer.node, 'roleRef');
          const apiGroup = str(get(rr, 'apiGroup'));
          const kind = str(get(rr, 'kind'));
          if (kind) roleRef = { group: apiGroup ?? '', version: '', kind };
        }
        visitField(referrer.node, spec.path, false, { uri: '', span: { start: 0, end: 0 } }, (parent, key) => {
          const e = entry(parent, key);
          if (!e) return;
          const fix = (n: KNode): KNode => {
            if (n.t === 's') {
              const old = str(n);
              if (old === undefined) return n;
              const target = selectReferral(referrer, old, candidates, ref.referral, roleRef, false);
              if (!target || nameOf(target.node) === old) return n;
              return scalar(nameOf(target.node), viaOf(target, n.src));
            }
            if (n.t === 'm') {
              const nameE = entry(n, 'name');
              const old = str(nameE?.v);
              if (!nameE || old === undefined) return n;
              let cands = candidates;
              const nsNode = get(n, 'namespace');
              if (nsNode) {
                // Kustomize groups the candidates by effective namespace ('' is 'default'; cluster-scoped ones never match).
                const ns = str(nsNode) ?? '';
                const byOrg = candidates.filter((r) => !isClusterScoped(orgId(r).gvk) && effectiveNs(orgId(r)) === ns);
                cands = byOrg.length ? byOrg : candidates.filter((r) => !isClusterScoped(curId(r).gvk) && effectiveNs(curId(r)) === ns);
              }
              const target = selectReferral(referrer, old, cands, ref.referral, roleRef, true);
              if (!target) return n;
              if (nameOf(target.node) === old && namespaceOf(target.node) === '') return n;
              nameE.v = scalar(nameOf(target.node), viaOf(target, nameE.v.src));
              if (namespaceOf(target.node)) set(n, 'namespace', scalar(namespaceOf(target.node), viaOf(target, nsNode?.src, 'namespace')));
              return n;
            }
            if (n.t === 'q') n.items = n.items.map(fix);
            return n;
          };
          e.v = fix(e.v);
        });
      }
    }
  }
}

/** A rewritten reference comes from the referrer's field, changed by the setting that renamed the referral. */
function viaOf(target: Res, fieldSrc: Src | undefined, field: 'name' | 'namespace' = 'name'): Src | undefined {
  const made = get(get(target.node, 'metadata'), field)?.src;
  if (fieldSrc) return { uri: fieldSrc.uri, span: fieldSrc.span, via: made?.via ?? 'name reference' };
  return made;
}

interface KindOrder {
  readonly first: readonly string[];
  readonly last: readonly string[];
}

const defaultOrder: KindOrder = { first: orderFirst, last: orderLast };

function typeOrder(kind: string, order: KindOrder): number {
  const f = order.first.indexOf(kind);
  if (f >= 0) return -order.first.length + f;
  const l = order.last.indexOf(kind);
  return l >= 0 ? 1 + l : 0;
}

/**
 * The root kustomization's `sortOptions` (Kustomize reads only the root's): `fifo` keeps the order the objects were
 * loaded in (undefined), `legacy` sorts by kind with `legacySortOptions.orderFirst` / `orderLast` in place of the
 * default kind lists when given.
 */
function sortOrderOf(k: Kust): KindOrder | undefined {
  const options = get(k.node, 'sortOptions');
  if (!options || options.t !== 'm') return defaultOrder;
  const at = keySrc(k, 'sortOptions');
  const order = str(get(options, 'order'));
  if (order === 'fifo') return undefined;
  if (order !== undefined && order !== 'legacy') throw new Stop(k.uri, srcOf(get(options, 'order'), at).span, `sortOptions order must be legacy or fifo, not '${order}'`);
  const legacy = get(options, 'legacySortOptions');
  if (!legacy || legacy.t !== 'm') return defaultOrder;
  const kinds = (key: string) => listOf(k, legacy, key, at).map((e) => e.value);
  return { first: kinds('orderFirst'), last: kinds('orderLast') };
}

function gvkSortString(g: Gvk): string {
  return [g.group || '~G', g.version || '~V', g.kind || '~K'].join('_');
}

function gvkString(g: Gvk): string {
  return [g.kind || '~K', g.version || '~V', g.group || '~G'].join('_');
}

function legacyLess(a: Id, b: Id, order: KindOrder): number {
  if (!gvkEquals(a.gvk, b.gvk)) {
    const ia = typeOrder(a.gvk.kind, order);
    const ib = typeOrder(b.gvk.kind, order);
    if (ia !== ib) return ia - ib;
    const sa = gvkSortString(a.gvk);
    const sb = gvkSortString(b.gvk);
    if (a.gvk.kind === 'Namespace' && b.gvk.kind === 'Namespace' && (a.gvk.group === '' || b.gvk.group === '')) return sa > sb ? -1 : sa < sb ? 1 : 0;
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  const ka = [gvkString(a.gvk), a.namespace || '~X', a.name || '~N'].join('|');
  const kb = [gvkString(b.gvk), b.namespace || '~X', b.name || '~N'].join('|');
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

// ---- entry points ------------------------------------------------------------------------------------------------

export interface RenderOptions {
  /** For people: `overlays/prod`. Defaults to the folder's URI. */
  readonly label?: string;
  /** Shared with other renders of the same files (kustomize/applyUnits.ts keeps one per workspace). */
  readonly parsed?: ParseCache;
  /** Builds of included kustomizations, shared likewise. */
  readonly builds?: BuildCache;
  /** Which files a kustomization may read; default `rootOnly`, kustomize's own default (readIn). */
  readonly loadRestrictor?: LoadRestrictor;
  /** The folder paths in messages are relative to (the workspace); default: the rendered folder. */
  readonly workspace?: string;
  /** How messages show a URI or path, instead of relative to `workspace` (the CLI: relative to the current folder). */
  readonly shown?: (uri: string) => string;
}

/** Renders the kustomization in `dirUri`. Never throws on user input: problems come back as values. */
export function renderKustomization(fsys: FileReader, dirUri: string, options: RenderOptions = {}): RenderedUnit {
  const dir = dirUri.replace(/\/+$/, '');
  const workspace = (options.workspace ?? dir).replace(/\/+$/, '');
  const ctx: Ctx = { fsys, inputs: new Set(), parsed: options.parsed, builds: options.builds, restrictor: options.loadRestrictor ?? 'rootOnly', shown: options.shown ?? ((uri) => relativeUri(workspace, uri)) };
  const definedBy = kustomizationFileOf(fsys, dir) ?? resolveUri(dir, 'kustomization.yaml');
  const base = { kind: 'kustomize' as const, id: `kustomize:${definedBy}`, label: options.label ?? dir, definedBy };
  try {
    const k = loadKustomization(ctx, dir, undefined);
    const ra = accumulate(ctx, k, [], [dir], false);
    addHashes(ra);
    fixNameReferences(ra);
    for (const r of ra) dropEmptyAnnotations(r.node);
    const order = sortOrderOf(k);
    const sorted = order ? [...ra].sort((a, b) => legacyLess(curId(a), curId(b), order)) : ra;
    const rendered = emitDocuments(sorted.map((r) => ({ node: r.node, src: r.docSrc })));
    return { ...base, inputs: [...ctx.inputs].sort(), rendered, problems: notRewritten(ra, base.label) };
  } catch (err) {
    if (!(err instanceof Stop)) {
      if (err instanceof RangeError) return { ...base, inputs: [...ctx.inputs].sort(), problems: [problem(definedBy, { start: 0, end: 0 }, phrase('the kustomization nests too deeply to render'), false)] };
      throw err;
    }
    const uri = err.uri || definedBy;
    return { ...base, inputs: [...ctx.inputs].sort(), problems: [problem(uri, err.span, err.reason, err.notRendered)] };
  }
}

/**
 * Kustomize writes an object's annotations back after removing its own internal ones, and drops the field when none
 * are left: `annotations:` null or `{}` is not in its output (labels are kept as written).
 */
function dropEmptyAnnotations(node: KNode): void {
  const meta = get(node, 'metadata');
  if (!meta || meta.t !== 'm') return;
  const a = get(meta, 'annotations');
  if (a && ((a.t === 's' && a.v === null) || (a.t === 'm' && a.e.length === 0))) meta.e = meta.e.filter((e) => e.k !== 'annotations');
}

function problem(uri: string, span: Span, reason: string | Phrase, notRendered: boolean): RenderProblem {
  return notRendered
    ? { uri, span, severity: 'information', code: 'kustomize-not-rendered', ...worded(phrase('Not analysed as a Kustomize build: {0}.', reason)) }
    : { uri, span, severity: 'error', code: 'kustomize-render-failed', ...worded(phrase('Kustomize build fails: {0}.', reason)) };
}


/** The rendered objects as plain values (for JSON output and comparisons). */
export function renderedObjects(text: string): unknown[] {
  return kustomizeOutputValues(text);
}
