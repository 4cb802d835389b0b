// The client's messages go through `vscode.l10n.t` (bundle: l10n/bundle.l10n.<language>.json, the one message
// catalogue of docs/localization.md). Modules without a vscode import (so tests read them) take this interface as a
// parameter: the extension passes `vscode.l10n`, tests pass `english`.

export interface L10n {
  t(message: string, ...args: (string | number)[]): string;
}

/** The English templates themselves, `{0}` … replaced by the arguments (what vscode.l10n does without a bundle). */
export const english: L10n = {
  t: (message, ...args) => message.replace(/\{(\d+)\}/g, (whole, i: string) => (args[Number(i)] === undefined ? whole : String(args[Number(i)]))),
};
