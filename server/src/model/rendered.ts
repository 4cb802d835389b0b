// Rendered apply units: the objects a build tool (Kustomize, Helm) makes from sources, as YAML text plus a source
// map. The analysis reads the rendered text like any manifest; a finding on it is mapped back to the source line that
// caused it (architecture: "results enter the model as texts plus source maps").

import type { ClusterDependence } from './helmLookups';
import type { Span } from './span';
import type { Msg, Phrase } from '../l10n/l10n';

/** One piece of rendered text and where it came from. */
export interface SourceMapping {
  /** A span of the rendered text: a key, a scalar, a collection or a whole document. */
  readonly rendered: Span;
  /** The workspace file it came from (a base file, a patch, a kustomization, a chart template). */
  readonly uri: string;
  /** Where in that file's text. */
  readonly span: Span;
  /** What made the value when it is not the source's literal text, for messages: `namePrefix`, `namespace`, `configMapGenerator`… */
  readonly via?: string;
}

export interface RenderedText {
  /** The rendered objects as multi-document YAML, as `kustomize build` or `helm template` print them. */
  readonly text: string;
  /** Sorted by `rendered.start`; for a rendered span, the innermost mapping that contains it wins (`sourceOf`). */
  readonly mappings: SourceMappings;
}

/**
 * A render's mappings: a list of objects (Helm renders, tests), or packed (`PackedMappings`, a Kustomize build's
 * tens of thousands per root, one per key and scalar).
 */
export type SourceMappings = readonly SourceMapping[] | PackedMappings;

/**
 * Mappings packed into one typed array (rendered start and end, source start and end, and the source's index in a
 * table of (URI, via) pairs), five numbers each instead of three objects: a language server keeps every root's map
 * for as long as it runs, and objects by the million were most of its heap and of its garbage collector's work.
 * `get` and iteration make the objects on demand.
 */
export class PackedMappings implements Iterable<SourceMapping> {
  constructor(
    private readonly cols: Int32Array,
    private readonly sources: readonly { readonly uri: string; readonly via?: string }[],
  ) {}

  get length(): number {
    return this.cols.length / 5;
  }

  renderedStart(i: number): number {
    return this.cols[i * 5];
  }

  renderedEnd(i: number): number {
    return this.cols[i * 5 + 1];
  }

  spanStart(i: number): number {
    return this.cols[i * 5 + 2];
  }

  spanEnd(i: number): number {
    return this.cols[i * 5 + 3];
  }

  uri(i: number): string {
    return this.sources[this.cols[i * 5 + 4]].uri;
  }

  via(i: number): string | undefined {
    return this.sources[this.cols[i * 5 + 4]].via;
  }

  /** The same mappings, in the same order. */
  equals(other: PackedMappings): boolean {
    const a = this.cols;
    const b = other.cols;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 5) {
      if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2] || a[i + 3] !== b[i + 3]) return false;
      const x = this.sources[a[i + 4]];
      const y = other.sources[b[i + 4]];
      if (x !== y && (x.uri !== y.uri || x.via !== y.via)) return false;
    }
    return true;
  }

  get(i: number): SourceMapping {
    const c = this.cols;
    const o = i * 5;
    const s = this.sources[c[o + 4]];
    const rendered = { start: c[o], end: c[o + 1] };
    const span = { start: c[o + 2], end: c[o + 3] };
    return s.via !== undefined ? { rendered, uri: s.uri, span, via: s.via } : { rendered, uri: s.uri, span };
  }

  *[Symbol.iterator](): Iterator<SourceMapping> {
    for (let i = 0; i < this.length; i++) yield this.get(i);
  }
}

/** Builds a `PackedMappings` one mapping at a time. */
export class MappingsPacker {
  private cols = new Int32Array(1024);
  private n = 0;
  private readonly index = new Map<string, Map<string | undefined, number>>();
  private readonly sources: { readonly uri: string; readonly via?: string }[] = [];

  get count(): number {
    return this.n;
  }

