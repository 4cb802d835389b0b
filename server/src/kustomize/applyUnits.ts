// Kustomize roots as apply units of the project model (model/project.ts): each root that renders becomes one
// manifest file holding its built objects (`ManifestFile.rendered`, analysed as a cluster of its own), the files
// it read are no longer analysed as plain manifests, and what could not be rendered is reported on the line that
// says why. A root that does not render leaves its files as they are (analysed as plain files, as before).
// Pure; the memo carried from one call to the next only avoids rendering a root again while its inputs are unchanged.

import { asIs, phrase, sentences, worded, type Phrase } from '../l10n/l10n';
import type { LoadRestrictor } from '../model/config';
import { buildInputFile, parseManifest, type ManifestFile, type ParseProblem } from '../model/parseManifest';
import { PackedMappings, builtAloneSuffix, renderedFileUri, type RenderedUnit } from '../model/rendered';
import type { Resource } from '../model/resources';
import { inlineKey, isKustomizationUri, parseShared, renderKustomization, type BuildCache, type FileReader, type ParseCache } from './render';
import { wantsRealKustomize } from './external';
import { discoverKustomizations, type KustomizeLayout, type KustomizeRoot } from './roots';
import { get, str } from './tree';
import { basenameUri, dirnameUri, relativeUri, resolveUri } from './uriPath';

export interface KustomizeMemo {
  readonly uris: string;
  readonly loadRestrictor: LoadRestrictor;
  /** `native`: the native render (what is reused while its inputs keep their texts); `unit`: what was analysed. */
  readonly roots: ReadonlyMap<
    string,
    { readonly unit: RenderedUnit; readonly native?: RenderedUnit; readonly texts: ReadonlyMap<string, string | undefined>; readonly file?: ManifestFile }
  >;
  readonly consumed: ReadonlyMap<string, ManifestFile>;
  /**
   * Files with the builds' problems added, by URI: the file they were added to, the problems (as one string) and the
   * result. While both stay the same, the result is the same object, so an edit elsewhere leaves the file unchanged
   * for the analysis (its rules are not run again, its findings stay the same objects).
   */
  readonly withProblems: ReadonlyMap<string, { readonly from: ManifestFile; readonly key: string; readonly file: ManifestFile }>;
  /** Parsed kustomizations and resource files, by URI and text. */
  readonly parsed: ParseCache;
  /** Builds of included kustomizations (bases), kept while what they read is unchanged. */
  readonly builds: BuildCache;
  /** The call the memo came from, when an edit that touches nothing the builds read may hand its result back (`unread`). */
  readonly last?: LastCall;
}

/**
 * What a call was given and answered, kept when every root reads only files the workspace lists: then a later call
 * whose files differ only in files no build reads, outside every kustomization folder, has the same roots, the same
 * renders and the same problems (while the real Kustomize's builds stay the same), and answers with those files
 * swapped in.
 */
interface LastCall {
  readonly input: readonly ManifestFile[];
  readonly output: readonly ManifestFile[];
  readonly units: readonly RenderedUnit[];
  /** Every file a root reads or would read, and every patch file. */
  readonly reads: ReadonlySet<string>;
  /**
   * The roots that asked for the real Kustomize (`KustomizeOptions.external`), with the unit analysed: they are asked
   * again (the caller learns which builds are wanted), and the answer stands while each gives the same unit.
   */
  readonly asked: readonly { readonly native: RenderedUnit; readonly unit: RenderedUnit }[];
  /** Folders holding a kustomization. */
  readonly folders: ReadonlySet<string>;
  readonly defaultNamespace: string;
  readonly other?: FileReader;
  readonly isRoot?: (dir: string) => boolean;
  readonly shown?: (uri: string) => string;
}

export interface KustomizeUnits {
  /** The workspace's files with Kustomize's inputs turned into build inputs, plus one file per rendered root. */
  readonly files: readonly ManifestFile[];
  readonly units: readonly RenderedUnit[];
  readonly memo?: KustomizeMemo;
}

