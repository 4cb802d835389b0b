// `npm start`: builds and packages the extension, sets up code-server if needed, installs the VSIX into a private
// profile under .vscode-test/start/ and serves a fresh copy of examples/ (or the folder given, as it is) in VS Code
// at http://127.0.0.1:PORT. The copy lets a quick fix tried in the demo change nothing in the repository.
// Stays up until Ctrl-C, SIGTERM or SIGHUP, or until the process that started it ends (scripts/lifecycle.mjs); then
// stops code-server and everything it started. PORT picks the port (default: a free one); HOST the address to bind
// (default 127.0.0.1). code-server's config, logs and state, and the home folder it sees, are in .vscode-test/start/.
import { cpSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureCodeServer, ensureVsix, freePort, prepareProfile, root, startCodeServer } from './codeServer.mjs';
import { stopWhenAsked } from './lifecycle.mjs';

/** code-server once it is started, or the start under way. */
let server;
const lifetime = stopWhenAsked(async (reason) => {
  console.error(`\n${reason}: stopping${server ? ' code-server' : ''}…`);
  const running = await Promise.resolve(server).catch(() => undefined);
  await running?.stop();
  process.exit(0);
});

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
  const start = join(root, '.vscode-test', 'start');
  const profile = prepareProfile(start, vsix);
  const home = join(start, 'home');
  mkdirSync(home, { recursive: true });
  server = startCodeServer({ ...profile, folder, port, host, home });
  server = await server;
  if (lifetime.stopping) await new Promise(() => {}); // the stop under way ends the process

  console.log(`\nKubernetes Network Lens is running in VS Code (code-server) on ${folder}:\n\n  ${server.url}\n`);
  if (demo) console.log(`That folder is a fresh copy of examples/, made at every start: edits and quick fixes there leave the repository as it is.`);
  console.log(`Open it in a browser. Extension log: Output panel → "Kubernetes Network Lens". Press Ctrl-C to stop.`);

  const status = await server.exited;
  if (!lifetime.stopping) {
    console.error(`code-server stopped on its own (${status}). Its last lines:\n${server.log().split('\n').slice(-20).join('\n')}`);
    process.exit(1);
  }
} catch (e) {
  console.error(`kube-netlens start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
