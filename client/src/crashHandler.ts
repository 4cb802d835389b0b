// Restarts a crashed server a few times, then stops with one clear notification instead of a restart loop.

import * as vscode from 'vscode';
import { CloseAction, ErrorAction, type ErrorHandler, type LanguageClient } from 'vscode-languageclient/node';
import { createCrashPolicy } from './crashPolicy';

/** This many crashes within `windowMs` end the restarts. */
const maxCrashes = 4;
const windowMs = 3 * 60 * 1000;

export function crashHandler(output: vscode.OutputChannel, client: () => LanguageClient | undefined): ErrorHandler {
  const policy = createCrashPolicy(maxCrashes, windowMs);
  return {
    error: (_error, _message, count) => ({ action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown }),
    closed: () => {
      const { action, recent } = policy.crashed(Date.now());
      if (action === 'restart') {
        output.appendLine(vscode.l10n.t('The language server stopped unexpectedly; restarting it ({0} of {1}).', recent, maxCrashes - 1));
        return { action: CloseAction.Restart, handled: true };
      }
      output.appendLine(vscode.l10n.t('The language server stopped {0} times in {1} minutes; it is not restarted again.', recent, windowMs / 60000));
      const showLogs = vscode.l10n.t('Show logs');
      const restart = vscode.l10n.t('Restart');
      void vscode.window
        .showErrorMessage(
          vscode.l10n.t('Kubernetes Network Lens stopped after repeated crashes. Diagnostics and hovers are off until it is restarted.'),
          showLogs,
          restart,
        )
        .then(async (choice) => {
          if (choice === showLogs) output.show(true);
          if (choice === restart) {
            policy.reset();
            await client()?.start();
          }
        });
      return { action: CloseAction.DoNotRestart, handled: true };
    },
  };
}
