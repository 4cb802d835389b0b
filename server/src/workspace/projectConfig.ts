// `.kube-netlens.yaml` (model/configFile.ts) at the edges: read with the globs checked, merged into the settings, and
// its `ignore:` entries compiled into suppressions (features/suppressions.ts). The precedence is the same in the editor
// and the CLI: the config file, then workspace settings, then user settings, then defaults (docs/configuration.md);
// CLI flags, being the most specific, come before the file. What runs a program or reads outside the workspace is
// never the file's to say: it has no keys for executables, and in an untrusted workspace its load restrictor and its
// `files` are not read (those stay the user's own settings).

import { parseConfigFile, type ConfigFile, type ConfigSuppression, type ParsedConfig } from '../model/configFile';

export { configFileName, type ConfigFile } from '../model/configFile';
import { globMatcher, globProblem } from './glob';
import { phrase, type Locale } from '../l10n/l10n';

/** `knownCode`: whether a code exists (the callers know the catalog; this layer does not). */
/** `locale`: the language of the errors (undefined: English). */
export function readConfigFile(text: string, knownCode?: (code: string) => boolean, locale?: Locale): ParsedConfig {
  return parseConfigFile(text, { glob: globProblem, ...(knownCode && { code: knownCode }), ...(locale && { locale }) });
}

/** The raw `kubeNetlens` settings with the config file's values over them (objects merged key by key, lists replaced). */
export function settingsWithConfig(raw: unknown, config: ConfigFile | undefined, trusted: boolean): unknown {
  if (!config) return raw;
  const base = isObject(raw) ? raw : {};
  const sub = (key: string) => (isObject(base[key]) ? base[key] : {});
  const out: Record<string, unknown> = { ...base };
  if (config.rules) out.rules = { ...sub('rules'), ...config.rules };
  // which files are read is the user's own in an untrusted workspace (client/src/userOnlySettings.ts), as the load restrictor is
  if (config.files && trusted) out.files = { ...sub('files'), ...config.files };
  if (config.kustomize) {
    const { loadRestrictor, ...rest } = config.kustomize;
    out.kustomize = { ...sub('kustomize'), ...rest, ...(trusted && loadRestrictor && { loadRestrictor }) };
  }
  if (config.helm?.releases) out.helm = { ...sub('helm'), releases: config.helm.releases };
  if (config.clusterDomain) out.clusterDomain = config.clusterDomain;
  if (config.defaultNamespace) out.defaultNamespace = config.defaultNamespace;
  if (config.nodePortRange) out.nodePortRange = config.nodePortRange;
  if (config.ingressController) out.ingressController = config.ingressController;
  return out;
}

export type CompiledIgnore = ConfigSuppression;

/**
 * The `ignore:` entries as suppressions. `relative` turns a finding's URI into its path relative to the config file's
 * folder (undefined outside it: no path glob matches there); `shownAs` names the config file in labels; `uri` and
 * `text` place the notes on an entry (omitted: no notes, as for a config file the analysis does not show).
 */
export function ignoresOf(
  config: ConfigFile | undefined,
  relative: (uri: string) => string | undefined,
  shownAs: string,
  file?: { readonly uri: string; readonly text: string },
): CompiledIgnore[] {
  const lineStarts = file ? [0, ...[...file.text.matchAll(/\n/g)].map((m) => m.index! + 1)] : [];
  return (config?.ignore ?? []).map((e) => {
    const path = e.path === undefined ? undefined : globMatcher([e.path]);
    const name = e.name === undefined ? undefined : globMatcher([e.name]);
    const start = lineStarts[e.line] ?? 0;
    const end = file ? (file.text.indexOf('\n', start) === -1 ? file.text.length : file.text.indexOf('\n', start)) : 0;
    return {
      code: e.code,
      ...(e.kind && { kind: e.kind }),
      ...(e.namespace && { namespace: e.namespace }),
      ...(name && { name: (n: string) => name(n) }),
      ...(path && {
        path: (uri: string) => {
          const rel = relative(uri);
          return rel !== undefined && path(rel);
        },
      }),
      reason: e.reason,
      label: phrase('ignore entry at {0}:{1}', shownAs, e.line + 1),
      ...(file && { place: { uri: file.uri, span: { start: start + (file.text.slice(start, end).search(/\S/) + 1 || 1) - 1, end } } }),
    };
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
