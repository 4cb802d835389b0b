// The trace panel's HTML: a fixed shell with a strict Content-Security-Policy; no workspace data ever goes into it.

export interface TraceHtmlAssets {
  /** `webview.cspSource`: the origin VS Code serves local resources from. */
  readonly cspSource: string;
  readonly scriptUri: string;
  readonly styleUri: string;
  /** Fresh for every render, so an injected script can never guess it. */
  readonly nonce: string;
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
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(assets.styleUri)}">
<title>Trace</title>
</head>
<body>
<noscript>The trace view needs scripts to draw the Service path.</noscript>
<script nonce="${attr(assets.nonce)}" src="${attr(assets.scriptUri)}"></script>
</body>
</html>
`;
}

/** 128 random bits as hex; uses the Web Crypto API that both Node 20 and VS Code's extension host provide. */
export function freshNonce(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
