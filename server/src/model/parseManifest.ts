// Text of one file → the Kubernetes resources it defines and the problems found while reading it.
// Never throws on user input: broken YAML becomes problems, non-Kubernetes YAML is "not a manifest",
// Helm/Go templates are skipped whole, and nesting deep enough to hurt the parser is refused before parsing.

import { Composer, Parser, isAlias, isMap, isPair, isScalar, isSeq, type CST, type Document, type Node as YamlNode, Scalar } from 'yaml';
import { composeInPieces, composerOptions } from './composeInPieces';
import { fastParse, fastParseSteps } from './fastYaml';
import { goYamlLexer, goYamlTokens } from './goYaml';
import { leaveParsedTrees } from './treeCache';
import { fileRoles, type FileRole } from './fileRoles';
import type { ClusterDependence } from './helmLookups';
import type { RenderedSource } from './rendered';
import type { Span } from './span';
import { phrase, worded, type Phrase } from '../l10n/l10n';
import type { YEntry, YNode, YScalar } from './yamlTree';
import { readResourcesSteps, type Resource } from './resources';

export type SkipReason = 'template' | 'build-input' | 'test-suite' | 'too-deep' | 'too-large' | 'binary';

export interface ParseProblem {
  readonly span: Span;
  /** In English; `phrase`, when set, is the same message to be worded in the locale of the finding (l10n.ts). */
  readonly message: string;
  readonly phrase?: Phrase;
  /**
   * `yaml-syntax` for YAML errors, `manifest` for Kubernetes shape problems (e.g. `metadata: []`), `kustomize-*` for
   * a Kustomize build that fails or is not evaluated (model/rendered.ts `RenderProblem`).
   */
  readonly code: 'yaml-syntax' | 'manifest' | 'kustomize-render-failed' | 'kustomize-not-rendered' | 'kustomize-name-not-rewritten';
  readonly severity: 'error' | 'warning' | 'information';
  /** Other places in the same file the problem is about (the first of a key written twice). */
  readonly related?: readonly { readonly span: Span; readonly message: string; readonly phrase?: Phrase }[];
}

export interface ManifestDocument {
  readonly index: number;
  readonly span: Span;
  readonly root: YNode | undefined;
}

export interface ManifestFile {
  readonly uri: string;
  readonly text: string;
  readonly resources: readonly Resource[];
  readonly problems: readonly ParseProblem[];
  /** Why the whole file was passed over, if it was. */
  readonly skipped?: SkipReason;
  /** Number of YAML documents that looked like Kubernetes objects. */
  readonly manifestDocuments: number;
  /** Set on the file that holds a rendered apply unit's objects (a Kustomize root's build). */
  readonly rendered?: RenderedSource;
  /** Set on a Helm render whose templates ask the cluster (`lookup`, `.Capabilities`): what it may lack (analysis/unknowns.ts). */
  readonly clusterDependences?: readonly ClusterDependence[];
}

export interface ParseOptions {
  readonly defaultNamespace: string;
  /** False to always use the yaml library (the fast path's tests compare both). */
  readonly fastPath?: boolean;
}

/** At most this many problems are kept per file; a template file can produce tens of thousands. */
export const maxProblemsPerFile = 50;
/** Nesting deeper than this is refused before the YAML parser sees it (deep nesting can abort V8). */
export const maxNestingDepth = 200;

/**
 * A file that is an input to a build tool or a test harness (model/fileRoles.ts): a kustomization, a patch, a chart
 * template, a test suite's file. It holds no objects and gets no findings of its own; chart templates count as
 * templates, test suites' files as test suites.
 */
export function buildInputFile(uri: string, text: string, role: FileRole): ManifestFile {
  const skipped = role === 'chart-template' ? 'template' : role === 'test-suite' ? 'test-suite' : 'build-input';
  return { uri, text, resources: [], problems: [], manifestDocuments: 0, skipped };
}

/** Each file parsed as its role says: build inputs hold no objects (semantics §9.5). */
/**
 * `afterEach` sees each object as soon as its file is read, while the file's trees are still cached (model/
 * treeCache.ts): work that reads the trees again (API-server validation) then costs no second parse.
 */