/** What the settings and the real Kustomize add to the native roots. */
export interface KustomizeOptions {
  /**
   * `kubeNetlens.kustomize.roots`: when set, only the kustomization folders it accepts are roots (included ones as
   * well); components never are.
   */
  readonly isRoot?: (dir: string) => boolean;
  /**
   * A root the native renderer does not evaluate (`replacements`, `openapi`…): its build by the real Kustomize, or
   * undefined (the native note stays). Called with the native attempt.
   */
  readonly external?: (native: RenderedUnit, parsed: ParseCache) => RenderedUnit | undefined;
  /**
   * The same for every such root at once, before `external` is asked (the command line runs several real builds at
   * a time): its answers, by the root's kustomization file, are taken first. `parsed` holds the kustomizations and
   * resource files already parsed, so mapping a build's objects back to their files parses nothing again.
   */
  readonly externalAll?: (natives: readonly RenderedUnit[], parsed: ParseCache) => ReadonlyMap<string, RenderedUnit>;
  /** Which files a kustomization may read (kustomize/buildContext.ts readIn); default `rootOnly`, as kustomize's. */
  readonly loadRestrictor?: LoadRestrictor;
  /** How messages show a path (render.ts RenderOptions.shown); default: relative to the workspace's common folder. */
  readonly shown?: (uri: string) => string;
  /** Told after each native build of a root: how many of the roots to build are built (the command line's progress). */
  readonly onRendered?: (done: number, total: number) => void;
  /**
   * Sees each object of a build's file right after that file is parsed, while its trees are still cached
   * (model/treeCache.ts): the API-server validation, which the cluster asks for again, memoized, without a second
   * parse of the build's text (each build's text is read once; asked later, all but the last were parsed again).
   */
  readonly afterParse?: (r: Resource) => unknown;
}

/**
 * A reader over the workspace's files: folders are the URIs' parents. `other` answers for files the workspace does
 * not list (env files and patches outside the analysed paths, files that are not YAML).
 */
export function readerOf(files: readonly { readonly uri: string; readonly text: string }[], other?: FileReader): FileReader {
  const texts = new Map(files.map((f) => [f.uri, f.text]));
  const dirs = new Map<string, Set<string>>();
  for (const f of files) {
    let child = f.uri;
    let dir = dirnameUri(child);
    // Register every ancestor folder with its entry, up to the root.
    while (dir !== child) {
      let entries = dirs.get(dir);
      const known = entries !== undefined;
      if (!entries) dirs.set(dir, (entries = new Set()));
      entries.add(basenameUri(child));
      if (known) break;
      child = dir;
      dir = dirnameUri(dir);
    }
  }
  return {
    read: (uri) => texts.get(uri) ?? other?.read(uri),
    // links are resolved by the disk; a text only the editor holds (not saved yet) is where its URI says
    realUri: (uri) => other?.realUri?.(uri) ?? (texts.has(uri) || dirs.has(uri.replace(/\/+$/, '')) ? uri : undefined),
    list: (dir) => {
      const mine = dirs.get(dir.replace(/\/+$/, ''));
      const theirs = other?.list(dir);
      if (!mine) return theirs;
      return theirs ? [...new Set([...mine, ...theirs])] : [...mine];
    },
  };
}

/**
 * `files`: the workspace's files as parsed today (in URI order). `defaultNamespace` is used to parse rendered text.
 * Returns the files unchanged when the workspace holds no kustomization.
 */
