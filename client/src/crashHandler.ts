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
        output.appendLine(`The language server stopped unexpectedly; restarting it (${recent} of ${maxCrashes - 1}).`);
        return { action: CloseAction.Restart, handled: true };
      }
      output.appendLine(`The language server stopped ${recent} times in ${windowMs / 60000} minutes; it is not restarted again.`);
      void vscode.window
        .showErrorMessage('Kubernetes Network Lens stopped after repeated crashes. Diagnostics and hovers are off until it is restarted.', 'Show logs', 'Restart')
        .then(async (choice) => {
          if (choice === 'Show logs') output.show(true);
          if (choice === 'Restart') {
            policy.reset();
            await client()?.start();
          }
        });
      return { action: CloseAction.DoNotRestart, handled: true };
    },
  };
}
