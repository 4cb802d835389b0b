// Builds by the real Kustomize, for the roots the native renderer does not evaluate (replacements, transformer and
// generator configurations, openapi…): which roots may be handed to it, the temporary wrapper kustomization that
// asks for origin annotations, and its output (or its error) → a RenderedUnit whose source map points at the files
// the objects came from. Pure: the binary runs in workspace/kustomizeBinary.ts, which calls these.

import { phrase, worded, type Phrase } from '../l10n/l10n';
import type { RenderedUnit, RenderProblem, ToolExit } from '../model/rendered';
import type { Span } from '../model/span';
import { emitDocuments } from './emit';
import { notRewritten, type BuiltObject } from './notRewritten';
import { kustomizationFileOf, parseShared, type FileReader, type ParseCache } from './render';
import { entry, get, parseYaml, remove, str, type KMap, type KNode, type KSeq, type Src } from './tree';
import { basenameUri, dirnameUri, isWithin, resolveUri } from './uriPath';

/** The annotation `buildMetadata: [originAnnotations]` writes on every object. */
export const originAnnotation = 'config.kubernetes.io/origin';

const remote = /^(?:[a-z][a-z0-9+.-]*:\/\/|git@|github\.com\/|gitlab\.com\/|bitbucket\.org\/)|\?ref=|\.git(?:\/\/|$)/i;

/** Kustomizations a build may nest; deeper trees are not handed to the binary either. */
const maxKustomizations = 200;
/** The most a real build may write (workspace/kustomizeBinary.ts stops it beyond), in MB. */
export const maxBuildMegabytes = 64;

/**
 * Whether the real Kustomize should build a root the native renderer did not: it stopped at something it does not
 * evaluate, or it failed (a failure is confirmed by the real Kustomize before it is reported: confirmedUnit).
 */
export function wantsRealKustomize(native: RenderedUnit): boolean {
  return !native.rendered && native.problems.some((p) => p.code === 'kustomize-not-rendered' || p.code === 'kustomize-render-failed');
}

/** Whether the native renderer failed (rather than stopping at what it does not evaluate). */
export function nativeFailed(native: RenderedUnit): boolean {
  return !native.rendered && !native.problems.some((p) => p.code === 'kustomize-not-rendered');
}

/**
 * The unit to report for a root whose native render failed, once the real Kustomize ran: its build when it builds
 * the root (the native failure was the renderer's, not the user's), else the native failure, which names the
 * kustomization line at fault (the real Kustomize confirmed it, or could not say: it did not start or finish).
 */
export function confirmedUnit(native: RenderedUnit, built: RenderedUnit): RenderedUnit {
  if (!nativeFailed(native)) return built;
  return built.rendered ? built : native;
}

/**
 * Why the real Kustomize must not build a root, or undefined when it may: every kustomization the build reaches is
 * read (resources, bases, components) and refused when it fetches something (a remote resource, a Helm chart,
 * which also needs `--enable-helm`, never passed).
 */
export function whyNotForBinary(
  fsys: FileReader,
  rootDir: string,
  parsed?: ParseCache,
): { readonly why: Phrase; readonly at?: { readonly uri: string; readonly span: Span } } | undefined {
  const seen = new Set<string>();
  const queue = [rootDir];
  while (queue.length) {
    const dir = queue.shift()!;
    if (seen.has(dir)) continue;
    seen.add(dir);
    if (seen.size > maxKustomizations) return { why: phrase('the build nests more than {0} kustomizations', maxKustomizations) };
    const file = kustomizationFileOf(fsys, dir);
    if (!file) continue;
    const text = fsys.read(file);
    if (text === undefined) continue;
    const node = parseShared(parsed, text, file).docs.find((d) => d.node)?.node;
    if (!node || node.t !== 'm') continue;
    for (const key of ['helmCharts', 'helmChartInflationGenerator', 'helmGlobals']) {
      const e = entry(node, key);
      if (e)
        return {
          why: phrase('Helm charts are inflated by Kustomize only with --enable-helm, which is never passed (it runs helm and may download charts)'),
          at: { uri: file, span: e.ks?.span ?? { start: 0, end: 0 } },
        };
    }
    const plugin = pluginOf(fsys, dir, file, node, parsed);
    if (plugin) return plugin;
    for (const key of ['resources', 'bases', 'components']) {
      const list = get(node, key);
      if (!list || list.t !== 'q') continue;
      for (const item of list.items) {
        const ref = str(item);
        if (ref === undefined) continue;
        if (remote.test(ref))
          return { why: phrase("the remote resource '{0}' is never fetched", ref), at: { uri: file, span: item.src?.span ?? { start: 0, end: 0 } } };
        const target = resolveUri(dir, ref);
        if (fsys.read(target) === undefined && fsys.list(target) !== undefined) queue.push(target);
      }
    }
  }
  return undefined;
}

