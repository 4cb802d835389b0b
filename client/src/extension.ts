// Activation: starts the language server, forwards settings, and hosts the status bar, the restart command
// and the trace panel. The server does the analysis; this side only wires VS Code to it.

import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type Middleware, type ServerOptions } from 'vscode-languageclient/node';
import { crashHandler } from './crashHandler';
import { createStatusBar } from './statusBar';
import { registerIgnoreFinding } from './ignoreFinding';
import { registerServiceDetails } from './serviceDetails';
import { registerTracePanel } from './tracePanel';
import { withUserOnlySettings } from './userOnlySettings';
import { serverNodeOptions } from '../../server/src/protocol';

let client: LanguageClient | undefined;
/** Disposed only after the client has stopped: requests still pending at shutdown log their failure into it. */
let output: vscode.OutputChannel | undefined;
let stopping: Promise<void> | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('Kubernetes Network Lens');
  const module = context.asAbsolutePath('dist/server.js');
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml}');
  // Helm helpers (`_helpers.tpl`) are no YAML, but a save of one renders its chart again.
  const helpers = vscode.workspace.createFileSystemWatcher('**/*.tpl');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { execArgv: [...serverNodeOptions] } },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: [...serverNodeOptions, '--nolazy', '--inspect=6019'] } },
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
    // the display language: a change of it reloads the window, and the server starts again with the new one
    initializationOptions: () => ({ clientWatchesFiles: true, workspaceTrusted: vscode.workspace.isTrusted, locale: vscode.env.language }),
    outputChannel: quietWhileStopping(output),
    middleware: { ...settleWhileStopping(), workspace: { configuration: userOnlyConfiguration } },
    // Hover Markdown escapes every manifest string; the only commands it may run are the links it builds.
    markdown: { isTrusted: { enabledCommands: ['kubeNetlens.traceService', 'kubeNetlens.serviceDetails'] }, supportHtml: false },
    errorHandler: crashHandler(output, () => client),
  };
  client = new LanguageClient('kubeNetlens', 'Kubernetes Network Lens', serverOptions, clientOptions);
  const restartTrusted = vscode.workspace.onDidGrantWorkspaceTrust(async () => {
    output?.appendLine(vscode.l10n.t('The workspace is trusted now: restarting the language server so that it may render Helm charts.'));
    await client?.restart();
  });
  // Everything registered here is disposed on deactivation, so enabling and disabling the extension leaks nothing.
  const channel = output;
  context.subscriptions.push(
    watcher,
    helpers,
    restartTrusted,
    // The output channel is not a subscription: VS Code disposes those while the client may still be stopping.
    { dispose: () => void stopClient() },
    createStatusBar(client),
    registerTracePanel(context, client),
    registerServiceDetails(client),
    registerIgnoreFinding(),
    vscode.commands.registerCommand('kubeNetlens.restartServer', async () => {
      channel.appendLine(vscode.l10n.t('Restarting the language server on request.'));
      await client?.restart();
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}

/** Stops the client once (deactivate and the subscription both ask), then closes the output channel. */
function stopClient(): Promise<void> {
  stopping ??= (async () => {
    const c = client;
    client = undefined;
    try {
      if (c?.needsStop()) await c.stop(2000);
    } catch {
      // Stopping during shutdown: the server may already be gone, which is what stopping wanted.
    }
    output?.dispose();
    output = undefined;
  })();
  return stopping;
}

/**
 * At shutdown, requests the editor sent just before the client stopped fail with "Starting server failed"; the
 * client logs each and rethrows it into the extension host's log. Nothing is wrong then: the failures are dropped.
 */
function settleWhileStopping(): Middleware {
  const names = [
    'provideHover',
    'provideCodeActions',
    'provideCodeLenses',
    'provideDefinition',
    'provideReferences',
    'provideCompletionItem',
    'resolveCompletionItem',
  ] as const;
  const middleware: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of names) {
    middleware[name] = async (...args: unknown[]) => {
      const next = args[args.length - 1] as (...a: unknown[]) => unknown;
      try {
        return await next(...args.slice(0, -1));
      } catch (e) {
        if (stopping) return undefined;
        throw e;
      }
    };
  }
  return middleware as Middleware;
}

/**
 * The server's `workspace/configuration` request: the `kubeNetlens` section as VS Code merged it, but with the
 * user-only settings (userOnlySettings.ts) taken from the user's global settings alone.
 */
const userOnlyConfiguration: NonNullable<Middleware['workspace']>['configuration'] = async (params, token, next) => {
  const result = await next(params, token);
  if (!Array.isArray(result)) return result;
  const config = vscode.workspace.getConfiguration('kubeNetlens');
  return result.map((value: unknown, i) =>
    params.items[i]?.section === 'kubeNetlens' ? withUserOnlySettings(value, (key) => config.inspect(key)?.globalValue) : value,
  );
};

/** The output channel as the client sees it: what it writes once stopping has begun is not kept. */
function quietWhileStopping(channel: vscode.OutputChannel): vscode.OutputChannel {
  return new Proxy(channel, {
    get(target, prop, receiver) {
      if ((prop === 'append' || prop === 'appendLine') && stopping) return () => undefined;
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
