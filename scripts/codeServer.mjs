// Runs the packaged extension in code-server (VS Code in a browser): shared by `npm start` and the end-to-end tests.
// Every process started here is stopped by its own id (its process group), never by name.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const codeServerDir = process.env.KUBE_NETLENS_CODE_SERVER_DIR ?? join(root, '.vscode-test', 'code-server');
export const codeServerEntry = join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

/** Settings for a private profile: nothing may cover the editor or phone home. */
export const quietSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'redhat.telemetry.enabled': false,
};

/** Installs Debian's Chromium and code-server when missing (scripts/setup-code-server.sh is idempotent). */
export function ensureCodeServer({ quiet = false } = {}) {
  const r = spawnSync('bash', [join(root, 'scripts', 'setup-code-server.sh')], {
    cwd: root,
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error('scripts/setup-code-server.sh failed (see its output above)');
  if (!existsSync(codeServerEntry)) throw new Error(`code-server is missing at ${codeServerEntry}`);
}

export function vsixPath() {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return join(root, `kube-netlens-${version}.vsix`);
}

/**
 * The packaged extension, rebuilt with `npm run package` unless a VSIX newer than every input already exists.
 * Several test processes may ask at once: a lock folder makes one of them package while the others wait.
 */
export async function ensureVsix({ force = false } = {}) {
  const vsix = vsixPath();
  const lock = join(root, '.vscode-test', 'package.lock');
  mkdirSync(join(root, '.vscode-test'), { recursive: true });
  for (const deadline = Date.now() + 5 * 60_000; ; await sleep(250)) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      if (!lockHolderAlive(lock)) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`gave up waiting for ${lock}`);
    }
  }
  try {
    if (!force && existsSync(vsix) && statSync(vsix).mtimeMs >= newestInputTime()) return vsix;
    const r = spawnSync('npm', ['run', '--silent', 'package'], { cwd: root, stdio: ['ignore', 2, 2] });
    if (r.status !== 0) throw new Error('`npm run package` failed (see its output above)');
    if (!existsSync(vsix)) throw new Error(`\`npm run package\` did not write ${vsix}`);
    return vsix;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Where a code-server of the profile in `dir` keeps everything it would otherwise put in the user's home:
 * its config file (`--config`, else ~/.config/code-server/config.yaml with a generated password), its logs and
 * state (XDG_DATA_HOME, else ~/.local/share/code-server) and caches such as a telemetry device id (XDG_CACHE_HOME).
 */
function ownFolders(dir) {
  const config = join(dir, 'code-server.yaml');
  const env = {
    ...process.env,
    NODE_OPTIONS: '',
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    XDG_CACHE_HOME: join(dir, 'xdg-cache'),
  };
  return { config, env };
}

/** A user-data and an extensions folder under `dir`, with the VSIX installed and `settings` written. */
export function prepareProfile(dir, vsix, settings = {}) {
  const userDataDir = join(dir, 'user-data');
  const extensionsDir = join(dir, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...quietSettings, ...settings }, null, 2));
  installExtension(dir, { userDataDir, extensionsDir }, vsix);
  return { userDataDir, extensionsDir };
}

/** Installs one more VSIX into the profile `prepareProfile(dir, …)` made (a test's own language pack). */
export function installExtension(dir, { userDataDir, extensionsDir }, vsix) {
  // VS Code reads extensions.json in the extensions folder, so the VSIX goes through its installer.
  const own = ownFolders(dir);
  const temp = privateTemp();
  const r = spawnSync(
    process.execPath,
    [codeServerEntry, '--config', own.config, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix, '--force'],
    { encoding: 'utf8', env: { ...own.env, TMPDIR: temp } },
  );
  rmSync(temp, { recursive: true, force: true });
  if (r.status !== 0 || !/successfully installed/i.test(r.stdout + r.stderr)) {
    throw new Error(`installing ${vsix} into code-server failed:\n${r.stdout}\n${r.stderr}`);
  }
}

/**
 * A new folder for code-server's TMPDIR (its IPC sockets, the TypeScript server's files): short, as a socket path has
 * at most 107 bytes, and removed by whoever made it.
 */
