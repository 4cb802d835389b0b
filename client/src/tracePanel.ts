// Hosts the Trace Service webview: one panel per Service, fed by the server's trace request, refreshed live, restored after reload.
import * as vscode from 'vscode';
import { type LanguageClient, State } from 'vscode-languageclient/node';
import {
  type ServiceSummary,
  type SourceSpan,
  type TraceClient,
  type TraceParams,
  type TraceResult,
  analysisChangedNotification,
  listServicesRequest,
  traceRequest,
} from '../../server/src/protocol';
import { freshNonce, renderTraceHtml } from './traceHtml';
import { readTraceIntent, readTraceTarget } from './traceMessages';
import { servicePicks } from './traceServicePicks';
import { checkSvg } from './svgCheck';
import { viewStrings } from '../webview/viewStrings';

const viewType = 'kubeNetlens.trace';

interface OpenTrace {
  /** What is traced; its client changes when the person picks another one in the view. */
  target: TraceParams;
  readonly panel: vscode.WebviewPanel;
  result: TraceResult | undefined;
  /** Raised by every request; an answer carrying an older number is stale and dropped. */
  seq: number;
  disposed: boolean;
}

export function registerTracePanel(context: vscode.ExtensionContext, client: LanguageClient): vscode.Disposable {
  const open = new Map<string, OpenTrace>();
  const webviewRoot = vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview');

  const adopt = (panel: vscode.WebviewPanel, target: TraceParams): OpenTrace => {
    const trace: OpenTrace = { target, panel, result: undefined, seq: 0, disposed: false };
    const key = keyOf(target);
    open.set(key, trace);
    panel.title = vscode.l10n.t('Trace: {0}', titleOf(target));
    panel.webview.options = { enableScripts: true, localResourceRoots: [webviewRoot] };
    panel.webview.html = renderTraceHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, 'trace.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, 'trace.css')).toString(),
      nonce: freshNonce(),
      language: vscode.env.language,
      strings: viewStrings(vscode.l10n),
    });
    const messages = panel.webview.onDidReceiveMessage((m: unknown) => void handleMessage(trace, m));
    panel.onDidDispose(() => {
      trace.disposed = true;
      messages.dispose();
      if (open.get(key) === trace) open.delete(key);
    });
    void refresh(trace);
    return trace;
  };

  const refresh = async (trace: OpenTrace): Promise<void> => {
    const seq = ++trace.seq;
    if (!trace.result) post(trace, { type: 'loading' });
    // While the server (re)starts there is nobody to ask; the state change below asks again once it runs.
    if (!client.isRunning()) return;
    try {
      const result = await client.sendRequest<TraceResult | null>(traceRequest, trace.target);
      if (trace.disposed || seq !== trace.seq) return;
      trace.result = result ?? undefined;
      if (result) post(trace, { type: 'trace', result });
      else if (kindPrefix(trace.target))
        post(trace, {
          type: 'error',
          message: vscode.l10n.t('{0} is no longer in the workspace (renamed, deleted, or its file excluded).', titleOf(trace.target)),
        });
      else
        post(trace, {
          type: 'error',
          message: vscode.l10n.t('The Service {0} is no longer in the workspace (renamed, deleted, or its file excluded).', titleOf(trace.target)),
        });
    } catch (e) {
      if (trace.disposed || seq !== trace.seq || !client.isRunning()) return;
      post(trace, { type: 'error', message: vscode.l10n.t('The trace of {0} failed: {1}', titleOf(trace.target), e instanceof Error ? e.message : String(e)) });
    }
  };

  const refreshAll = () => {
    for (const trace of open.values()) void refresh(trace);
  };

  const handleMessage = async (trace: OpenTrace, message: unknown): Promise<void> => {
    const intent = readTraceIntent(message, trace.result?.graph);
    if (!intent) return;
    switch (intent.type) {
      case 'ready':
        post(trace, trace.result ? { type: 'trace', result: trace.result } : { type: 'loading' });
        return;
      case 'reveal':
        return reveal(intent.node.source, trace.panel);
      case 'copyMermaid':
        if (!trace.result) return;
        await vscode.env.clipboard.writeText(trace.result.mermaid);
        void vscode.window.showInformationMessage(vscode.l10n.t('Copied the trace of {0} as a Mermaid diagram.', titleOf(trace.target)));
        return;
      case 'saveSvg':
        return saveSvg(trace.target, intent.svg);
      case 'pickClient': {
        const picked = await pickClient(trace);
        if (picked === undefined || trace.disposed) return;
        const { client: _previous, ...rest } = trace.target;
        trace.target = picked === 'none' ? rest : { ...rest, client: picked };
        post(trace, { type: 'loading' });
        return refresh(trace);
      }
    }
  };

  /**
   * Traces share one editor group: a second trace opens as a tab beside the first, never in a new group. The first
   * trace opens beside the YAML being edited, or in the active group when no text editor is visible.
   */
  const columnForNewTrace = (): vscode.ViewColumn => {
    for (const t of open.values()) if (!t.disposed && t.panel.viewColumn !== undefined) return t.panel.viewColumn;
    return vscode.window.visibleTextEditors.length ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
  };

  const show = (target: TraceParams) => {
    const existing = open.get(keyOf(target));
    if (existing) {
      existing.panel.reveal();
      void refresh(existing);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      viewType,
      vscode.l10n.t('Trace: {0}', titleOf(target)),
      { viewColumn: columnForNewTrace(), preserveFocus: false },
      {
        enableScripts: true,
        localResourceRoots: [webviewRoot],
      },
    );
    adopt(panel, target);
  };

  return vscode.Disposable.from(
    vscode.commands.registerCommand('kubeNetlens.traceService', async (arg?: unknown) => {
      const target = readTraceTarget(arg) ?? (await pickService(client, arg instanceof vscode.Uri ? arg : undefined));
      if (target) show(target);
    }),
    vscode.window.registerWebviewPanelSerializer(viewType, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        const target = readTraceTarget(state);
        if (!target || open.has(keyOf(target))) {
          panel.dispose();
          return;
        }
        adopt(panel, target);
      },
    }),
    client.onNotification(analysisChangedNotification, refreshAll),
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) refreshAll();
    }),
    { dispose: () => open.clear() },
  );
}