export function parseFiles(
  sources: readonly {
    readonly uri: string;
    readonly text: string;
    readonly defaultNamespace?: string;
    readonly clusterDependences?: readonly ClusterDependence[];
  }[],
  options: ParseOptions,
  afterEach?: (r: Resource) => void,
): ManifestFile[] {
  const texts = new Map(sources.map((s) => [s.uri, s.text]));
  const roles = fileRoles([...texts.keys()], (uri) => texts.get(uri));
  return sources.map((s) => {
    const role = roles.get(s.uri);
    // a text may name its own default namespace (a Helm release's objects are in the release namespace)
    if (role) return buildInputFile(s.uri, s.text, role);
    const file = parseManifest(s.uri, s.text, s.defaultNamespace ? { ...options, defaultNamespace: s.defaultNamespace } : options);
    if (afterEach) for (const r of file.resources) afterEach(r);
    return s.clusterDependences?.length ? { ...file, clusterDependences: s.clusterDependences } : file;
  });
}

export function parseManifest(uri: string, text: string, options: ParseOptions): ManifestFile {
  const steps = parseSteps(uri, text, options, false);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * `parseManifest` in slices: between two steps (a few thousand lexemes, one document) it calls `pause`, and awaits
 * what it returns, if anything, so a caller can let other work run (the server answers hovers while a large open
 * document is parsed). The result is the same as `parseManifest`'s.
 */
export async function parseManifestAsync(uri: string, text: string, options: ParseOptions, pause: () => Promise<void> | undefined): Promise<ManifestFile> {
  const steps = parseSteps(uri, text, options, true);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    const p = pause();
    if (p) await p;
  }
}

/** Runs steps to the end. */
function completed<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Documents larger than this are composed in pieces when parsing in slices (model/composeInPieces.ts). */
const piecesFromBytes = 64 * 1024;

/** The work of parseManifest, yielding between small steps. */
function* parseSteps(uri: string, text: string, options: ParseOptions, sliced: boolean): Generator<void, ManifestFile> {
  const base = { uri, text, resources: [], problems: [], manifestDocuments: 0 };
  if (text.includes('\u0000')) return { ...base, skipped: 'binary' };
  if (quarantined.size > 0 && quarantined.has(fingerprint(text))) return tooDeep(base, text);
  // Ordinary manifests take the fast path; anything it is not sure about (it returns undefined) takes the library's.
  // The fast parser keeps its own stack and refuses more than 64 levels, so it needs none of the depth gates below.
  const fast = options.fastPath === false ? undefined : sliced ? yield* fastParseSteps(text) : fastParse(text);
  // Trees the fast parser made are not kept with the objects: it reads them again on demand (model/trees.ts). They
  // are left in the small cache of recent texts, for what reads this file's objects right after (their validation).
  if (fast)
    leaveParsedTrees(
      text,
      fast.map((d) => d.root),
    );
  if (fast)
    return yield* fromTrees(
      uri,
      text,
      fast.map((d) => ({ errors: [], span: d.span, root: d.root })),
      options,
      [],
      false,
    );
  // Two gates before the recursive part of the parser runs: a cheap scan, then the exact depth of the parser's own
  // concrete syntax tree (built without recursion). Composing a tree deeper than a few hundred levels can abort V8.
  if (estimateNestingDepth(text) > maxNestingDepth) return tooDeep(base, text);
  let docs: Document.Parsed[];
  try {
    // What `new Parser().parse(text)` and `new Composer().compose(tokens)` do, a lexeme and a token at a time (with
    // go-yaml's reading of multi-line quoted scalars, model/goYaml.ts).
    const parser = new Parser();
    const tokens: CST.Token[] = [];
    let lexemes = 0;
    for (const lexeme of goYamlLexer().lex(text)) {
      for (const token of parser.next(lexeme)) tokens.push(token);
      if (++lexemes % 2048 === 0) yield;
    }
    for (const token of parser.end()) tokens.push(token);
    if ((yield* syntaxDepthSteps(tokens)) > maxNestingDepth) return tooDeep(base, text);
    yield;
    const composer = new Composer(composerOptions);
    docs = [];
    // A large document (a List of thousands) is composed in pieces when slicing; directives would need the stream.
    const inPieces = sliced && !tokens.some((t) => t.type === 'directive');
    let split = false;
    for (const [i, token] of tokens.entries()) {
      const size = (i + 1 < tokens.length ? tokens[i + 1].offset : text.length) - token.offset;
      const whole = inPieces && token.type === 'document' && size > piecesFromBytes ? yield* composeInPieces(token) : undefined;
      if (whole) {
        docs.push(whole);
        split = true;
      } else for (const doc of composer.next(token)) docs.push(doc);
      yield;
    }
    for (const doc of composer.end()) docs.push(doc);
    if (split) docs.sort((a, b) => a.range[0] - b.range[0]);
    // Go/Helm template syntax (`{{- if … }}`, `name: {{ .Values.x }}`) breaks YAML: such a file is a template, passed
    // over whole. A file whose `{{ }}` sit inside string values (dashboards, alert annotations) is YAML, and read.
    if (hasTemplateMarkers(text) && docs.some((d) => d.errors.length > 0)) return { ...base, skipped: 'template' };
  } catch (err) {
    if (hasTemplateMarkers(text)) return { ...base, skipped: 'template' };
    return {
      ...base,
      problems: [
        { span: { start: 0, end: 0 }, code: 'yaml-syntax', severity: 'error', ...worded(phrase('The YAML parser failed on this file: {0}', String(err))) },
      ],
    };
  }
  // The parser reports a stack overflow as an error and carries on, but a second attempt on the same text can abort
  // the process; such a text is never parsed again by this process.
  if (docs.some((d) => d.errors.some((e) => e.code === 'RESOURCE_EXHAUSTION'))) {
    if (quarantined.size >= maxQuarantined) quarantined.clear();
    quarantined.add(fingerprint(text));
    return tooDeep(base, text);
  }
  const problems: ParseProblem[] = [];
  const trees = docs.map((doc) => ({ errors: doc.errors, span: { start: doc.range[0], end: doc.range[2] }, root: undefined, doc }));
  return yield* fromTrees(uri, text, trees, options, problems, true, sliced);
}

