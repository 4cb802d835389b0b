// Building a Kustomize root with the user's Kustomize, for what the native renderer does not evaluate: `kustomize
// build` or `kubectl kustomize` on a wrapper kustomization in a temporary folder that lists the root and asks for
// origin annotations (kustomize/external.ts maps the objects back through them). The user's files are never written.
// Never `--enable-exec`, `--enable-alpha-plugins` or `--enable-helm`; `--load-restrictor` is always passed, as the
// user chose it (kustomize's default LoadRestrictionsRootOnly holds each of the user's kustomizations to its own
// folder; the wrapper lists the root as a folder, which kustomize loads with its own root, so the wrapper widens
// nothing); a root that reaches a remote resource or a Helm chart is not
// handed over at all, and the process gets a proxy that answers nothing, so no fetch can happen; a build is killed
// after a timeout. The caller decides whether it may run at all (never in an untrusted workspace).

import { phrase, worded, type Phrase, type PhraseArg } from '../l10n/l10n';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  confirmedUnit,
  unitFromKustomizeExit,
  whyNotForBinary,
  withWorkspacePaths,
  wrapperKustomization,
  maxBuildMegabytes,
  type ExternalRoot,
  type KustomizeExit,
} from '../kustomize/external';
import type { FileReader, ParseCache } from '../kustomize/render';
import type { LoadRestrictor } from '../model/config';
import type { RenderedUnit, RenderProblem } from '../model/rendered';
import type { KustomizeSettings } from './settings';
import { isExecutable, onPath } from './executables';
import { canonicalUri, fileUri } from './uri';
import { dirnameUri } from '../kustomize/uriPath';
import { runTool, runToolBatchSync, runToolSync, type BatchProgress, type ToolRun } from './externalTool';

export const defaultKustomizeTimeoutMs = 10_000;
const maxOutputBytes = maxBuildMegabytes * 1024 * 1024;

export interface KustomizeTool {
  readonly path: string;
  /** `kubectl kustomize DIR` rather than `kustomize build DIR`. */
  readonly kubectl: boolean;
  readonly timeoutMs: number;
  /** Passed as `--load-restrictor` (LoadRestrictionsRootOnly or LoadRestrictionsNone). */
  readonly loadRestrictor: LoadRestrictor;
  /** The folders paths in its messages are shown relative to (the workspace folders; the CLI: the current folder). */
  readonly folders?: readonly string[];
}

/** The flag's value as kustomize spells it (api/krusty options, `--load-restrictor`). */
export function loadRestrictorFlag(r: LoadRestrictor): string {
  return r === 'none' ? 'LoadRestrictionsNone' : 'LoadRestrictionsRootOnly';
}

/**
 * The Kustomize the server may run: none in an untrusted workspace, else `kubeNetlens.kustomize.path` (kubectl when
 * its name says so), else `kustomize`, else `kubectl`, on PATH.
 */
export function kustomizeForSettings(settings: KustomizeSettings, env: Readonly<Record<string, string | undefined>>): KustomizeTool | undefined {
  if (!settings.allowed) return undefined;
  const { timeoutMs, loadRestrictor } = settings;
  const folders = settings.folders.length ? settings.folders : undefined;
  if (settings.path)
    return isExecutable(settings.path)
      ? { path: settings.path, kubectl: /^kubectl(\.exe)?$/i.test(basename(settings.path)), timeoutMs, loadRestrictor, folders }
      : undefined;
  const kustomize = onPath('kustomize', env);
  if (kustomize) return { path: kustomize, kubectl: false, timeoutMs, loadRestrictor, folders };
  const kubectl = onPath('kubectl', env);
  return kubectl ? { path: kubectl, kubectl: true, timeoutMs, loadRestrictor, folders } : undefined;
}

/** The environment of a build: the user's, with every proxy pointed at a closed port on this machine and git held to local files. */
function buildEnv(): NodeJS.ProcessEnv {
  const dead = 'http://127.0.0.1:9';
  return {
    ...process.env,
    HTTP_PROXY: dead,
    HTTPS_PROXY: dead,
    http_proxy: dead,
    https_proxy: dead,
    NO_PROXY: '',
    no_proxy: '',
    GIT_ALLOW_PROTOCOL: 'file',
    GIT_TERMINAL_PROMPT: '0',
  };
}

function toolName(tool: KustomizeTool): string {
  return tool.kubectl ? 'kubectl kustomize' : 'kustomize build';
}

