// Helm charts in the language server: renders every top-level chart after indexing (a trusted workspace, helm found),
// and again only the chart one of whose files changed on disk (a save); the renders enter the workspace as files of
// their own. Turns the snapshot's findings on renders into findings on template lines, and adds each chart's notes
// (not rendered: untrusted, no helm, a missing dependency, helm's error).

import { messages } from '../l10n/l10n';
import { fileURLToPath } from 'node:url';
import { renderedHoverAt } from '../features/hoverRendered';
import {
  findingsOfProblems,
  joinContexts,
  mapFindings,
  mapSourceSpan,
  mapTraceSources,
  sourceLocation,
  valueSetContext,
  type RenderSource,
} from '../features/renderedFindings';
import type { ServiceSummary, TraceResult } from '../protocol';
import type { Span } from '../workspace/workspace';
import { chartNotesFor, helmForSettings, renderChart, renderChartWithTexts } from '../workspace/helm';
import type { Settings } from '../workspace/settings';
import type { Snapshot, Workspace } from '../workspace/workspace';
import type { Finding } from './convert';

/** Renders run at most this many at a time (helm is CPU-bound; the machine has other work). */
const parallelRenders = 2;

export interface ChartRenderer {
  /** Renders every top-level chart (after indexing, or when the settings changed). */
  renderAll(): void;
  /** Files changed on disk: the charts they belong to render again. */
  filesChanged(uris: readonly string[]): void;
  /** An open document changed (typing): its chart renders again from the editor's texts, after a pause. */
  textChanged(uri: string): void;
  /** The snapshot's findings with renders mapped to template lines, plus the charts' notes. */
  findings(snap: Snapshot, found: readonly Finding[]): readonly Finding[];
  /** A place as the editor can open it: places in a render go to the template line that made them. */
  location(snap: Snapshot, uri: string, span: Span): { readonly uri: string; readonly span: Span };
  /** The same for the places the trace view and the Service picker carry; a Service several value sets render is listed once. */
  services(snap: Snapshot, list: readonly ServiceSummary[]): ServiceSummary[];
  trace(snap: Snapshot, result: TraceResult): TraceResult;
  /** In a chart template: the hover of what each value set rendered there. */
  hover(snap: Snapshot, uri: string, offset: number): { readonly markdown: string; readonly span: Span } | undefined;
  /** Top-level charts with at least one rendered value set, and the others. */
  counts(snap: Snapshot): { readonly rendered: number; readonly notRendered: number; readonly renderedTemplates: number };
}