/**
 * What a person reads: `shop/web`, or for one of several same-named Services, with the folder of its unit: `shop/web
 * (overlays/prod)`; another kind than a Service is named first (`Istio Gateway shop/public`, `VirtualService shop/web`).
 */
function titleOf(target: TraceParams): string {
  const key = `${kindPrefix(target)}${target.namespace}/${target.name}`;
  if (!target.uri) return key;
  // A build's rendered file is `…/kustomization.yaml#rendered`: its folder is the build root.
  const file = vscode.Uri.parse(target.uri, true).with({ fragment: '' });
  return `${key} (${vscode.workspace.asRelativePath(vscode.Uri.joinPath(file, '..'), false)})`;
}

/** `Gateway `, `HTTPRoute `, `Istio Gateway `, `VirtualService `; nothing for a Service. */
function kindPrefix(target: TraceParams): string {
  if (!target.kind || target.kind === 'Service') return '';
  return target.kind === 'IstioGateway' ? 'Istio Gateway ' : `${target.kind} `;
}

/** One panel per traced object: a route, an Istio Gateway or a VirtualService named like a Service has one of its own. */
function keyOf(target: TraceParams): string {
  return `${kindPrefix(target)}${target.namespace}/${target.name}${target.uri ? `@${target.uri}` : ''}`;
}

function post(trace: OpenTrace, message: { type: 'trace'; result: TraceResult } | { type: 'error'; message: string } | { type: 'loading' }): void {
  // A drawn trace carries what was traced: the view keeps it as its state, and a reload traces the same object again.
  if (!trace.disposed) void trace.panel.webview.postMessage(message.type === 'trace' ? { ...message, target: trace.target } : message);
}

/**
 * The clients the server listed with the trace (the workloads applied with the Service, outside the cluster, any pod of
 * each namespace), in a quick pick that starts on the current one; 'none' draws the trace without a client.
 */
async function pickClient(trace: OpenTrace): Promise<TraceClient | 'none' | undefined> {
  const choices = trace.result?.clients ?? [];
  type Item = vscode.QuickPickItem & { client?: TraceClient };
  const current = trace.target.client;
  const same = (c: TraceClient) => JSON.stringify(c) === JSON.stringify(current);
  const items: Item[] = [
    { label: vscode.l10n.t('No client'), description: vscode.l10n.t('the Service path alone') },
    { label: vscode.l10n.t('Clients'), kind: vscode.QuickPickItemKind.Separator },
    ...choices.map((c): Item => ({ label: c.label, ...(c.description ? { description: c.description } : {}), client: c.client })),
  ];
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = vscode.l10n.t('Trace {0} for a client', titleOf(trace.target));
  pick.placeholder = vscode.l10n.t('Whose connections the NetworkPolicies are checked for');
  pick.matchOnDescription = true;
  pick.items = items;
  const start = items.find((i) => (i.client ? same(i.client) : !current && i.kind !== vscode.QuickPickItemKind.Separator));
  if (start) pick.activeItems = [start];
  const chosen = await new Promise<Item | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0] ?? pick.activeItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (!chosen) return undefined;
  return chosen.client ?? 'none';
}