/** The fields whose entries configure generators, transformers and validators: Kustomize's builtins or plugins. */
const pluginFields = ['generators', 'transformers', 'validators'];

/**
 * The first entry of `generators`, `transformers` or `validators` that configures a plugin rather than a builtin
 * (an object whose apiVersion is not `builtin`: an exec or container KRM function, a Go or exec plugin). Kustomize
 * loads those only with --enable-alpha-plugins (and --enable-exec), which are never passed: they run a program or a
 * container, so the build would only fail. An entry is a file, inline YAML, or a kustomization folder (whose
 * output is read at build time: not looked into here).
 */
function pluginOf(
  fsys: FileReader,
  dir: string,
  file: string,
  node: KMap,
  parsed?: ParseCache,
): { readonly why: Phrase; readonly at: { readonly uri: string; readonly span: Span } } | undefined {
  for (const key of pluginFields) {
    const list = get(node, key);
    if (!list || list.t !== 'q') continue;
    for (const item of list.items) {
      const ref = str(item);
      if (ref === undefined) continue;
      const inline = ref.includes('\n');
      const uri = inline ? undefined : resolveUri(dir, ref);
      // a file outside the folder is Kustomize's to refuse (its load restrictor): never read here
      if (uri !== undefined && !isWithin(dir, uri)) continue;
      const text = inline ? ref : uri !== undefined ? fsys.read(uri) : undefined;
      if (text === undefined) continue;
      for (const d of parseShared(parsed, text, uri ?? `${dir}/${key}`).docs) {
        if (!d.node || d.node.t !== 'm') continue;
        const apiVersion = str(get(d.node, 'apiVersion'));
        if (apiVersion === undefined || apiVersion === 'builtin') continue;
        const kind = str(get(d.node, 'kind')) ?? '';
        return {
          why: phrase(
            "'{0}' configures the plugin {1} {2}, which Kustomize runs only with --enable-alpha-plugins, never passed (a plugin runs a program or a container)",
            inline ? key : ref,
            apiVersion,
            kind,
          ),
          at: { uri: file, span: item.src?.span ?? { start: 0, end: 0 } },
        };
      }
    }
  }
  return undefined;
}

/**
 * The wrapper kustomization written to a temporary folder: it lists the user's root (by a path relative to the
 * temporary folder: Kustomize refuses absolute ones) and asks for origin annotations. A folder resource is allowed
 * anywhere by Kustomize's default load restrictor; each of the user's kustomizations is still held to its own folder,
 * as when the user runs `kustomize build` on it.
 */
export function wrapperKustomization(rootFromWrapper: string): string {
  return `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ${JSON.stringify(rootFromWrapper)}\nbuildMetadata:\n  - originAnnotations\n`;
}

export interface ExternalRoot {
  readonly id: string;
  readonly label: string;
  /** The root's kustomization file. */
  readonly definedBy: string;
  /** What the native attempt read (the kustomizations up to where it stopped): inputs of this unit too. */
  readonly nativeInputs: readonly string[];
  /** Where the native attempt stopped: the kustomization line that needs the real Kustomize. */
  readonly at: { readonly uri: string; readonly span: Span };
}

