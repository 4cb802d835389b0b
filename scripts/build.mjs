// Bundles the language server, the extension client, the CLI and the trace webview with esbuild.
// Type-checking is separate (`npm run typecheck`), as esbuild only strips types.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { updateDerivedFiles } from './derivedFiles.mjs';
import { nodeBundle, nonAsciiLines } from './nodeBundle.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

// The rule registry and docs/rules.md are derived from the rule modules: brought up to date (on CI: checked) before
// bundling.
updateDerivedFiles();

const node = { ...nodeBundle, sourcemap: !production, minify: production };

const builds = [
  { ...node, entryPoints: ['server/src/lsp/main.ts'], outfile: 'dist/server.js' },
  { ...node, entryPoints: ['server/src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  { ...node, entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
];
if (existsSync('client/webview/main.ts')) {
  builds.push({
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    entryPoints: ['client/webview/main.ts'],
    outfile: 'dist/webview/trace.js',
  });
}

const present = builds.filter((b) => b.entryPoints.every((e) => existsSync(e)));
if (watch) {
  for (const b of present) (await esbuild.context(b)).watch();
} else {
  await Promise.all(present.map((b) => esbuild.build(b)));
  // The server and the CLI are loaded by V8 as one source each: a single character outside Latin-1 doubles its size in
  // memory (scripts/nodeBundle.mjs), so a bundle that is not ASCII fails the build, naming the lines.
  const offending = present.filter((b) => b.platform === 'node').flatMap((b) => nonAsciiLines(b.outfile));
  if (offending.length) {
    console.error(`A bundle holds characters outside ASCII (write them as \\u escapes in the source):\n${offending.join('\n')}`);
    process.exit(1);
  }
}
if (existsSync('client/webview/trace.css')) {
  mkdirSync('dist/webview', { recursive: true });
  copyFileSync('client/webview/trace.css', 'dist/webview/trace.css');
}
