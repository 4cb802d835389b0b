// A fast path for the plain YAML that ordinary Kubernetes manifests are written in.
//
// Contract: for a text it accepts, `fastParse` returns exactly the documents the slow path (the `yaml` library's
// Parser + Composer, then `toTree` in parseManifest.ts) would give: the same `YNode` trees with the same spans, key
// spans, values and `quoted` flags, the same document spans and count, and the slow path would report no error for
// the text. For anything outside its subset, or anything it is not certain about, it returns `undefined` and the
// caller parses the whole file the slow way. Bailing is always correct; a different tree is a bug.
//
// The subset: `---` separators, full-line comments (with the ranges yaml gives the indented ones), trailing
// comments after a value, block mappings with plain keys and single-line quoted keys, block sequences (with
// `- key: v` compact mappings and `key:` followed by `- item` at the key's indentation), plain, single- and
// double-quoted scalars (JSON's escapes, `\ ` and `\U` only) on one line or continued on lines more indented than
// their collection (folded as YAML folds them; for double quotes also an escaped line break), also starting on the
// line below their key or dash, empty values, `[]` / `{}`, flow sequences of single-line scalars on one line, literal
// block scalars `|` / `|-` (with an indentation indicator `|2-` in mappings) and folded ones `>` / `>-` without more
// indented lines; LF or CRLF line breaks. Anchors, aliases, tags, directives, tabs, lone CR, multi-line keys, a
// comment line or a line starting with `- `, `?`, `:` inside a multi-line plain scalar, quoted scalars continued at
// or left of their collection's column (go-yaml and the yaml library differ there, model/goYaml.ts), explicit keys
// and anything else bail out.
//
// The proof is differential: test/model/fastYaml.test.ts compares both paths on every YAML file of examples/,
// test/fixtures/ and a generated benchmark workspace, and on random manifest-like texts full of tricky characters.
//
// It reads the text line by line with an explicit stack of open collections (no recursion), and refuses nesting
// deeper than `maxDepth`, far below parseManifest's `maxNestingDepth`.

import type { Span } from './span';
import type { YEntry, YNode, YScalar } from './yamlTree';

export interface FastDocument {
  readonly span: Span;
  readonly root: YNode;
}

/** More nested collections than this and the slow path (with its exact depth gate) decides. */
const maxDepth = 64;

/** The nodes of open collections, writable until their frame closes (the same fields as the slow path's nodes). */
interface OpenMap {
  readonly type: 'map';
  readonly span: { start: number; end: number };
  readonly entries: Map<string, YEntry>;
}
interface OpenSeq {
  readonly type: 'seq';
  readonly span: { start: number; end: number };
  items: YNode[];
}

/** An open block collection: its node, its column, and where its last value ended (yaml's range[2]). */
interface Frame {
  readonly node: OpenMap | OpenSeq;
  /** Column of the frame's keys or dashes. */
  readonly indent: number;
  /** A sequence written at its key's column (`key:\n- a`): it ends at the next line of that column that is no item. */
  readonly sameIndent: boolean;
  end: number;
  /** Where the comment lines it took in after its last value end (yaml's range[2] for it), or -1. */
  commentEnd: number;
}

/** A key or dash whose value was not on its line: the next content line decides between a collection and null. */
interface Slot {
  readonly frame: Frame;
  /** The key for a mapping entry; null for a key that resolves to null (the text bails); undefined for an item. */
  readonly key: string | null | undefined;
  readonly keySpan: Span | undefined;
  /** Where yaml places the empty scalar: after the indicator and the spaces that follow it. */
  readonly at: number;
  /** A comment followed the indicator (an empty value then gets other ranges: left to the slow path). */
  commented: boolean;
}

const bail = undefined;

export function fastParse(text: string): FastDocument[] | undefined {
  return parseRun(text, undefined, false) as FastDocument[] | undefined;
}

/** Lines read between two steps of `fastParseSteps` (a few milliseconds). */
const linesPerStep = 2048;

/**
 * `fastParse` in steps of `linesPerStep` lines, for a caller that parses a large text in slices
 * (parseManifest.ts `parseManifestAsync`). Other parses may run between two steps.
 */
export function* fastParseSteps(text: string): Generator<void, FastDocument[] | undefined> {
  let r = parseRun(text, undefined, true);
  while (r instanceof Paused) {
    yield;
    r = parseRun(text, r, true);
  }
  return r;
}

/**
 * Where a parse in steps stopped: the state `parseRun` carries from one step to the next. The parse itself is a
 * plain function that returns this at a step's end and starts again from it (a generator's body runs markedly slower
 * in V8, and most texts are parsed in one run).
 */
