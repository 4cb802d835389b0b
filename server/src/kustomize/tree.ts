// The object trees the Kustomize renderer transforms: plain maps, sequences and scalars, each remembering where in
// which source file it came from (and which kustomization setting made it, when it was not the source's own text).

import { Composer, isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments, type Document, type Node as YamlNode, type ScalarTag } from 'yaml';
import { estimateNestingDepth, maxNestingDepth, syntaxDepth } from '../model/parseManifest';
import { goYamlTokens } from '../model/goYaml';
import { fastParse } from '../model/fastYaml';
import type { YNode } from '../model/yamlTree';
import type { Span } from '../model/span';
import { phrase, type Phrase } from '../l10n/l10n';

/** Where a node came from. `via` names the setting that made the value (`namePrefix`, `namespace`, …). */
export interface Src {
  readonly uri: string;
  readonly span: Span;
  readonly via?: string;
}

export type Scalar = string | number | boolean | null;

export interface KScalar {
  readonly t: 's';
  v: Scalar;
  /** The source text of a plain non-string scalar (`1.0`, `0x1f`), kept so the output reads the same. */
  raw?: string;
  /** A null written as nothing (`key:`), which kyaml's strategic merge drops from the object it patches. */
  blank?: boolean;
  src?: Src;
}

export interface KEntry {
  k: string;
  ks?: Src;
  v: KNode;
}

export interface KMap {
  readonly t: 'm';
  e: KEntry[];
  src?: Src;
  /** The node of an included kustomization's kept build this one was copied from (render.ts copyObjects; emit.ts). */
  readonly kept?: KMap;
}

export interface KSeq {
  readonly t: 'q';
  items: KNode[];
  src?: Src;
  /** As KMap's. */
  readonly kept?: KSeq;
}

export type KNode = KScalar | KMap | KSeq;

export function scalar(v: Scalar, src?: Src): KScalar {
  return { t: 's', v, src };
}

export function map(entries: KEntry[] = [], src?: Src): KMap {
  return { t: 'm', e: entries, src };
}

export function seq(items: KNode[] = [], src?: Src): KSeq {
  return { t: 'q', items, src };
}

export function get(node: KNode | undefined, key: string): KNode | undefined {
  if (!node || node.t !== 'm') return undefined;
  for (const e of node.e) if (e.k === key) return e.v;
  return undefined;
}

/**
 * A key of a map as Go's encoding/json reads it into Kustomize's structs (vars, replacements): its case does not
 * matter. Two spellings of one key are `ambiguous()`'s error, which the caller throws.
 */
export function structField(m: KMap, key: string, ambiguous: () => Error): KNode | undefined {
  const lower = key.toLowerCase();
  let found: KNode | undefined;
  let hits = 0;
  for (const e of m.e) {
    if (e.k.toLowerCase() !== lower) continue;
    if (++hits > 1) throw ambiguous();
    found = e.v;
  }
  return found;
}

export function entry(node: KMap, key: string): KEntry | undefined {
  for (const e of node.e) if (e.k === key) return e;
  return undefined;
}

export function getPath(node: KNode | undefined, path: readonly string[]): KNode | undefined {
  let n = node;
  for (const p of path) n = get(n, p);
  return n;
}

/** A string scalar's value; numbers and booleans as Kustomize reads them into strings; undefined otherwise. */
export function str(node: KNode | undefined): string | undefined {
  if (!node || node.t !== 's' || node.v === null) return undefined;
  if (typeof node.v === 'string') return node.v;
  return node.raw ?? String(node.v);
}

export function set(node: KMap, key: string, value: KNode, keySrc?: Src): void {
  const e = entry(node, key);
  if (e) e.v = value;
  else node.e.push({ k: key, ks: keySrc, v: value });
}

export function remove(node: KMap, key: string): boolean {
  const i = node.e.findIndex((e) => e.k === key);
  if (i < 0) return false;
  node.e.splice(i, 1);
  return true;
}

export function clone<T extends KNode>(node: T): T {
  if (node.t === 's') return { ...node };
  if (node.t === 'q') return { t: 'q', items: node.items.map(clone), src: node.src } as T;
  return { t: 'm', e: node.e.map((e) => ({ k: e.k, ks: e.ks, v: clone(e.v) })), src: node.src } as T;
}

