// Rendered objects → multi-document YAML in the layout `kustomize build` prints (block style, sequences not
// indented under their key, documents separated by `---`), with a source mapping for every key, scalar and
// collection that knows where it came from (packed: model/rendered.ts PackedMappings).

import { MappingsPacker, type PackedMappings, type RenderedText } from '../model/rendered';
import type { KNode, Src } from './tree';

/**
 * What a kept build's node (a node of an included kustomization's build, which every build that includes it copies:
 * render.ts copyObjects, `KMap.kept`) printed as, per indentation. Every overlay that includes a base of large objects
 * (CRDs, whose schemas no overlay changes) prints those objects as the kept build's: a collection still equal to the
 * node it was copied from is printed once, and its text and mappings are taken again after.
 */
const printed = new WeakMap<KNode, Map<number, { readonly text: string; readonly mappings: PackedMappings }>>();

/** Whether two trees print the same text with the same mappings (the same values, keys and sources). */
function samePrint(a: KNode, b: KNode): boolean {
  if (a === b) return true;
  if (a.t !== b.t || a.src !== b.src) return false;
  if (a.t === 's') {
    const s = b as typeof a;
    return a.v === s.v && a.raw === s.raw;
  }
  if (a.t === 'q') {
    const q = b as typeof a;
    if (a.items.length !== q.items.length) return false;
    for (let i = 0; i < a.items.length; i++) if (!samePrint(a.items[i], q.items[i])) return false;
    return true;
  }
  const m = b as typeof a;
  if (a.e.length !== m.e.length) return false;
  for (let i = 0; i < a.e.length; i++) {
    const x = a.e[i];
    const y = m.e[i];
    if (x.k !== y.k || x.ks !== y.ks || !samePrint(x.v, y.v)) return false;
  }
  return true;
}

export function emitDocuments(docs: readonly { node: KNode; src?: Src }[]): RenderedText {
  const e = new Emitter();
  docs.forEach((d, i) => {
    if (i > 0) e.out += '---\n';
    const start = e.out.length;
    // a collection's mapping is added where it starts and ended once it is written: the mappings come out in the
    // order of their starts, the enclosing one first (the order `sourceOf` searches)
    const slot = d.src ? e.map(start, start, d.src) : -1;
    e.block(d.node, 0);
    if (slot >= 0) e.packer.setEnd(slot, e.out.length);
  });
  return { text: flattened(e.out), mappings: e.packer.done(sortedOrder(e.packer)) };
}

/**
 * The text as one flat string. Written piece by piece (`out +=`), a text is a rope in V8: a node of 32 bytes per
 * piece, kept as long as the text is (kubeflow/manifests' 65 builds held 1.6 million of them, 52 MB, while the
 * roots were analysed). Converting it to a number makes V8 flatten it in place, and the rope's nodes are garbage.
 */
function flattened(text: string): string {
  void Number(text);
  return text;
}

/** Undefined when the mappings are in order already (start ascending, the longer first), else the order. */
function sortedOrder(p: MappingsPacker): number[] | undefined {
  const n = p.count;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) {
    const d = p.start(i - 1) - p.start(i);
    if (d > 0 || (d === 0 && p.end(i - 1) < p.end(i))) sorted = false;
  }
  if (sorted) return undefined;
  return Array.from({ length: n }, (_, i) => i).sort((a, b) => p.start(a) - p.start(b) || p.end(b) - p.end(a) || a - b);
}

class Emitter {
  out = '';
  readonly packer = new MappingsPacker();

  /** `reuse`: print collections copied from a kept build as printed before (a nested emitter prints one afresh). */
  constructor(private readonly reuse = true) {}

  map(start: number, end: number, src: Src): number {
    return this.packer.add(start, end, src.uri, src.span, src.via || undefined);
  }