class Paused {
  constructor(
    readonly ls: number,
    readonly lines: number,
    /** Whether the parse met a repeated key before this step (the flag is shared with parses run between steps). */
    readonly repeated: boolean,
    readonly crlf: boolean,
    readonly docs: FastDocument[],
    readonly frames: Frame[],
    readonly slot: Slot | undefined,
    readonly root: YNode | undefined,
    readonly docStart: number,
    readonly explicitStart: boolean,
    readonly commentBefore: boolean,
    readonly commentInDocument: boolean,
    readonly lastWasValue: boolean,
    readonly absorber: Frame | undefined,
    readonly absorberIsScalar: boolean,
    readonly absorbedEnd: number,
    readonly absorbedColumn: number,
  ) {}
}

/** The parse from the start of `text`, or from where an earlier step stopped; in steps only if `inSteps`. */
function parseRun(text: string, from: Paused | undefined, inSteps: boolean): FastDocument[] | undefined | Paused {
  refusedKey = false;
  const repeated = from?.repeated ?? false;
  let lines = from?.lines ?? 0;
  let crlf: boolean;
  if (from) crlf = from.crlf;
  else {
    const odd = oddCharacters(text);
    if (odd === 'bail') return bail;
    crlf = odd === 'crlf';
  }
  const n = text.length;
  const docs: FastDocument[] = from?.docs ?? [];
  let frames: Frame[] = from?.frames ?? [];
  let slot: Slot | undefined = from?.slot;
  let root: YNode | undefined = from?.root;
  let docStart = from?.docStart ?? -1;
  let explicitStart = from?.explicitStart ?? false;
  /** A comment line came since the last content line (before a dash, yaml gives it to that item). */
  let commentBefore = from?.commentBefore ?? false;
  let commentInDocument = from?.commentInDocument ?? false;
  /** The last content line ended with a value on its key's or dash's line (or the lines below): a scalar, `[…]`, `{}`. */
  let lastWasValue = from?.lastWasValue ?? false;
  /** The frame whose range (its last scalar's or its own trailing comments') the last indented comment joined. */
  let absorber: Frame | undefined = from?.absorber;
  let absorberIsScalar = from?.absorberIsScalar ?? false;
  /** Where the last comment line it took ended, and the column of the first. */
  let absorbedEnd = from?.absorbedEnd ?? -1;
  let absorbedColumn = from?.absorbedColumn ?? 0;

  /** Closes the top frame: its span ends where its last value ended, and so does its parent's last value. */
  const closeTop = (): void => {
    const f = frames.pop()!;
    f.node.span.end = f.end;
    // an exact-size copy: a pushed-to array keeps spare capacity, and trees stay in memory for the whole session
    if (f.node.type === 'seq') f.node.items = f.node.items.slice();
    if (frames.length) frames[frames.length - 1].end = f.commentEnd >= 0 ? f.commentEnd : f.end;
  };
  /** Fills an open slot with null; false if that is a case left to the slow path. */
  const fillNull = (s: Slot): boolean => {
    if (s.commented) return false;
    assign(s.frame, s.key, s.keySpan, scalarNode(s.at, s.at, null, false), s.at);
    return true;
  };
  /** Ends the current document at `end`; false if it is one the fast path does not handle. */
  const finishDocument = (end: number): boolean => {
    if (!root) {
      // comments and blank lines alone make no document; after `---` they make one holding an empty scalar, which
      // with comments (`---\n# Source: crds/a.yaml\n---`, as helm writes a template of CRDs) runs up to the next
      // marker or the end of the text, blank lines included, as the library's range does
      if (!explicitStart) return true;
      docs.push({ span: { start: docStart, end: commentInDocument ? end : docStart + 3 }, root: scalarNode(docStart + 3, docStart + 3, null, false) });
      return true;
    }
    if (slot) {
      // the newlines after an empty last value belong to it in yaml's tokens, so the document ends where it does
      if (!fillNull(slot)) return false;
      end = slot.at;
      slot = undefined;
    }
    // blank lines after a trailing comment at the end of a document join its range too: left to the slow path
    if (absorber && end !== absorbedEnd) return false;
    absorber = undefined;
    while (frames.length) closeTop();
    docs.push({ span: { start: docStart, end }, root });
    root = undefined;
    frames = [];
    return true;
  };

  let ls = from?.ls ?? 0;
  while (ls < n) {
    if (inSteps && ++lines % linesPerStep === 0) {
      const seen = repeated || refusedKey;
      return new Paused(
        ls,
        lines,
        seen,
        crlf,
        docs,
        frames,
        slot,
        root,
        docStart,
        explicitStart,
        commentBefore,
        commentInDocument,
        lastWasValue,
        absorber,
        absorberIsScalar,
        absorbedEnd,
        absorbedColumn,
      );
    }
    const nl = text.indexOf('\n', ls);
    const next = nl < 0 ? n : nl + 1;
    // the line's content ends before its line break (`\n` or `\r\n`)
    const le = nl < 0 ? n : crlf && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    let p = ls;
    while (p < le && text.charCodeAt(p) === 32) p++;
    if (p === le) {
      // spaces after a trailing comment may join its range too: left to the slow path
      if (absorber && le > ls) return bail;
      ls = next;
      continue;
    }
    const col = p - ls;
    const c = text.charCodeAt(p);
    if (c === 35 /* # */) {
      // An indented comment after a value joins a range, as yaml's parser attaches it: the last scalar's when it is
      // more indented than that scalar's collection, else, as a trailing comment, the open collection at its column.
      // Either only counts if that collection closes before its next item (its next line clears `commentEnd`).
      if (root && !slot && absorber) {
        // further comment lines (even at column 0) continue a trailing comment's range, up to the next content line
        if (absorberIsScalar || col > absorbedColumn) return bail;
        absorber.commentEnd = next;
        absorbedEnd = next;
        absorbedColumn = col;
      } else if (root && col > 0 && !slot) {
        // after a comment at column 0, an indented one is attached differently: left to the slow path
        if (commentBefore) return bail;
        const top = frames[frames.length - 1];
        if (col > top.indent) {
          if (!lastWasValue) return bail;
          top.end = next;
          absorber = top;
          absorberIsScalar = true;
        } else {
          // only at the column of an open collection other than the document's own (column 0): yaml's parser
          // leaves other comments to the document or the next item
          let i = frames.length - 1;
          while (frames[i].indent > col) i--;
          if (frames[i].indent !== col) return bail;
          frames[i].commentEnd = next;
          absorber = frames[i];
          absorberIsScalar = false;
        }
        absorbedEnd = next;
        absorbedColumn = col;
      }
      if (slot) slot.commented = true;
      commentBefore = true;
      commentInDocument = true;
      ls = next;
      continue;
    }
    if (col === 0 && (c === 45 || c === 46) && text.startsWith(c === 45 ? '---' : '...', p)) {
      if (c === 46 || le - ls !== 3) return bail;
      if (!finishDocument(ls)) return bail;
      docStart = ls;
      explicitStart = true;
      commentInDocument = false;
      ls = next;
      continue;
    }
    if (col === 0 && c === 37 /* % */) return bail;
    if (absorber && col > 0) {
      // a trailing comment's range also takes in the next line's indentation (a scalar's does not), when that line
      // follows at once
      if (ls !== absorbedEnd) return bail;
      if (!absorberIsScalar) absorber.commentEnd += col;
    }

    const dash = c === 45 && (p + 1 === le || text.charCodeAt(p + 1) === 32);
    let keyEnd = dash ? -1 : plainKeyEnd(text, p, le);
    const quotedKey = keyEnd < 0 && (c === 34 || c === 39) ? quotedKeyAt(text, p, le) : undefined;
    if (quotedKey) keyEnd = quotedKey.span.end;
    if (!dash && keyEnd < 0) {
      // a scalar on the line below its key or dash, more indented than their collection
      if (!slot || slot.commented || col <= slot.frame.indent) return bail;
      const node = valueAt(text, p, le, next, slot.frame.indent, crlf);
      if (!node) return bail;
      assign(slot.frame, slot.key, slot.keySpan, node, valueNext);
      slot = undefined;
      lastWasValue = true;
      commentBefore = false;
      ls = valueNext;
      continue;
    }
    const kind = dash ? 'seq' : 'map';

    let frame: Frame | undefined;
    if (!root) {
      if (col !== 0) return bail;
      if (!explicitStart) docStart = ls;
      frame = openFrame(kind, col, p, false);
      root = frame.node;
      frames.push(frame);
    } else if (slot) {
      const owner = slot.frame;
      const s = slot;
      slot = undefined;
      if (col > owner.indent || (owner.node.type === 'map' && col === owner.indent && dash)) {
        if (frames.length >= maxDepth) return bail;
        frame = openFrame(kind, col, p, col === owner.indent);
        assign(s.frame, s.key, s.keySpan, frame.node, p);
        frames.push(frame);
      } else if (!fillNull(s)) return bail;
    }
    if (!frame) {
      while (frames.length) {
        const top = frames[frames.length - 1];
        if (top.indent > col || (top.indent === col && top.sameIndent && !dash)) closeTop();
        else break;
      }
      frame = frames[frames.length - 1];
      if (!frame || frame.indent !== col || frame.node.type !== kind) return bail;
    }
    if (absorber) {
      // comments before a line of a collection still open are that line's, not trailing comments of it
      for (const f of frames) f.commentEnd = -1;
      absorber = undefined;
    }
    lastWasValue = false;

    const commentedItem = commentBefore;
    commentBefore = false;
    // The line's content: a dash (possibly with a compact mapping after it) or a key, then a value.
    let key: string | null | undefined;
    let keySpan: Span | undefined;
    let v: number;
    if (dash) {
      v = p + 1;
      while (v < le && text.charCodeAt(v) === 32) v++;
      let innerKeyEnd = v < le ? plainKeyEnd(text, v, le) : -1;
      const ic = text.charCodeAt(v);
      const innerQuotedKey = innerKeyEnd < 0 && (ic === 34 || ic === 39) ? quotedKeyAt(text, v, le) : undefined;
      if (innerQuotedKey) innerKeyEnd = innerQuotedKey.span.end;
      if (innerKeyEnd >= 0) {
        if (frames.length >= maxDepth) return bail;
        const m = openFrame('map', v - ls, v, false);
        assign(frame, undefined, undefined, m.node, v);
        frames.push(m);
        frame = m;
        key = innerQuotedKey ? (innerQuotedKey.value as string) : keyOf(text, v, innerKeyEnd);
        keySpan = { start: v, end: innerKeyEnd };
        v = innerKeyEnd + 1;
        while (v < le && text.charCodeAt(v) === 32) v++;
      }
    } else {
      key = quotedKey ? (quotedKey.value as string) : keyOf(text, p, keyEnd);
      keySpan = { start: p, end: keyEnd };
      v = keyEnd + 1;
      while (v < le && text.charCodeAt(v) === 32) v++;
    }
    const vc = v < le ? text.charCodeAt(v) : 10;
    if (vc === 10 || vc === 35 /* # */) {
      // nothing after the indicator but perhaps a comment: the next content line tells what the value is
      slot = { frame, key, keySpan, at: v, commented: vc === 35 || (keySpan === undefined && commentedItem) };
      ls = next;
      continue;
    }
    if (vc === 124 /* | */ || vc === 62 /* > */) {
      if (crlf) return bail;
      const block = literalBlock(text, v, le, frame.indent, keySpan !== undefined);
      if (!block) return bail;
      assign(frame, key, keySpan, block.node, block.end);
      ls = block.end;
      continue;
    }
    const node = valueAt(text, v, le, next, frame.indent, crlf);
    if (!node) return bail;
    assign(frame, key, keySpan, node, valueNext);
    lastWasValue = true;
    ls = valueNext;
  }
  if (!finishDocument(n)) return bail;
  // A key written twice in one mapping is reported by the slow path (parseManifest.ts), which decides which one wins.
  if (refusedKey || repeated) return bail;
  return docs;
}