interface DocumentTree {
  readonly errors: readonly { readonly pos: readonly [number, number]; readonly message: string }[];
  readonly span: Span;
  readonly root: YNode | undefined;
  /** The slow path's library document, converted in document order (so alias problems follow its syntax errors). */
  readonly doc?: Document.Parsed;
}

/** The resources and problems of a file's documents, whichever path produced their trees. */
function* fromTrees(
  uri: string,
  text: string,
  trees: readonly DocumentTree[],
  options: ParseOptions,
  problems: ParseProblem[],
  keep: boolean,
  sliced = false,
): Generator<void, ManifestFile> {
  const resources: Resource[] = [];
  let manifestDocuments = 0;
  const budget: TreeBudget = { extra: 0 };
  const converted: ConvertedDocument[] = [];
  for (const tree of trees) {
    for (const e of tree.errors) {
      if (problems.length >= maxProblemsPerFile) break;
      // errors at the end of the input point one past it; a range must stay inside the document
      const start = Math.min(e.pos[0], text.length);
      problems.push({
        span: { start, end: Math.min(Math.max(e.pos[1], start), text.length) },
        code: 'yaml-syntax',
        severity: 'error',
        ...worded(phrase('YAML syntax error: {0}', firstLine(e.message))),
      });
    }
    converted.push(tree.doc ? yield* toTree(tree.doc, text, problems, budget, sliced) : { root: tree.root, duplicates: [] });
    if (tree.doc) yield;
  }
  const roots = converted.map((c) => c.root);
  // `{{ }}` outside string values (`labels: {{ .Labels }}` parses as a flow mapping) is template syntax: a template.
  if (hasTemplateMarkers(text) && !markersInStrings(text, roots)) return { uri, text, resources: [], problems: [], manifestDocuments: 0, skipped: 'template' };
  for (const [index, tree] of trees.entries()) {
    // A document with a syntax error is not what its author wrote: its syntax error is its only finding.
    if (tree.errors.length) continue;
    const found = yield* readResourcesSteps({ uri, index, span: tree.span, root: roots[index], text, keep }, options.defaultNamespace);
    if (found.isManifest) {
      manifestDocuments++;
      for (const d of converted[index].duplicates) if (problems.length < maxProblemsPerFile) problems.push(duplicateKeyProblem(d));
    }
    for (const r of found.resources) resources.push(r);
    for (const p of found.problems) if (problems.length < maxProblemsPerFile) problems.push(p);
    if (index % 64 === 63) yield;
  }
  return { uri, text, resources, problems, manifestDocuments };
}