/** What came back from one run (workspace/kustomizeBinary.ts, through workspace/externalTool.ts). */
export type KustomizeExit = ToolExit;

/** One run → the rendered unit, or its problem on the kustomization line. `originUri` turns an origin path into a workspace URI. */
export function unitFromKustomizeExit(
  root: ExternalRoot,
  exit: KustomizeExit,
  tool: string,
  timeoutMs: number,
  fsys: FileReader,
  originUri: (path: string) => string | undefined,
  parsed?: ParseCache,
): RenderedUnit {
  const base = { kind: 'kustomize' as const, id: root.id, label: root.label, definedBy: root.definedBy };
  // a root checked as its own folder is labelled `.`: "did not finish building ." names nothing; its folder's name
  // does, or, for a relative path with no folder (`check .` on the command line), the kustomization file's name
  const folder = basenameUri(dirnameUri(root.definedBy));
  const shown = root.label !== '.' ? root.label : folder && folder !== '.' ? folder : basenameUri(root.definedBy);
  const fail = (severity: RenderProblem['severity'], said: Phrase): RenderedUnit => ({
    ...base,
    inputs: root.nativeInputs,
    problems: [{ uri: root.at.uri, span: root.at.span, severity, code: 'kustomize-render-failed', ...worded(said) }],
  });
  if (exit.tooLarge)
    return fail('warning', phrase('{0} wrote more than {1} MB for {2} and was stopped; a build that large is not checked.', tool, maxBuildMegabytes, shown));
  if (exit.spawnError) return fail('warning', phrase('{0} could not be started to build {1}: {2}', tool, shown, exit.spawnError));
  if (exit.timedOut)
    return fail(
      'warning',
      phrase(
        '{0} did not finish building {1} within {2} and was stopped; the build is not analysed.',
        tool,
        shown,
        timeoutMs < 1000 ? `${timeoutMs} ms` : `${timeoutMs / 1000} s`,
      ),
    );
  // Kustomize's own error text follows as it printed it (paths made relative): it is what a search finds
  if (exit.status !== 0) return fail('error', phrase('Kustomize build fails ({0}, for {1}):\n{2}', tool, shown, kustomizeError(exit.stderr)));
  const mapped = mapOutput(exit.stdout, root, fsys, originUri, parsed);
  if ('unreadable' in mapped) return fail('warning', phrase('The output of {0} for {1} could not be read: {2}', tool, shown, mapped.unreadable));
  // the checks a native build gets, on what the real one built (semantics §8: names inside strings are not rewritten)
  return {
    ...base,
    inputs: [...new Set([...root.nativeInputs, ...mapped.inputs])].sort(),
    rendered: mapped.rendered,
    problems: notRewritten(mapped.built, root.label),
  };
}

/**
 * Kustomize's or kubectl's message with every absolute path rewritten by `shown` (to a path relative to the
 * workspace): no message, hover or SARIF result quotes an absolute path of the user's machine (docs/robustness.md,
 * third round). A path is a `/` that does not follow a word character, `:` or `/` (so `https://…` is left alone),
 * up to a space, quote, bracket, comma, colon or semicolon. `literal` pairs are replaced first, as written (the
 * wrapper's relative path to the root).
 */
