// The CLI and `.kube-netlens.yaml` (model/configFile.ts): `--config FILE`, else the nearest one in the folder of the
// first PATH or above it. Its values apply where no flag says otherwise (flags are the most specific); an invalid file
// stops the command with each error at its line, never a silent fallback to the defaults.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { configFileName, type ConfigFile } from '../model/configFile';
import { ignoresOf, readConfigFile, type CompiledIgnore } from '../workspace/projectConfig';
import type { AnalysisOptions } from './parseArgs';
import { codeCatalog } from '../features/ruleCatalog';
import { messages } from '../l10n/l10n';

const knownCodes: ReadonlySet<string> = new Set(codeCatalog.map((c) => c.code));

export interface Configured<R extends AnalysisOptions> {
  readonly request: R;
  /** The config file read, as the output names it; undefined when there is none. */
  readonly file?: string;
  readonly ignores: readonly CompiledIgnore[];
  /** The config file's text, for the lines of notes on its entries. */
  readonly source?: { readonly uri: string; readonly text: string };
}

export function withConfigFile<R extends AnalysisOptions>(request: R): Configured<R> | { readonly error: string } {
  const file = request.config ?? nearest(request.paths[0] ?? '.');
  if (file === undefined) return { request, ignores: [] };
  const msg = messages(request.locale);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return {
      error: msg('cannot read the config file {0}: {1}', file, (err as NodeJS.ErrnoException).code === 'ENOENT' ? msg('no such file') : (err as Error).message),
    };
  }
  const parsed = readConfigFile(text, (code) => knownCodes.has(code), request.locale);
  if (!parsed.config) {
    const shown = parsed.errors.slice(0, 20).map((e) => `${file}:${e.line + 1}:${e.column + 1}: ${e.message}`);
    return {
      error:
        msg('the config file {0} is not valid (nothing was checked):', file) +
        `\n${shown.join('\n')}${parsed.errors.length > 20 ? `\n${msg('… and {0} more', parsed.errors.length - 20)}` : ''}`,
    };
  }
  const dir = resolve(dirname(file));
  const config = parsed.config;
  const rel = (uri: string) => {
    const r = relative(dir, resolve(uri)).split(sep).join('/');
    return r.startsWith('../') ? undefined : r;
  };
  return { request: applied(request, config, dir), file, ignores: ignoresOf(config, rel, file, { uri: file, text }), source: { uri: file, text } };
}

function applied<R extends AnalysisOptions>(r: R, c: ConfigFile, dir: string): R {
  const range = c.nodePortRange?.split('-').map(Number) as [number, number] | undefined;
  const roots = r.kustomizeRoots === undefined && c.kustomize?.roots?.length ? { kustomizeRoots: c.kustomize.roots, kustomizeRootsDir: dir } : {};
  return {
    ...r,
    ...roots,
    clusterDomain: r.clusterDomain ?? c.clusterDomain,
    namespace: r.namespace ?? c.defaultNamespace,
    loadRestrictor: r.loadRestrictor ?? c.kustomize?.loadRestrictor,
    fromConfig: {
      dir,
      ...(c.rules && { rules: c.rules }),
      ...(range && { nodePortRange: range }),
      ...(c.ingressController && { ingressController: c.ingressController }),
      ...(c.files?.include && { include: c.files.include }),
      ...(c.files?.exclude && { exclude: c.files.exclude }),
      ...(c.helm?.releases?.length && {
        helmReleases: c.helm.releases.map((h) => ({ ...h, chart: resolve(dir, h.chart), values: h.values.map((v) => resolve(dir, v)) })),
      }),
    },
  };
}

/** The nearest config file in `path`'s folder (the path itself, when it is a folder) or above it. */
function nearest(path: string): string | undefined {
  let dir = resolve(path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) dir = dirname(dir);
  for (;;) {
    const candidate = join(dir, configFileName);
    if (existsSync(candidate)) return relative(resolve('.'), candidate) || candidate;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
