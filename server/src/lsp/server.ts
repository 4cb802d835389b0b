// The language server: wires LSP messages to the workspace and the features. Each handler converts in,
// calls one feature on the latest snapshot, and converts out; diagnostics cover every file, open or not.

import { fileURLToPath } from 'node:url';
import { relative, sep } from 'node:path';
import {
  CodeActionKind, CompletionItemKind, DidChangeConfigurationNotification, DidChangeWatchedFilesNotification, FileChangeType,
  TextDocuments, TextDocumentSyncKind, type CodeAction, type CodeLens, type Connection, type InitializeParams,
  type InitializeResult, type Range, type WorkspaceFolder,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analysisChangedNotification, listServicesRequest, serviceDetailsRequest, statusNotification, traceRequest, type StatusParams, type TraceParams } from '../protocol';
import { codeActionsAt } from '../features/codeActions';
import { codeLensesFor } from '../features/codeLenses';
import { completionAt } from '../features/completion';
import { definitionAt } from '../features/definition';
import { diagnosticsFor, prepareIncremental } from '../features/diagnostics';
import { hoverAt } from '../features/hover';
import { referencesAt } from '../features/references';
import { kustomizeBuilds, listServices } from '../features/serviceList';
import { mapTraceSources } from '../features/renderedFindings';
import { serviceDetailsFor, traceResultFor } from '../features/traceResult';
import { pauser } from '../workspace/discoverFiles';
import { compileGlobs, type PathMatcher } from '../workspace/glob';
import { releasesIn } from '../workspace/helm';
import { readBounded, realRoots } from '../workspace/readBounded';
import { canonicalUri } from '../workspace/uri';
import { readSettings, type FileOptions, type Settings } from '../workspace/settings';
import { createWorkspace, type Snapshot, type Span } from '../workspace/workspace';
import { toDiagnostic, toRange, toSpan, type Finding } from './convert';
import { guarded, logged } from './guard';
import { createChartRenderer } from './charts';
import { createKustomizeBuilder } from './kustomizeBuilds';
import { indexFolders } from './indexFolders';

/**
 * Edits are batched before the workspace is re-analysed. A cheap (incremental) pass runs on the next turn of the
 * event loop, which still coalesces a burst of queued changes; after an expensive pass the server waits as long as
 * that pass took, at most this long.
 */
