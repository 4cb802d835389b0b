// Runs the extension-host suite in a VS Code downloaded by @vscode/test-electron. For machines that can download
// VS Code (a contributor's laptop); CI here cannot, and runs the code-server tests in test/e2e instead.
// Usage: npm run build && node --import tsx test/electron/runTest.ts   (VSCODE_VERSION picks a version; default: stable)

import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { runTests } from '@vscode/test-electron';

const root = join(__dirname, '..', '..');

async function main(): Promise<void> {
  // The extension host loads plain CommonJS: bundle the suite, leaving `vscode` to the host.
  const suite = join(root, 'out', 'electron', 'suite.js');
  await esbuild.build({
    entryPoints: [join(__dirname, 'suite', 'index.ts')],
    outfile: suite,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const workspace = join(mkdtempSync(join(tmpdir(), 'kube-netlens-electron-')), 'examples');
  cpSync(join(root, 'examples'), workspace, { recursive: true });
  const code = await runTests({
    version: process.env.VSCODE_VERSION ?? 'stable',
    extensionDevelopmentPath: root,
    extensionTestsPath: suite,
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  });
  process.exit(code);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
