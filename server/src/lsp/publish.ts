// Publishing: when the workspace is analysed again after edits (batched), which files' diagnostics are sent, and the
// status notifications (indexing, counts, charts) the client shows.

import type { Connection } from 'vscode-languageserver/node';
import { analysisChangedNotification, statusNotification, type StatusParams, type StatusProgress, type WorkCount } from '../protocol';
import { diagnosticsSteps, evaluatedFindings, prepareSteps } from '../features/diagnostics';
import { editorFindings } from '../features/suppressions';
import type { ProjectConfig } from './projectConfig';
import type { Snapshot, Workspace } from '../workspace/workspace';
import type { ChartRenderer } from './charts';
import { sourceMapOf } from '../project/sourceMap';
import { toDiagnostic, toRange, type Finding, type RangeOf } from './convert';
import type { OpenDocuments } from './documentSync';
import { inSlices } from './slices';

/**
 * Edits are batched before the workspace is re-analysed. A cheap (incremental) pass runs on the next turn of the
 * event loop, which still coalesces a burst of queued changes; after an expensive pass the server waits as long as
 * that pass took, at most this long.
 */
const maxDebounceMs = 75;
/** Passes faster than this are run without waiting. */
const cheapPassMs = 150;
/**
 * A change within this long of the previous one is part of a burst (a paste replayed as many edits, a formatter, a
 * script): the pass waits until the burst has been quiet this long, so the burst costs one analysis and one publish
 * per document, after the pass its first change started (which runs at once: a single edit waits for nothing).
 */
export const burstQuietMs = 40;
/** A burst that never goes quiet is still analysed and published at least this often. */
const maxBurstWaitMs = 500;
/**
 * A pass evaluates the rules in slices (lsp/slices.ts) and is abandoned when a newer snapshot arrives; after this
 * many abandoned in a row, a pass finishes (still in slices), so that edits arriving faster than a pass runs cannot
 * hold diagnostics back for ever.
 */
const maxAbandoned = 2;

export interface Publisher {
  /** Whether the workspace folders are being indexed (nothing is published meanwhile). */
  readonly indexing: boolean;
  /** Indexing starts: the client is told, and publishing waits. */
  startIndexing(): void;
  /** Indexing is done: every file's diagnostics are published now. */
  indexed(): void;
  /** Analyse and publish after the current burst of changes. */
  schedule(): void;
  /** Work under way (files read, charts rendered, roots built): shown with the status until its count is complete. */
  progress(what: keyof StatusProgress, count: WorkCount): void;
  /**
   * The snapshot's findings, on template lines for Helm renders, with the charts' notes, once a pass has evaluated
   * them (never evaluated here: the rules run in the publishing pass, in slices). Undefined when a newer snapshot was
   * evaluated instead.
   */
  findingsOf(snap: Snapshot): Promise<readonly Finding[] | undefined>;
  /**
   * The findings the editor shows for one file with this text: the snapshot's own if evaluated, else those last
   * published while the file had the same text, else none. Costs no evaluation (hovers use it).
   */
  shown(snap: Snapshot, uri: string): readonly Finding[];
}

/** LSP ranges of spans in the snapshot's files. */
export function rangeIn(snap: Snapshot): RangeOf {
  return (uri, span) => {
    const index = snap.lines(uri);
    return index && toRange(index, span);
  };
}