/** The root as the mapping needs it, from the native attempt that stopped. */
export function externalRootOf(native: RenderedUnit): ExternalRoot {
  const stop = native.problems.find((p) => p.code === 'kustomize-not-rendered') ?? native.problems[0];
  return {
    id: native.id,
    label: native.label,
    definedBy: native.definedBy,
    nativeInputs: native.inputs,
    at: stop ? { uri: stop.uri, span: stop.span } : { uri: native.definedBy, span: { start: 0, end: 0 } },
  };
}

interface Prepared {
  readonly dir: string;
  readonly args: string[];
  readonly originUri: (path: string) => string | undefined;
  /** The run's messages with workspace-relative paths in place of absolute ones and of the wrapper's. */
  readonly relative: (exit: KustomizeExit) => KustomizeExit;
}

/**
 * An absolute path as messages show it: relative to the workspace folder holding it (its real path too, as
 * kustomize resolves links), else to the first folder; the wrapper's folder is named as such.
 */
function shownPath(abs: string, folders: readonly string[], wrapper: string): string {
  if (abs === wrapper || abs.startsWith(wrapper + '/')) return '(the wrapper kustomization)';
  const bases = folders.flatMap((f) => {
    try {
      return [resolve(f), realpathSync(f)];
    } catch {
      return [resolve(f)];
    }
  });
  const within = bases.find((b) => abs === b || abs.startsWith(b.endsWith(sep) ? b : b + sep)) ?? bases[0];
  return within ? relative(within, abs).split(sep).join('/') || '.' : basename(abs);
}

/**
 * Writes the wrapper kustomization into a new temporary folder. `rootDir` is spelled as the caller's files are: a
 * file URI (the language server) or a path as the command line shows it; origins come back in the same spelling.
 */
function prepare(tool: KustomizeTool, rootDir: string): Prepared {
  // the real path: kustomize resolves the relative path from the folder as the kernel sees it
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'kube-netlens-kustomize-')));
  const isUri = rootDir.startsWith('file:');
  const rootPath = isUri ? fileURLToPath(rootDir) : resolve(rootDir);
  const rel = relative(dir, rootPath).split(sep).join('/');
  writeFileSync(join(dir, 'kustomization.yaml'), wrapperKustomization(rel));
  const originUri = (path: string) => {
    const abs = resolve(dir, path);
    if (isUri) return canonicalUri(fileUri(abs));
    return rootDir.startsWith('/') ? abs : relative(process.cwd(), abs).split(sep).join('/');
  };
  const restrictor = ['--load-restrictor', loadRestrictorFlag(tool.loadRestrictor)];
  const folders = tool.folders ?? [process.cwd()];
  const rootShown = shownPath(rootPath, folders, dir);
  const rewrite = (text: string) => withWorkspacePaths(text, (abs) => shownPath(abs, folders, dir), [[`'${rel}'`, `'${rootShown}'`]]);
  const relativeExit = (exit: KustomizeExit): KustomizeExit => ({
    ...exit,
    stderr: rewrite(exit.stderr),
    ...(exit.spawnError !== undefined && { spawnError: rewrite(exit.spawnError) }),
  });
  return { dir, args: tool.kubectl ? ['kustomize', ...restrictor, dir] : ['build', ...restrictor, dir], originUri, relative: relativeExit };
}

/** The runner's view of a build (workspace/externalTool.ts). */
function toolRun(tool: KustomizeTool): ToolRun {
  return { executable: tool.path, timeoutMs: tool.timeoutMs, maxBuffer: maxOutputBytes, env: buildEnv() };
}

/**
 * The native attempt's unit again, with its note saying why the real Kustomize was not run (a remote resource, a
 * Helm chart); undefined when it may run.
 */
export function refusedUnit(native: RenderedUnit, fsys: FileReader, parsed?: ParseCache): RenderedUnit | undefined {
  const refused = whyNotForBinary(fsys, dirnameUri(native.definedBy), parsed);
  if (!refused) return undefined;
  const problems = native.problems.map((p) => (p.code === 'kustomize-not-rendered' ? { ...p, ...worded(notBuiltEither(p, refused.why)) } : p));
  return { ...native, problems };
}