  /** Adds a mapping and returns its index; `setEnd` may fill in its rendered end later. */
  add(start: number, end: number, uri: string, span: Span, via: string | undefined): number {
    return this.addAt(start, end, uri, span.start, span.end, via);
  }

  /** Adds every mapping of `m`, its rendered spans moved by `shift`. */
  addAll(m: PackedMappings, shift: number): void {
    for (let i = 0; i < m.length; i++) this.addAt(m.renderedStart(i) + shift, m.renderedEnd(i) + shift, m.uri(i), m.spanStart(i), m.spanEnd(i), m.via(i));
  }

  private addAt(start: number, end: number, uri: string, spanStart: number, spanEnd: number, via: string | undefined): number {
    let byVia = this.index.get(uri);
    if (!byVia) this.index.set(uri, (byVia = new Map()));
    let s = byVia.get(via);
    if (s === undefined) {
      s = this.sources.length;
      byVia.set(via, s);
      this.sources.push(via !== undefined ? { uri, via } : { uri });
    }
    if ((this.n + 1) * 5 > this.cols.length) {
      const grown = new Int32Array(this.cols.length * 2);
      grown.set(this.cols);
      this.cols = grown;
    }
    const o = this.n * 5;
    this.cols[o] = start;
    this.cols[o + 1] = end;
    this.cols[o + 2] = spanStart;
    this.cols[o + 3] = spanEnd;
    this.cols[o + 4] = s;
    return this.n++;
  }

  setEnd(i: number, end: number): void {
    this.cols[i * 5 + 1] = end;
  }

  start(i: number): number {
    return this.cols[i * 5];
  }

  end(i: number): number {
    return this.cols[i * 5 + 1];
  }

  /** The mappings in the order `order` gives (indexes of `add`), or as added. */
  done(order?: ArrayLike<number>): PackedMappings {
    if (!order) return new PackedMappings(this.cols.slice(0, this.n * 5), this.sources);
    const out = new Int32Array(this.n * 5);
    for (let j = 0; j < this.n; j++) out.set(this.cols.subarray(order[j] * 5, order[j] * 5 + 5), j * 5);
    return new PackedMappings(out, this.sources);
  }
}

/**
 * The innermost and the outermost mapping from `uri` whose source span contains `offset` (a hover in a source file:
 * what the renders made of that place), if any.
 */
export function mappingsAtSource(m: SourceMappings, uri: string, offset: number): { inner: SourceMapping; outer: SourceMapping } | undefined {
  if (m instanceof PackedMappings) {
    let inner = -1;
    let outer = -1;
    for (let i = 0; i < m.length; i++) {
      const s = m.spanStart(i);
      const e = m.spanEnd(i);
      if (s > offset || offset > e || m.uri(i) !== uri) continue;
      if (inner < 0 || e - s < m.spanEnd(inner) - m.spanStart(inner)) inner = i;
      if (outer < 0 || e - s > m.spanEnd(outer) - m.spanStart(outer)) outer = i;
    }
    return inner < 0 ? undefined : { inner: m.get(inner), outer: m.get(outer) };
  }
  let inner: SourceMapping | undefined;
  let outer: SourceMapping | undefined;
  for (const x of m) {
    if (x.uri !== uri || x.span.start > offset || offset > x.span.end) continue;
    if (!inner || x.span.end - x.span.start < inner.span.end - inner.span.start) inner = x;
    if (!outer || x.span.end - x.span.start > outer.span.end - outer.span.start) outer = x;
  }
  return inner && outer ? { inner, outer } : undefined;
}

/** A problem met while rendering (an unreadable patch, a tool error, a feature not evaluated), on a source file. */
export interface RenderProblem {
  readonly uri: string;
  readonly span: Span;
  readonly severity: 'error' | 'warning' | 'information';
  readonly code: string;
  /** In English; `phrase`, when set, is the same message to be worded in the locale of the finding (l10n.ts). */
  readonly message: string;
  readonly phrase?: Phrase;
}

