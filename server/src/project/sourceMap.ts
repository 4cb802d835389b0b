// The source map of a snapshot: every render the analysis reads (a Kustomize build, native or by the real Kustomize,
// and a Helm release × value set) maps what the editor and the CLI show back to the source lines that made it.
// One map per analysis and set of Helm renders (memoized), for every renderer: findings (with their related places;
// those of several renders at one place merged, naming the renders), a place (definition, references), a trace's
// Service and nodes, the Service list (a Service several value sets render listed once, naming them) and the hover in
// a chart template. lsp/ and cli/ only run the renders and convert; they map nothing themselves.
//
// How a render is named stays with its renderer: engine/renderedFindings.ts for Kustomize builds (the engine maps
// their findings itself, so an edit reuses the merged findings and the per-file cap counts them where they land) and
// helmFindings.ts for Helm releases; both merge through engine/renderedMerge.ts.

import type { Analysis } from '../analysis/analysis';
import { messages, type Msg } from '../l10n/l10n';
import { sourcePlace } from '../engine/renderedMerge';
import type { Hover } from '../features/hover';
import { kustomizeBuilds } from '../features/serviceList';
import { sourceSpan } from '../features/sourceSpan';
import type { Chart, ValueSet } from '../model/helmCharts';
import { lineIndexesOf, type LineIndex } from '../model/lineIndex';
import type { RenderedText, RenderedUnit } from '../model/rendered';
import type { Location, Span } from '../model/span';
import type { ServiceSummary, SourceSpan, TraceResult } from '../protocol';
import type { Finding } from '../rules/finding';
import { joinContexts, mapHelmFindings, valueSetContext, type RenderedFindings } from './helmFindings';
import { renderedHoverAt } from './helmHover';

/** One rendered value set of a chart, under the URI its text enters the analysis as. */
export interface HelmRender {
  readonly chart: Chart;
  readonly valueSet: ValueSet;
  readonly unit: RenderedUnit;
}

/** What a source map is made of: one analysis and the Helm renders among its files (a snapshot of the workspace). */
export interface Renders {
  readonly analysis: Analysis;
  /** The rendered Helm releases by the URI their text enters the analysis under (model/helmCharts.ts renderUri). */
  readonly renders: ReadonlyMap<string, HelmRender>;
  /** The files under a chart's `templates/`, where the hover is that of what each value set rendered (the editor). */
  readonly charts?: { readonly templates: ReadonlySet<string> };
  /**
   * The line index of a workspace file (a base or a template is a build input, not a manifest of the cluster). Kept
   * by the map and called on its own: the map keeps what it is made of, never the object that holds it (a snapshot
   * holds the analyses before it).
   */
  readonly lines: (uri: string) => LineIndex | undefined;
}

export interface SourceMap {
  /** The analysis's findings (Kustomize builds' are at their sources already) with those on Helm renders mapped and merged. */
  findings(found: readonly Finding[]): readonly Finding[];
  /** A place as the editor can open it: a place in a render is the source place that made it. */
  location(uri: string, span: Span): Location;
  /** A trace whose Service or nodes come from renders, with their places on source lines. */
  trace(result: TraceResult): TraceResult;
  /**
   * The Service list: a Service of a Kustomize build keeps its place in the build (a trace request names it to follow
   * that build's objects) and gains `definedAt`, the base line; a Service of a Helm render is on its template line,
   * listed once with every value set that renders it.
   */
  services(list: readonly ServiceSummary[]): ServiceSummary[];
  /** In a chart template: the hover of what each value set rendered there. */
  hover(uri: string, offset: number): Hover | undefined;
}

/** A render the places of a trace or a list are mapped from. */
interface RenderSource {
  readonly rendered: RenderedText;
  /** Where a place goes that no mapping covers: the root kustomization, the chart's Chart.yaml. */
  readonly fallbackUri: string;
}

const maps = new WeakMap<Analysis, WeakMap<ReadonlyMap<string, HelmRender>, SourceMap>>();

/** The source map of an analysis with its Helm renders, made once per analysis and set of renders. */
export function sourceMapOf(input: Renders): SourceMap {
  let byRenders = maps.get(input.analysis);
  if (!byRenders) maps.set(input.analysis, (byRenders = new WeakMap()));
  let map = byRenders.get(input.renders);
  if (!map) byRenders.set(input.renders, (map = createSourceMap(input)));
  return map;
}