/** Whether every `{{` of the text sits inside a string scalar (a dashboard query, an alert annotation). */
function markersInStrings(text: string, roots: readonly (YNode | undefined)[]): boolean {
  const spans: Span[] = [];
  const stack: YNode[] = roots.filter((r): r is YNode => r !== undefined);
  const seen = new Set<YNode>();
  while (stack.length) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    if (n.type === 'scalar') {
      if (typeof n.value === 'string' && n.value.includes('{{')) spans.push(n.span);
    } else if (n.type === 'seq') stack.push(...n.items);
    else
      for (const e of n.entries.values()) {
        if (e.key.includes('{{')) return false;
        stack.push(e.value);
      }
  }
  spans.sort((a, b) => a.start - b.start);
  let i = 0;
  for (let at = text.indexOf('{{'); at >= 0; at = text.indexOf('{{', at + 2)) {
    while (i < spans.length && spans[i].end <= at) i++;
    // inside a string (the common case, asked first: the comment test reads the line again), else in a comment
    if (i < spans.length && spans[i].start <= at) continue;
    if (!isInComment(text, at)) return false;
  }
  return true;
}

/** Whether an offset lies after a `#` that starts a comment on its line (outside quotes, roughly: `#` after a blank). */
function isInComment(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at) + 1;
  const before = text.slice(lineStart, at);
  return /(^|\s)#/.test(before) && !/["']/.test(before.slice(0, before.search(/(^|\s)#/) + 1));
}

/** Texts whose parse exhausted the stack once; bounded so hostile edits cannot grow it without limit. */
const quarantined = new Set<string>();
const maxQuarantined = 1000;

/**
 * A text refused for its depth. One with template markers is a template, not YAML (`x{{x{{x{{…` is no deeper than a
 * line of Go template actions, however the brace count reads): it is skipped quietly like every template that does
 * not parse. Either way nothing of it is composed.
 */
function tooDeep(base: Omit<ManifestFile, 'skipped'>, text: string): ManifestFile {
  if (hasTemplateMarkers(text)) return { ...base, skipped: 'template' };
  return {
    ...base,
    skipped: 'too-deep',
    problems: [
      {
        span: { start: 0, end: Math.min(text.length, firstLineEnd(text)) },
        code: 'yaml-syntax',
        severity: 'error',
        ...worded(
          phrase(
            'This file nests more than {0} levels deep, so it was not parsed (deep nesting can crash YAML parsers). Kubernetes manifests never need this.',
            maxNestingDepth,
          ),
        ),
      },
    ],
  };
}

/** A 2×32-bit FNV-1a hash and the length: enough to recognise a text again without keeping it. */
function fingerprint(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return `${text.length}:${(a >>> 0).toString(16)}:${(b >>> 0).toString(16)}`;
}

/**
 * How deeply the collections of a concrete syntax tree nest, walked with an explicit stack (the tree may be far
 * deeper than the call stack allows). Keys count too: an explicit `? ` key or a flow key can hold a collection.
 */
export function syntaxDepth(tokens: readonly CST.Token[]): number {
  return completed(syntaxDepthSteps(tokens));
}

/** `syntaxDepth` in steps of 4,096 tokens. */
function* syntaxDepthSteps(tokens: readonly CST.Token[]): Generator<void, number> {
  let max = 0;
  let n = 0;
  const stack: [CST.Token | undefined, number][] = tokens.map((t) => [t, 0]);
  while (stack.length) {
    if (++n % 4096 === 0) yield;
    const [token, depth] = stack.pop()!;
    if (!token) continue;
    if (depth > max) max = depth;
    if (token.type === 'document') stack.push([token.value, depth]);
    else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      for (const item of token.items as readonly { key?: CST.Token | null; value?: CST.Token }[]) {
        stack.push([item.key ?? undefined, depth + 1], [item.value, depth + 1]);
      }
    }
  }
  return max;
}

/** Helm and other Go-template files are not YAML until rendered; they are skipped whole. */
export function hasTemplateMarkers(text: string): boolean {
  return text.includes('{{');
}