/**
 * Drops, at any depth, the map entries whose value is a null written as nothing (`key:`): what kyaml's strategic
 * merge leaves of the object it patches (an explicit `null` or `~` stays; a map left empty stays as `{}`).
 */
export function dropBlankNulls(node: KNode): void {
  if (node.t === 'm') {
    node.e = node.e.filter((e) => !(e.v.t === 's' && e.v.blank));
    for (const e of node.e) dropBlankNulls(e.v);
  } else if (node.t === 'q') for (const i of node.items) dropBlankNulls(i);
}

/** Forgets how nulls were written (a JSON round trip, as Kustomize's JSON patches make): every null is explicit. */
export function explicitNulls(node: KNode): void {
  if (node.t === 's') delete node.blank;
  else if (node.t === 'm') for (const e of node.e) explicitNulls(e.v);
  else for (const i of node.items) explicitNulls(i);
}

/** Marks every node of a tree without a source as coming from `src` (values a setting wrote). */
export function stamp(node: KNode, src: Src): KNode {
  if (!node.src) node.src = src;
  if (node.t === 'm')
    for (const e of node.e) {
      if (!e.ks) e.ks = src;
      stamp(e.v, src);
    }
  else if (node.t === 'q') for (const i of node.items) stamp(i, src);
  return node;
}

/** A plain JavaScript value (for JSON output, hashing and tests). */
export function toJs(node: KNode): unknown {
  if (node.t === 's') return node.v;
  if (node.t === 'q') return node.items.map(toJs);
  const o: Record<string, unknown> = {};
  for (const e of node.e) o[e.k] = toJs(e.v);
  return o;
}

export function fromJs(value: unknown, src?: Src): KNode {
  if (Array.isArray(value))
    return seq(
      value.map((v) => fromJs(v, src)),
      src,
    );
  if (value !== null && typeof value === 'object')
    return map(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => ({ k, ks: src, v: fromJs(v, src) })),
      src,
    );
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return scalar(value, src);
  return scalar(null, src);
}

export function equalNodes(a: KNode, b: KNode): boolean {
  if (a.t !== b.t) return false;
  if (a.t === 's') return a.v === (b as KScalar).v;
  if (a.t === 'q') {
    const bi = (b as KSeq).items;
    return a.items.length === bi.length && a.items.every((x, i) => equalNodes(x, bi[i]));
  }
  const be = (b as KMap).e;
  if (a.e.length !== be.length) return false;
  return a.e.every((e) => {
    const o = be.find((x) => x.k === e.k);
    return o !== undefined && equalNodes(e.v, o.v);
  });
}

// ---- parsing --------------------------------------------------------------------------------------------------

export interface ParsedDoc {
  readonly node: KNode | undefined;
  readonly span: Span;
}

export interface ParseResult {
  readonly docs: readonly ParsedDoc[];
  /** The first YAML error, if any: the YAML library's own text, or a phrase of ours (the bounds on depth and aliases). */
  readonly error?: { readonly message: string | Phrase; readonly span: Span };
}

/**
 * Parses a multi-document YAML text into trees carrying spans into `uri`'s text: through the manifests' fast parser
 * when it accepts the text (model/fastYaml.ts), else the yaml library. `fastPath: false` is the library alone (the
 * differential test, test/kustomize/treeFastPath.test.ts, holds both to the same trees).
 */
export function parseYaml(text: string, uri: string, options: { readonly fastPath?: boolean } = {}): ParseResult {
  return (options.fastPath !== false && fastTrees(text, uri)) || libraryTrees(text, uri);
}

/**
 * The trees of the fast parser's documents, with what Kustomize reads differently from the manifests' parser:
 * go-yaml's octal `0444`, a number's own text kept, a value written as nothing marked blank, and a block scalar at
 * the very end of a text without a final line break read without its last line break. Undefined, for the library to
 * decide, when the fast parser refuses the text (among them a key that resolves to null, which Kustomize keeps as the
 * empty key), and when there is no document.
 */