export function kustomizeUnits(
  files: readonly ManifestFile[],
  defaultNamespace: string,
  memo?: KustomizeMemo,
  other?: FileReader,
  options: KustomizeOptions = {},
): KustomizeUnits {
  // A kustomization of a test suite (model/fileRoles.ts) is the harness's: it builds no apply unit and includes no base.
  if (!files.some((f) => isKustomizationUri(f.uri) && f.skipped !== 'test-suite')) return { files, units: [] };
  // The real Kustomize's answers the attempt below asked for are not asked again (asking tells the caller a build is
  // wanted: twice would want it twice).
  const answered = new Map<RenderedUnit, RenderedUnit | undefined>();
  const fast = memo?.last && unread(files, defaultNamespace, memo, memo.last, other, options, answered);
  if (fast) return fast;
  const external = (native: RenderedUnit, parsed: ParseCache) => (answered.has(native) ? answered.get(native) : options.external?.(native, parsed));
  const uris = files.map((f) => f.uri);
  const testSuites = new Set(files.filter((f) => f.skipped === 'test-suite').map((f) => f.uri));
  const sig = uris.join('\n');
  const reader = readerOf(files, other);
  const loadRestrictor = options.loadRestrictor ?? 'rootOnly';
  // renders under another load restrictor are not reused
  const same = memo && memo.uris === sig && memo.loadRestrictor === loadRestrictor;
  const previous = same ? memo.roots : undefined;
  const parsed: ParseCache = memo?.parsed ?? new Map();
  const listed = new Set(uris);
  for (const key of parsed.keys()) {
    // inline patches are kept under their kustomization's URI
    const i = key.indexOf(inlineKey);
    if (!listed.has(i < 0 ? key : key.slice(0, i))) parsed.delete(key);
  }
  // kept builds are checked against what they read; a change of the file list starts afresh (folders went away)
  const builds: BuildCache = same ? memo.builds : new Map();
  const base = commonFolder(uris);
  const reuse = previous && reuseOf(reader, previous);
  const layout = discoverKustomizations(
    testSuites.size ? uris.filter((u) => !testSuites.has(u)) : uris,
    reader,
    base,
    reuse,
    parsed,
    builds,
    { loadRestrictor, workspace: base, shown: options.shown },
    options.onRendered,
  );
  const roots = new Map<string, { unit: RenderedUnit; native?: RenderedUnit; texts: ReadonlyMap<string, string | undefined>; file?: ManifestFile }>();
  const consumedUris = new Set<string>();
  const problems = new Map<string, ParseProblem[]>();
  const extra: ManifestFile[] = [];
  const chosen = chosenRoots(
    layout.roots,
    layout.folders,
    layout.components,
    options.isRoot,
    (dir) =>
      reuse?.(dir) ??
      renderKustomization(reader, dir, { label: base ? relativeUri(base, dir) : dir, parsed, builds, loadRestrictor, workspace: base, shown: options.shown }),
  );
  const wantsExternal = (root: KustomizeRoot) => wantsRealKustomize(root.unit) && !root.builtElsewhere;
  const externals = options.externalAll?.(
    chosen.filter(wantsExternal).map((r) => r.unit),
    parsed,
  );
  const finalUnit = new Map<string, RenderedUnit>();
  for (const root of chosen)
    finalUnit.set(root.dir, (wantsExternal(root) && (externals?.get(root.unit.definedBy) ?? external(root.unit, parsed))) || root.unit);
  const labelOf = (dir: string) => (base ? relativeUri(base, dir) : dir);
  // Bases that only failing roots include are built on their own (not when the settings name the roots).
  const aloneAsked: { native: RenderedUnit; unit: RenderedUnit }[] = [];
  const alone = options.isRoot
    ? []
    : basesBuiltAlone(layout, chosen, finalUnit, (dir) => {
        const native =
          reuse?.(dir) ??
          renderKustomization(reader, dir, {
            label: `${labelOf(dir)}${builtAloneSuffix}`,
            parsed,
            builds,
            loadRestrictor,
            workspace: base,
            shown: options.shown,
          });
        if (!wantsRealKustomize(native)) return native;
        const unit = external(native, parsed) || native;
        aloneAsked.push({ native, unit });
        return unit;
      });
  const aloneFor = new Map<string, string[]>();
  for (const a of alone) for (const r of a.forRoots) aloneFor.set(r, [...(aloneFor.get(r) ?? []), a.dir]);
  for (const root of chosen) {
    const native = root.unit;
    const unit = finalUnit.get(root.dir)!;
    const old = previous?.get(root.dir);
    const reused = old && old.unit === unit ? old : undefined;
    const texts: ReadonlyMap<string, string | undefined> =
      reused?.texts ?? new Map([...new Set([...native.inputs, ...unit.inputs])].map((u) => [u, reader.read(u)]));
    // what it lists are inputs of its build: a reused build lists the same files
    if (unit.rendered && (reused ? !reused.file : onlyListsFiles(reader, root.dir, root.file, parsed))) {
      roots.set(root.dir, { unit, native, texts });
      continue;
    }
    let file = reused?.file;
    if (unit.rendered) {
      file ??= sameOutput(old?.file, unit) ?? renderedFile(unit, defaultNamespace, options.afterParse);
      extra.push(file);
      for (const u of unit.inputs) if (listed.has(u)) consumedUris.add(u);
    }
    roots.set(root.dir, { unit, native, texts, file });
    const unknown = unit.rendered ? [] : unknownInputs(layout, root.dir, listed, (k) => listsOnly(reader, k, parsed));
    for (const u of unknown) consumedUris.add(u);
    const bases = aloneFor.get(root.dir) ?? [];
    const why = !unknown.length
      ? undefined
      : bases.length
        ? bases.length === 1
          ? phrase(
              'What this build makes of the files it reads is unknown; the base it includes ({0}) is checked as built on its own.',
              bases.map(labelOf).join(', '),
            )
          : phrase(
              'What this build makes of the files it reads is unknown; the bases it includes ({0}) are checked as built on their own.',
              bases.map(labelOf).join(', '),
            )
        : phrase('The files it reads are not checked on their own: what they become in the build is unknown.');
    for (const p0 of unit.problems) {
      const p = why && p0.severity !== 'warning' ? { ...p0, ...worded(sentences(phraseOf(p0), why)) } : p0;
      const list = problems.get(p.uri) ?? [];
      // One place, one problem: the same cause met in several builds names each build in one message.
      const i = list.findIndex((q) => q.span.start === p.span.start && q.span.end === p.span.end && q.code === p.code);
      if (i < 0)
        list.push({ span: p.span, code: p.code as ParseProblem['code'], severity: p.severity, message: p.message, ...(p.phrase && { phrase: p.phrase }) });
      else {
        // each sentence once: the same cause met through a root and through a build that includes it (which adds `why`)
        const parts = p === p0 ? [phraseOf(p0)] : [phraseOf(p0), why!];
        const fresh = parts.filter((part) => !list[i].message.includes(worded(part).message));
        if (fresh.length) list[i] = { ...list[i], ...worded(sentences(phraseOf(list[i]), ...fresh)) };
      }
      problems.set(p.uri, list);
    }
  }
  // The bases built on their own: analysed like roots (semantics §9: what the repository deploys, as far as it builds).
  for (const a of alone) {
    const unit = a.unit;
    const old = previous?.get(a.dir);
    const reused = old && old.unit === unit ? old : undefined;
    const texts: ReadonlyMap<string, string | undefined> = reused?.texts ?? new Map(unit.inputs.map((u) => [u, reader.read(u)]));
    if (reused ? !reused.file : onlyListsFiles(reader, a.dir, unit.definedBy, parsed)) {
      // it builds exactly the files it lists: they are analysed as they are
      for (const u of unit.inputs) consumedUris.delete(u);
      roots.set(a.dir, { unit, texts });
      continue;
    }
    const file = reused?.file ?? sameOutput(old?.file, unit) ?? renderedFile(unit, defaultNamespace, options.afterParse);
    extra.push(file);
    for (const u of unit.inputs) if (listed.has(u)) consumedUris.add(u);
    roots.set(a.dir, { unit, texts, file });
  }
  const units = [...roots.values()].map((r) => r.unit);
  // A later edit of a file no build reads gets this call's answer back (`unread`), when nothing here came from
  // outside the listed files.
  let reads: Set<string> | undefined = new Set(layout.patchFiles);
  const asked: { native: RenderedUnit; unit: RenderedUnit }[] = [];
  for (const a of aloneAsked) asked.push(a);
  for (const a of alone) {
    if (a.unit.inputs.some((u) => !listed.has(u))) reads = undefined;
    else for (const u of a.unit.inputs) reads?.add(u);
  }
  for (const root of chosen) {
    if (!reads) break;
    if (wantsExternal(root)) asked.push({ native: root.unit, unit: roots.get(root.dir)!.unit });
    for (const u of root.reads) reads.add(u);
    for (const u of layout.readsOf(root.dir)) reads.add(u);
    const texts = [...roots.get(root.dir)!.texts.keys()];
    if (texts.some((u) => !listed.has(u))) {
      reads = undefined;
      break;
    }
    for (const u of texts) reads.add(u);
  }
  const lastCall = (output: readonly ManifestFile[]): LastCall | undefined =>
    reads && {
      input: files,
      output,
      units,
      reads,
      asked,
      folders: new Set(layout.folders),
      defaultNamespace,
      other,
      isRoot: options.isRoot,
      shown: options.shown,
    };
  const memoOut = (
    consumed: ReadonlyMap<string, ManifestFile>,
    output: readonly ManifestFile[],
    withProblems: KustomizeMemo['withProblems'] = new Map(),
  ): KustomizeMemo => ({
    uris: sig,
    loadRestrictor,
    roots,
    consumed,
    withProblems,
    parsed,
    builds,
    last: !options.externalAll && !options.onRendered ? lastCall(output) : undefined,
  });
  // Nothing rendered and nothing to report (roots that only list files): the files as they are.
  if (!extra.length && !problems.size) return { files, units, memo: memoOut(new Map(), files) };
  const consumed = new Map<string, ManifestFile>();
  const withProblems = new Map<string, { readonly from: ManifestFile; readonly key: string; readonly file: ManifestFile }>();
  const out: ManifestFile[] = [];
  for (const f of files) {
    let g = f;
    const clamp = (n: number) => Math.max(0, Math.min(n, f.text.length));
    if (consumedUris.has(f.uri) && !f.skipped) {
      const kept = memo?.consumed.get(f.uri);
      g = kept && kept.text === f.text ? kept : buildInputFile(f.uri, f.text, 'kustomize-input');
      consumed.set(f.uri, g);
    }
    const ps = problems.get(f.uri);
    if (ps) {
      const added = ps.map((p) => ({ ...p, span: { start: clamp(p.span.start), end: clamp(Math.max(p.span.start, p.span.end)) } }));
      const key = JSON.stringify(added);
      const kept = memo?.withProblems.get(f.uri);
      const from = g;
      g = kept && kept.from === from && kept.key === key ? kept.file : { ...from, problems: [...from.problems, ...added] };
      withProblems.set(f.uri, { from, key, file: g });
    }
    out.push(g);
  }
  out.push(...extra);
  out.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  return { files: out, units, memo: memoOut(consumed, out, withProblems) };
}