export function withWorkspacePaths(text: string, shown: (absolute: string) => string, literal: readonly (readonly [string, string])[] = []): string {
  let out = text;
  for (const [from, to] of literal) if (from) out = out.split(from).join(to);
  return out.replace(/(?<![\w:/.])\/[^\s'"`\][(),:;]*/g, (p) => shown(p));
}

/** Kustomize's message without kubectl's log prefix (`E1201 11:09:48.649829 27214 run.go:72] "command failed" err="…"`), a few lines. */
export function kustomizeError(stderr: string): string | Phrase {
  const lines = stderr
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim());
  const shown = lines.slice(0, 5).map((l) => {
    const m = /^[EWI]\d{4} [\d:.]+\s+\d+ [\w.]+:\d+\] "command failed" err="(.*)"$/.exec(l);
    return m ? m[1].replace(/\\"/g, '"') : l.replace(/^Error: /, '');
  });
  return shown.join('\n') || phrase('Kustomize failed without a message');
}

interface Mapped {
  readonly rendered: NonNullable<RenderedUnit['rendered']>;
  readonly inputs: readonly string[];
  /** The objects with the identity they had in their source file (kustomize/notRewritten.ts reads renames from it). */
  readonly built: readonly BuiltObject[];
}

function mapOutput(
  stdout: string,
  root: ExternalRoot,
  fsys: FileReader,
  originUri: (path: string) => string | undefined,
  parsed?: ParseCache,
): Mapped | { readonly unreadable: string | Phrase } {
  const out = parseYaml(stdout, root.definedBy);
  if (out.error) return { unreadable: out.error.message };
  const inputs = new Set<string>();
  const fallback: Src = { uri: root.at.uri, span: root.at.span, via: 'kustomize build' };
  const docs: { node: KNode; src?: Src }[] = [];
  const built: BuiltObject[] = [];
  for (const d of out.docs) {
    if (!d.node || d.node.t !== 'm') continue;
    const origin = takeOrigin(d.node);
    const path = origin && str(get(origin, 'path'));
    const configuredIn = origin && str(get(origin, 'configuredIn'));
    const fileUri = path !== undefined ? originUri(path) : configuredIn !== undefined ? originUri(configuredIn) : undefined;
    if (fileUri && fsys.read(fileUri) !== undefined) inputs.add(fileUri);
    if (path !== undefined && fileUri) {
      const source = sourceDocument(fsys, fileUri, d.node, parsed);
      const docSrc: Src = source ? { uri: fileUri, span: source.span } : { uri: fileUri, span: { start: 0, end: 0 } };
      const near = source?.node.e[0]?.ks ?? docSrc;
      const node = restamp(d.node, source?.node, near);
      docs.push({ node, src: docSrc });
      if (node.t === 'm') built.push({ node, prevIds: source ? [identityOf(source.node)] : [] });
      continue;
    }
    // A generated object (configuredIn: the kustomization whose generator made it), or one Kustomize gave no origin.
    const made = configuredIn !== undefined && fileUri ? generatorSrc(fsys, fileUri, d.node, str(get(get(origin, 'configuredBy'), 'kind')), parsed) : fallback;
    docs.push({ node: restamp(d.node, undefined, made), src: made });
  }
  return { rendered: emitDocuments(docs), inputs: [...inputs], built };
}

/**
 * An object's identity as its source file writes it: what a real build renamed or moved it from (Kustomize's own
 * previous ids are not in its output; the origin annotation leads to the file, and the file has the old name).
 */
function identityOf(node: KMap): BuiltObject['prevIds'][number] {
  const meta = get(node, 'metadata');
  return { gvk: { kind: str(get(node, 'kind')) ?? '' }, name: str(get(meta, 'name')) ?? '', namespace: str(get(meta, 'namespace')) ?? '' };
}

/** Removes the origin annotation (and an `annotations` map it leaves empty); returns it parsed. */
function takeOrigin(node: KMap): KNode | undefined {
  const meta = get(node, 'metadata');
  const annotations = get(meta, 'annotations');
  if (!meta || meta.t !== 'm' || !annotations || annotations.t !== 'm') return undefined;
  const text = str(get(annotations, originAnnotation));
  if (text === undefined) return undefined;
  remove(annotations, originAnnotation);
  if (!annotations.e.length) remove(meta, 'annotations');
  return parseYaml(text, 'origin').docs[0]?.node;
}

/** The document of `uri` the object came from: same kind, and the name it had there (the rendered one contains it). */
function sourceDocument(fsys: FileReader, uri: string, object: KMap, parsed?: ParseCache): { node: KMap; span: Span } | undefined {
  const text = fsys.read(uri);
  if (text === undefined) return undefined;
  const kind = str(get(object, 'kind'));
  const name = str(get(get(object, 'metadata'), 'name')) ?? '';
  const candidates: { node: KMap; span: Span }[] = [];
  for (const d of parseShared(parsed, text, uri).docs) {
    if (!d.node || d.node.t !== 'm') continue;
    const items = get(d.node, 'items');
    if (str(get(d.node, 'kind'))?.endsWith('List') && items?.t === 'q') {
      for (const it of items.items) if (it.t === 'm' && str(get(it, 'kind')) === kind) candidates.push({ node: it, span: it.src?.span ?? d.span });
    } else if (str(get(d.node, 'kind')) === kind) candidates.push({ node: d.node, span: d.span });
  }
  const nameOf = (c: { node: KMap }) => str(get(get(c.node, 'metadata'), 'name')) ?? '';
  const exact = candidates.find((c) => nameOf(c) === name);
  if (exact) return exact;
  const within = candidates.filter((c) => nameOf(c) && name.includes(nameOf(c))).sort((a, b) => nameOf(b).length - nameOf(a).length);
  if (within.length) return within[0];
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** The generator entry (`- name: cfg` under configMapGenerator or secretGenerator) that made a generated object. */
function generatorSrc(fsys: FileReader, uri: string, object: KMap, generator: string | undefined, parsed?: ParseCache): Src {
  const via = generator ?? 'kustomize build';
  const text = fsys.read(uri);
  const node = text === undefined ? undefined : parseShared(parsed, text, uri).docs.find((d) => d.node)?.node;
  const key = generator === 'SecretGenerator' ? 'secretGenerator' : 'configMapGenerator';
  const list = node && node.t === 'm' ? entry(node, key) : undefined;
  if (!list) return { uri, span: { start: 0, end: 0 }, via };
  const name = str(get(get(object, 'metadata'), 'name')) ?? '';
  const items = list.v.t === 'q' ? list.v.items : [];
  // the generated name is the generator's name, prefixed, suffixed and hashed: the longest generator name it contains
  const item = items
    .filter((i) => (str(get(i, 'name')) ?? '') !== '' && name.includes(str(get(i, 'name'))!))
    .sort((a, b) => str(get(b, 'name'))!.length - str(get(a, 'name'))!.length)[0];
  const span = item?.src?.span ?? list.ks?.span ?? { start: 0, end: 0 };
  return { uri, span, via };
}

/**
 * A copy of the output tree whose nodes point into the source document: a key or scalar the source has at the same
 * place maps to the source's text (marked as Kustomize's making when the value differs); what Kustomize added maps to
 * the nearest enclosing key the source has. Lists of named items are matched by name, others by index.
 */
function restamp(out: KNode, source: KNode | undefined, near: Src): KNode {
  const made = (s: Src): Src => ({ uri: s.uri, span: s.span, via: 'kustomize build' });
  if (out.t === 's') {
    if (source?.t === 's' && source.src) return { t: 's', v: out.v, raw: out.raw, src: source.v === out.v ? source.src : made(source.src) };
    return { t: 's', v: out.v, raw: out.raw, src: made(near) };
  }
  if (out.t === 'q') {
    const items = out.items.map((item, i) => restamp(item, source?.t === 'q' ? matchItem(source, item, i) : undefined, near));
    return { t: 'q', items, src: source?.t === 'q' && source.src ? source.src : made(near) };
  }
  return {
    t: 'm',
    e: out.e.map((e) => {
      const se = source?.t === 'm' ? entry(source, e.k) : undefined;
      return { k: e.k, ks: se?.ks ?? made(near), v: restamp(e.v, se?.v, se?.ks ?? near) };
    }),
    src: source?.t === 'm' && source.src ? source.src : made(near),
  };
}

function matchItem(source: KSeq, item: KNode, i: number): KNode | undefined {
  const name = str(get(item, 'name'));
  if (name !== undefined) {
    const byName = source.items.find((s) => str(get(s, 'name')) === name);
    if (byName) return byName;
  }
  return source.items[i];
}