export function createPublisher(connection: Connection, workspace: Workspace, open: OpenDocuments, charts: ChartRenderer, project?: ProjectConfig): Publisher {
  let indexing = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastPassMs = maxDebounceMs;
  /** When the last change was scheduled, and when the burst it belongs to began. */
  let lastChange = -Infinity;
  let burstStart = -Infinity;
  /** Changes scheduled so far: a pass whose timer fired checks that no change came since. */
  let changes = 0;
  /** What was last published per URI (the findings, and their JSON), to send only what changed. */
  const published = new Map<string, { readonly findings: readonly Finding[]; readonly text: string | undefined; readonly key: string }>();
  /** The document version last published for each open document. */
  const publishedVersions = new Map<string, number>();
  let findingsMemo: { generation: number; findings: readonly Finding[] } | undefined;
  /** Requests waiting for the findings of a generation. */
  let waiting: { readonly generation: number; readonly resolve: (findings: readonly Finding[] | undefined) => void }[] = [];
  let passing = false;
  let again = false;
  let abandoned = 0;
  /** The generation whose pass failed (a bug, logged): requests for it are answered at once, without findings. */
  let failed = -1;
  /** The generation of the snapshot the running (or last) pass evaluates. */
  let passGeneration = -1;

  /** The snapshot's findings if its evaluation is done (mapped once per generation). */
  const ready = (snap: Snapshot): readonly Finding[] | undefined => {
    if (findingsMemo?.generation === snap.generation) return findingsMemo.findings;
    const evaluated = evaluatedFindings(snap.analysis);
    if (!evaluated) return undefined;
    // findings on renders go to their source lines (the snapshot's source map); charts add their notes; what
    // kube-netlens.io/ignore annotations ignore is shown faded, with the reason
    const mapped = sourceMapOf(snap).findings(evaluated);
    const notes = charts.notes(snap);
    const shown = editorFindings(notes.length ? [...mapped, ...notes] : mapped, snap.analysis, project?.ignores());
    const configProblems = project?.findings() ?? [];
    findingsMemo = { generation: snap.generation, findings: configProblems.length ? [...shown, ...configProblems] : shown };
    return findingsMemo.findings;
  };

  /** Passes run one at a time; changes during one are picked up by the next (or abandon it, see `maxAbandoned`). */
  const publish = async () => {
    timer = undefined;
    if (indexing) return;
    if (passing) {
      again = true;
      return;
    }
    passing = true;
    try {
      do {
        again = false;
        await pass();
        // a pass abandoned for a change in a burst waits for the burst's timer, not for the next change
      } while (again && !indexing && !timer);
    } finally {
      passing = false;
    }
  };

  const pass = async () => {
    const started = Date.now();
    const snap = workspace.snapshot();
    passGeneration = snap.generation;
    const built = Date.now();
    let findings = ready(snap);
    if (!findings) {
      const done = await inSlices(
        diagnosticsSteps(snap.analysis, snap.earlier),
        () => indexing || (abandoned < maxAbandoned && workspace.generation !== snap.generation),
      );
      if (!done) {
        if (!indexing) abandoned++;
        again = true;
        return;
      }
      abandoned = 0;
      findings = ready(snap)!;
    }
    if (indexing) return;
    const checked = Date.now();
    const byUri = new Map<string, Finding[]>();
    for (const f of findings) {
      const list = byUri.get(f.uri);
      if (list) list.push(f);
      else byUri.set(f.uri, [f]);
    }
    const range = rangeIn(snap);
    for (const uri of new Set([...published.keys(), ...byUri.keys(), ...open.uris()])) {
      const mine = byUri.get(uri) ?? [];
      const last = published.get(uri);
      const doc = open.documentAt(uri);
      const isOpen = doc !== undefined && workspace.isOpen(uri);
      // An open document gets diagnostics for its newest version even when they equal what was last sent: the
      // editor waits for them, and a burst of edits can end on a text equal to an earlier one.
      const versionSent = !isOpen || publishedVersions.get(uri) === doc.version;
      const text = snap.text(uri);
      // Unchanged findings are the very same objects (incremental evaluation keeps them): over the same text, there
      // is nothing to convert.
      if (versionSent && (last ? last.text === text && sameItems(last.findings, mine) : !mine.length)) continue;
      const diagnostics = mine.map((f) => toDiagnostic(f, range));
      const key = JSON.stringify(diagnostics);
      if ((last?.key ?? '[]') === key && versionSent) {
        if (last) published.set(uri, { findings: mine, text, key });
        continue;
      }
      // Never publish for an older text of an open document: a newer analysis is already scheduled.
      if (isOpen && doc.getText() !== text) continue;
      const version = isOpen ? doc.version : undefined;
      void connection.sendDiagnostics({ uri: open.editorUri(uri), version, diagnostics });
      if (isOpen) publishedVersions.set(uri, doc.version);
      else publishedVersions.delete(uri);
      if (diagnostics.length) published.set(uri, { findings: mine, text, key });
      else published.delete(uri);
    }
    lastPassMs = Date.now() - started;
    if (Date.now() - started > 250)
      connection.console.info(
        `Analysis took ${Date.now() - started} ms (snapshot ${built - started} ms, rules ${checked - built} ms in slices, publishing ${Date.now() - checked} ms)`,
      );
    void connection.sendNotification(analysisChangedNotification, { generation: snap.generation });
    sendStatus(snap, findings.length);
    const answered = waiting;
    waiting = [];
    for (const w of answered) {
      if (w.generation === snap.generation) w.resolve(findings);
      else if (w.generation < snap.generation) w.resolve(undefined);
      else waiting.push(w);
    }
    // a request waits for a newer snapshot than this one: it is the next pass's, whether or not a change scheduled one
    if (waiting.length) again = true;
    // What the next edit needs (the dependency indexes) is built while the server is idle, in slices too.
    if (!again) await inSlices(prepareSteps(snap.analysis), () => again || indexing);
  };

  const run = () => {
    publish().catch((err: unknown) => {
      connection.console.error(`analysis failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      // Whoever waits for findings is answered "none" rather than never: a request must not hang on a failed pass.
      failed = passGeneration;
      const answered = waiting;
      waiting = [];
      for (const w of answered) w.resolve(undefined);
    });
  };

  /** The last status sent without progress, and the work under way (only counts not yet complete). */
  let lastStatus: StatusParams = { resources: 0, files: 0, skippedTemplates: 0, skippedOther: 0, problems: 0, indexing: true };
  let work: StatusProgress = {};
  const send = (status: StatusParams) => {
    lastStatus = status;
    void connection.sendNotification(statusNotification, Object.keys(work).length ? { ...status, progress: work } : status);
  };
  const sendStatus = (snap: Snapshot, problems: number) => {
    const s = snap.stats;
    const c = charts.counts(snap);
    send({
      resources: s.resources,
      files: s.files,
      skippedTemplates: s.skippedTemplates - c.renderedTemplates,
      skippedOther: s.skippedOther,
      skippedTests: s.skippedTests,
      skippedBuildInputs: s.skippedBuildInputs,
      problems,
      indexing,
      chartsRendered: c.rendered,
      chartsNotRendered: c.notRendered,
    });
  };

  return {
    get indexing() {
      return indexing;
    },
    startIndexing() {
      indexing = true;
      send({ resources: 0, files: 0, skippedTemplates: 0, skippedOther: 0, problems: 0, indexing: true });
    },
    progress(what, count) {
      const { [what]: _old, ...rest } = work;
      work = count.done < count.total ? { ...rest, [what]: count } : rest;
      send(lastStatus);
    },
    indexed() {
      indexing = false;
      // a cancelled reading leaves no count behind
      const { files: _files, ...rest } = work;
      work = rest;
      run();
    },
    schedule() {
      const now = Date.now();
      const inBurst = now - lastChange < burstQuietMs;
      if (!inBurst) burstStart = now;
      lastChange = now;
      const mine = ++changes;
      if (timer) clearTimeout(timer);
      let delay = lastPassMs < cheapPassMs ? 0 : Math.min(maxDebounceMs, lastPassMs);
      if (inBurst) delay = Math.max(delay, Math.min(burstQuietMs, burstStart + maxBurstWaitMs - now));
      // A timer that expired while the process waited for a core fires before the messages that arrived meanwhile are
      // read: two turns of the event loop let the next of them be handled first (the connection handles one message
      // per turn), and a change among them reschedules instead, unless the burst has waited `maxBurstWaitMs`.
      timer = setTimeout(
        () =>
          setImmediate(() =>
            setImmediate(() => {
              if (mine !== changes && Date.now() - burstStart < maxBurstWaitMs) return;
              // a burst still going on counts its next wait from this pass
              burstStart = Date.now();
              run();
            }),
          ),
        Math.max(0, delay),
      );
    },
    findingsOf(snap) {
      const found = ready(snap);
      if (found) return Promise.resolve(found);
      if (snap.generation <= failed) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        waiting.push({ generation: snap.generation, resolve });
        // A waiter is a change: with no pass running, one starts; with one running on an older snapshot (or
        // finishing, past its answers), another follows it, whether or not anything scheduled one.
        if (!passing && !timer) run();
        else if (passing && snap.generation !== passGeneration) again = true;
      });
    },
    shown(snap, uri) {
      const found = ready(snap);
      if (found) return found.filter((f) => f.uri === uri);
      const last = published.get(uri);
      return last && last.text === snap.text(uri) ? last.findings : [];
    },
  };
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