export function fastTrees(text: string, uri: string): ParseResult | undefined {
  const parsed = fastParse(text);
  if (!parsed?.length) return undefined;
  const docs: ParsedDoc[] = [];
  for (const d of parsed) {
    const empty = d.root.type === 'scalar' && d.root.value === null;
    // an empty document (`---` and nothing, or only comments): the null the library composes, written as nothing
    if (empty && d.root.span.start !== d.root.span.end) return undefined;
    // the library's document range[1] is where its content ends (the fast parser's span runs to range[2]); an empty
    // document's content is nothing, and its range[1] its end
    docs.push({ node: fromFast(d.root, uri, text), span: { start: d.span.start, end: empty ? d.span.end : d.root.span.end } });
  }
  return { docs };
}

function fromFast(n: YNode, uri: string, text: string): KNode {
  const src: Src = { uri, span: n.span };
  if (n.type === 'map') {
    const entries: KEntry[] = [];
    for (const e of n.entries.values()) entries.push({ k: e.key, ks: { uri, span: e.keySpan }, v: fromFast(e.value, uri, text) });
    return map(entries, src);
  }
  if (n.type === 'seq')
    return seq(
      n.items.map((i) => fromFast(i, uri, text)),
      src,
    );
  const s = scalar(n.value, src);
  if (typeof n.value === 'number' && !n.quoted) {
    const raw = text.slice(n.span.start, n.span.end);
    if (/^0[0-7]+$/.test(raw)) s.v = parseInt(raw, 8);
    s.raw = raw;
  } else if (n.value === null && n.span.start === n.span.end) s.blank = true;
  else if (typeof n.value === 'string' && !n.quoted && n.value.endsWith('\n') && n.span.end >= text.length) {
    // A block scalar (unquoted, only a block's value ends with a line break) at the very end of a text without a
    // final line break: go-yaml reads it without its last line break, as Converter.node below does.
    const last = text.charCodeAt(text.length - 1);
    if (last !== 10 && last !== 13) s.v = n.value.slice(0, -1);
  }
  return s;
}

function libraryTrees(text: string, uri: string): ParseResult {
  let docs: Document.Parsed[];
  // The parser's gates (model/parseManifest.ts): composing a tree deeper than a few hundred levels can abort V8.
  const tooDeep = {
    docs: [],
    error: { message: phrase('the file nests more than {0} levels deep, so it was not parsed', maxNestingDepth), span: { start: 0, end: 0 } },
  };
  if (estimateNestingDepth(text) > maxNestingDepth) return tooDeep;
  try {
    // go-yaml's reading of multi-line quoted scalars (kyaml reads them so)
    const tokens = Array.from(goYamlTokens(text));
    if (syntaxDepth(tokens) > maxNestingDepth) return tooDeep;
    docs = Array.from(
      new Composer({
        uniqueKeys: false,
        prettyErrors: false,
        strict: false,
        keepSourceTokens: false,
        logLevel: 'error',
        customTags: (tags) => [goOctal, ...tags],
      }).compose(tokens),
    ) as Document.Parsed[];
  } catch (err) {
    return { docs: [], error: { message: err instanceof Error ? err.message : String(err), span: { start: 0, end: 0 } } };
  }
  if (docs.some((d) => d.errors.some((e) => e.code === 'RESOURCE_EXHAUSTION'))) return tooDeep;
  const out: ParsedDoc[] = [];
  for (const doc of docs) {
    const err = doc.errors[0];
    if (err) {
      const start = Math.min(err.pos?.[0] ?? 0, text.length);
      const end = Math.min(Math.max(err.pos?.[1] ?? start, start), text.length);
      return { docs: out, error: { message: err.message.split('\n')[0], span: { start, end } } };
    }
    const range = doc.range ?? [0, 0, 0];
    const conv = new Converter(doc, uri, text);
    try {
      out.push({ node: doc.contents ? conv.node(doc.contents as YamlNode, 0) : undefined, span: { start: range[0], end: range[1] } });
    } catch (err) {
      if (!(err instanceof TooLarge)) throw err;
      return {
        docs: out,
        error: { message: phrase('a document expands to more than {0} values through its aliases', maxNodes), span: { start: range[0], end: range[0] } },
      };
    }
  }
  return { docs: out };
}

