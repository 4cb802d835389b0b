// The language server's wiring: its capabilities, and each LSP message to its handler. Document sync
// (documentSync.ts) brings texts, files and settings into the workspace; publishing (publish.ts) sends diagnostics
// and status; each request handler converts in, calls one feature on the latest snapshot, and converts out
// (convert.ts). Diagnostics cover every file, open or not.

import { CodeActionKind, TextDocuments, TextDocumentSyncKind, type Connection, type InitializeResult } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { listServicesRequest, serviceDetailsRequest, traceRequest, type TraceParams } from '../protocol';
import { codeActionsAt } from '../features/codeActions';
import { ignoreFixesAt } from '../features/ignoreFix';
import { codeLensesFor } from '../features/codeLenses';
import { completionAt } from '../features/completion';
import { definitionAt } from '../features/definition';
import { hoverAt } from '../features/hover';
import { referencesAt } from '../features/references';
import { listServices } from '../features/serviceList';
import { sourceMapOf } from '../project/sourceMap';
import { serviceDetailsFor, traceResultFor } from '../features/traceResult';
import { canonicalUri } from '../workspace/uri';
import { createWorkspace } from '../workspace/workspace';
import { createChartRenderer } from './charts';
import { toCodeAction, toIgnoreAction, toCodeLens, toCompletionItem, toHover, toLocations, toSpan } from './convert';
import { createDocumentSync, createOpenDocuments } from './documentSync';
import { guarded, logged } from './guard';
import { createKustomizeBuilder } from './kustomizeBuilds';
import { kustomizeForSettings } from '../workspace/kustomizeBinary';
import { createProjectConfig } from './projectConfig';
import { createPublisher, rangeIn } from './publish';

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const open = createOpenDocuments(documents);
  const workspace = createWorkspace();
  workspace.setRealKustomize((settings) => kustomizeForSettings(settings, process.env) !== undefined);
  const charts = createChartRenderer(
    workspace,
    () => publisher.schedule(),
    (message) => connection.console.info(message),
    (count) => publisher.progress('charts', count),
  );
  const kustomize = createKustomizeBuilder(
    workspace,
    () => publisher.schedule(),
    (message) => connection.console.info(message),
    (count) => publisher.progress('kustomizeRoots', count),
  );
  const project = createProjectConfig();
  const publisher = createPublisher(connection, workspace, open, charts, project);
  const sync = createDocumentSync(connection, workspace, open, { charts, kustomize }, publisher, project);

  connection.onInitialize((params): InitializeResult => {
    sync.initialize(params);
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
  connection.onInitialized(logged(connection, 'initialized', () => sync.initialized()));
  connection.onDidChangeConfiguration(logged(connection, 'configuration', (change) => sync.didChangeConfiguration(change)));
  connection.onDidChangeWatchedFiles(logged(connection, 'watched files', (params) => sync.didChangeWatchedFiles(params)));
  documents.onDidOpen(logged(connection, 'didOpen', (e) => sync.didOpen(e)));
  documents.onDidChangeContent(logged(connection, 'didChange', (e) => sync.didChange(e)));
  documents.onDidClose(logged(connection, 'didClose', (e) => sync.didClose(e)));

  /** The snapshot and the offset of an LSP position in one document. */
  const at = (raw: string, position: { line: number; character: number }) => {
    const uri = canonicalUri(raw);
    if (sync.parsing(uri)) return undefined;
    const snap = workspace.snapshotFor(uri);
    const text = snap.text(uri);
    if (text === undefined) return undefined;
    const index = snap.lines(uri)!;
    return { uri, snap, text, index, offset: index.offsetAt(position) };
  };

  connection.onHover(
    guarded(connection, 'hover', (p) => {
      const a = at(p.textDocument.uri, p.position);
      if (!a) return null;
      // what the editor shows decides what the hover leaves to the diagnostic; the rules are not run for a hover
      const h = sourceMapOf(a.snap).hover(a.uri, a.offset) ?? hoverAt(a.snap.analysis, a.uri, a.offset, publisher.shown(a.snap, a.uri));
      return h ? toHover(h, a.index) : null;
    }),
  );

  // Code actions wait for the publishing pass to evaluate their snapshot (in slices) rather than evaluate it here;
  // when a newer snapshot was evaluated instead, the text they were asked about is gone, and the answer is none.
  connection.onCodeAction(
    guarded(connection, 'code actions', async (p) => {
      const snap = workspace.snapshot();
      const uri = canonicalUri(p.textDocument.uri);
      const index = snap.lines(uri);
      if (!index) return [];
      const findings = await publisher.findingsOf(snap);
      if (!findings) return [];
      const range = rangeIn(snap);
      const span = toSpan(index, p.range);
      return [
        ...codeActionsAt(findings, uri, span).map((q) => toCodeAction(q, range, open.editorUri, p.range)),
        ...ignoreFixesAt(findings, snap.analysis, uri, span).map((f) => toIgnoreAction(f, range, open.editorUri)),
      ];
    }),
  );

  connection.onCodeLens(
    guarded(connection, 'code lenses', (p) => {
      const snap = workspace.snapshot();
      const uri = canonicalUri(p.textDocument.uri);
      const index = snap.lines(uri);
      if (!index) return [];
      return codeLensesFor(snap.analysis, uri).map((l) => toCodeLens(l, index));
    }),
  );

  connection.onDefinition(
    guarded(connection, 'definition', (p) => {
      const a = at(p.textDocument.uri, p.position);
      if (!a) return [];
      return toLocations(
        definitionAt(a.snap.analysis, a.uri, a.offset).map((found) => sourceMapOf(a.snap).location(found.uri, found.span)),
        rangeIn(a.snap),
      );
    }),
  );

  connection.onReferences(
    guarded(connection, 'references', (p) => {
      const a = at(p.textDocument.uri, p.position);
      if (!a) return [];
      const found = referencesAt(a.snap.analysis, a.uri, a.offset, p.context.includeDeclaration);
      return toLocations(
        found.map((f) => sourceMapOf(a.snap).location(f.uri, f.span)),
        rangeIn(a.snap),
      );
    }),
  );

  connection.onCompletion(
    guarded(connection, 'completion', (p) => {
      const a = at(p.textDocument.uri, p.position);
      if (!a) return [];
      return completionAt(a.snap.analysis, a.uri, a.text, a.offset).map((c) => toCompletionItem(c, a.index));
    }),
  );

  /**
   * The newest snapshot once the publishing pass has evaluated it (in slices), for what draws findings (the trace).
   * A newer snapshot evaluated meanwhile is waited for in turn; when the pass could not evaluate the newest one (a
   * logged failure), the trace is drawn from it as it is rather than never.
   */
  const evaluatedSnapshot = async () => {
    for (;;) {
      const snap = workspace.snapshot();
      if ((await publisher.findingsOf(snap)) || workspace.generation === snap.generation) return snap;
    }
  };

  connection.onRequest(
    traceRequest,
    guarded(connection, 'trace', async (p: TraceParams) => {
      const snap = await evaluatedSnapshot();
      const result = traceResultFor(snap.analysis, p);
      // The boxes of a render's trace open the base, patch or template lines their objects come from.
      return result ? sourceMapOf(snap).trace(result) : null;
    }),
  );
  connection.onRequest(
    listServicesRequest,
    guarded(connection, 'listServices', () => {
      const snap = workspace.snapshot();
      return sourceMapOf(snap).services(listServices(snap.analysis));
    }),
  );
  connection.onRequest(
    serviceDetailsRequest,
    guarded(connection, 'serviceDetails', (p: TraceParams) => serviceDetailsFor(workspace.snapshot().analysis, p) ?? null),
  );

  documents.listen(connection);
  connection.listen();
}