function privateTemp() {
  return mkdtempSync(join(tmpdir(), 'kn-cs-'));
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts code-server on `host:port` serving `folder`, in a process group of its own, and resolves once it listens.
 * `onOutput` receives its log lines.
 */
export async function startCodeServer({ userDataDir, extensionsDir, folder, port, host = '127.0.0.1', onOutput = () => {}, home, locale }) {
  // The profile folder holds its config file and state too, so nothing goes to ~/.config or ~/.local/share, and its
  // sockets and temporary files go to a temp folder of its own, removed once it has stopped.
  const own = ownFolders(dirname(userDataDir));
  const temp = privateTemp();
  const child = spawn(
    process.execPath,
    [
      codeServerEntry,
      '--auth',
      'none',
      '--bind-addr',
      `${host}:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      '--config',
      own.config,
      // the display language (VS Code's, so vscode.env.language): needs a language pack for it in the profile
      ...(locale ? ['--locale', locale] : []),
      folder,
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...own.env, TMPDIR: temp, ...(home ? { HOME: home } : {}) } },
  );
  const removeTemp = () => rmSync(temp, { recursive: true, force: true, maxRetries: 3 });

  let log = '';
  const listening = new Promise((resolve, reject) => {
    const onData = (chunk) => {
      const text = chunk.toString();
      log += text;
      for (const line of text.split('\n')) if (line.trim()) onOutput(line);
      if (/HTTP server listening on/i.test(log)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code, signal) => reject(new Error(`code-server exited (${signal ?? code}) before listening:\n${log}`)));
    child.on('error', reject);
  });
  try {
    await within(listening, 60_000, () => {
      throw new Error(`code-server did not listen within 60 s:\n${log}`);
    });
  } catch (e) {
    await stopProcessGroup(child);
    removeTemp();
    throw e;
  }
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      removeTemp();
      resolve(signal ?? code);
    }),
  );
  return {
    pid: child.pid,
    url: `http://${host}:${port}/?folder=${encodeURIComponent(folder).replace(/%2F/g, '/')}`,
    exited,
    log: () => log,
    stop: async () => {
      await stopProcessGroup(child);
      removeTemp();
    },
  };
}

/**
 * Ends a child started with `detached: true` and everything it spawned: SIGTERM to its group, SIGKILL after 5 s,
 * and SIGKILL to the processes below it that left its group (a terminal's shell runs in a session of its own).
 */
export async function stopProcessGroup(child) {
  const tree = descendants(child.pid);
  if (child.exitCode !== null || child.signalCode !== null) {
    killGroup(child.pid, 'SIGKILL');
  } else {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    killGroup(child.pid, 'SIGTERM');
    const timedOut = await within(
      exited.then(() => false),
      5000,
      () => true,
    );
    killGroup(child.pid, 'SIGKILL');
    if (timedOut) await exited;
  }
  for (const pid of tree) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * What `promise` gives, or what `onTimeout` gives (or throws) after `ms`. The timer is cleared either way: a timer
 * left running would hold the caller's process for the rest of `ms` (a test file's process ended only by the test
 * runner's exit guard, 10 s after its last test, when it had run for less than a minute after code-server started).
 */
export async function within(promise, ms, onTimeout) {
  let timer;
  const timeout = new Promise((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(onTimeout());
      } catch (e) {
        reject(e);
      }
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The processes below `pid`, from Linux's /proc (elsewhere none: the group is all there is). */
function descendants(pid) {
  const found = [];
  for (const queue = [pid]; queue.length;) {
    const parent = queue.shift();
    let children = [];
    try {
      children = readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      // gone, or not Linux
    }
    found.push(...children);
    queue.push(...children);
  }
  return found;
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

function lockHolderAlive(lock) {
  try {
    process.kill(Number(readFileSync(join(lock, 'pid'), 'utf8')), 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM' || (e.code === 'ENOENT' && existsSync(lock) && Date.now() - statSync(lock).mtimeMs < 2000);
  }
}

/** The newest modification time among the files that go into the VSIX. */
function newestInputTime() {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) {
      for (const name of readdirSync(p)) if (name !== 'node_modules') visit(join(p, name));
    } else if (s.mtimeMs > newest) {
      newest = s.mtimeMs;
    }
  };
  for (const p of [
    'server/src',
    'client',
    'syntaxes',
    'images',
    'docs/rules.md',
    'package.json',
    'README.md',
    'CHANGELOG.md',
    'LICENSE',
    '.vscodeignore',
    'scripts/build.mjs',
  ]) {
    visit(join(root, p));
  }
  return newest;
}
