// `kustomize build`, natively: a kustomization folder + a read-only view of the files → the rendered objects as
// YAML text with a source map (model/rendered.ts). Pure: no file system, no state; every problem is a value.
// The order of steps follows Kustomize v5 (api/internal/target/kusttarget.go): resources, generators, components,
// then the built-in transformers in their fixed order; name hashes and name references are fixed once, at the root.
//
// This file is the accumulation and the order of the steps; each of Kustomize's builtins is a module of its own, so
// a difference from `kubectl kustomize` points at one file:
//   buildContext.ts      the files' view, the load restrictor (readIn), the caches, the objects being built
//   identity.ts          ids, original ids and the history of renames
//   load.ts              the kustomization file and the objects of its resources
//   generators.ts        configMapGenerator, secretGenerator
//   patchTransformers.ts patchesStrategicMerge, patches, patchesJson6902 (the algorithms: patch.ts)
//   transformers.ts      namespace, namePrefix/nameSuffix, labels, annotations, replicas, images
//   hash.ts              the content hash of generated objects' names
//   configurations.ts    the transformer configurations (`configurations`) merged into the built-in field specs
//   nameReferences.ts    name references, once every name is final
//   replacements.ts      replacements (inline and in files), the last builtin transformer
//   vars.ts              vars: `$(NAME)` replaced once the names are final
//   order.ts             the output order (legacy sort options)

import type { LoadRestrictor } from '../model/config';
import type { RenderProblem, RenderedUnit } from '../model/rendered';
import type { Span } from '../model/span';
import { phrase, worded, type Phrase } from '../l10n/l10n';
import { emitDocuments } from './emit';
import { notRewritten } from './notRewritten';
import { get, kustomizeOutputValues, str, type KEntry, type KMap, type KNode, type KSeq, type Src } from './tree';
import { relativeUri, resolveUri } from './uriPath';
export { inlineKey } from './patchTransformers';
export {
  isKustomizationUri,
  kustomizationFileNames,
  kustomizationFileOf,
  parseShared,
  type BuildCache,
  type FileReader,
  type ParseCache,
} from './buildContext';
import {
  Stop,
  isFile,
  kustomizationFileOf,
  maxDepth,
  readIn,
  type BuildCache,
  type Ctx,
  type FileReader,
  type KeptBuild,
  type Kust,
  type ParseCache,
  type Res,
} from './buildContext';
import { runGenerators } from './generators';
import { addHashes } from './hash';
import { curId } from './identity';
import { emptyConfig, mergeConfig, nameReferencesOf, readConfigurations, type TransformerConfig } from './configurations';
import { appendAll, keySrc, loadKustomization, loadObjects, remote, stopIfNotEvaluated, stringList, unreadable } from './load';
import { fixNameReferences } from './nameReferences';
import { mergeVars, resolveVars } from './vars';
import { replacementTransformer } from './replacements';
import { legacyLess, sortOrderOf } from './order';
import { patchStrategicMerge, patches, patchesJson6902 } from './patchTransformers';
import { annotationTransformer, imageTransformer, labelTransformer, namespaceTransformer, prefixSuffix, replicaTransformer } from './transformers';

// ---- accumulation ------------------------------------------------------------------------------------------------