  /** Writes `node` as the content of a line that starts at `indent` (the caller wrote nothing on it yet). */
  block(node: KNode, indent: number): void {
    const kept = this.reuse && node.t !== 's' ? node.kept : undefined;
    if (kept && samePrint(node, kept)) {
      let byIndent = printed.get(kept);
      if (!byIndent) printed.set(kept, (byIndent = new Map()));
      let p = byIndent.get(indent);
      if (!p) {
        const alone = new Emitter(false);
        alone.block(kept, indent);
        byIndent.set(indent, (p = { text: flattened(alone.out), mappings: alone.packer.done() }));
      }
      this.packer.addAll(p.mappings, this.out.length);
      this.out += p.text;
      return;
    }
    const pad = ' '.repeat(indent);
    if (node.t === 'm') {
      if (!node.e.length) {
        this.flow(node);
        this.out += '\n';
        return;
      }
      const start = this.out.length;
      const slot = node.src ? this.map(start, start, node.src) : -1;
      node.e.forEach((en, i) => {
        if (i > 0) this.out += pad;
        const ks = this.out.length;
        this.out += scalarText(en.k);
        if (en.ks) this.map(ks, this.out.length, en.ks);
        this.out += ':';
        this.value(en.v, indent, true);
      });
      if (slot >= 0) this.packer.setEnd(slot, this.out.length - 1);
      return;
    }
    if (node.t === 'q') {
      if (!node.items.length) {
        this.flow(node);
        this.out += '\n';
        return;
      }
      const start = this.out.length;
      const slot = node.src ? this.map(start, start, node.src) : -1;
      node.items.forEach((item, i) => {
        if (i > 0) this.out += pad;
        this.out += '-';
        this.value(item, indent, false);
      });
      if (slot >= 0) this.packer.setEnd(slot, this.out.length - 1);
      return;
    }
    this.flow(node);
    this.out += '\n';
  }

  /** After `key:` or `-`: a scalar or empty collection on the same line, a collection on the next lines. */
  private value(v: KNode, indent: number, inMap: boolean): void {
    const nonEmpty = (v.t === 'm' && v.e.length > 0) || (v.t === 'q' && v.items.length > 0);
    if (!nonEmpty) {
      this.out += ' ';
      this.flow(v);
      this.out += '\n';
      return;
    }
    if (inMap) {
      if (v.t === 'q') {
        this.out += '\n' + ' '.repeat(indent);
        this.block(v, indent);
      } else {
        this.out += '\n' + ' '.repeat(indent + 2);
        this.block(v, indent + 2);
      }
    } else {
      // A sequence item: the collection starts on the dash's line.
      this.out += ' ';
      this.block(v, indent + 2);
    }
  }

  private flow(v: KNode): void {
    const start = this.out.length;
    if (v.t === 'm') this.out += '{}';
    else if (v.t === 'q') this.out += '[]';
    else this.out += v.v === null ? 'null' : typeof v.v === 'string' ? scalarText(v.v) : v.raw !== undefined && plainNumber(v.raw) ? v.raw : String(v.v);
    if (v.src) this.map(start, this.out.length, v.src);
  }
}

const plainSafe = /^[A-Za-z0-9_./~$^()][A-Za-z0-9_ ./~$^()+=@:,-]*$/;
const notString =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|[-+]?(?:\.inf|\.Inf|\.INF)|\.nan|\.NaN|\.NAN|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|[-+]?\.[0-9]+(?:[eE][-+]?[0-9]+)?|0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+|[0-9]{4}-[0-9]{2}-[0-9]{2}.*)$/;

/** A string as YAML: plain when it cannot be read as anything else, double-quoted otherwise. */
export function scalarText(s: string): string {
  if (s !== '' && plainSafe.test(s) && !notString.test(s) && !s.endsWith(' ') && !s.includes(': ') && !s.includes(' #') && !s.endsWith(':')) return s;
  return JSON.stringify(s)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function plainNumber(raw: string): boolean {
  return /^[-+]?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9]+|0x[0-9a-fA-F]+|0o[0-7]+|\.inf|\.nan)$/i.test(raw);
}
