// Activation: starts the language server, forwards settings, and hosts the status bar, the restart command
// and the trace panel. The server does the analysis; this side only wires VS Code to it.

import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { crashHandler } from './crashHandler';
import { createStatusBar } from './statusBar';
import { registerServiceDetails } from './serviceDetails';
import { registerTracePanel } from './tracePanel';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('Kubernetes Network Lens');
  const module = context.asAbsolutePath('dist/server.js');
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml}');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    // Only files on disk: the server reads the rest of the workspace from disk too.
    documentSelector: [{ scheme: 'file', language: 'yaml' }],
    synchronize: {
      fileEvents: watcher,
      configurationSection: 'kubeNetlens',
    },
    // The watcher above already reports file events; the server need not register its own.
    initializationOptions: { clientWatchesFiles: true },
    outputChannel: output,
    // Hover Markdown escapes every manifest string; the only commands it may run are the links it builds.
    markdown: { isTrusted: { enabledCommands: ['kubeNetlens.traceService', 'kubeNetlens.serviceDetails'] }, supportHtml: false },
    errorHandler: crashHandler(output, () => client),
  };
  client = new LanguageClient('kubeNetlens', 'Kubernetes Network Lens', serverOptions, clientOptions);
  // Everything registered here is disposed on deactivation, so enabling and disabling the extension leaks nothing.
  context.subscriptions.push(
    output,
    watcher,
    { dispose: () => void client?.stop() },
    createStatusBar(client),
    registerTracePanel(context, client),
    registerServiceDetails(client),
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
