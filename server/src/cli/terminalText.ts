// What reaches a terminal: text output and stderr notes carry no control characters from a file name or a manifest.
// An ANSI sequence in a name (colours, an OSC window title, a hyperlink), a C1 control or a bidirectional override
// would otherwise act on the user's terminal or reorder what they read. Each one is shown as a visible escape
// (`\x1B`, `\u202E`). JSON and SARIF are not touched: they stay exact (JSON escapes C0 controls itself).

/** C0 controls except tab and line feed, DEL, C1 controls, and the bidirectional formatting characters. */
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Untrusted text with every unsafe character replaced by a visible escape; line feeds too unless `multiline`. */
export function terminalSafe(s: string, multiline = false): string {
  const out = s.replace(unsafe, visible);
  return multiline ? out : out.replace(/[\n\t]/g, visible);
}

/**
 * A whole text output, last thing before it is written: every unsafe character is replaced, except the colour
 * sequences the product itself adds (`ESC [ … m`, only when colours are on). Fields from manifests and file names
 * are already escaped where the output is composed, so no colour sequence can come from them either.
 */
export function terminalOutput(s: string, coloured: boolean): string {
  if (!coloured) return terminalSafe(s, true);
  return (
    s
      // eslint-disable-next-line no-control-regex -- control characters are what this matches
      .split(/(\u001b\[[0-9;]*m)/)
      .map((part, i) => (i % 2 ? part : terminalSafe(part, true)))
      .join('')
  );
}

function visible(c: string): string {
  const code = c.charCodeAt(0);
  if (c === '\n') return '\\n';
  if (c === '\t') return '\\t';
  return code <= 0xff ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
