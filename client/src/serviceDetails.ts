// The Service hover's second level: every DNS record, pod name and environment variable, opened from the hover's
// link as a read-only Markdown preview of a virtual document (nothing is written to disk).
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { serviceDetailsRequest } from '../../server/src/protocol';
import { readTraceTarget } from './traceMessages';

const scheme = 'kube-netlens-details';

export function registerServiceDetails(client: LanguageClient): vscode.Disposable {
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    async provideTextDocumentContent(uri) {
      const target = targetOf(uri);
      if (!target) return vscode.l10n.t('Not a Service.');
      try {
        const md = await client.sendRequest<string | null>(serviceDetailsRequest, target);
        return md ?? vscode.l10n.t('The Service {0} is no longer in the workspace.', `${target.namespace}/${target.name}`);
      } catch (e) {
        return vscode.l10n.t('The details of {0} could not be read: {1}', `${target.namespace}/${target.name}`, e instanceof Error ? e.message : String(e));
      }
    },
  };
  return vscode.Disposable.from(
    changed,
    vscode.workspace.registerTextDocumentContentProvider(scheme, provider),
    vscode.commands.registerCommand('kubeNetlens.serviceDetails', async (arg?: unknown) => {
      const target = readTraceTarget(arg);
      if (!target) return;
      const uri = vscode.Uri.from({ scheme, path: `/${encodeURIComponent(target.namespace)}/${encodeURIComponent(target.name)}.md` });
      changed.fire(uri);
      try {
        await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
      } catch {
        // Without the built-in Markdown extension, the Markdown source still reads well.
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { viewColumn: vscode.ViewColumn.Beside, preview: true });
      }
    }),
  );
}

function targetOf(uri: vscode.Uri): { namespace: string; name: string } | undefined {
  const m = /^\/([^/]+)\/([^/]+)\.md$/.exec(uri.path);
  if (!m) return undefined;
  try {
    return { namespace: decodeURIComponent(m[1]), name: decodeURIComponent(m[2]) };
  } catch {
    return undefined;
  }
}