function accumulate(ctx: Ctx, k: Kust, ra: Res[], stack: readonly string[], component: boolean, config: TransformerConfig): Res[] {
  if (stack.length > maxDepth) throw new Stop(k.uri, { start: 0, end: 0 }, phrase('kustomizations nest too deeply'));
  const kind = str(get(k.node, 'kind'));
  if (component && kind !== 'Component')
    throw new Stop(k.uri, { start: 0, end: 0 }, phrase('{0} is listed as a component but is not of kind Component', relativeUri(k.dir, k.uri)));
  // a Component built directly (the root) is built as a kustomization, as Kustomize does; listed as a resource it is refused
  if (!component && kind === 'Component' && stack.length > 1)
    throw new Stop(k.uri, { start: 0, end: 0 }, phrase('a Component can only be used in components, not built or listed as a resource'));
  // A base Kustomize builds but this renderer does not evaluate (its vars, transformer configurations…) stops the
  // build only once every other resource has loaded: Kustomize goes on past that base, so a missing file or a remote
  // resource listed after it is what Kustomize refuses the build for, and what is said.
  let deferred: Stop | undefined;
  for (const field of ['resources', 'bases'])
    for (const entry of stringList(k, field)) {
      if (remote.test(entry.value)) throw new Stop(entry.src.uri, entry.src.span, phrase("the remote resource '{0}' is not fetched", entry.value), true);
      const uri = resolveUri(k.dir, entry.value);
      if (isFile(ctx, uri)) {
        appendAll(ra, loadObjects(ctx, k.dir, uri, entry.src), entry.src);
        continue;
      }
      if (ctx.fsys.list(uri) !== undefined) {
        if (stack.includes(uri)) throw new Stop(entry.src.uri, entry.src.span, phrase('cycle: {0} includes this kustomization again', entry.value));
        try {
          const sub = buildIncluded(ctx, uri, entry.src, stack);
          appendAll(ra, sub.objects, entry.src);
          mergeConfig(config, sub.config, entry.src);
        } catch (e) {
          if (!(e instanceof Stop && e.notEvaluated)) throw e;
          deferred ??= e;
        }
        continue;
      }
      // nothing the view may show there (an untrusted workspace reads nothing outside its folders): outside the
      // kustomization's folder that is the restrictor's refusal, as kustomize words it for a file it cannot load
      readIn(ctx, k.dir, uri, entry.src);
      throw unreadable(ctx, uri, entry.src, phrase("'{0}' is neither a file nor a folder", entry.value));
    }
  if (deferred) {
    // Kustomize goes on to the components: a remote resource or a missing file among them is what it refuses the
    // build for. They are only looked through here, not built (the deferred base's objects are missing).
    refuseListed(ctx, k, 'components', stack);
    throw deferred;
  }
  // kusttarget.go merges the kustomization's transformer configuration after its resources, before the CRDs'
  mergeConfig(config, readConfigurations(ctx, k), keySrc(k, 'configurations'));
  stopIfNotEvaluated(ctx, k, 'afterResources');
  runGenerators(ctx, k, ra);
  stopIfNotEvaluated(ctx, k, 'afterGenerators');
  for (const entry of stringList(k, 'components')) {
    if (remote.test(entry.value)) throw new Stop(entry.src.uri, entry.src.span, phrase("the remote component '{0}' is not fetched", entry.value), true);
    const uri = resolveUri(k.dir, entry.value);
    if (stack.includes(uri)) throw new Stop(entry.src.uri, entry.src.span, phrase('cycle: {0} includes this kustomization again', entry.value));
    if (ctx.fsys.list(uri) === undefined) throw new Stop(entry.src.uri, entry.src.span, phrase("the component folder '{0}' does not exist", entry.value));
    const sub = loadKustomization(ctx, uri, entry.src);
    ra = accumulate(ctx, sub, ra, [...stack, uri], true, config);
  }
  stopIfNotEvaluated(ctx, k, 'afterComponents');
  ra = runTransformers(ctx, k, ra, config);
  mergeVars(k, ra, config.vars);
  return ra;
}

/**
 * Kustomize's refusals among what `k` lists under `field` and below, without building anything: a remote resource, a
 * file or folder that is not there (through the load restrictor). Only for the components of a kustomization whose
 * build already stopped at something not evaluated here.
 */
function refuseListed(ctx: Ctx, k: Kust, field: string, stack: readonly string[]): void {
  for (const entry of stringList(k, field)) {
    if (remote.test(entry.value))
      throw new Stop(
        entry.src.uri,
        entry.src.span,
        field === 'components'
          ? phrase("the remote component '{0}' is not fetched", entry.value)
          : phrase("the remote resource '{0}' is not fetched", entry.value),
        true,
      );
    const uri = resolveUri(k.dir, entry.value);
    if (field !== 'components' && isFile(ctx, uri)) continue;
    if (ctx.fsys.list(uri) === undefined) {
      if (field === 'components') throw new Stop(entry.src.uri, entry.src.span, phrase("the component folder '{0}' does not exist", entry.value));
      readIn(ctx, k.dir, uri, entry.src);
      throw unreadable(ctx, uri, entry.src, phrase("'{0}' is neither a file nor a folder", entry.value));
    }
    if (stack.includes(uri) || stack.length > maxDepth) continue;
    const sub = loadKustomization(ctx, uri, entry.src);
    for (const f of ['resources', 'bases', 'components']) refuseListed(ctx, sub, f, [...stack, uri]);
  }
}

