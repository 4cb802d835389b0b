// The trace panel's HTML: a fixed shell with a strict Content-Security-Policy; no workspace data ever goes into it.
// It carries the view's words in the reader's language (client/webview/viewStrings.ts, filled by vscode.l10n) as
// inert JSON the view reads when it starts: nothing is fetched, and no script but the nonce's runs.
import type { ViewStrings } from '../webview/viewStrings';

export interface TraceHtmlAssets {
  /** `webview.cspSource`: the origin VS Code serves local resources from. */
  readonly cspSource: string;
  readonly scriptUri: string;
  readonly styleUri: string;
  /** Fresh for every render, so an injected script can never guess it. */
  readonly nonce: string;
  /** `vscode.env.language` (`en`, `zh-cn`): the page's `lang`, which also picks the fonts for its script. */
  readonly language?: string;
  /** The view's words; without them the view shows its English templates. */
  readonly strings?: ViewStrings;
}

export function renderTraceHtml(assets: TraceHtmlAssets): string {
  const csp = [
    "default-src 'none'",
    `img-src ${assets.cspSource} data:`,
    `style-src ${assets.cspSource}`,
    `script-src 'nonce-${assets.nonce}'`,
    `font-src ${assets.cspSource}`,
    // The view writes text and attributes only; with Trusted Types required, no string can ever become markup or script.
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
  const s = assets.strings;
  return `<!DOCTYPE html>
<html lang="${attr(htmlLang(assets.language))}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(assets.styleUri)}">
<title>${text(s?.page.title ?? 'Trace')}</title>
</head>
<body>
<noscript>${text(s?.page.noScript ?? 'The trace view needs scripts to draw the Service path.')}</noscript>
${s ? `<script type="application/json" id="kube-netlens-strings">${jsonInScript(s)}</script>\n` : ''}<script nonce="${attr(assets.nonce)}" src="${attr(assets.scriptUri)}"></script>
</body>
</html>
`;
}

/** 128 random bits as hex; uses the Web Crypto API that both Node 20 and VS Code's extension host provide. */
export function freshNonce(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** `zh-cn` → `zh-CN` (BCP 47 casing); anything that is not a language tag is `en`. */
export function htmlLang(language: string | undefined): string {
  if (!language || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(language)) return 'en';
  const [lang, ...rest] = language.split('-');
  return [lang.toLowerCase(), ...rest.map((p) => (p.length === 2 ? p.toUpperCase() : p))].join('-');
}

/** JSON that cannot end its script element or open markup inside it: `<`, `>` and `&` as \u escapes. */
function jsonInScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function text(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