/** The characters estimateNestingDepth acts on: past a line's indentation, in double quotes, in single quotes. */
const pastIndentation = /[\n"'#[\]{}]/g;
const inDoubleQuotes = /[\n"\\]/g;
const inSingleQuotes = /[\n']/g;

/**
 * A cheap, non-recursive upper estimate of how deeply a text nests: per line, the indentation plus the
 * number of block-sequence dashes and explicit-key markers that open it, and the flow-bracket depth.
 */
export function estimateNestingDepth(text: string): number {
  let max = 0;
  let flow = 0;
  let lineStart = true;
  let lineDepth = 0;
  let quote: '' | '"' | "'" = '';
  for (let i = 0; i < text.length; i++) {
    // Past a line's indentation, and inside quotes, only a few characters change anything: jump to the next one.
    if (quote || !lineStart) {
      const stop: RegExp = quote === '"' ? inDoubleQuotes : quote === "'" ? inSingleQuotes : pastIndentation;
      stop.lastIndex = i;
      const next = stop.exec(text);
      if (!next) break;
      i = next.index;
    }
    const c = text.charCodeAt(i);
    if (c === 10) {
      lineStart = true;
      lineDepth = 0;
      if (!flow) quote = '';
      continue;
    }
    if (quote) {
      if (quote === '"' && c === 92) i++;
      else if ((quote === '"' && c === 34) || (quote === "'" && c === 39)) quote = '';
      continue;
    }
    if (lineStart) {
      if (c === 32 || c === 9) {
        lineDepth += 0.5;
        continue;
      }
      const next = text.charCodeAt(i + 1);
      if ((c === 45 || c === 63 || c === 58) && (next === 32 || next === 9 || next === 10 || next === 13 || Number.isNaN(next))) {
        lineDepth += 1;
        if (lineDepth > max) max = lineDepth;
        continue;
      }
      lineStart = false;
      if (lineDepth > max) max = lineDepth;
      if (c === 35) {
        // a comment: skip to the end of the line
        const nl = text.indexOf('\n', i);
        i = nl < 0 ? text.length : nl - 1;
        continue;
      }
    }
    if (c === 91 || c === 123) {
      flow++;
      if (flow + lineDepth > max) max = flow + lineDepth;
    } else if ((c === 93 || c === 125) && flow > 0) flow--;
    else if (c === 34 || c === 39) {
      const prev = text.charCodeAt(i - 1);
      // a quote opens a quoted scalar only where a scalar starts (`don't` is plain)
      if (i === 0 || prev === 32 || prev === 9 || prev === 10 || prev === 58 || (flow && (prev === 91 || prev === 123 || prev === 44)))
        quote = c === 34 ? '"' : "'";
    } else if (c === 35 && (text.charCodeAt(i - 1) === 32 || text.charCodeAt(i - 1) === 9)) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl - 1;
    }
  }
  return Math.ceil(max);
}

/**
 * Work a file's aliases and merge keys may add to the tree walks after parsing. Aliases are shared, never copied, but
 * any reader that walks a shared node once per reference (a List's items, a rule's loop over containers) does the
 * work of the expanded tree: a few hundred bytes of nested aliases expand to billions of nodes. The expanded size of
 * each document is therefore measured (in linear time, per distinct node) and a document whose aliases and merges
 * add more than this many nodes is refused with one problem. Plain files add nothing.
 */
export const maxAliasExpansion = 100_000;

/** One file's budget, shared by its documents. */
interface TreeBudget {
  /** Nodes that aliases and merge keys add beyond the distinct ones, so far. */
  extra: number;
}

/** A key written twice in one mapping: the later one wins, as in the API server's non-strict decoding. */
export interface DuplicateKey {
  readonly key: string;
  readonly first: Span;
  readonly later: Span;
}

interface ConvertedDocument {
  readonly root: YNode | undefined;
  readonly duplicates: readonly DuplicateKey[];
}

function* toTree(doc: Document.Parsed, text: string, problems: ParseProblem[], budget: TreeBudget, sliced: boolean): Generator<void, ConvertedDocument> {
  const converting = new Set<YamlNode>();
  const done = new Map<YamlNode, YNode>();
  /** Expanded size (nodes, counting every alias as a copy) of each converted node, saturating at the budget. */
  const sizes = new Map<YNode, number>();
  const duplicates: DuplicateKey[] = [];
  const cap = maxAliasExpansion + 1;
  let refused = false;
  const sizeOf = (n: YNode) => sizes.get(n) ?? 1;
  // An alias names the closest anchor before it in the text. Nodes are converted in text order, so the anchors
  // seen so far are exactly the ones an alias may use. (The parser's own alias lookup walks the whole document
  // for every alias: quadratic, minutes for a file with 20,000 aliases.)
  const anchors = new Map<string, YamlNode>();
  const convert = (node: unknown, fallback: Span): YNode => {
    if (refused) return nullAt(fallback);
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (!target && problems.length < maxProblemsPerFile) {
        problems.push({
          span: rangeOf(node) ?? fallback,
          code: 'yaml-syntax',
          severity: 'error',
          ...worded(phrase('YAML syntax error: the alias *{0} refers to no anchor &{0} defined before it.', node.source)),
        });
      }
      if (!target || converting.has(target)) return nullAt(rangeOf(node) ?? fallback);
      const shared = convert(target, rangeOf(node) ?? fallback);
      // The shared node is not copied, but every walk that reaches it through this alias walks it again.
      budget.extra += sizeOf(shared);
      if (budget.extra > maxAliasExpansion) refused = true;
      return shared;
    }
    if (!node || typeof node !== 'object') return nullAt(fallback);
    const yn = node as YamlNode;
    const cached = done.get(yn);
    if (cached) return cached;
    const span = rangeOf(yn) ?? fallback;
    const anchor = (yn as { anchor?: string }).anchor;
    if (anchor) anchors.set(anchor, yn);
    converting.add(yn);
    let out: YNode;
    let size = 1;
    if (isScalar(yn)) {
      out = scalar(yn, span);
    } else if (isMap(yn)) {
      const entries = new Map<string, YEntry>();
      const merges: YNode[] = [];
      for (const pair of yn.items) {
        if (!isPair(pair)) continue;
        const keyNode = pair.key;
        if (!isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === 'object') continue;
        const key = String(keyNode.value);
        const keySpan = rangeOf(keyNode) ?? span;
        const value = convert(pair.value, { start: keySpan.end, end: keySpan.end });
        if (key === '<<' && (keyNode as Scalar).type === 'PLAIN') {
          merges.push(value);
          continue;
        }
        const earlier = entries.get(key);
        if (earlier) {
          duplicates.push({ key, first: earlier.keySpan, later: keySpan });
          size -= sizeOf(earlier.value);
          // Map.set keeps the key's first position; the later value is the one the decoder keeps.
        }
        entries.set(key, { key, keySpan, value });
        size += sizeOf(value);
      }
      for (const m of merges) {
        const added = mergeInto(entries, m, sizeOf);
        size += added.size;
        budget.extra += added.size;
        // Copying merged entries into this map is work of its own, paid for from the same budget.
        budget.extra += added.entries;
      }
      if (budget.extra > maxAliasExpansion) refused = true;
      out = { type: 'map', span, entries };
    } else if (isSeq(yn)) {
      const itemsOut = yn.items.map((it) => convert(it, span));
      for (const it of itemsOut) size += sizeOf(it);
      out = { type: 'seq', span, items: itemsOut };
    } else {
      out = nullAt(span);
    }
    converting.delete(yn);
    done.set(yn, out);
    if (size > 1) sizes.set(out, Math.min(size, cap));
    return out;
  };
  if (doc.contents === null || doc.contents === undefined) return { root: undefined, duplicates };
  const top = doc.contents;
  // In slices, the items of a long sequence under the root mapping (a List's `items`) are converted first, one step
  // per 64 items, with the entries before it, in text order and with the same fallbacks as below (converted nodes are
  // kept, so the conversion of the whole reuses them). Only when neither holds an anchor: no alias can then refer to
  // a node still being converted.
  if (sliced && isMap(top) && !top.anchor) {
    const span = rangeOf(top) ?? { start: doc.range[0], end: doc.range[1] };
    for (const pair of top.items) {
      if (!isPair(pair) || !isScalar(pair.key) || pair.key.value === null || typeof pair.key.value === 'object') continue;
      const keySpan = rangeOf(pair.key) ?? span;
      const seq = pair.value;
      if (!isSeq(seq) || seq.anchor || seq.items.length < 64 || !rangeOf(seq)) {
        convert(seq, { start: keySpan.end, end: keySpan.end });
        continue;
      }
      const seqSpan = rangeOf(seq)!;
      for (let i = 0; i < seq.items.length; i++) {
        convert(seq.items[i], seqSpan);
        if (i % 64 === 63) yield;
      }
      break;
    }
  }
  const root = convert(top, { start: doc.range[0], end: doc.range[1] });
  if (refused) {
    const start = Math.min(doc.range[0], text.length);
    problems.push({
      span: { start, end: start + firstLineEnd(text.slice(start, start + 1000)) },
      code: 'yaml-syntax',
      severity: 'error',
      ...worded(
        phrase(
          'The aliases and merge keys of this document expand to more than {0} nodes, so it was not analysed (an alias is a reference, but reading the document would walk every copy). Kubernetes manifests never need this.',
          maxAliasExpansion.toLocaleString('en-US'),
        ),
      ),
    });
    return { root: undefined, duplicates: [] };
  }
  return { root, duplicates };
}

/**
 * A mapping key written twice. `kubectl apply` validates fields strictly by default (`--validate=strict`, server-side
 * field validation) and then rejects the object ("duplicate field"); with validation set to warn or off, the API
 * server's decoding keeps the later value (JSON and YAML decoders both overwrite a key they meet again), which is the
 * value analysed here.
 */
function duplicateKeyProblem(d: DuplicateKey): ParseProblem {
  // The first key is a related place, not a line number in the message: in a Helm render that line would be one of
  // `helm template`'s output (another for each value set); a related place is mapped to the template like the problem.
  return {
    span: d.later,
    code: 'manifest',
    severity: 'error',
    ...worded(
      phrase(
        '"{0}" is set twice in this mapping (first at the related place, again here). kubectl apply rejects the object (strict field validation, its default: duplicate field); without that validation the API server keeps this later value, which is what is analysed.',
        d.key,
      ),
    ),
    related: [{ span: d.first, ...worded(phrase('"{0}" is first set here', d.key)) }],
  };
}

/**
 * YAML merge keys (`<<: *base`): entries from the merged maps fill keys the map does not set itself. Returns how many
 * entries were looked at and how many nodes the added values hold (expanded).
 */
function mergeInto(entries: Map<string, YEntry>, merged: YNode, sizeOf: (n: YNode) => number): { entries: number; size: number } {
  const sources = merged.type === 'seq' ? merged.items : [merged];
  let looked = 0;
  let size = 0;
  for (const src of sources) {
    if (src.type !== 'map') continue;
    for (const [k, e] of src.entries) {
      looked++;
      if (!entries.has(k)) {
        entries.set(k, e);
        size += sizeOf(e.value);
      }
    }
  }
  return { entries: looked, size };
}

function scalar(node: Scalar, span: Span): YScalar {
  const v = node.value;
  const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
  let value: YScalar['value'];
  if (v === null || v === undefined) value = null;
  else if (typeof v === 'string' || typeof v === 'boolean') value = v;
  else if (typeof v === 'number') value = v;
  else if (typeof v === 'bigint') value = Number(v);
  else value = String(v);
  return { type: 'scalar', span, value, quoted };
}

function rangeOf(node: unknown): Span | undefined {
  const r = (node as { range?: [number, number, number] | null }).range;
  return r ? { start: r[0], end: r[1] } : undefined;
}

function nullAt(span: Span): YScalar {
  return { type: 'scalar', span, value: null, quoted: false };
}

function firstLine(s: string): string {
  const i = s.indexOf('\n');
  return i < 0 ? s : s.slice(0, i);
}

function firstLineEnd(s: string): number {
  const i = s.indexOf('\n');
  return i < 0 ? s.length : i;
}

/**
 * The documents of a text as the yaml library reads them, converted to our trees, and how many errors it reports:
 * what the fast path (fastYaml.ts) must equal whenever it accepts a text. Used by its tests.
 */
export function libraryDocuments(text: string): {
  readonly documents: readonly { readonly span: Span; readonly root: YNode | undefined }[];
  /** Per document (same order), the keys written twice in one of its mappings. */
  readonly duplicates: readonly (readonly DuplicateKey[])[];
  readonly errors: number;
} {
  const tokens = Array.from(goYamlTokens(text));
  const docs = Array.from(new Composer({ uniqueKeys: false, prettyErrors: false, strict: false, keepSourceTokens: false, logLevel: 'error' }).compose(tokens));
  const problems: ParseProblem[] = [];
  const budget: TreeBudget = { extra: 0 };
  const duplicates: (readonly DuplicateKey[])[] = [];
  const documents = docs.map((doc) => {
    const converted = completed(toTree(doc, text, problems, budget, false));
    duplicates.push(converted.duplicates);
    return { span: { start: doc.range[0], end: doc.range[2] }, root: converted.root };
  });
  return { documents, duplicates, errors: problems.length + docs.reduce((sum, d) => sum + d.errors.length, 0) };
}