/** The manifest file of a build's objects (its rendered text), each object shown to `afterParse` while its trees are cached. */
function renderedFile(unit: RenderedUnit, defaultNamespace: string, afterParse: KustomizeOptions['afterParse']): ManifestFile {
  const rendered = unit.rendered!;
  const parsed = parseManifest(renderedFileUri(unit.definedBy), rendered.text, { defaultNamespace });
  if (afterParse) for (const r of parsed.resources) afterParse(r);
  return { ...parsed, rendered: { unitId: unit.id, label: unit.label, definedBy: unit.definedBy, text: rendered } };
}

/**
 * The file of the root's last build when its new build printed the same text (an edit that changes nothing the build
 * makes, or only where in the sources it comes from): its objects are the same and are not parsed again; with the
 * same mappings it is the same file, and the analysis runs nothing again for it.
 */
function sameOutput(old: ManifestFile | undefined, unit: RenderedUnit): ManifestFile | undefined {
  const now = unit.rendered!;
  if (
    !old?.rendered ||
    old.text !== now.text ||
    old.rendered.unitId !== unit.id ||
    old.rendered.label !== unit.label ||
    old.rendered.definedBy !== unit.definedBy
  )
    return undefined;
  const before = old.rendered.text.mappings;
  const same = before instanceof PackedMappings && now.mappings instanceof PackedMappings ? before.equals(now.mappings) : false;
  return same ? old : { ...old, rendered: { ...old.rendered, text: now } };
}

