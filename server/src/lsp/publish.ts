// Publishing: when the workspace is analysed again after edits (batched), which files' diagnostics are sent, and the
// status notifications (indexing, counts, charts) the client shows.

import type { Connection } from 'vscode-languageserver/node';
import { analysisChangedNotification, statusNotification, type StatusParams } from '../protocol';
import { diagnosticsFor } from '../features/diagnostics';
import type { Snapshot, Workspace } from '../workspace/workspace';
import type { ChartRenderer } from './charts';
import { toDiagnostic, toRange, type Finding, type RangeOf } from './convert';
import type { OpenDocuments } from './documentSync';

/**
 * Edits are batched before the workspace is re-analysed. A cheap (incremental) pass runs on the next turn of the
 * event loop, which still coalesces a burst of queued changes; after an expensive pass the server waits as long as
 * that pass took, at most this long.
 */
const maxDebounceMs = 75;
/** Passes faster than this are run without waiting. */
const cheapPassMs = 150;

export interface Publisher {
  /** Whether the workspace folders are being indexed (nothing is published meanwhile). */
  readonly indexing: boolean;
  /** Indexing starts: the client is told, and publishing waits. */
  startIndexing(): void;
  /** Indexing is done: every file's diagnostics are published now. */
  indexed(): void;
  /** Analyse and publish after the current burst of changes. */
  schedule(): void;
  /** The snapshot's findings, on template lines for Helm renders, with the charts' notes (memoized per generation). */
  findingsOf(snap: Snapshot): readonly Finding[];
}

/** LSP ranges of spans in the snapshot's files. */
export function rangeIn(snap: Snapshot): RangeOf {
  return (uri, span) => {
    const index = snap.lines(uri);
    return index && toRange(index, span);
  };
}

export function createPublisher(connection: Connection, workspace: Workspace, open: OpenDocuments, charts: ChartRenderer): Publisher {
  let indexing = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastPassMs = maxDebounceMs;
  /** What was last published per URI (the findings, and their JSON), to send only what changed. */
  const published = new Map<string, { readonly findings: readonly Finding[]; readonly text: string | undefined; readonly key: string }>();
  /** The document version last published for each open document. */
  const publishedVersions = new Map<string, number>();
  let findingsMemo: { generation: number; findings: readonly Finding[] } | undefined;

  const findingsOf = (snap: Snapshot): readonly Finding[] => {
    if (findingsMemo?.generation !== snap.generation) {
      // findings on rendered Helm releases go to their template lines; charts add their notes
      findingsMemo = { generation: snap.generation, findings: charts.findings(snap, diagnosticsFor(snap.analysis, snap.earlier)) };
    }
    return findingsMemo.findings;
  };

  const publish = () => {
    timer = undefined;
    if (indexing) return;
    const started = Date.now();
    const snap = workspace.snapshot();
    const built = Date.now();
    const findings = findingsOf(snap);
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
    if (Date.now() - started > 250) connection.console.info(`Analysis took ${Date.now() - started} ms (snapshot ${built - started} ms, rules ${checked - built} ms, publishing ${Date.now() - checked} ms)`);
    void connection.sendNotification(analysisChangedNotification, { generation: snap.generation });
    sendStatus(snap, findings.length);
  };

  const sendStatus = (snap: Snapshot, problems: number) => {
    const s = snap.stats;
    const c = charts.counts(snap);
    const status: StatusParams = { resources: s.resources, files: s.files, skippedTemplates: s.skippedTemplates - c.renderedTemplates, skippedOther: s.skippedOther, problems, indexing, chartsRendered: c.rendered, chartsNotRendered: c.notRendered };
    void connection.sendNotification(statusNotification, status);
  };

  return {
    get indexing() {
      return indexing;
    },
    startIndexing() {
      indexing = true;
      void connection.sendNotification(statusNotification, { resources: 0, files: 0, skippedTemplates: 0, skippedOther: 0, problems: 0, indexing: true } satisfies StatusParams);
    },
    indexed() {
      indexing = false;
      publish();
    },
    schedule() {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        try {
          publish();
        } catch (err) {
          connection.console.error(`analysis failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        }
      }, lastPassMs < cheapPassMs ? 0 : Math.min(maxDebounceMs, lastPassMs));
    },
    findingsOf,
  };
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
