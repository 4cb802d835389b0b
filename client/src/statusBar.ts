// The status bar item: resources indexed, files skipped, Helm charts rendered, problems; a click opens the Problems panel.

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { statusNotification, type StatusParams } from '../../server/src/protocol';
import { statusText, statusTooltip } from './statusText';

export function createStatusBar(client: LanguageClient): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('kubeNetlens.status', vscode.StatusBarAlignment.Left, 10);
  item.name = 'Kubernetes Network Lens';
  item.command = 'workbench.actions.view.problems';
  item.text = `$(sync~spin) ${vscode.l10n.t('Kubernetes: starting')}`;
  item.show();
  const sub = client.onNotification(statusNotification, (s: StatusParams) => {
    item.text = statusText(s, vscode.l10n);
    item.tooltip = statusTooltip(s, vscode.l10n);
  });
  return vscode.Disposable.from(item, sub);
}
