// The esbuild options of the Node bundles (language server, CLI, extension client), shared by scripts/build.mjs and
// the benchmark's profiled server (bench/run.ts), and the check that a bundle is ASCII.
import { readFileSync } from 'node:fs';

export const nodeBundle = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Template literals are written as string concatenation: the literal parts of a tagged template (the hover's `md`)
  // are otherwise kept verbatim, and one character outside Latin-1 ('→', '✓') makes V8 hold the whole 1.4 MB source
  // as UTF-16, twice the memory. As plain strings, esbuild writes them as \u escapes.
  supported: { 'template-literal': false },
  logLevel: 'warning',
};

/**
 * The lines of a bundle that hold a character outside ASCII (at most `max`), as `file:line: text`; empty when it is all
 * ASCII. esbuild escapes them in strings and regular expressions, not in the comments it keeps inside object literals.
 */
export function nonAsciiLines(file, max = 5) {
  const out = [];
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length && out.length < max; i++) {
    // eslint-disable-next-line no-control-regex -- the range is exactly ASCII
    if (/[^\u0000-\u007f]/.test(lines[i])) out.push(`${file}:${i + 1}: ${lines[i].trim().slice(0, 120)}`);
  }
  return out;
}
