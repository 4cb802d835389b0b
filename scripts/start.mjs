// `npm start`: builds and packages the extension, sets up code-server if needed, installs the VSIX into a private
// profile under .vscode-test/start/ and serves a fresh copy of examples/ (or the folder given, as it is) in VS Code
// at http://127.0.0.1:PORT. The copy lets a quick fix tried in the demo change nothing in the repository.
// Stays up until Ctrl-C. PORT picks the port (default: a free one); HOST the address to bind (default 127.0.0.1).
import { cpSync, existsSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureCodeServer, ensureVsix, freePort, prepareProfile, root, startCodeServer } from './codeServer.mjs';

const demo = process.argv[2] === undefined;
const folder = demo ? join(root, '.vscode-test', 'start', 'examples') : resolve(process.argv[2]);
if (demo) {
  rmSync(folder, { recursive: true, force: true });
  cpSync(join(root, 'examples'), folder, { recursive: true });
}
if (!existsSync(folder) || !statSync(folder).isDirectory()) {
  console.error(`kube-netlens start: ${folder} is not a folder`);
  process.exit(2);
}
const port = process.env.PORT ? Number(process.env.PORT) : await freePort();
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  console.error(`kube-netlens start: PORT must be a TCP port number, not "${process.env.PORT}"`);
  process.exit(2);
}
const host = process.env.HOST ?? '127.0.0.1';

try {
  console.error('Packaging the extension…');
  const vsix = await ensureVsix();
  console.error('Checking code-server…');
  ensureCodeServer({ quiet: true });
  const profile = prepareProfile(join(root, '.vscode-test', 'start'), vsix);
  const server = await startCodeServer({ ...profile, folder, port, host });

  let stopping = false;
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: stopping code-server…`);
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGHUP', () => void stop('SIGHUP'));

  console.log(`\nKubernetes Network Lens is running in VS Code (code-server) on ${folder}:\n\n  ${server.url}\n`);
  if (demo) console.log(`That folder is a fresh copy of examples/, made at every start: edits and quick fixes there leave the repository as it is.`);
  console.log(`Open it in a browser. Extension log: Output panel → "Kubernetes Network Lens". Press Ctrl-C to stop.`);

  const status = await server.exited;
  if (!stopping) {
    console.error(`code-server stopped on its own (${status}). Its last lines:\n${server.log().split('\n').slice(-20).join('\n')}`);
    process.exit(1);
  }
} catch (e) {
  console.error(`kube-netlens start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
