// Document sync: what the editor tells the server about texts, files and settings, into the workspace. Open, change
// and close of documents (large ones parsed in slices), watched-file events (coalesced, read through readBounded),
// workspace folders, and the configuration (settings, trust, the client's capabilities), with indexing of the folders
// when the set of files changes. Every change schedules a publish (publish.ts).

import { relative, sep } from 'node:path';
import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type Connection,
  type DidChangeConfigurationParams,
  type DidChangeWatchedFilesParams,
  type InitializeParams,
  type TextDocumentChangeEvent,
  type TextDocuments,
  type WorkspaceFolder,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { pauser } from '../workspace/discoverFiles';
import { compileGlobs, type PathMatcher } from '../workspace/glob';
import { releasesIn } from '../workspace/helm';
import { readBounded, realRoots } from '../workspace/readBounded';
import { canonicalUri, pathOfUri } from '../workspace/uri';
import { readSettings, type FileOptions, type Settings } from '../workspace/settings';
import type { Workspace } from '../workspace/workspace';
import type { ChartRenderer } from './charts';
import type { KustomizeBuilder } from './kustomizeBuilds';
import { logged } from './guard';
import { indexFolders } from './indexFolders';
import type { ProjectConfig } from './projectConfig';
import type { Publisher } from './publish';
import { settingsWithConfig } from '../workspace/projectConfig';
import { localeOf, type Locale } from '../l10n/l10n';

/** Open documents at least this large are parsed in slices, with requests answered in between. */
const slicedParseBytes = 64 * 1024;

/** The documents open in the editor, by canonical URI (workspace/uri.ts). */
export interface OpenDocuments {
  documentAt(uri: string): TextDocument | undefined;
  /** The URI the editor opened a file with (the canonical one when it is not open). */
  editorUri(uri: string): string;
  uris(): Iterable<string>;
}

interface OpenDocumentTable extends OpenDocuments {
  set(uri: string, openedAs: string): void;
  delete(uri: string): void;
}

export function createOpenDocuments(documents: TextDocuments<TextDocument>): OpenDocumentTable {
  /** Open documents by canonical URI → the URI the editor opened them with. */
  const openAs = new Map<string, string>();
  return {
    documentAt: (uri) => documents.get(openAs.get(uri) ?? uri),
    editorUri: (uri) => openAs.get(uri) ?? uri,
    uris: () => openAs.keys(),
    set: (uri, openedAs) => void openAs.set(uri, openedAs),
    delete: (uri) => void openAs.delete(uri),
  };
}

export interface DocumentSync {
  /** The client's capabilities, folders, trust and initial settings. */
  initialize(params: InitializeParams): void;
  /** Registrations the client allows, the settings pulled from it, then the first indexing. */
  initialized(): Promise<void>;
  didChangeConfiguration(change: DidChangeConfigurationParams): Promise<void>;
  didChangeWatchedFiles(params: DidChangeWatchedFilesParams): Promise<void>;
  didOpen(e: TextDocumentChangeEvent<TextDocument>): void;
  didChange(e: TextDocumentChangeEvent<TextDocument>): void;
  didClose(e: TextDocumentChangeEvent<TextDocument>): void;
  /** Whether a newer text of the document is still being parsed: its requests get no answer about an older text. */
  parsing(uri: string): boolean;
}

/** What renders apply units outside the workspace's own texts: Helm charts, and the real Kustomize's builds. */
export interface Renderers {
  readonly charts: ChartRenderer;
  readonly kustomize: KustomizeBuilder;
}