/**
 * The last call's answer with the files that changed since swapped in, when none of them is a kustomization, sits in
 * a kustomization's folder, is read by a build or carries a build's problems, and everything else the answer depends
 * on is the same (the list of URIs, the settings, the readers): an edit of a plain manifest costs a pass of identity
 * checks, not a discovery and a reuse check of every root. Undefined otherwise.
 */
function unread(
  files: readonly ManifestFile[],
  defaultNamespace: string,
  memo: KustomizeMemo,
  last: LastCall,
  other: FileReader | undefined,
  options: KustomizeOptions,
  answered: Map<RenderedUnit, RenderedUnit | undefined>,
): KustomizeUnits | undefined {
  if (
    files.length !== last.input.length ||
    defaultNamespace !== last.defaultNamespace ||
    other !== last.other ||
    options.isRoot !== last.isRoot ||
    options.shown !== last.shown
  )
    return undefined;
  if ((options.loadRestrictor ?? 'rootOnly') !== memo.loadRestrictor || options.externalAll || options.onRendered) return undefined;
  const changed: ManifestFile[] = [];
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    const old = last.input[i];
    if (f === old) continue;
    if (f.uri !== old.uri || isKustomizationUri(f.uri) || last.reads.has(f.uri) || last.folders.has(dirnameUri(f.uri))) return undefined;
    if ((f.skipped === 'test-suite') !== (old.skipped === 'test-suite') || memo.consumed.has(f.uri) || memo.withProblems.has(f.uri)) return undefined;
    changed.push(f);
  }
  let same = true;
  for (const a of last.asked) {
    const unit = options.external?.(a.native, memo.parsed);
    answered.set(a.native, unit);
    if ((unit ?? a.native) !== a.unit) same = false;
  }
  if (!same) return undefined;
  let output = last.output === last.input ? files : last.output;
  if (changed.length && output !== files) {
    const swapped = [...output];
    for (const f of changed) {
      const i = indexByUri(swapped, f.uri);
      if (i < 0) return undefined;
      swapped[i] = f;
    }
    output = swapped;
  }
  return { files: output, units: last.units, memo: { ...memo, last: { ...last, input: files, output } } };
}

