// Activation: starts the language server, forwards settings, and hosts the status bar, the restart command
// and the trace panel. The server does the analysis; this side only wires VS Code to it.

import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { crashHandler } from './crashHandler';
import { createStatusBar } from './statusBar';
import { registerTracePanel } from './tracePanel';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('Kubernetes Network Lens');
  const module = context.asAbsolutePath('dist/server.js');
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml}');
  // Helm helpers (`_helpers.tpl`) are no YAML, but a save of one renders its chart again.
  const helpers = vscode.workspace.createFileSystemWatcher('**/*.tpl');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    // Only files on disk: the server reads the rest of the workspace from disk too.
    documentSelector: [{ scheme: 'file', language: 'yaml' }],
    synchronize: {
      fileEvents: [watcher, helpers],
      configurationSection: 'kubeNetlens',
    },
    // The watcher above already reports file events; the server need not register its own.
    // Helm charts are rendered (helm runs) only in a trusted workspace; granting trust restarts the server.
    // (a function: the client calls it on every start, so a restart sends the trust of that moment)
    initializationOptions: () => ({ clientWatchesFiles: true, workspaceTrusted: vscode.workspace.isTrusted }),
    outputChannel: output,
    // Hover Markdown escapes every manifest string; the only command it may run is the trace link it builds.
    markdown: { isTrusted: { enabledCommands: ['kubeNetlens.traceService'] }, supportHtml: false },
    errorHandler: crashHandler(output, () => client),
  };
  client = new LanguageClient('kubeNetlens', 'Kubernetes Network Lens', serverOptions, clientOptions);
  const restartTrusted = vscode.workspace.onDidGrantWorkspaceTrust(async () => {
    output.appendLine('The workspace is trusted now: restarting the language server so that it may render Helm charts.');
    await client?.restart();
  });
  // Everything registered here is disposed on deactivation, so enabling and disabling the extension leaks nothing.
  context.subscriptions.push(
    output,
    watcher,
    helpers,
    restartTrusted,
    { dispose: () => void client?.stop() },
    createStatusBar(client),
    registerTracePanel(context, client),
    vscode.commands.registerCommand('kubeNetlens.restartServer', async () => {
      output.appendLine('Restarting the language server on request.');
      await client?.restart();
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