export function createDocumentSync(
  connection: Connection,
  workspace: Workspace,
  open: OpenDocumentTable,
  { charts, kustomize }: Renderers,
  publisher: Publisher,
  project: ProjectConfig,
): DocumentSync {
  let folders: string[] = [];
  let canConfigure = false;
  let canRegisterWatcher = false;
  let canRegisterConfig = false;
  let foldersSupported = false;
  /** The client's workspace trust (initialization option `workspaceTrusted`): without it helm never runs. */
  let trusted = false;
  let indexRun = 0;
  /** The settings as the client sends them, with trust applied and the Helm releases' paths read from the first folder. */
  /** The settings the client sent last: the config file's values go over them again whenever the file changes. */
  let lastRaw: unknown = {};
  let locale: Locale = 'en';
  const settingsFrom = (raw: unknown): Settings => {
    lastRaw = raw;
    // the precedence (docs/configuration.md): the config file, then the client's settings (workspace, then user)
    const read = readSettings(settingsWithConfig(raw, project.config, trusted), trusted, locale);
    // the folders: what the roots are relative to, and (untrusted) the only places a build may read
    const s = { ...read, analysis: locale === 'en' ? read.analysis : { ...read.analysis, locale }, kustomize: { ...read.kustomize, folders } };
    return s.helm.releases.length ? { ...s, helm: { ...s.helm, releases: releasesIn(s.helm.releases, folders) } } : s;
  };
  const schedule = () => publisher.schedule();

  const reindex = async () => {
    const run = ++indexRun;
    publisher.startIndexing();
    const progress = await connection.window.createWorkDoneProgress();
    progress.begin('Kubernetes Network Lens: indexing manifests', 0, undefined, false);
    const started = Date.now();
    try {
      const result = await indexFolders(
        folders,
        workspace.settings.files,
        progress,
        () => run !== indexRun,
        (uri, text) => workspace.prepare(uri, text),
        (done, total) => publisher.progress('files', { done, total }),
      );
      if (!result || run !== indexRun) return;
      const read = Date.now();
      workspace.replaceDisk(result.texts, result.tooLarge);
      const snap = workspace.snapshot();
      connection.console.info(
        `Indexed ${snap.stats.files} files (${snap.stats.resources} resources) in ${Date.now() - started} ms (reading and parsing ${read - started} ms, building the model ${Date.now() - read} ms)`,
      );
    } finally {
      progress.done();
    }
    if (run !== indexRun) return;
    // Every file's diagnostics are published; what the first edit needs is built after them, while the server is idle.
    publisher.indexed();
    charts.renderAll();
    kustomize.buildAll();
  };

  const pullSettings = async () => {
    if (!canConfigure) return;
    const raw = await connection.workspace.getConfiguration('kubeNetlens');
    const filesChanged = applySettings(settingsFrom(raw));
    if (filesChanged) await reindex();
    else if (!publisher.indexing) {
      schedule();
      charts.renderAll();
      kustomize.buildAll();
    }
  };

  /** The config file changed (an edit, a save, a watched event): its values apply at once, as a settings change does. */
  const configChanged = async (text?: string) => {
    if (!project.update(text)) return;
    const filesChanged = applySettings(settingsFrom(lastRaw));
    if (filesChanged && !publisher.indexing) await reindex();
    else if (!publisher.indexing) {
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
    const path = pathOfUri(uri);
    if (path === undefined) return false;
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
          const p = pause();
          if (p) await p;
          if (type === FileChangeType.Deleted) {
            deleted.add(uri);
            continue;
          }
          if (!wanted(uri)) continue;
          const path = pathOfUri(uri);
          if (path === undefined) continue;
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

  // A large open document is parsed in slices before its text enters the workspace (a megabyte takes the YAML
  // library a second or more): hovers and other requests are answered between the slices, from the snapshot
  // before the edit. Until then its own requests get no answer rather than one about an older text.
  const pendingTexts = new Map<string, { readonly text: string; readonly version: number }>();
  const slicing = new Set<string>();
  let sliceStarted = Date.now();
  const pauseForRequests = (): Promise<void> | undefined => {
    if (Date.now() - sliceStarted < 10) return undefined;
    return new Promise<void>((done) =>
      setImmediate(() => {
        sliceStarted = Date.now();
        done();
      }),
    );
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
    if (!slicing.has(uri))
      void sliceParse(uri).catch((err: unknown) =>
        connection.console.error(`parsing ${uri} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
      );
  };

  return {
    initialize(params) {
      const caps = params.capabilities;
      canConfigure = !!caps.workspace?.configuration;
      canRegisterWatcher = !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration && !params.initializationOptions?.clientWatchesFiles;
      canRegisterConfig = !!caps.workspace?.didChangeConfiguration?.dynamicRegistration;
      foldersSupported = !!caps.workspace?.workspaceFolders;
      // VS Code's display language (vscode.env.language, or the LSP `locale`): a change of it reloads the window, so
      // the server starts again with the new one (docs/localization.md).
      locale = localeOf(params.initializationOptions?.locale) ?? localeOf(params.locale) ?? 'en';
      project.setLocale(locale);
      folders = foldersOf(params.workspaceFolders, params.rootUri);
      project.setFolders(folders);
      trusted = params.initializationOptions?.workspaceTrusted === true;
      if (params.initializationOptions?.settings) applySettings(settingsFrom(params.initializationOptions.settings));
    },

    async initialized() {
      if (canRegisterWatcher) {
        await connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{yaml,yml}' }] });
      }
      if (canRegisterConfig) await connection.client.register(DidChangeConfigurationNotification.type, { section: 'kubeNetlens' });
      if (foldersSupported) {
        connection.workspace.onDidChangeWorkspaceFolders(
          logged(connection, 'workspace folders', async (e) => {
            const removed = new Set(pathsOf(e.removed.map((f) => f.uri)));
            folders = [...folders.filter((f) => !removed.has(f)), ...pathsOf(e.added.map((f) => f.uri))];
            project.setFolders(folders);
            applySettings(settingsFrom(lastRaw));
            await reindex();
          }),
        );
      }
      if (canConfigure) {
        const raw = await connection.workspace.getConfiguration('kubeNetlens');
        applySettings(settingsFrom(raw));
      }
      await reindex();
    },

    async didChangeConfiguration(change) {
      if (canConfigure) await pullSettings();
      else if (change.settings?.kubeNetlens) {
        if (applySettings(settingsFrom(change.settings.kubeNetlens))) await reindex();
        else {
          schedule();
          charts.renderAll();
          kustomize.buildAll();
        }
      }
    },

    async didChangeWatchedFiles(params) {
      const uris = params.changes.map((c) => canonicalUri(c.uri));
      params.changes.forEach((c, i) => pendingEvents.set(uris[i], c.type));
      await applyEvents();
      // the config file saved or changed on disk (an open one is followed as it is typed)
      const config = uris.find((u) => project.isConfig(u));
      if (config && !workspace.isOpen(config)) await configChanged();
      // a saved chart file (a template, a values file, _helpers.tpl) renders that chart again, and only that one
      if (!publisher.indexing) {
        charts.filesChanged(uris);
        kustomize.filesChanged(uris);
      }
    },

    didOpen(e) {
      const uri = canonicalUri(e.document.uri);
      if (project.isConfig(uri)) void configChanged(e.document.getText());
      if (!wanted(uri)) return;
      open.set(uri, e.document.uri);
      updateDocument(uri, e.document.getText(), e.document.version);
    },

    didChange(e) {
      const uri = canonicalUri(e.document.uri);
      if (project.isConfig(uri)) void configChanged(e.document.getText());
      if (!workspace.isOpen(uri) && !pendingTexts.has(uri)) return;
      updateDocument(uri, e.document.getText(), e.document.version);
      charts.textChanged(uri);
    },

    didClose(e) {
      const uri = canonicalUri(e.document.uri);
      // unsaved edits of the config file are gone: what is on disk applies
      if (project.isConfig(uri)) void configChanged();
      open.delete(uri);
      pendingTexts.delete(uri);
      workspace.close(uri);
      schedule();
      // unsaved text it was rendered from is gone: the chart renders again from what is on disk
      charts.textChanged(uri);
    },

    parsing: (uri) => pendingTexts.has(uri),
  };
}

function foldersOf(workspaceFolders: WorkspaceFolder[] | null | undefined, rootUri: string | null): string[] {
  const uris = workspaceFolders?.length ? workspaceFolders.map((f) => f.uri) : rootUri ? [rootUri] : [];
  return pathsOf(uris);
}

/** The paths of folder URIs, each read through its canonical spelling (workspace/uri.ts); other schemes are left out. */
function pathsOf(uris: readonly string[]): string[] {
  return uris.map(pathOfUri).filter((p): p is string => p !== undefined);
}