/** The place of `uri` among files in URI order (a binary search), or -1. */
function indexByUri(files: readonly ManifestFile[], uri: string): number {
  let lo = 0;
  let hi = files.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const u = files[mid].uri;
    if (u === uri) return mid;
    if (u < uri) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Bases that only failing roots include, built on their own. When every root that includes a base fails to build
 * (kustomize refuses it: an env file the user writes before deploying, a generator input another tool makes; not a
 * build this renderer does not evaluate, whose result is unknown), nothing of the base would be
 * checked at all; kustomize builds any folder, and the base as written is what those roots start from. Going down
 * from each failing root, the first kustomizations that every including root fails on, and that build alone, are
 * taken; what they include is part of their build. A base that a working root includes is checked there.
 */
function basesBuiltAlone(
  layout: KustomizeLayout,
  chosen: readonly KustomizeRoot[],
  finalUnit: ReadonlyMap<string, RenderedUnit>,
  render: (dir: string) => RenderedUnit,
): { dir: string; unit: RenderedUnit; forRoots: string[] }[] {
  // Failing is refusing: a build not evaluated here (a feature the native renderer lacks) is unknown, not failed.
  const fails = (u: RenderedUnit | undefined) => !!u && !u.rendered && u.problems.some((p) => p.severity === 'error');
  const failed = new Set(chosen.filter((r) => !r.builtElsewhere && fails(finalUnit.get(r.dir))).map((r) => r.dir));
  if (!failed.size) return [];
  // the roots that include each kustomization folder, through any chain
  const rootsOf = new Map<string, Set<string>>();
  for (const root of chosen) {
    const stack = [...layout.includesOf(root.dir)];
    const seen = new Set<string>();
    while (stack.length) {
      const d = stack.pop()!;
      if (seen.has(d) || d === root.dir) continue;
      seen.add(d);
      let set = rootsOf.get(d);
      if (!set) rootsOf.set(d, (set = new Set()));
      set.add(root.dir);
      stack.push(...layout.includesOf(d));
    }
  }
  const out = new Map<string, { dir: string; unit: RenderedUnit; forRoots: string[] }>();
  const tried = new Set<string>();
  for (const r of [...failed].sort()) {
    const queue = [...layout.includesOf(r)];
    const seen = new Set<string>();
    while (queue.length) {
      const d = queue.shift()!;
      if (seen.has(d)) continue;
      seen.add(d);
      const including = rootsOf.get(d);
      if (!including || [...including].some((x) => !failed.has(x))) continue;
      const kept = out.get(d);
      if (kept) {
        if (!kept.forRoots.includes(r)) kept.forRoots.push(r);
        continue;
      }
      if (!tried.has(d) && layout.buildsAlone(d)) {
        tried.add(d);
        const unit = render(d);
        if (unit.rendered) {
          out.set(d, { dir: d, unit, forRoots: [r] });
          continue;
        }
      }
      queue.push(...layout.includesOf(d));
    }
  }
  // a base inside another base built alone is part of that build
  const inside = new Set<string>();
  for (const d of out.keys()) {
    const stack = [...layout.includesOf(d)];
    while (stack.length) {
      const x = stack.pop()!;
      if (inside.has(x)) continue;
      inside.add(x);
      stack.push(...layout.includesOf(x));
    }
  }
  return [...out.values()].filter((a) => !inside.has(a.dir));
}

/** A root whose inputs all have the texts of its last render is not rendered again: its unit is handed back. */
function reuseOf(reader: FileReader, previous: KustomizeMemo['roots']): (dir: string) => RenderedUnit | undefined {
  return (dir) => {
    const old = previous.get(dir);
    if (!old) return undefined;
    for (const [u, t] of old.texts) if (reader.read(u) !== t) return undefined;
    return old.native ?? old.unit;
  };
}

/**
 * The roots as the settings name them: without `isRoot`, the native ones; with it, every kustomization folder it
 * accepts (rendered here when the native decision did not make it a root), components excepted.
 */
function chosenRoots(
  natural: readonly KustomizeRoot[],
  folders: readonly string[],
  components: readonly string[],
  isRoot: ((dir: string) => boolean) | undefined,
  render: (dir: string) => RenderedUnit,
): readonly KustomizeRoot[] {
  if (!isRoot) return natural;
  const byDir = new Map(natural.map((r) => [r.dir, r]));
  const skip = new Set(components);
  return folders
    .filter((dir) => !skip.has(dir) && isRoot(dir))
    .map((dir) => {
      const known = byDir.get(dir);
      if (known) return known;
      const unit = render(dir);
      return { dir, file: unit.definedBy, reads: unit.inputs, unit };
    });
}

/**
 * A kustomization that only lists files builds exactly their objects: those files are analysed as they are (with
 * their own spans, hovers and fixes) rather than through a rendered copy.
 */
function onlyListsFiles(reader: FileReader, dir: string, file: string, parsed: ParseCache): boolean {
  const text = reader.read(file);
  if (text === undefined) return false;
  const node = parseShared(parsed, text, file).docs.find((d) => d.node)?.node;
  if (!node || node.t !== 'm') return false;
  for (const e of node.e) {
    if (e.k === 'apiVersion' || e.k === 'kind' || e.k === 'metadata') continue;
    if (e.k !== 'resources' || e.v.t !== 'q') return false;
    for (const item of e.v.items) {
      const ref = str(item);
      if (ref === undefined || reader.read(resolveUri(dir, ref)) === undefined) return false;
    }
  }
  return str(get(node, 'kind')) !== 'Component';
}

/**
 * The files of a root that does not render (not evaluated here, or a build kustomize would refuse): the objects they
 * become are unknown (semantics §9.5: a build's inputs are not objects; only its output is, and there is none), so
 * they are not analysed as plain manifests either. Only files inside kustomization folders: a folder with a
 * kustomization is applied with `-k`, while a plain file elsewhere may also be applied on its own with `-f`.
 */
function unknownInputs(layout: KustomizeLayout, dir: string, listed: ReadonlySet<string>, listsOnlyFile: (kustomization: string) => boolean): string[] {
  const reads = layout.readsOf(dir);
  // Kustomizations that only list files build exactly those files' objects, so the files are known as written.
  if (reads.filter((u) => isKustomizationUri(u)).every(listsOnlyFile)) return [];
  const folders = new Set(layout.folders);
  return reads.filter((u) => listed.has(u) && !isKustomizationUri(u) && folders.has(dirnameUri(u)));
}

/** Whether a kustomization only lists resources (no patches, generators, transformers or settings). */
function listsOnly(reader: FileReader, file: string, parsed: ParseCache): boolean {
  const text = reader.read(file);
  if (text === undefined) return false;
  const node = parseShared(parsed, text, file).docs.find((d) => d.node)?.node;
  if (!node || node.t !== 'm') return false;
  return str(get(node, 'kind')) !== 'Component' && node.e.every((e) => e.k === 'apiVersion' || e.k === 'kind' || e.k === 'metadata' || e.k === 'resources');
}

function commonFolder(uris: readonly string[]): string | undefined {
  if (!uris.length) return undefined;
  let prefix = dirnameUri(uris[0]);
  for (const u of uris)
    while (!u.startsWith(prefix.endsWith('/') ? prefix : prefix + '/')) {
      const up = dirnameUri(prefix);
      if (up === prefix) return undefined;
      prefix = up;
    }
  return prefix;
}

/** A problem's message as a phrase: its own, or its English text as it is (a tool's words, never translated). */
function phraseOf(p: { readonly message: string; readonly phrase?: Phrase }): Phrase {
  return p.phrase ?? asIs(p.message);
}
