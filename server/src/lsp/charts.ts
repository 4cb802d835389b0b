// Helm charts in the language server: renders every top-level chart after indexing (a trusted workspace, helm found),
// and again only the chart one of whose files changed on disk (a save); the renders enter the workspace as files of
// their own; the snapshot's source map (project/sourceMap.ts) maps what is found on them to template lines. Says what
// each chart did not render (untrusted, no helm, a missing dependency, helm's error) as notes.

import { messages } from '../l10n/l10n';
import { fileURLToPath } from 'node:url';
import { findingsOfProblems } from '../project/helmFindings';
import { chartNotesFor, helmForSettings, renderChart, renderChartWithTexts, rendersAlone } from '../workspace/helm';
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
  /** The charts' notes (what did not render, and why), as findings at their configured severities. */
  notes(snap: Snapshot): readonly Finding[];
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
      const chart = snap.charts.charts.find((c) => c.root === root && rendersAlone(c));
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
      const top = snap.charts.charts.filter((c) => rendersAlone(c));
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
      for (const c of snap.charts.charts) if (rendersAlone(c)) render(c.root);
    },
    filesChanged(uris) {
      const snap = workspace.snapshot();
      if (!helmForSettings(snap.settings.helm, process.env)) return;
      const top = snap.charts.charts.filter((c) => rendersAlone(c));
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
    notes(snap) {
      return notesOf(snap);
    },
    counts(snap) {
      const top = snap.charts.charts.filter((c) => rendersAlone(c));
      const rendered = new Set([...snap.renders.values()].map((r) => r.chart.root));
      const n = top.filter((c) => rendered.has(c.root)).length;
      const roots = [...rendered].map((r) => `${r}/`);
      const renderedTemplates = roots.length ? [...snap.charts.templates].filter((t) => roots.some((r) => t.startsWith(r))).length : 0;
      return { rendered: n, notRendered: top.length - n, renderedTemplates };
    },
  };
}
