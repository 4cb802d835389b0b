// The status bar item: resources indexed, files skipped, Helm charts rendered, problems; a click opens the Problems panel.

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { statusNotification, type StatusParams } from '../../server/src/protocol';
import { progressText } from './statusProgress';

export function createStatusBar(client: LanguageClient): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('kubeNetlens.status', vscode.StatusBarAlignment.Left, 10);
  item.name = 'Kubernetes Network Lens';
  item.command = 'workbench.actions.view.problems';
  item.text = '$(sync~spin) Kubernetes: starting';
  item.show();
  const sub = client.onNotification(statusNotification, (s: StatusParams) => {
    item.text = statusText(s);
    item.tooltip = statusTooltip(s);
  });
  return vscode.Disposable.from(item, sub);
}

export function statusText(s: StatusParams): string {
  const working = progressText(s.progress);
  if (s.indexing) return `$(sync~spin) Kubernetes: ${working ?? 'indexing manifests'}`;
  const skipped = s.skippedTemplates + s.skippedOther + (s.skippedTests ?? 0);
  const parts = [`${s.resources} ${s.resources === 1 ? 'resource' : 'resources'}`];
  if (skipped) parts.push(`${skipped} skipped`);
  const charts = (s.chartsRendered ?? 0) + (s.chartsNotRendered ?? 0);
  if (charts) parts.push(`${s.chartsRendered ?? 0}/${charts} ${charts === 1 ? 'chart' : 'charts'} rendered`);
  parts.push(`${s.problems} ${s.problems === 1 ? 'problem' : 'problems'}`);
  return working ? `$(sync~spin) ${parts.join(' · ')} · ${working}` : `$(pulse) ${parts.join(' · ')}`;
}

function statusTooltip(s: StatusParams): string {
  const lines = [
    'Kubernetes Network Lens',
    `${s.resources} resources in ${s.files} files`,
    `${s.problems} networking problems (click to open the Problems panel)`,
  ];
  if (s.chartsRendered) lines.push(`${s.chartsRendered} Helm ${s.chartsRendered === 1 ? 'chart' : 'charts'} rendered with helm and checked on their template lines`);
  if (s.chartsNotRendered) lines.push(`${s.chartsNotRendered} Helm ${s.chartsNotRendered === 1 ? 'chart' : 'charts'} not rendered (see the note on each Chart.yaml)`);
  if (s.skippedTemplates) lines.push(`${s.skippedTemplates} Helm/Go template files skipped (render them to check them)`);
  if (s.skippedTests) lines.push(`${s.skippedTests} test suite ${s.skippedTests === 1 ? 'file' : 'files'} (chainsaw, kuttl, Go testdata) not read as objects: a test harness applies, patches and asserts them`);
  if (s.skippedOther) lines.push(`${s.skippedOther} files skipped as too large, too deeply nested or binary (see kubeNetlens.files.maxSizeKB)`);
  return lines.join('\n');
}
