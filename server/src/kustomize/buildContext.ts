// What every step of a native Kustomize build shares (kustomize/render.ts): the read-only view of the files, the
// build's context and its one reader under the load restrictor (readIn), the parse and build caches, and the
// objects being built with their identities' history.

import type { TransformerConfig } from './configurations';
import type { LoadRestrictor } from '../model/config';
import type { Span } from '../model/span';
import { messages, phrase, say, type Phrase } from '../l10n/l10n';
import type { Gvk } from './fieldSpecs';
import { clone, parseYaml, type KMap, type ParseResult, type Src } from './tree';
import { dirnameUri, isWithin, resolveUri } from './uriPath';

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

export const maxDepth = 40;

/** The kustomization file of a folder, if it has one. */
export function kustomizationFileOf(fsys: FileReader, dirUri: string): string | undefined {
  const names = fsys.list(dirUri);
  if (!names) return undefined;
  for (const n of kustomizationFileNames) if (names.includes(n)) return resolveUri(dirUri, n);
  return undefined;
}

export interface Id {
  readonly gvk: Gvk;
  readonly name: string;
  readonly namespace: string;
}

export interface Res {
  node: KMap;
  docSrc?: Src;
  prevIds: Id[];
  prefixes: string[];
  suffixes: string[];
  needsHash: boolean;
  /** The generator entry that made the object, for the source of its hashed name. */
  generatedBy?: Src;
  /** The vars that read this object (kustomize/vars.ts); replaced, never changed in place. */
  refVars?: readonly string[];
}

/**
 * Stops a render: something in the input Kustomize would refuse, or something not evaluated here. The reason is
 * always a phrase of the catalogue (docs/localization.md), worded in the reader's locale where the problem is shown:
 * a plain string does not compile. Kustomize's own error texts, which the native renderer repeats so that they read
 * as `kustomize build` prints them, are the English templates (byte-identical in English; scripts/kustomizeDiff.ts
 * compares them with kubectl's); only what a tool or the YAML library wrote goes in as an argument, as written.
 */
export class Stop extends Error {
  constructor(
    readonly uri: string,
    readonly span: Span,
    readonly reason: Phrase,
    readonly notRendered = false,
    /** A field Kustomize evaluates and this renderer does not (load.ts `notEvaluated`): not a refusal of the build. */
    readonly notEvaluated = false,
  ) {
    super(say(reason, messages(undefined)));
  }
}

export interface Ctx {
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
export function readIn(ctx: Ctx, root: string, uri: string, at: Src): string | undefined {
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
    if (!isWithin(realRoot, dirnameUri(real)))
      throw new Stop(at.uri, at.span, phrase("security; file '{0}' is not in or below '{1}'", ctx.shown(uri), ctx.shown(root)));
  }
  // an input of the build (rendered again when it changes); a refused file is not one: it is never read
  ctx.inputs.add(uri);
  return ctx.fsys.read(uri);
}

/** Whether a file is there (a probe: its text is not used). */
export function isFile(ctx: Ctx, uri: string): boolean {
  return ctx.fsys.read(uri) !== undefined;
}

/**
 * Builds of included kustomizations (a base), by folder URI, shared by the renders of the roots that include them
 * (a base three overlays include is built once, not three times) and kept while every file and folder the build
 * looked at reads the same. What is kept is never changed: each use transforms a copy.
 */
export type BuildCache = Map<string, KeptBuild>;

export interface KeptBuild {
  /** Every read, listing and link resolution the build made, with its answer (a listing as its names joined). */
  readonly reads: ReadonlyMap<string, string | undefined>;
  readonly lists: ReadonlyMap<string, string | undefined>;
  readonly reals: ReadonlyMap<string, string | undefined>;
  readonly restrictor: LoadRestrictor;
  readonly inputs: readonly string[];
  readonly objects: readonly Res[];
  /** The transformer configuration the build accumulated (kustomize/configurations.ts); never changed. */
  readonly config: TransformerConfig;
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

export function parseCached(ctx: Ctx, text: string, uri: string): ParseResult {
  const result = parseShared(ctx.parsed, text, uri);
  return { docs: result.docs.map((d) => ({ node: d.node && clone(d.node), span: d.span })), error: result.error };
}

export interface Kust {
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