const maxDebounceMs = 75;
/** Passes faster than this are run without waiting. */
const cheapPassMs = 150;
/** Open documents at least this large are parsed in slices, with requests answered in between. */
const slicedParseBytes = 64 * 1024;

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  /** Open documents by canonical URI (workspace/uri.ts) → the URI the editor opened them with. */
  const openAs = new Map<string, string>();
  const documentAt = (uri: string) => documents.get(openAs.get(uri) ?? uri);
  const workspace = createWorkspace();
  let folders: string[] = [];
  let canConfigure = false;
  let canRegisterWatcher = false;
  let canRegisterConfig = false;
  let foldersSupported = false;
  /** The client's workspace trust (initialization option `workspaceTrusted`): without it helm never runs. */
  let trusted = false;
  let indexing = true;
  let indexRun = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastPassMs = maxDebounceMs;
  /** What was last published per URI (the findings, and their JSON), to send only what changed. */
  const published = new Map<string, { readonly findings: readonly Finding[]; readonly text: string | undefined; readonly key: string }>();
  /** The document version last published for each open document. */
  const publishedVersions = new Map<string, number>();
  let findingsMemo: { generation: number; findings: readonly Finding[] } | undefined;
  const charts = createChartRenderer(workspace, () => schedule(), (message) => connection.console.info(message));
  const kustomize = createKustomizeBuilder(workspace, () => schedule(), (message) => connection.console.info(message));
  /** The settings as the client sends them, with trust applied and the Helm releases' paths read from the first folder. */
  const settingsFrom = (raw: unknown): Settings => {
    const read = readSettings(raw, trusted);
    const s = read.kustomize.roots.length ? { ...read, kustomize: { ...read.kustomize, folders } } : read;
    return s.helm.releases.length ? { ...s, helm: { ...s.helm, releases: releasesIn(s.helm.releases, folders) } } : s;
  };

  const findingsOf = (snap: Snapshot): readonly Finding[] => {
    if (findingsMemo?.generation !== snap.generation) {
      // findings on rendered Helm releases go to their template lines; charts add their notes
      findingsMemo = { generation: snap.generation, findings: charts.findings(snap, diagnosticsFor(snap.analysis, snap.earlier)) };
    }
    return findingsMemo.findings;
  };

  const rangeIn = (snap: Snapshot) => (uri: string, span: Span): Range | undefined => {
    const index = snap.lines(uri);
    return index && toRange(index, span);
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
    for (const uri of new Set([...published.keys(), ...byUri.keys(), ...openAs.keys()])) {
      const mine = byUri.get(uri) ?? [];
      const last = published.get(uri);
      const doc = documentAt(uri);
      const open = doc !== undefined && workspace.isOpen(uri);
      // An open document gets diagnostics for its newest version even when they equal what was last sent: the
      // editor waits for them, and a burst of edits can end on a text equal to an earlier one.
      const versionSent = !open || publishedVersions.get(uri) === doc.version;
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
      if (open && doc.getText() !== text) continue;
      const version = open ? doc.version : undefined;
      void connection.sendDiagnostics({ uri: openAs.get(uri) ?? uri, version, diagnostics });
      if (open) publishedVersions.set(uri, doc.version);
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

  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      try {
        publish();
      } catch (err) {
        connection.console.error(`analysis failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
    }, lastPassMs < cheapPassMs ? 0 : Math.min(maxDebounceMs, lastPassMs));
  };

  const reindex = async () => {
    const run = ++indexRun;
    indexing = true;
    void connection.sendNotification(statusNotification, { resources: 0, files: 0, skippedTemplates: 0, skippedOther: 0, problems: 0, indexing: true } satisfies StatusParams);
    const progress = await connection.window.createWorkDoneProgress();
    progress.begin('Kubernetes Network Lens: indexing manifests', 0, undefined, false);
    const started = Date.now();
    try {
      const result = await indexFolders(folders, workspace.settings.files, progress, () => run !== indexRun, (uri, text) => workspace.prepare(uri, text));
      if (!result || run !== indexRun) return;
      const read = Date.now();
      workspace.replaceDisk(result.texts, result.tooLarge);
      const snap = workspace.snapshot();
      connection.console.info(`Indexed ${snap.stats.files} files (${snap.stats.resources} resources) in ${Date.now() - started} ms (reading and parsing ${read - started} ms, building the model ${Date.now() - read} ms)`);
    } finally {
      progress.done();
    }
    if (run !== indexRun) return;
    indexing = false;
    publish();
    charts.renderAll();
    kustomize.buildAll();
    // Once every file's diagnostics are out, what the first edit needs is built while the server is idle.
    setImmediate(logged(connection, 'prepare', () => prepareIncremental(workspace.snapshot().analysis)));
  };

  const pullSettings = async () => {
    if (!canConfigure) return;
    const raw = await connection.workspace.getConfiguration('kubeNetlens');
    const filesChanged = applySettings(settingsFrom(raw));
    if (filesChanged) await reindex();
    else if (!indexing) {
      schedule();
      charts.renderAll();
      kustomize.buildAll();
    }
  };

  /** The include and exclude matchers of the current file options, compiled once per options object. */
  let matchers: { readonly options: FileOptions; readonly include: PathMatcher; readonly exclude: PathMatcher } | undefined;
  const matchersOf = (options: FileOptions) => {
    if (matchers?.options !== options) matchers = { options, include: compileGlobs(options.include).match, exclude: compileGlobs(options.exclude).match };
    return matchers;
  };

  /** Whether a file URI is one the settings include (inside a folder, matching include, not excluded). */
  const wanted = (uri: string): boolean => {
    if (!uri.startsWith('file:')) return false;
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      return false;
    }
    const { include, exclude } = matchersOf(workspace.settings.files);
    const folder = folders.find((f) => path.startsWith(f + sep));
    if (!folder) return /\.ya?ml$/i.test(path);
    const rel = relative(folder, path).split(sep).join('/');
    return include(rel) && !exclude(rel);
  };

  /** Settings from the editor: applied, and any value that was refused is said once. */
  let warned = '';
  const applySettings = (next: Settings): boolean => {
    const said = (next.warnings ?? []).join('\n');
    if (said && said !== warned) void connection.window.showWarningMessage(`Kubernetes Network Lens: ${said}`);
    warned = said;
    return workspace.setSettings(next);
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const caps = params.capabilities;
    canConfigure = !!caps.workspace?.configuration;
    canRegisterWatcher = !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration && !params.initializationOptions?.clientWatchesFiles;
    canRegisterConfig = !!caps.workspace?.didChangeConfiguration?.dynamicRegistration;
    foldersSupported = !!caps.workspace?.workspaceFolders;
    folders = foldersOf(params.workspaceFolders, params.rootUri);
    trusted = params.initializationOptions?.workspaceTrusted === true;
    if (params.initializationOptions?.settings) applySettings(settingsFrom(params.initializationOptions.settings));
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        codeLensProvider: { resolveProvider: false },
        definitionProvider: true,
        referencesProvider: true,
        completionProvider: { triggerCharacters: [':', ' '], resolveProvider: false },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'kube-netlens' },
    };
  });

  connection.onInitialized(logged(connection, 'initialized', async () => {
    if (canRegisterWatcher) {
      await connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{yaml,yml}' }] });
    }
    if (canRegisterConfig) await connection.client.register(DidChangeConfigurationNotification.type, { section: 'kubeNetlens' });
    if (foldersSupported) {
      connection.workspace.onDidChangeWorkspaceFolders(logged(connection, 'workspace folders', async (e) => {
        const removed = new Set(e.removed.map((f) => fileURLToPath(f.uri)));
        folders = [...folders.filter((f) => !removed.has(f)), ...e.added.filter((f) => f.uri.startsWith('file:')).map((f) => fileURLToPath(f.uri))];
        await reindex();
      }));
    }
    if (canConfigure) {
      const raw = await connection.workspace.getConfiguration('kubeNetlens');
      applySettings(settingsFrom(raw));
    }
    await reindex();
  }));

  connection.onDidChangeConfiguration(logged(connection, 'configuration', async (change) => {
    if (canConfigure) await pullSettings();
    else if (change.settings?.kubeNetlens) {
      if (applySettings(settingsFrom(change.settings.kubeNetlens))) await reindex();
      else {
        schedule();
        charts.renderAll();
        kustomize.buildAll();
      }
    }
  }));

  // File-watcher events are coalesced (the last event per URI counts) and applied in slices of a few milliseconds,
  // with a turn of the event loop between them: a storm of thousands of events never blocks a hover. Files are read
  // only through readBounded: regular files inside the workspace folders, within the size limit.
  const pendingEvents = new Map<string, FileChangeType>();
  let applyingEvents = false;
  const applyEvents = async () => {
    if (applyingEvents) return;
    applyingEvents = true;
    try {
      const pause = pauser();
      while (pendingEvents.size) {
        const batch = [...pendingEvents];
        pendingEvents.clear();
        const deleted = new Set<string>();
        const roots = realRoots(folders);
        for (const [uri, type] of batch) {
          await pause();
          if (type === FileChangeType.Deleted) {
            deleted.add(uri);
            continue;
          }
          if (!wanted(uri)) continue;
          let path: string;
          try {
            path = fileURLToPath(uri);
          } catch {
            continue;
          }
          const read = readBounded(path, { maxBytes: workspace.settings.files.maxSizeKB * 1024, roots });
          if (read.ok) workspace.setDiskText(uri, read.text);
          else workspace.deleteDiskText(uri);
        }
        if (deleted.size) {
          // A deleted folder takes every file below it: one pass over the known files, looking up each one's
          // ancestors, instead of a pass per event.
          for (const known of workspace.uris()) {
            for (let u = known; u.length > 'file://'.length; u = u.slice(0, u.lastIndexOf('/'))) {
              if (deleted.has(u)) {
                workspace.deleteDiskText(known);
                break;
              }
            }
          }
        }
        schedule();
      }
    } finally {
      applyingEvents = false;
    }
  };

  connection.onDidChangeWatchedFiles(logged(connection, 'watched files', async (params) => {
    const uris = params.changes.map((c) => canonicalUri(c.uri));
    params.changes.forEach((c, i) => pendingEvents.set(uris[i], c.type));
    await applyEvents();
    // a saved chart file (a template, a values file, _helpers.tpl) renders that chart again, and only that one
    if (!indexing) {
      charts.filesChanged(uris);
      kustomize.filesChanged(uris);
    }
  }));

  // A large open document is parsed in slices before its text enters the workspace (a megabyte takes the YAML
  // library a second or more): hovers and other requests are answered between the slices, from the snapshot
  // before the edit. Until then its own requests get no answer rather than one about an older text.
  const pendingTexts = new Map<string, { readonly text: string; readonly version: number }>();
  const slicing = new Set<string>();
  let sliceStarted = Date.now();
  const pauseForRequests = (): Promise<void> | undefined => {
    if (Date.now() - sliceStarted < 10) return undefined;
    return new Promise<void>((done) => setImmediate(() => {
      sliceStarted = Date.now();
      done();
    }));
  };
  const apply = (uri: string, text: string, version: number) => {
    if (workspace.isOpen(uri)) workspace.change(uri, text, version);
    else workspace.open(uri, text, version);
    schedule();
  };
  const sliceParse = async (uri: string) => {
    slicing.add(uri);
    try {
      for (let p = pendingTexts.get(uri); p; p = pendingTexts.get(uri)) {
        await workspace.prepareAsync(uri, p.text, pauseForRequests);
        // A newer text came meanwhile (it is parsed next), or the document was closed.
        if (pendingTexts.get(uri) !== p) continue;
        pendingTexts.delete(uri);
        apply(uri, p.text, p.version);
      }
    } finally {
      slicing.delete(uri);
    }
  };
  const updateDocument = (uri: string, text: string, version: number) => {
    if (text.length < slicedParseBytes || text.length > workspace.settings.files.maxSizeKB * 1024) {
      pendingTexts.delete(uri);
      apply(uri, text, version);
      return;
    }
    pendingTexts.set(uri, { text, version });
    if (!slicing.has(uri)) void sliceParse(uri).catch((err: unknown) => connection.console.error(`parsing ${uri} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
  };

  documents.onDidOpen(logged(connection, 'didOpen', (e) => {
    const uri = canonicalUri(e.document.uri);
    if (!wanted(uri)) return;
    openAs.set(uri, e.document.uri);
    updateDocument(uri, e.document.getText(), e.document.version);
  }));
  documents.onDidChangeContent(logged(connection, 'didChange', (e) => {
    const uri = canonicalUri(e.document.uri);
    if (!workspace.isOpen(uri) && !pendingTexts.has(uri)) return;
    updateDocument(uri, e.document.getText(), e.document.version);
    charts.textChanged(uri);
  }));
  documents.onDidClose(logged(connection, 'didClose', (e) => {
    const uri = canonicalUri(e.document.uri);
    openAs.delete(uri);
    pendingTexts.delete(uri);
    workspace.close(uri);
    schedule();
    // unsaved text it was rendered from is gone: the chart renders again from what is on disk
    charts.textChanged(e.document.uri);
  }));

  /** The snapshot and the offset of an LSP position in one document. */
  const at = (raw: string, position: { line: number; character: number }) => {
    const uri = canonicalUri(raw);
    if (pendingTexts.has(uri)) return undefined;
    const snap = workspace.snapshot();
    const text = snap.text(uri);
    if (text === undefined) return undefined;
    const index = snap.lines(uri)!;
    return { uri, snap, text, index, offset: index.offsetAt(position) };
  };

  connection.onHover(guarded(connection, 'hover', (p) => {
    const a = at(p.textDocument.uri, p.position);
    if (!a) return null;
    const h = charts.hover(a.snap, a.uri, a.offset) ?? hoverAt(a.snap.analysis, a.uri, a.offset);
    if (!h) return null;
    return { contents: { kind: 'markdown', value: h.markdown }, range: toRange(a.index, h.span) };
  }));

  connection.onCodeAction(guarded(connection, 'code actions', (p) => {
    const snap = workspace.snapshot();
    const uri = canonicalUri(p.textDocument.uri);
    const index = snap.lines(uri);
    if (!index) return [];
    const range = rangeIn(snap);
    const span = toSpan(index, p.range);
    return codeActionsAt(findingsOf(snap), uri, span).map(({ fix, finding }): CodeAction => {
      const changes: Record<string, { range: Range; newText: string }[]> = {};
      for (const e of fix.edits) (changes[openAs.get(e.uri) ?? e.uri] ??= []).push({ range: range(e.uri, e.span) ?? p.range, newText: e.newText });
      return { title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [toDiagnostic(finding, range)], isPreferred: fix.isPreferred, edit: { changes } };
    });
  }));

  connection.onCodeLens(guarded(connection, 'code lenses', (p): CodeLens[] => {
    const snap = workspace.snapshot();
    const uri = canonicalUri(p.textDocument.uri);
    const index = snap.lines(uri);
    if (!index) return [];
    return codeLensesFor(snap.analysis, uri).map((l) => ({
      range: toRange(index, l.span),
      command: l.trace ? { title: l.title, command: 'kubeNetlens.traceService', arguments: [l.trace] } : { title: l.title, command: '' },
    }));
  }));

  connection.onDefinition(guarded(connection, 'definition', (p) => {
    const a = at(p.textDocument.uri, p.position);
    if (!a) return [];
    const range = rangeIn(a.snap);
    return definitionAt(a.snap.analysis, a.uri, a.offset).flatMap((found) => {
      const l = charts.location(a.snap, found.uri, found.span);
      const r = range(l.uri, l.span);
      return r ? [{ uri: l.uri, range: r }] : [];
    });
  }));

  connection.onReferences(guarded(connection, 'references', (p) => {
    const a = at(p.textDocument.uri, p.position);
    if (!a) return [];
    const range = rangeIn(a.snap);
    return referencesAt(a.snap.analysis, a.uri, a.offset, p.context.includeDeclaration).flatMap((found) => {
      const l = charts.location(a.snap, found.uri, found.span);
      const r = range(l.uri, l.span);
      return r ? [{ uri: l.uri, range: r }] : [];
    });
  }));

  connection.onCompletion(guarded(connection, 'completion', (p) => {
    const a = at(p.textDocument.uri, p.position);
    if (!a) return [];
    const index = a.index;
    return completionAt(a.snap.analysis, a.uri, a.text, a.offset).map((c) => ({
      label: c.label,
      detail: c.detail,
      sortText: c.sortText,
      kind: c.kind === 'service' ? CompletionItemKind.Module : c.kind === 'port' ? CompletionItemKind.Value : CompletionItemKind.Property,
      textEdit: { range: toRange(index, c.span), newText: c.label },
    }));
  }));

  connection.onRequest(traceRequest, guarded(connection, 'trace', (p: TraceParams) => {
    const snap = workspace.snapshot();
    const result = traceResultFor(snap.analysis, p);
    // The boxes of a Kustomize build's trace open the base and patch lines their objects come from.
    return result ? charts.trace(snap, mapTraceSources(result, kustomizeBuilds(snap.analysis), (u) => snap.lines(u))) : null;
  }));
  connection.onRequest(listServicesRequest, guarded(connection, 'listServices', () => {
    const snap = workspace.snapshot();
    return charts.services(snap, listServices(snap.analysis, (u) => snap.lines(u)));
  }));
  connection.onRequest(serviceDetailsRequest, guarded(connection, 'serviceDetails', (p: TraceParams) => serviceDetailsFor(workspace.snapshot().analysis, p) ?? null));

  documents.listen(connection);
  connection.listen();
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function foldersOf(workspaceFolders: WorkspaceFolder[] | null | undefined, rootUri: string | null): string[] {
  const uris = workspaceFolders?.length ? workspaceFolders.map((f) => f.uri) : rootUri ? [rootUri] : [];
  return uris.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u));
}