function createSourceMap(input: Renders): SourceMap {
  const { analysis, renders, lines } = input;
  const templates = input.charts?.templates;
  let builds: ReturnType<typeof kustomizeBuilds> | undefined;
  const buildsOf = () => (builds ??= kustomizeBuilds(analysis));
  let helm: readonly Omit<RenderedFindings, 'findings'>[] | undefined;
  const helmUnits = () =>
    (helm ??= [...renders].flatMap(([uri, r]) =>
      r.unit.rendered ? [{ renderedUri: uri, rendered: r.unit.rendered, context: valueSetContext(r.valueSet), fallbackUri: r.chart.chartYaml }] : [],
    ));
  let helmSources: ReadonlyMap<string, RenderSource> | undefined;
  const helmSourcesOf = () => (helmSources ??= new Map(helmUnits().map((u) => [u.renderedUri, { rendered: u.rendered, fallbackUri: u.fallbackUri }] as const)));
  let all: ReadonlyMap<string, RenderSource> | undefined;
  const allSources = () => (all ??= new Map<string, RenderSource>([...buildsOf(), ...helmSourcesOf()]));

  return {
    findings(found) {
      const units = helmUnits();
      return units.length ? mapHelmFindings(found, units, messages(analysis.config.locale)) : found;
    },
    location(uri, span) {
      const r = allSources().get(uri);
      return r ? sourceLocation(r, span) : { uri, span };
    },
    trace(result) {
      return mapTraceSources(result, allSources(), lines);
    },
    services(list) {
      return helmServices(kustomizeServices(list, buildsOf(), analysis, lines), renders, helmSourcesOf(), lines, messages(analysis.config.locale));
    },
    hover(uri, offset) {
      if (!templates?.has(uri)) return undefined;
      const at = [...renders]
        .filter(([, r]) => uri.startsWith(`${r.chart.root}/`))
        .map(([renderedUri, r]) => ({ renderedUri, rendered: r.unit.rendered!, context: valueSetContext(r.valueSet) }));
      return at.length ? renderedHoverAt(analysis, uri, offset, at) : undefined;
    },
  };
}

/** A place in a render → the source it came from, or the start of the render's fallback file when none maps. */
function sourceLocation(r: RenderSource, span: Span): Location {
  const p = sourcePlace(r.rendered, r.fallbackUri, span);
  return { uri: p.uri, span: p.span };
}

/** A SourceSpan in a render → the source's, with its line and character; others as they are. */
function mapSourceSpan(source: SourceSpan, renders: ReadonlyMap<string, RenderSource>, lines: (uri: string) => LineIndex | undefined): SourceSpan {
  const r = renders.get(source.uri);
  if (!r) return source;
  const to = sourceLocation(r, { start: source.start, end: source.end });
  return sourceSpan(to.uri, to.span, lines(to.uri));
}

function mapTraceSources(result: TraceResult, renders: ReadonlyMap<string, RenderSource>, lines: (uri: string) => LineIndex | undefined): TraceResult {
  if (!renders.size) return result;
  const g = result.graph;
  const map = (s: SourceSpan) => mapSourceSpan(s, renders, lines);
  return {
    ...result,
    graph: {
      ...g,
      service: g.service.source ? { ...g.service, source: map(g.service.source) } : g.service,
      nodes: g.nodes.map((n) => (n.source ? { ...n, source: map(n.source) } : n)),
    },
  };
}

/** Services of Kustomize builds with `definedAt`, where their definition is written (the base's line). */
function kustomizeServices(
  list: readonly ServiceSummary[],
  builds: ReadonlyMap<string, RenderSource>,
  analysis: Analysis,
  lines: (uri: string) => LineIndex | undefined,
): readonly ServiceSummary[] {
  if (!builds.size) return list;
  let clusterLines: ((uri: string) => LineIndex) | undefined;
  const linesOf = (u: string) => lines(u) ?? (clusterLines ??= lineIndexesOf(analysis.cluster.files))(u);
  return list.map((s) => {
    if (s.kind !== undefined || !s.source || !builds.has(s.source.uri)) return s;
    // in the order the list's fields have: definedAt after the unit, before the routes
    const { routes, ...head } = s;
    return { ...head, definedAt: mapSourceSpan(s.source, builds, linesOf), ...(routes ? { routes } : {}) };
  });
}

/** Services of Helm renders on their template lines; a Service several value sets render is listed once, naming them. */
function helmServices(
  list: readonly ServiceSummary[],
  renders: ReadonlyMap<string, HelmRender>,
  sources: ReadonlyMap<string, RenderSource>,
  lines: (uri: string) => LineIndex | undefined,
  msg: Msg,
): ServiceSummary[] {
  if (!renders.size) return [...list];
  const seen = new Map<string, number>();
  const out: ServiceSummary[] = [];
  /** The value sets each listed Service is rendered in. */
  const contexts = new Map<number, string[]>();
  for (const s of list) {
    const render = s.source && renders.get(s.source.uri);
    const source = s.source && mapSourceSpan(s.source, sources, lines);
    const key = `${s.kind ?? 'Service'}\u0000${s.namespace}/${s.name}\u0000${source?.uri}\u0000${source?.start}`;
    const at = seen.get(key);
    if (at !== undefined) {
      // the same Service from another value set: named beside the first
      if (render) contexts.get(at)?.push(valueSetContext(render.valueSet));
      continue;
    }
    seen.set(key, out.length);
    if (render) contexts.set(out.length, [valueSetContext(render.valueSet)]);
    out.push(render ? { ...s, source } : s);
  }
  // `release api, value sets values.yaml and ci/prod-values.yaml`
  for (const [i, c] of contexts) out[i] = { ...out[i], release: joinContexts(c, msg) };
  return out;
}
