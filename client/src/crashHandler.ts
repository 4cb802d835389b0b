// Restarts a crashed server a few times, then stops with one clear notification instead of a restart loop.

import * as vscode from 'vscode';
import { CloseAction, ErrorAction, type ErrorHandler, type LanguageClient } from 'vscode-languageclient/node';

/** This many crashes within `windowMs` end the restarts. */
const maxCrashes = 4;
const windowMs = 3 * 60 * 1000;

export function crashHandler(output: vscode.OutputChannel, client: () => LanguageClient | undefined): ErrorHandler {
  const crashes: number[] = [];
  return {
    error: (_error, _message, count) => ({ action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown }),
    closed: () => {
      const now = Date.now();
      crashes.push(now);
      while (crashes.length && now - crashes[0] > windowMs) crashes.shift();
      if (crashes.length < maxCrashes) {
        output.appendLine(`The language server stopped unexpectedly; restarting it (${crashes.length} of ${maxCrashes - 1}).`);
        return { action: CloseAction.Restart, handled: true };
      }
      output.appendLine(`The language server stopped ${crashes.length} times in ${windowMs / 60000} minutes; it is not restarted again.`);
      void vscode.window
        .showErrorMessage('Kubernetes Network Lens stopped after repeated crashes. Diagnostics and hovers are off until it is restarted.', 'Show logs', 'Restart')
        .then(async (choice) => {
          if (choice === 'Show logs') output.show(true);
          if (choice === 'Restart') {
            crashes.length = 0;
            await client()?.start();
          }
        });
      return { action: CloseAction.DoNotRestart, handled: true };
    },
  };
}