/** The native renderer's "not analysed" note with the reason the real Kustomize does not build the root either. */
function notBuiltEither(p: RenderProblem, why: Phrase): Phrase {
  const said = p.phrase;
  // the native note is `Not analysed as a Kustomize build: <reason>.` (kustomize/render.ts)
  if (said && 'template' in said && said.template === 'Not analysed as a Kustomize build: {0}.') {
    // one remote file is both reasons: say it once ("not fetched; … either: … never fetched" read as two problems)
    const remote = sameRemote(said.args[0], why);
    if (remote !== undefined)
      return phrase("Not analysed as a Kustomize build: the remote file '{0}' is never fetched, neither here nor by running Kustomize.", remote);
    return phrase('Not analysed as a Kustomize build: {0}; it is not built with Kustomize either: {1}.', said.args[0], why);
  }
  return phrase('{0}; it is not built with Kustomize either: {1}.', p.message.replace(/\.$/, ''), why);
}

/** The remote resource or component both reasons name (kustomize/render.ts and kustomize/external.ts), if they name one. */
function sameRemote(native: PhraseArg, binary: Phrase): string | undefined {
  if (typeof native !== 'object' || native === null || !('template' in native) || !('template' in binary)) return undefined;
  const nativeRemote = native.template === "the remote resource '{0}' is not fetched" || native.template === "the remote component '{0}' is not fetched";
  if (!nativeRemote || binary.template !== "the remote resource '{0}' is never fetched") return undefined;
  return native.args[0] === binary.args[0] && typeof native.args[0] === 'string' ? native.args[0] : undefined;
}

/** Builds one root synchronously (the command line). */
export function buildWithKustomizeSync(tool: KustomizeTool, native: RenderedUnit, fsys: FileReader, parsed?: ParseCache): RenderedUnit {
  const refused = refusedUnit(native, fsys, parsed);
  if (refused) return refused;
  const root = externalRootOf(native);
  const p = prepare(tool, dirnameUri(root.definedBy));
  try {
    return confirmedUnit(
      native,
      unitFromKustomizeExit(root, p.relative(runToolSync(toolRun(tool), p.args)), toolName(tool), tool.timeoutMs, fsys, p.originUri, parsed),
    );
  } finally {
    rmSync(p.dir, { recursive: true, force: true });
  }
}

/**
 * Builds several roots synchronously (the command line), `parallel` real builds at a time (workspace/externalTool.ts):
 * the same units, by `definedBy`, as buildWithKustomizeSync gives one by one.
 */
export function buildAllWithKustomizeSync(
  tool: KustomizeTool,
  natives: readonly RenderedUnit[],
  fsys: FileReader,
  parsed: ParseCache | undefined,
  parallel: number,
  progress?: BatchProgress,
): Map<string, RenderedUnit> {
  const out = new Map<string, RenderedUnit>();
  const toRun: { native: RenderedUnit; root: ExternalRoot; p: Prepared }[] = [];
  try {
    for (const native of natives) {
      const refused = refusedUnit(native, fsys, parsed);
      if (refused) out.set(native.definedBy, refused);
      else {
        const root = externalRootOf(native);
        toRun.push({ native, root, p: prepare(tool, dirnameUri(root.definedBy)) });
      }
    }
    const exits = runToolBatchSync(
      toolRun(tool),
      toRun.map((r) => r.p.args),
      parallel,
      progress,
    );
    toRun.forEach(({ native, root, p }, i) => {
      const run = exits[i];
      // as buildWithKustomizeSync: a native failure the real build confirms keeps the native message and its line
      out.set(root.definedBy, confirmedUnit(native, unitFromKustomizeExit(root, p.relative(run), toolName(tool), tool.timeoutMs, fsys, p.originUri, parsed)));
    });
  } finally {
    for (const { p } of toRun) rmSync(p.dir, { recursive: true, force: true });
  }
  return out;
}

/** Builds one root without blocking (the language server). Reads the saved files. */
export async function buildWithKustomize(tool: KustomizeTool, native: RenderedUnit, fsys: FileReader, parsed?: ParseCache): Promise<RenderedUnit> {
  const refused = refusedUnit(native, fsys, parsed);
  if (refused) return refused;
  const root = externalRootOf(native);
  const p = prepare(tool, dirnameUri(root.definedBy));
  try {
    return confirmedUnit(
      native,
      unitFromKustomizeExit(root, p.relative(await runTool(toolRun(tool), p.args)), toolName(tool), tool.timeoutMs, fsys, p.originUri, parsed),
    );
  } finally {
    rmSync(p.dir, { recursive: true, force: true });
  }
}