/** Without an argument: every Service in a quick pick. From a file's context menu: the Services of that file. */
async function pickService(client: LanguageClient, file: vscode.Uri | undefined): Promise<TraceParams | undefined> {
  let services: ServiceSummary[];
  try {
    services = await client.sendRequest<ServiceSummary[]>(listServicesRequest);
  } catch (e) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('Cannot list Services: the Kubernetes Network Lens server is not running ({0}).', e instanceof Error ? e.message : String(e)),
    );
    return undefined;
  }
  if (file) {
    const inFile = services.filter((s) => placeIn(s, file.toString()));
    const atCursor = serviceAtCursor(inFile, file);
    if (atCursor) return atCursor;
    if (inFile.length) services = inFile;
  }
  if (!services.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No Kubernetes Services found in this workspace.'));
    return undefined;
  }
  // From the command palette: the Service under the cursor of the active YAML editor is the one the picker starts on.
  const active = vscode.window.activeTextEditor?.document.uri;
  const current = active
    ? serviceAtCursor(
        services.filter((s) => placeIn(s, active.toString())),
        active,
      )
    : undefined;
  const folderOf = (s: ServiceSummary) => {
    const at = s.definedAt ?? s.source;
    if (!at) return undefined;
    const folder = vscode.workspace.asRelativePath(vscode.Uri.joinPath(vscode.Uri.parse(at.uri, true), '..'), true);
    return folder.replace(/\/$/, '') || undefined;
  };
  type Item = vscode.QuickPickItem & { service?: ServiceSummary };
  const items: Item[] = servicePicks(services, { folderOf, current, l10n: vscode.l10n }).map((p) =>
    'separator' in p
      ? { label: p.separator, kind: vscode.QuickPickItemKind.Separator }
      : { label: p.label, description: p.description, service: p.service, ...(p.current ? { picked: true } : {}) },
  );
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = vscode.l10n.t('Trace a Kubernetes Service');
  pick.placeholder = vscode.l10n.t('Service to trace');
  pick.matchOnDescription = true;
  pick.items = items;
  const start = items.find((i) => i.picked);
  if (start) pick.activeItems = [start];
  const chosen = await new Promise<Item | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0] ?? pick.activeItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  const service = chosen?.service;
  if (!service) return undefined;
  // Same-named Services of variants are told apart by their file.
  const kind = service.kind ? { kind: service.kind } : {};
  return service.unit && service.source
    ? { ...kind, namespace: service.namespace, name: service.name, uri: service.source.uri }
    : { ...kind, namespace: service.namespace, name: service.name };
}

/**
 * The one Service of a file, or the last one starting before the cursor when the file is in the active editor. A
 * Service of a Kustomize base is in the picker once per build: the cursor there starts on the first build's.
 */
function serviceAtCursor(inFile: readonly ServiceSummary[], file: vscode.Uri): ServiceSummary | undefined {
  const uri = file.toString();
  if (inFile.length === 1 || new Set(inFile.map((s) => placeIn(s, uri)!.start)).size === 1) return inFile[0];
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.toString() !== uri) return undefined;
  const offset = editor.document.offsetAt(editor.selection.active);
  const before = inFile.filter((s) => placeIn(s, uri)!.start <= offset);
  return before.sort((a, b) => placeIn(b, uri)!.start - placeIn(a, uri)!.start)[0];
}

/** Where a Service is written in the file `uri`: its own place, or (a Service of a build) its definition's. */
function placeIn(s: ServiceSummary, uri: string): { readonly start: number } | undefined {
  if (s.source?.uri === uri) return s.source;
  if (s.definedAt?.uri === uri) return s.definedAt;
  return undefined;
}

async function reveal(source: SourceSpan, panel: vscode.WebviewPanel): Promise<void> {
  try {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(source.uri, true));
    const selection = new vscode.Range(doc.positionAt(source.start), doc.positionAt(source.end));
    const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === doc.uri.toString());
    const viewColumn = shown?.viewColumn ?? (panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One);
    await vscode.window.showTextDocument(doc, { viewColumn, selection });
  } catch (e) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Cannot open {0}: {1}', source.uri, e instanceof Error ? e.message : String(e)));
  }
}

async function saveSvg(target: TraceParams, svg: string): Promise<void> {
  // The view drew it, but what is written to disk is checked here: well-formed XML with nothing but drawing in it.
  const problem = checkSvg(svg, vscode.l10n);
  if (problem) {
    void vscode.window.showErrorMessage(vscode.l10n.t('The trace drawing was not saved: {0}.', problem));
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const fileName = `trace-${fileSafe(target.namespace)}-${fileSafe(target.name)}.svg`;
  const uri = await vscode.window.showSaveDialog({
    defaultUri: folder ? vscode.Uri.joinPath(folder, fileName) : undefined,
    filters: { [vscode.l10n.t('SVG image')]: ['svg'] },
    saveLabel: vscode.l10n.t('Save trace'),
    title: vscode.l10n.t('Save the trace of {0} as SVG', titleOf(target)),
  });
  if (!uri) return;
  try {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(svg));
    void vscode.window.showInformationMessage(vscode.l10n.t('Saved the trace of {0} to {1}.', titleOf(target), vscode.workspace.asRelativePath(uri)));
  } catch (e) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not save the SVG: {0}', e instanceof Error ? e.message : String(e)));
  }
}

/** Namespaces and names are DNS labels, but the file name must stay safe even if they are not. */
function fileSafe(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 80) || 'service';
}