/**
 * Set when a mapping repeats a key or has a key that resolves to null (`~:`, `null:`, which the manifests' trees leave
 * out and Kustomize's keep as the empty key, kustomize/tree.ts); the text is then left to the slow path.
 */
let refusedKey = false;

function openFrame(kind: 'map' | 'seq', indent: number, start: number, sameIndent: boolean): Frame {
  const span = { start, end: start };
  const node: OpenMap | OpenSeq = kind === 'map' ? { type: 'map', span, entries: new Map() } : { type: 'seq', span, items: [] };
  return { node, indent, sameIndent, end: start, commentEnd: -1 };
}

/**
 * Puts a value into a frame: an item of a sequence, or the entry `key` of a mapping (a repeated key, or one resolving
 * to null, makes the whole text bail); records where the value ended.
 */
function assign(f: Frame, key: string | null | undefined, keySpan: Span | undefined, value: YNode, end: number): void {
  const node = f.node;
  if (node.type === 'seq') node.items.push(value);
  else if (key === null || node.entries.has(key!)) refusedKey = true;
  else if (key !== undefined) node.entries.set(key, { key, keySpan: keySpan!, value });
  f.end = end;
}

/** A plain key's entry name: its value under the core schema as a string; null for a key that resolves to null. */
function keyOf(text: string, start: number, end: number): string | null {
  const resolved = resolvePlain(text.slice(start, end));
  return resolved === null ? null : String(resolved);
}