export function createChartRenderer(
  workspace: Workspace,
  onRendered: () => void,
  log: (message: string) => void,
  onProgress?: (count: { readonly done: number; readonly total: number }) => void,
): ChartRenderer {
  /** Renders asked for and finished since the queue was last empty: the progress the status shows. */
  let batch = { done: 0, total: 0 };
  /** The newest render request per chart root: an older render's result is dropped. */
  const requests = new Map<string, number>();
  let next = 0;
  const queue: (() => Promise<void>)[] = [];
  /** Renders done while others still run, by chart root: applied together. */
  const finished = new Map<string, () => void>();
  let running = 0;
  const pump = () => {
    while (running < parallelRenders && queue.length) {
      const job = queue.shift()!;
      running++;
      void job().finally(() => {
        running--;
        batch = { done: batch.done + 1, total: batch.total };
        pump();
        onProgress?.(batch);
        if (!running && !queue.length) batch = { done: 0, total: 0 };
        // Results enter the workspace together once the queue is empty: one analysis for a batch of charts.
        if (!running && !queue.length && finished.size) {
          for (const apply of finished.values()) apply();
          finished.clear();
          onRendered();
        }
      });
    }
  };

  const render = (root: string, fromTexts = false) => {
    const id = ++next;
    requests.set(root, id);
    batch = { done: batch.done, total: batch.total + 1 };
    onProgress?.(batch);
    queue.push(async () => {
      if (requests.get(root) !== id) return;
      const snap = workspace.snapshot();
      const chart = snap.charts.charts.find((c) => c.root === root && !c.parent);
      const helm = helmForSettings(snap.settings.helm, process.env);
      if (!chart || !helm) return;
      const started = Date.now();
      let units;
      try {
        // helm reads nothing outside the workspace folders (workspace/helm.ts outsideWorkspace), no values file over the cap
        const run = {
          helm,
          timeoutMs: snap.settings.helm.timeoutMs,
          pathOf: (u: string) => fileURLToPath(u),
          roots: snap.settings.kustomize.folders,
          maxValuesBytes: snap.settings.files.maxSizeKB * 1024,
        };
        units = await (fromTexts ? renderChartWithTexts : renderChart)(chart, snap.charts.charts, run, (u) => snap.text(u));
      } catch (err) {
        // only a bug lands here (helm's failures are values): the chart stays as it was
        log(`Rendering chart ${chart.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        return;
      }
      if (requests.get(root) !== id) return;
      log(`Rendered chart ${chart.name} (${units.length} value set${units.length === 1 ? '' : 's'}) in ${Date.now() - started} ms`);
      const done = units;
      finished.set(root, () =>
        workspace.setChartRenders(
          root,
          done.map((unit, i) => ({ chart, valueSet: chart.valueSets[i], unit })),
        ),
      );
    });
    pump();
  };

  /** Renders after typing wait this long after the last keystroke in the chart. */
  const typingPauseMs = 400;
  const typing = new Map<string, ReturnType<typeof setTimeout>>();

  let notes:
    | { charts: Snapshot['charts']; helm: Settings['helm']; units: Snapshot['chartUnits']; rules: Settings['analysis']['rules']; findings: readonly Finding[] }
    | undefined;
  const notesOf = (snap: Snapshot): readonly Finding[] => {
    if (notes?.charts !== snap.charts || notes.helm !== snap.settings.helm || notes.units !== snap.chartUnits || notes.rules !== snap.settings.analysis.rules) {
      const top = snap.charts.charts.filter((c) => !c.parent);
      const unitProblems = top.flatMap((c) => snap.chartUnits.get(c.root) ?? []).flatMap((u) => u.problems);
      notes = {
        charts: snap.charts,
        helm: snap.settings.helm,
        units: snap.chartUnits,
        rules: snap.settings.analysis.rules,
        findings: findingsOfProblems(
          [...chartNotesFor(snap.charts.charts, snap.settings.helm, process.env), ...unitProblems],
          snap.settings.analysis.rules,
          messages(snap.settings.analysis.locale),
        ),
      };
    }
    return notes.findings;
  };

  return {
    renderAll() {
      const snap = workspace.snapshot();
      if (!helmForSettings(workspace.settings.helm, process.env)) {
        // helm went away (a setting changed): what it rendered goes too, and pending renders are dropped
        requests.clear();
        finished.clear();
        for (const root of snap.chartUnits.keys()) workspace.setChartRenders(root, []);
        if (snap.chartUnits.size) onRendered();
        return;
      }
      for (const c of snap.charts.charts) if (!c.parent) render(c.root);
    },
    filesChanged(uris) {
      const snap = workspace.snapshot();
      if (!helmForSettings(snap.settings.helm, process.env)) return;
      const top = snap.charts.charts.filter((c) => !c.parent);
      for (const c of top) {
        const valuesFiles = new Set(c.valueSets.flatMap((v) => v.valuesFiles));
        if (uris.some((u) => u.startsWith(`${c.root}/`) || valuesFiles.has(u))) render(c.root);
      }
    },
    textChanged(uri) {
      const snap = workspace.snapshot();
      if (!helmForSettings(snap.settings.helm, process.env)) return;
      for (const c of snap.charts.charts) {
        if (c.parent || !(uri.startsWith(`${c.root}/`) || c.valueSets.some((v) => v.valuesFiles.includes(uri)))) continue;
        clearTimeout(typing.get(c.root));
        typing.set(
          c.root,
          setTimeout(() => {
            typing.delete(c.root);
            render(c.root, true);
          }, typingPauseMs),
        );
      }
    },
    findings(snap, found) {
      const units = [...snap.renders].map(([uri, r]) => ({
        renderedUri: uri,
        rendered: r.unit.rendered!,
        context: valueSetContext(r.valueSet),
        fallbackUri: r.chart.chartYaml,
      }));
      const mapped = units.length ? mapFindings(found, units, messages(snap.analysis.config.locale)) : found;
      const chartNotes = notesOf(snap);
      return chartNotes.length ? [...mapped, ...chartNotes] : mapped;
    },
    location(snap, uri, span) {
      const r = snap.renders.get(uri);
      return r?.unit.rendered ? sourceLocation(r.unit.rendered, r.chart.chartYaml, span) : { uri, span };
    },
    services(snap, list) {
      if (!snap.renders.size) return [...list];
      const seen = new Map<string, number>();
      const out: ServiceSummary[] = [];
      /** The value sets each listed Service is rendered in. */
      const contexts = new Map<number, string[]>();
      for (const s of list) {
        const render = s.source && snap.renders.get(s.source.uri);
        const source = s.source && mapSourceSpan(s.source, sourcesOf(snap), (u) => snap.lines(u));
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
      for (const [i, c] of contexts) out[i] = { ...out[i], release: joinContexts(c, messages(snap.analysis.config.locale)) };
      return out;
    },
    trace(snap, result) {
      return mapTraceSources(result, sourcesOf(snap), (u) => snap.lines(u));
    },
    hover(snap, uri, offset) {
      if (!snap.charts.templates.has(uri)) return undefined;
      const renders = [...snap.renders]
        .filter(([, r]) => uri.startsWith(`${r.chart.root}/`))
        .map(([renderedUri, r]) => ({ renderedUri, rendered: r.unit.rendered!, context: valueSetContext(r.valueSet) }));
      return renders.length ? renderedHoverAt(snap.analysis, uri, offset, renders) : undefined;
    },
    counts(snap) {
      const top = snap.charts.charts.filter((c) => !c.parent);
      const rendered = new Set([...snap.renders.values()].map((r) => r.chart.root));
      const n = top.filter((c) => rendered.has(c.root)).length;
      const roots = [...rendered].map((r) => `${r}/`);
      const renderedTemplates = roots.length ? [...snap.charts.templates].filter((t) => roots.some((r) => t.startsWith(r))).length : 0;
      return { rendered: n, notRendered: top.length - n, renderedTemplates };
    },
  };
}

/** The renders of a snapshot as the places of a trace or a Service list are mapped from (memoized per snapshot). */
const renderSources = new WeakMap<Snapshot['renders'], ReadonlyMap<string, RenderSource>>();
function sourcesOf(snap: Snapshot): ReadonlyMap<string, RenderSource> {
  let m = renderSources.get(snap.renders);
  if (!m) {
    m = new Map(
      [...snap.renders].flatMap(([uri, r]) => (r.unit.rendered ? [[uri, { rendered: r.unit.rendered, fallbackUri: r.chart.chartYaml }] as const] : [])),
    );
    renderSources.set(snap.renders, m);
  }
  return m;
}
