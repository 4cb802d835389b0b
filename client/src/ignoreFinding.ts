// "Ignore <code> here…" (and, on a workload, "… on the pod template…"): the code action's command asks why the finding is intended (a reason is required) and adds
// the kube-netlens.io/ignore annotation with it (the server says where: server/src/features/ignoreFix.ts). The edit
// is made only after the user gave a reason; Escape leaves the file as it was.

import * as vscode from 'vscode';
import { ignoreAnnotationValue, ignoreFindingCommand, type IgnoreFindingArgs } from '../../server/src/protocol';

export function registerIgnoreFinding(): vscode.Disposable {
  return vscode.commands.registerCommand(ignoreFindingCommand, async (arg?: unknown) => {
    if (!isArgs(arg)) return;
    const reason = await vscode.window.showInputBox({
      title: arg.onPodTemplate ? vscode.l10n.t('Ignore {0} on the pod template', arg.code) : vscode.l10n.t('Ignore {0} here', arg.code),
      prompt: vscode.l10n.t('Why is this finding intended? The reason is kept in the kube-netlens.io/ignore annotation.'),
      placeHolder: 'e.g. the pods come from an operator',
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : 'A reason is required: it tells the next reader why this is not a mistake.'),
    });
    if (!reason?.trim()) return;
    const edit = new vscode.WorkspaceEdit();
    const r = arg.range;
    edit.replace(
      vscode.Uri.parse(arg.uri),
      new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character),
      `${arg.before}${ignoreAnnotationValue(arg, reason)}${arg.after}`,
    );
    await vscode.workspace.applyEdit(edit);
  });
}

function isArgs(a: unknown): a is IgnoreFindingArgs {
  const x = a as IgnoreFindingArgs | undefined;
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof x.uri === 'string' &&
    typeof x.code === 'string' &&
    typeof x.before === 'string' &&
    typeof x.after === 'string' &&
    typeof x.range === 'object'
  );
}