function scalarNode(start: number, end: number, value: YScalar['value'], quoted: boolean): YScalar {
  return { type: 'scalar', span: { start, end }, value, quoted };
}

/**
 * Tabs, CR other than in CRLF line breaks, control characters, BOM, Unicode line separators and surrogates are all
 * left to the slow path; 'crlf' when the text has CRLF line breaks (mixed with LF ones or not).
 */
function oddCharacters(text: string): 'bail' | 'crlf' | 'none' {
  // Regular expressions over one character class scan far faster than a loop of charCodeAt in V8.
  if (oddCharacter.test(text)) return 'bail';
  if (!text.includes('\r')) return 'none';
  return loneCarriageReturn.test(text) ? 'bail' : 'crlf';
}

/** Every character the fast path leaves to the library, except CR (allowed before LF). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
const oddCharacter = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ud800-\udfff]/;
const loneCarriageReturn = /\r(?!\n)/;

function isKeyChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 47 || c === 45 || c === 36; /* $ */
}

/**
 * If a plain key of letters, digits and `_./-$` (not starting with `-`; `[]` after its first character) begins at `p` and is followed by `:` and a
 * space or the end of the line, the offset of that colon; -1 otherwise.
 */
function plainKeyEnd(text: string, p: number, le: number): number {
  if (text.charCodeAt(p) === 45) return -1;
  let k = p;
  // `[` and `]` only inside the key (one starting with `[` is a flow sequence)
  while (k < le) {
    const c = text.charCodeAt(k);
    if (!isKeyChar(c) && !((c === 91 || c === 93) && k > p)) break;
    k++;
  }
  if (k === p || k >= le || text.charCodeAt(k) !== 58) return -1;
  return k + 1 === le || text.charCodeAt(k + 1) === 32 ? k : -1;
}