/** An included kustomization's objects: kept from an earlier build while what it read is unchanged, else built. */
function buildIncluded(ctx: Ctx, uri: string, at: Src, stack: readonly string[]): { objects: Res[]; config: TransformerConfig } {
  const cache = ctx.builds;
  if (!cache) {
    const config = emptyConfig();
    return { objects: accumulate(ctx, loadKustomization(ctx, uri, at), [], [...stack, uri], false, config), config };
  }
  const kept = cache.get(uri);
  if (kept && kept.restrictor === ctx.restrictor && stillReads(ctx.fsys, kept) && !stack.some((d) => kept.lists.has(d))) {
    for (const u of kept.inputs) ctx.inputs.add(u);
    return { objects: copyObjects(kept.objects, true), config: kept.config };
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
    const config = emptyConfig();
    const objects = accumulate(sub, loadKustomization(sub, uri, at), [], [...stack, uri], false, config);
    cache.set(uri, { reads, lists, reals, restrictor: ctx.restrictor, inputs: [...sub.inputs], objects: copyObjects(objects), config });
    return { objects, config };
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
function copyObjects(objects: readonly Res[], fromKept = false): Res[] {
  const seen = new Map<KNode, KNode>();
  const copy = <T extends KNode>(n: T): T => {
    const known = seen.get(n);
    if (known) return known as T;
    // a copy of a kept build's node names it: what it printed is printed again while the copy stays equal to it (emit.ts)
    const c = (
      n.t === 's'
        ? { ...n }
        : n.t === 'q'
          ? fromKept
            ? { t: 'q', items: [] as KNode[], src: n.src, kept: n }
            : { t: 'q', items: [] as KNode[], src: n.src }
          : fromKept
            ? { t: 'm', e: [] as KEntry[], src: n.src, kept: n }
            : { t: 'm', e: [] as KEntry[], src: n.src }
    ) as T;
    seen.set(n, c);
    if (n.t === 'q') (c as KSeq).items = n.items.map(copy);
    else if (n.t === 'm') (c as KMap).e = n.e.map((e) => ({ k: e.k, ks: e.ks, v: copy(e.v) }));
    return c;
  };
  return objects.map((r) => ({ ...r, node: copy(r.node), prevIds: [...r.prevIds], prefixes: [...r.prefixes], suffixes: [...r.suffixes] }));
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

function runTransformers(ctx: Ctx, k: Kust, ra: Res[], config: TransformerConfig): Res[] {
  const patchCount = countPatches(k);
  if (patchCount > maxPatchesPerKustomization) {
    throw new Stop(
      k.uri,
      { start: 0, end: 0 },
      phrase(
        'this kustomization lists {0} patches; at most {1} are evaluated here',
        patchCount.toLocaleString('en-US'),
        maxPatchesPerKustomization.toLocaleString('en-US'),
      ),
      true,
    );
  }
  ra = patchStrategicMerge(ctx, k, ra);
  ra = patches(ctx, k, ra);
  namespaceTransformer(k, ra, config.namespace);
  prefixSuffix(k, ra, 'namePrefix');
  prefixSuffix(k, ra, 'nameSuffix');
  labelTransformer(k, ra, config.commonLabels);
  annotationTransformer(k, ra, config.commonAnnotations);
  patchesJson6902(ctx, k, ra);
  replicaTransformer(k, ra);
  imageTransformer(k, ra);
  replacementTransformer(ctx, k, ra);
  return ra;
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
  const ctx: Ctx = {
    fsys,
    inputs: new Set(),
    parsed: options.parsed,
    builds: options.builds,
    restrictor: options.loadRestrictor ?? 'rootOnly',
    shown: options.shown ?? ((uri) => relativeUri(workspace, uri)),
  };
  const definedBy = kustomizationFileOf(fsys, dir) ?? resolveUri(dir, 'kustomization.yaml');
  const base = { kind: 'kustomize' as const, id: `kustomize:${definedBy}`, label: options.label ?? dir, definedBy };
  try {
    const k = loadKustomization(ctx, dir, undefined);
    const config = emptyConfig();
    const ra = accumulate(ctx, k, [], [dir], false, config);
    addHashes(ra);
    fixNameReferences(ra, nameReferencesOf(config));
    resolveVars(ra, config.vars, config.varReference);
    for (const r of ra) dropEmptyAnnotations(r.node);
    const order = sortOrderOf(k);
    const sorted = order ? [...ra].sort((a, b) => legacyLess(curId(a), curId(b), order)) : ra;
    const rendered = emitDocuments(sorted.map((r) => ({ node: r.node, src: r.docSrc })));
    return { ...base, inputs: [...ctx.inputs].sort(), rendered, problems: notRewritten(ra, base.label) };
  } catch (err) {
    if (!(err instanceof Stop)) {
      if (err instanceof RangeError)
        return {
          ...base,
          inputs: [...ctx.inputs].sort(),
          problems: [problem(definedBy, { start: 0, end: 0 }, phrase('the kustomization nests too deeply to render'), false)],
        };
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

function problem(uri: string, span: Span, reason: Phrase, notRendered: boolean): RenderProblem {
  return notRendered
    ? { uri, span, severity: 'information', code: 'kustomize-not-rendered', ...worded(phrase('Not analysed as a Kustomize build: {0}.', reason)) }
    : { uri, span, severity: 'error', code: 'kustomize-render-failed', ...worded(phrase('Kustomize build fails: {0}.', reason)) };
}

/** The rendered objects as plain values (for JSON output and comparisons). */
export function renderedObjects(text: string): unknown[] {
  return kustomizeOutputValues(text);
}