export interface RenderedUnit {
  readonly kind: 'kustomize' | 'helm';
  /** Stable across renders: `kustomize:<root uri>`, `helm:<chart uri>#<value set>`. */
  readonly id: string;
  /** For people: `overlays/prod`, `chart shop, values ci/prod-values.yaml`. */
  readonly label: string;
  /** The file that defines the unit: the root kustomization, the chart's Chart.yaml. */
  readonly definedBy: string;
  /** Every workspace file the render read: an edit of one of them renders the unit again. */
  readonly inputs: readonly string[];
  /** Undefined when rendering failed or was not possible (then `problems` says why). */
  readonly rendered?: RenderedText;
  readonly problems: readonly RenderProblem[];
  /** What the templates of a Helm render take from the cluster (`lookup`, `.Capabilities`), which the render lacks. */
  readonly clusterDependences?: readonly ClusterDependence[];
}

/** What a manifest file made from a rendered unit's text knows of it (`ManifestFile.rendered`). */
export interface RenderedSource {
  /** `RenderedUnit.id`. */
  readonly unitId: string;
  /** `RenderedUnit.label`: `overlays/prod`. */
  readonly label: string;
  /** `RenderedUnit.definedBy`: the root kustomization. */
  readonly definedBy: string;
  readonly text: RenderedText;
}

/**
 * The file a URI stands for when places are compared by folder: a render's URI (`…/chart/#helm/values.yaml`,
 * `…/overlay/kustomization.yaml#rendered`) stands for a file in its folder; a workspace file for itself.
 */
export function renderSource(uri: string): string {
  const hash = uri.indexOf('#');
  return hash < 0 ? uri : `${uri.slice(0, hash).replace(/\/$/, '')}/_`;
}

/** The URI of the manifest file holding a unit's rendered text: never a workspace file. */
export function renderedFileUri(definedBy: string): string {
  return `${definedBy}#rendered`;
}

/** The innermost mapping whose rendered span contains `span`, if any. */
export function sourceOf(text: RenderedText, span: Span): SourceMapping | undefined {
  const m = text.mappings;
  const packed = m instanceof PackedMappings ? m : undefined;
  const list = packed ? undefined : (m as readonly SourceMapping[]);
  const startOf = packed ? (i: number) => packed.renderedStart(i) : (i: number) => list![i].rendered.start;
  const endOf = packed ? (i: number) => packed.renderedEnd(i) : (i: number) => list![i].rendered.end;
  // Mappings are sorted by start; every candidate starts at or before span.start.
  let lo = 0;
  let hi = m.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (startOf(mid) <= span.start) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  let best = -1;
  for (let i = last; i >= 0; i--) {
    const start = startOf(i);
    const end = endOf(i);
    if (end < span.end) continue;
    if (best < 0 || end - start < endOf(best) - startOf(best)) best = i;
    // A mapping that starts at 0 and contains the span is the outermost possible; nothing earlier can be smaller.
    if (start === 0) break;
  }
  return best < 0 ? undefined : packed ? packed.get(best) : list![best];
}

/**
 * What one run of an external renderer (helm, the real Kustomize) gave: workspace/externalTool.ts makes it,
 * workspace/helm.ts and kustomize/external.ts turn it into a RenderedUnit.
 */
export interface ToolExit {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** The process could not be started (ENOENT, EACCES…). */
  readonly spawnError?: string;
  /** The output went over the runner's cap: the run was stopped and its output is not read. */
  readonly tooLarge?: boolean;
}

/** The suffix kustomize/applyUnits.ts gives a base built apart from the overlays that include it. */
export const builtAloneSuffix = ', built on its own';

/** A build's label (`overlays/prod`, `base, built on its own`) in the words of `msg`. */
export function buildLabel(label: string, msg: Msg): string {
  return label.endsWith(builtAloneSuffix) ? msg('{0}, built on its own', label.slice(0, -builtAloneSuffix.length)) : label;
}