/** Where the line after the last value `valueAt` read starts. */
let valueNext = 0;

/**
 * The value at `v` on a line that ends at `le` (the next line starts at `next`) in a collection at `parentIndent`: one
 * that fits on its line, or a plain or quoted scalar continued on the lines below (`valueNext` tells where it ends).
 */
function valueAt(text: string, v: number, le: number, next: number, parentIndent: number, crlf: boolean): YNode | undefined {
  valueNext = next;
  const node = inlineValue(text, v, le);
  if (!node) {
    // a quoted scalar that does not close on its line may continue on the lines below
    const c = text.charCodeAt(v);
    if (c !== 34 && c !== 39) return undefined;
    const lines = quotedLines(text, v, le, next, parentIndent, crlf);
    if (!lines) return undefined;
    valueNext = lines.next;
    return lines.node;
  }
  if (node.type === 'scalar' && !node.quoted && next < text.length) {
    // a plain scalar continues on the lines below that are more indented than its collection
    const lines = plainLines(text, node, le, next, parentIndent, crlf);
    if (lines === 'bail') return undefined;
    if (lines) {
      valueNext = lines.next;
      return lines.node;
    }
  }
  return node;
}

/** A one-line quoted key at `p` (its scalar) when `:` and a space or the line's end follow its closing quote. */
function quotedKeyAt(text: string, p: number, le: number): YScalar | undefined {
  const q = quoted(text, p, le, true);
  if (!q) return undefined;
  const e = q.span.end;
  return text.charCodeAt(e) === 58 && (e + 1 === le || text.charCodeAt(e + 1) === 32) ? q : undefined;
}

/** A value that fits on its line: a plain or quoted scalar or a simple flow sequence/mapping, then only a comment. */
function inlineValue(text: string, v: number, le: number): YNode | undefined {
  const c = text.charCodeAt(v);
  if (c === 91 /* [ */ || c === 123 /* { */) return flowCollection(text, v, le);
  if (c === 34 || c === 39) {
    const q = quoted(text, v, le, false);
    return q && onlyCommentAfter(text, q.span.end, le) ? q : undefined;
  }
  // Where a plain scalar ends: before ` #`, trailing spaces dropped.
  let e = v;
  let last = v;
  while (e < le) {
    const ch = text.charCodeAt(e);
    if (ch === 35 && text.charCodeAt(e - 1) === 32) break;
    if (ch !== 32) last = e + 1;
    e++;
  }
  const s = text.slice(v, last);
  if (!plainIsSafe(s, false)) return undefined;
  return scalarNode(v, last, resolvePlain(s), false);
}