/** go-yaml v3 (kyaml) reads a plain `0444` as octal, as YAML 1.1 did; YAML 1.2's core schema reads it as decimal. */
const goOctal: ScalarTag = {
  tag: 'tag:yaml.org,2002:int',
  default: true,
  test: /^0[0-7]+$/,
  resolve: (s: string) => parseInt(s, 8),
};

/** Kustomize's output (or ours) as plain values, read as Kustomize reads YAML (octal `0444` is 292). */
export function kustomizeOutputValues(text: string): unknown[] {
  return parseAllDocuments(text, { logLevel: 'error', customTags: (tags) => [goOctal, ...tags] }).map((d) => d.toJS() as unknown);
}

/** Aliases are expanded (as Kustomize does); a document whose aliases expand to more values than this is refused. */
const maxNodes = 50_000;

class TooLarge extends Error {}

class Converter {
  /** Values made by expanding aliases. */
  private count = 0;
  private inAlias = 0;
  private readonly targets = new Map<YamlNode, YamlNode | undefined>();

  constructor(
    private readonly doc: Document.Parsed,
    private readonly uri: string,
    private readonly text: string,
  ) {}

  private src(n: { range?: [number, number, number] | null }): Src | undefined {
    return n.range ? { uri: this.uri, span: { start: n.range[0], end: n.range[1] } } : undefined;
  }

  node(n: YamlNode, depth: number): KNode {
    if (this.inAlias && ++this.count > maxNodes) throw new TooLarge();
    if (depth > 200) return scalar(null, this.src(n));
    if (isAlias(n)) {
      if (!this.targets.has(n)) this.targets.set(n, n.resolve(this.doc) as YamlNode | undefined);
      const target = this.targets.get(n);
      if (!target) return scalar(null, this.src(n));
      this.inAlias++;
      try {
        return this.node(target, depth + 1);
      } finally {
        this.inAlias--;
      }
    }
    if (isMap(n)) {
      const entries: KEntry[] = [];
      for (const p of n.items) {
        if (!isPair(p)) continue;
        const keyNode = p.key as YamlNode | null;
        const k = keyNode && isScalar(keyNode) ? String(keyNode.value) : keyNode === null ? '' : String(keyNode);
        const v =
          p.value === null || p.value === undefined
            ? { ...scalar(null, keyNode ? endOf(this.src(keyNode)) : undefined), blank: true }
            : this.node(p.value as YamlNode, depth + 1);
        const ks = keyNode ? this.src(keyNode) : undefined;
        const existing = entries.findIndex((e) => e.k === k);
        if (existing >= 0) entries.splice(existing, 1);
        entries.push({ k, ks, v });
      }
      return map(entries, this.src(n));
    }
    if (isSeq(n))
      return seq(
        n.items.map((i) => (i === null ? scalar(null) : this.node(i as YamlNode, depth + 1))),
        this.src(n),
      );
    if (isScalar(n)) {
      const v = n.value;
      const s = scalar(v === undefined ? null : typeof v === 'bigint' ? Number(v) : (v as Scalar), this.src(n));
      if (typeof v === 'number' && n.source !== undefined) s.raw = n.source;
      if ((v === null || v === undefined) && n.source === '') s.blank = true;
      // A block scalar's last line keeps its line break only when the text has one: at the end of a file without a
      // final newline, go-yaml reads `|` and `>` (clip or keep) without it, where the yaml library adds one.
      if ((n.type === 'BLOCK_LITERAL' || n.type === 'BLOCK_FOLDED') && typeof s.v === 'string' && s.v.endsWith('\n') && n.range) {
        const end = Math.min(n.range[1], this.text.length);
        const last = this.text.charCodeAt(end - 1);
        if (end === this.text.length && last !== 10 && last !== 13) s.v = s.v.slice(0, -1);
      }
      if (v instanceof Date || (typeof v === 'object' && v !== null)) s.v = String(n.source ?? v);
      return s;
    }
    return scalar(null, this.src(n));
  }
}

function endOf(src: Src | undefined): Src | undefined {
  return src && { uri: src.uri, span: { start: src.span.end, end: src.span.end } };
}