/** Whether a one-line plain scalar starts and continues the way the yaml library reads it as one plain scalar. */
function plainIsSafe(s: string, flow: boolean): boolean {
  const c = s.charCodeAt(0);
  if (c === 45 /* - */) {
    // `-x`, `-1` and command-line flags (`--name`), nothing else that starts with a dash
    let d = s.charCodeAt(1);
    if (d === 45) d = s.charCodeAt(2);
    if (!(d >= 48 && d <= 57) && !(d >= 97 && d <= 122) && !(d >= 65 && d <= 90)) return false;
  } else if (c === 58 /* : */) {
    // `:8081`, `::1`: a colon followed by more than a space
    if (s.length < 2 || s.charCodeAt(1) === 32) return false;
  } else if (!isPlainStart(c)) return false;
  if (s.includes(': ') || s.endsWith(':')) return false;
  if (flow && /[,[\]{}:#"']/.test(s)) return false;
  return true;
}

function isPlainStart(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 95 ||
    c === 46 ||
    c === 47 ||
    c === 126 /* ~ */ ||
    c === 43 /* + */ ||
    c === 40 ||
    c === 36 ||
    c === 61 ||
    c === 60 ||
    c === 59 ||
    c === 94 /* ^ */ ||
    (c > 0xa0 && c < 0xd800)
  );
}

/** A single-line quoted scalar starting at `v`: JSON's escapes in double quotes, `''` in single quotes. */
function quoted(text: string, v: number, le: number, flow: boolean): YScalar | undefined {
  const q = text.charCodeAt(v);
  if (q === 34) {
    let close = text.indexOf('"', v + 1);
    const slash = text.indexOf('\\', v + 1);
    if (slash < 0 || slash > close) {
      if (close < 0 || close >= le) return undefined;
      if (!flow && text.charCodeAt(close + 1) === 58) return undefined;
      return scalarNode(v, close + 1, text.slice(v + 1, close), true);
    }
    // escapes (what emitters write: descriptions of CRD schemas are long strings with `\n` in them)
    let out = '';
    let i = v + 1;
    for (;;) {
      const b = text.indexOf('\\', i);
      close = text.indexOf('"', i);
      if (close < 0 || close >= le) return undefined;
      if (b < 0 || b > close) break;
      const e = unescaped(text, b, le);
      if (!e) return undefined;
      out += text.slice(i, b) + e.value;
      i = e.end;
    }
    out += text.slice(i, close);
    if (!flow && text.charCodeAt(close + 1) === 58) return undefined;
    return scalarNode(v, close + 1, out, true);
  }
  let out = '';
  let i = v + 1;
  for (;;) {
    const close = text.indexOf("'", i);
    if (close < 0 || close >= le) return undefined;
    out += text.slice(i, close);
    if (text.charCodeAt(close + 1) === 39) {
      out += "'";
      i = close + 2;
      continue;
    }
    if (!flow && text.charCodeAt(close + 1) === 58) return undefined;
    return scalarNode(v, close + 1, out, true);
  }
}

/** Where the line starting at `ls` ends: before its line break (`\n`, or `\r\n` in a text with CRLF breaks). */
function lineEnd(text: string, ls: number, crlf: boolean): { le: number; next: number } {
  const nl = text.indexOf('\n', ls);
  if (nl < 0) return { le: text.length, next: text.length };
  return { le: crlf && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl, next: nl + 1 };
}

/**
 * The continuation of a one-line plain scalar `first` (its line ends at `le`; the next line starts at `next`) on the
 * lines below more indented than its collection's column `parentIndent`, folded as YAML folds plain scalars: a line
 * break between two lines becomes a space, each empty line between them a `\n`, the lines' own leading and trailing
 * spaces dropped. Undefined when the scalar does not continue; 'bail' for anything else than ordinary text on those
 * lines (a comment, `: `, a line starting with an indicator YAML could read otherwise).
 */
function plainLines(
  text: string,
  first: YScalar,
  le: number,
  next: number,
  parentIndent: number,
  crlf: boolean,
): { node: YScalar; next: number } | undefined | 'bail' {
  // after a comment, nothing continues the scalar (a more indented line is then an error: the caller bails on it)
  for (let i = first.span.end; i < le; i++) if (text.charCodeAt(i) !== 32) return undefined;
  const n = text.length;
  let value = text.slice(first.span.start, first.span.end);
  let end = first.span.end;
  let after = next;
  let empties = 0;
  let ls = next;
  let lines = 0;
  while (ls < n) {
    const line = lineEnd(text, ls, crlf);
    let p = ls;
    while (p < line.le && text.charCodeAt(p) === 32) p++;
    if (p === line.le) {
      empties++;
      ls = line.next;
      continue;
    }
    // a line at or left of the collection's column, or a comment line, ends the scalar
    if (p - ls <= parentIndent || text.charCodeAt(p) === 35) break;
    let last = line.le;
    while (text.charCodeAt(last - 1) === 32) last--;
    const s = text.slice(p, last);
    if (!continuesPlain(s)) return 'bail';
    value += empties ? '\n'.repeat(empties) : ' ';
    value += s;
    empties = 0;
    end = last;
    after = line.next;
    ls = line.next;
    lines++;
  }
  if (!lines) return undefined;
  return { node: scalarNode(first.span.start, end, resolvePlain(value), false), next: after };
}

/** Whether a continuation line of a plain scalar (trimmed) is ordinary text, read the same by every YAML reader. */
function continuesPlain(s: string): boolean {
  const c = s.charCodeAt(0);
  // `?`, `:`, `#` (a comment) and `-` (but for `-x`, `--x`) start a line the fast path leaves to the slow one
  if (c === 45) {
    let d = s.charCodeAt(1);
    if (d === 45) d = s.charCodeAt(2);
    if (!(d >= 48 && d <= 57) && !(d >= 97 && d <= 122) && !(d >= 65 && d <= 90)) return false;
  } else if (c === 63 || c === 58 || c === 35) return false;
  if (s.includes(': ') || s.includes(' #') || s.endsWith(':')) return false;
  return true;
}

/**
 * A quoted scalar starting at `v` that does not close on its line (which ends at `le`; the next starts at `next`),
 * continued on the lines below, each more indented than its collection's column `parentIndent` (where go-yaml and the
 * yaml library agree, model/goYaml.ts): folded as YAML folds flow scalars (a line break between two lines becomes a
 * space, each empty line a `\n`, spaces around a line break dropped), with `''` in single quotes and JSON's escapes
 * plus an escaped line break (`\` at a line's end) in double quotes. Undefined for anything else.
 */
function quotedLines(text: string, v: number, le: number, next: number, parentIndent: number, crlf: boolean): { node: YScalar; next: number } | undefined {
  const q = text.charCodeAt(v);
  const n = text.length;
  let out = '';
  let i = v + 1;
  let firstLine = true;
  for (;;) {
    // the content of one line, from `i` to `le`
    let kept = out.length;
    let escapedBreak = false;
    let j = i;
    while (j < le) {
      const ch = text.charCodeAt(j);
      if (ch === q) {
        if (q === 39 && text.charCodeAt(j + 1) === 39) {
          out += text.slice(i, j) + "'";
          j += 2;
          i = j;
          kept = out.length;
          continue;
        }
        // the closing quote: on the first line, the one-line reading already refused it
        if (firstLine) return undefined;
        out += text.slice(i, j);
        const close = j + 1;
        if (text.charCodeAt(close) === 58 || !onlyCommentAfter(text, close, le)) return undefined;
        return { node: scalarNode(v, close, out, true), next };
      }
      if (q === 34 && ch === 92) {
        if (j + 1 === le) {
          escapedBreak = true;
          break;
        }
        const e = unescaped(text, j, le);
        if (!e) return undefined;
        out += text.slice(i, j) + e.value;
        j = e.end;
        i = j;
        kept = out.length;
        continue;
      }
      j++;
    }
    out += text.slice(i, j);
    if (!escapedBreak) {
      // the spaces written before a line break are dropped, not those an escape gave
      let t = out.length;
      while (t > kept && out.charCodeAt(t - 1) === 32) t--;
      out = out.slice(0, t);
    }
    // the next line with content, more indented than the collection
    let empties = 0;
    let ls = next;
    let p: number;
    for (;;) {
      if (ls >= n) return undefined;
      const line = lineEnd(text, ls, crlf);
      p = ls;
      while (p < line.le && text.charCodeAt(p) === 32) p++;
      le = line.le;
      next = line.next;
      if (p < le) break;
      empties++;
      ls = line.next;
    }
    if (p - ls <= parentIndent) return undefined;
    if (escapedBreak) {
      if (empties) return undefined;
    } else out += empties ? '\n'.repeat(empties) : ' ';
    i = p;
    firstLine = false;
  }
}

/**
 * The escapes JSON has (YAML's double-quoted scalars read them alike), `\ ` (a space, as go-yaml writes leading
 * spaces of continued lines) and `\UXXXXXXXX`; any other escape is left to the slow path.
 */
const simpleEscapes: Readonly<Record<string, string>> = { ' ': ' ', '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' };

/** The escape at `b` (a backslash) in a double-quoted scalar: its value and where it ends; undefined to bail. */
function unescaped(text: string, b: number, le: number): { value: string; end: number } | undefined {
  const c = text[b + 1];
  if (b + 1 >= le || c === undefined) return undefined;
  const simple = simpleEscapes[c];
  if (simple !== undefined) return { value: simple, end: b + 2 };
  if (c === 'U') {
    // eight hex digits of a code point (as emitters write emoji), up to the last one Unicode has
    const long = text.slice(b + 2, b + 10);
    if (b + 10 > le || !/^[0-9a-fA-F]{8}$/.test(long)) return undefined;
    const code = parseInt(long, 16);
    return code <= 0x10ffff ? { value: String.fromCodePoint(code), end: b + 10 } : undefined;
  }
  if (c !== 'u' || b + 6 > le) return undefined;
  const hex = text.slice(b + 2, b + 6);
  if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
  return { value: String.fromCodePoint(parseInt(hex, 16)), end: b + 6 };
}

/** After a value: nothing, spaces, or spaces and a comment. */
function onlyCommentAfter(text: string, e: number, le: number): boolean {
  if (e === le) return true;
  if (text.charCodeAt(e) !== 32) return false;
  while (e < le && text.charCodeAt(e) === 32) e++;
  return e === le || text.charCodeAt(e) === 35;
}

/** `[]`, `{}` and one-line flow sequences of plain or quoted scalars, e.g. `["ReadWriteOnce"]`. */
function flowCollection(text: string, v: number, le: number): YNode | undefined {
  const open = text.charCodeAt(v);
  let i = v + 1;
  while (i < le && text.charCodeAt(i) === 32) i++;
  if (open === 123) {
    if (text.charCodeAt(i) !== 125) return undefined;
    return onlyCommentAfter(text, i + 1, le) ? { type: 'map', span: { start: v, end: i + 1 }, entries: new Map() } : undefined;
  }
  const items: YNode[] = [];
  while (text.charCodeAt(i) !== 93) {
    if (i >= le) return undefined;
    const c = text.charCodeAt(i);
    let item: YScalar | undefined;
    if (c === 34 || c === 39) {
      item = quoted(text, i, le, true);
      if (!item) return undefined;
      i = item.span.end;
    } else {
      let e = i;
      while (e < le && !isFlowStop(text.charCodeAt(e))) e++;
      let last = e;
      while (last > i && text.charCodeAt(last - 1) === 32) last--;
      const s = text.slice(i, last);
      if (!s || !plainIsSafe(s, true)) return undefined;
      item = scalarNode(i, last, resolvePlain(s), false);
      i = e;
    }
    items.push(item);
    while (i < le && text.charCodeAt(i) === 32) i++;
    const sep = text.charCodeAt(i);
    if (sep === 44 /* , */) {
      i++;
      while (i < le && text.charCodeAt(i) === 32) i++;
    } else if (sep !== 93) return undefined;
  }
  return onlyCommentAfter(text, i + 1, le) ? { type: 'seq', span: { start: v, end: i + 1 }, items: items.slice() } : undefined;
}

function isFlowStop(c: number): boolean {
  return c === 44 || c === 93 || c === 91 || c === 123 || c === 125 || c === 35;
}

/**
 * A literal block scalar `|` or `|-` (or a folded one, `>` or `>-`, without more indented lines) as a mapping value or
 * sequence item at `parentIndent`: its lines are those
 * indented at least as much as the first one with content (more indented than the collection). With an indentation
 * indicator (`|2`, `|2-`, as emitters write a text starting with spaces, only for a mapping value), they are those
 * indented at least `parentIndent` + that many columns. A line of spaces only is an empty line (or, more indented than
 * the block, spaces of it); the node ends after the last content line's newline (or the text's end), as in yaml's
 * ranges.
 */
function literalBlock(text: string, v: number, le: number, parentIndent: number, inMapping: boolean): { node: YScalar; end: number } | undefined {
  let header = text.slice(v, le);
  let indent = -1;
  const d = header.charCodeAt(1);
  if (d >= 49 && d <= 57) {
    if (!inMapping) return undefined;
    indent = parentIndent + d - 48;
    header = header.slice(0, 1) + header.slice(2);
  }
  if (header !== '|' && header !== '|-' && header !== '>' && header !== '>-') return undefined;
  const folded = header[0] === '>';
  const n = text.length;
  if (le >= n) return undefined;
  let ls = le + 1;
  const lines: string[] = [];
  let kept = 0;
  let end = -1;
  let spaces = false;
  while (ls < n) {
    // a last line without a line break ends at the end of the text
    const nl = text.indexOf('\n', ls);
    const e = nl < 0 ? n : nl;
    if (e === ls) {
      lines.push('');
      ls = e + 1;
      continue;
    }
    let p = ls;
    while (p < e && text.charCodeAt(p) === 32) p++;
    if (p === e) {
      // a line of spaces only: an empty line, or, more indented than the block, spaces in it (but for one before the
      // first line with content or, more indented, after the last: left to the slow path)
      if (indent < 0) return undefined;
      if (p - ls > indent) {
        // a more indented line in a folded block is kept apart from its neighbours: left to the slow path
        if (folded) return undefined;
        lines.push(text.slice(ls + indent, e));
        spaces = true;
      } else lines.push('');
      ls = e + 1;
      continue;
    }
    const col = p - ls;
    if (indent < 0) {
      if (col <= parentIndent) return undefined;
      indent = col;
    } else if (col < indent) break;
    if (folded && col > indent) return undefined;
    spaces = false;
    lines.push(text.slice(ls + indent, e));
    kept = lines.length;
    end = nl < 0 ? n : e + 1;
    ls = end;
  }
  if (indent < 0 || end < 0 || spaces) return undefined;
  const body = folded ? fold(lines, kept) : lines.slice(0, kept).join('\n');
  return { node: scalarNode(v, end, header.length === 1 ? `${body}\n` : body, false), end };
}

/**
 * The first `kept` lines of a folded block scalar without more indented lines, folded as yaml folds them: a line break
 * between two lines with content is a space, one before each further empty line a `\n`; leading empty lines are kept.
 */
function fold(lines: readonly string[], kept: number): string {
  let value = '';
  let i = 0;
  for (; i < kept && lines[i] === ''; i++) value += '\n';
  let sep = '';
  for (; i < kept; i++) {
    const line = lines[i];
    if (line !== '') {
      value += sep + line;
      sep = ' ';
    } else if (sep === '\n') value += '\n';
    else sep = '\n';
  }
  return value;
}

/**
 * A plain scalar's value under the YAML 1.2 core schema, tested in the order yaml 2's core schema lists its tags
 * (null, bool, octal, decimal, hex, .inf/.nan, exponent, float) and resolved the way those tags resolve them.
 */
export function resolvePlain(s: string): string | number | boolean | null {
  const c = s.charCodeAt(0);
  // most keys and values start with a letter no null or boolean starts with: strings, without a regular expression
  if (((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) && c !== 110 && c !== 78 && c !== 116 && c !== 84 && c !== 102 && c !== 70) return s;
  if (/^(?:~|[Nn]ull|NULL)?$/.test(s)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s)) return s[0] === 't' || s[0] === 'T';
  // numbers start with a digit, a sign or a dot; anything else is a string
  if (!((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46)) return s;
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s)) {
    return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s)) return parseFloat(s);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return parseFloat(s);
  return s;
}
