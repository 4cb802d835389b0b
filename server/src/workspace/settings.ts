// The `kubeNetlens.*` settings as the editor sends them → the analysis config and the file-discovery options.
// Unknown or malformed values fall back to the defaults: a typo in settings.json never stops the analysis.

import {
  cnis,
  defaultConfig,
  loadRestrictors,
  podsModes,
  proxyModes,
  readIngressController,
  ruleLevels,
  type AnalysisConfig,
  type LoadRestrictor,
  type RuleLevel,
} from '../model/config';
import { checkGlob } from './glob';
import { messages, type Locale } from '../l10n/l10n';
import type { ReleaseSetting } from '../model/helmCharts';
import { defaultHelmTimeoutMs } from './helm';
import { defaultKustomizeTimeoutMs } from './kustomizeBinary';
import { isDns1123Label } from '../model/dnsNames';

export interface FileOptions {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly maxSizeKB: number;
}

/** How Helm charts are rendered (`kubeNetlens.helm.*`). */
export interface HelmSettings {
  /** The helm executable; undefined: `helm` on PATH. */
  readonly path?: string;
  readonly timeoutMs: number;
  readonly releases: readonly ReleaseSetting[];
  /**
   * Whether helm may run at all: false in an untrusted workspace (rendering runs a program the workspace's settings
   * could name). It comes from the client's workspace trust, never from a setting.
   */
  readonly allowed: boolean;
}

/** How Kustomize builds are found and rendered (`kubeNetlens.kustomize.*`). */
export interface KustomizeSettings {
  /**
   * Globs naming the root kustomizations, relative to a workspace folder (matched against the folder of the
   * kustomization and against its file); empty: every kustomization no other one includes is a root.
   */
  readonly roots: readonly string[];
  /** The workspace folders the roots are relative to (file system paths; the server sets them). */
  readonly folders: readonly string[];
  /** The kustomize or kubectl executable; undefined: `kustomize`, else `kubectl`, on PATH. */
  readonly path?: string;
  readonly timeoutMs: number;
  /** Whether the real Kustomize may run: false in an untrusted workspace, from the client's trust, never a setting. */
  readonly allowed: boolean;
  /**
   * `kubeNetlens.kustomize.loadRestrictor`: which files a kustomization may read, natively and in the real Kustomize.
   * `none` only from the user's own settings: it is a restricted setting (package.json), machine-scoped (a workspace's
   * settings.json cannot set it), the client sends only the user's value, and an untrusted workspace gets `rootOnly`.
   */
  readonly loadRestrictor: LoadRestrictor;
}

export interface Settings {
  readonly analysis: AnalysisConfig;
  readonly files: FileOptions;
  /** Values that were refused, one sentence each, for the user (an invalid glob pattern, say). */
  readonly warnings?: readonly string[];
  readonly helm: HelmSettings;
  readonly kustomize: KustomizeSettings;
}

/** `maxSizeKB` is clamped to this (64 MB): a file is read whole into memory, and a setting must not lift that bound. */
export const maxSizeKBLimit = 64 * 1024;

export const defaultFileOptions: FileOptions = {
  include: ['**/*.yaml', '**/*.yml'],
  exclude: ['**/node_modules/**', '**/.git/**'],
  maxSizeKB: 1024,
};

export const defaultHelmSettings: HelmSettings = { timeoutMs: defaultHelmTimeoutMs, releases: [], allowed: false };

export const defaultKustomizeSettings: KustomizeSettings = {
  roots: [],
  folders: [],
  timeoutMs: defaultKustomizeTimeoutMs,
  allowed: false,
  loadRestrictor: 'rootOnly',
};

export const defaultSettings: Settings = { analysis: defaultConfig, files: defaultFileOptions, helm: defaultHelmSettings, kustomize: defaultKustomizeSettings };

/**
 * `trusted`: the client's workspace trust; without it helm never runs and the helm settings are not read. `locale`:
 * the language of the warnings about refused values (undefined: English).
 */
export function readSettings(raw: unknown, trusted = false, locale?: Locale): Settings {
  const msg = messages(locale);
  const s = isObject(raw) ? raw : {};
  const coreDns = isObject(s.coreDns) ? s.coreDns : {};
  const files = isObject(s.files) ? s.files : {};
  const rules: Record<string, RuleLevel> = {};
  if (isObject(s.rules)) {
    for (const [code, level] of Object.entries(s.rules)) {
      const known = oneOf(level, ruleLevels);
      if (known) rules[code] = known;
    }
  }
  const warnings: string[] = [];
  const validGlobs = (list: readonly string[], setting: string) =>
    list.filter((p) => {
      const reason = checkGlob(p, msg);
      if (reason) warnings.push(msg('{0}: the pattern {1} is ignored ({2}).', setting, JSON.stringify(p.length > 80 ? `${p.slice(0, 80)}…` : p), reason));
      return !reason;
    });
  const globs = (key: 'include' | 'exclude', fallback: readonly string[]): readonly string[] => {
    const list = stringList(files[key]);
    if (!list) return fallback;
    const valid = validGlobs(list, `kubeNetlens.files.${key}`);
    // An include list with no usable pattern left would analyse nothing: the default applies instead.
    return key === 'include' && !valid.length ? fallback : valid;
  };
  // A malformed controller setting is said, and the rule stays quiet as without one.
  const controller = s.ingressController === undefined || s.ingressController === null ? undefined : readIngressController(s.ingressController, msg);
  if (controller && 'error' in controller) warnings.push(msg('kubeNetlens.{0}; the setting is ignored.', controller.error));
  const settings: Settings = {
    analysis: {
      clusterDomain: nonEmpty(s.clusterDomain)?.replace(/^\.+|\.+$/g, '') || defaultConfig.clusterDomain,
      defaultNamespace: nonEmpty(s.defaultNamespace) ?? defaultConfig.defaultNamespace,
      nodePortRange: readRange(s.nodePortRange) ?? defaultConfig.nodePortRange,
      proxyMode: oneOf(s.proxyMode, proxyModes) ?? defaultConfig.proxyMode,
      cni: oneOf(s.cni, cnis) ?? defaultConfig.cni,
      coreDns: {
        podsMode: oneOf(coreDns.podsMode, podsModes) ?? defaultConfig.coreDns.podsMode,
        endpointPodNames: typeof coreDns.endpointPodNames === 'boolean' ? coreDns.endpointPodNames : defaultConfig.coreDns.endpointPodNames,
      },
      rules,
      ...(controller && !('error' in controller) && { ingressController: controller }),
    },
    files: {
      include: globs('include', defaultFileOptions.include),
      exclude: globs('exclude', defaultFileOptions.exclude),
      maxSizeKB: typeof files.maxSizeKB === 'number' && files.maxSizeKB > 0 ? Math.min(files.maxSizeKB, maxSizeKBLimit) : defaultFileOptions.maxSizeKB,
    },
    helm: trusted ? readHelm(isObject(s.helm) ? s.helm : {}) : defaultHelmSettings,
    kustomize: readKustomize(isObject(s.kustomize) ? s.kustomize : {}, trusted, validGlobs),
  };
  return warnings.length ? { ...settings, warnings } : settings;
}

function readHelm(h: Record<string, unknown>): HelmSettings {
  const seconds = h.timeoutSeconds;
  const releases: ReleaseSetting[] = [];
  if (Array.isArray(h.releases)) {
    for (const r of h.releases) {
      if (!isObject(r)) continue;
      const chart = nonEmpty(r.chart);
      const name = nonEmpty(r.name);
      // helm's release names are DNS-1123 labels (semantics §6) of at most 53 characters
      if (!chart || !name || !isDns1123Label(name) || name.length > 53) continue;
      const namespace = nonEmpty(r.namespace);
      releases.push({
        chart,
        name,
        ...(namespace && isDns1123Label(namespace) && { namespace }),
        values: (stringList(r.values) ?? []).filter((v) => v.trim()),
        set: (stringList(r.set) ?? []).filter((v) => /^[^=]+=/.test(v)),
      });
    }
  }
  return {
    path: nonEmpty(h.path),
    timeoutMs: typeof seconds === 'number' && seconds > 0 && seconds <= 600 ? Math.round(seconds * 1000) : defaultHelmTimeoutMs,
    releases,
    allowed: true,
  };
}

/** The roots are read in any workspace (they only choose what is analysed); the executable only in a trusted one. */
function readKustomize(
  k: Record<string, unknown>,
  trusted: boolean,
  validGlobs: (list: readonly string[], setting: string) => readonly string[],
): KustomizeSettings {
  const roots = validGlobs(
    (stringList(k.roots) ?? []).filter((p) => p.trim()),
    'kubeNetlens.kustomize.roots',
  );
  if (!trusted) return { ...defaultKustomizeSettings, roots };
  const seconds = k.timeoutSeconds;
  return {
    roots,
    folders: [],
    path: nonEmpty(k.path),
    timeoutMs: typeof seconds === 'number' && seconds > 0 && seconds <= 600 ? Math.round(seconds * 1000) : defaultKustomizeTimeoutMs,
    allowed: true,
    loadRestrictor: oneOf(k.loadRestrictor, loadRestrictors) ?? 'rootOnly',
  };
}

/** `30000-32767` (the kube-apiserver flag's form) or `[30000, 32767]`. */
function readRange(v: unknown): readonly [number, number] | undefined {
  let lo: number | undefined;
  let hi: number | undefined;
  if (typeof v === 'string') {
    const m = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(v);
    if (m) [lo, hi] = [Number(m[1]), Number(m[2])];
  } else if (Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === 'number')) [lo, hi] = v as [number, number];
  if (lo === undefined || hi === undefined || lo < 1 || hi > 65535 || lo > hi) return undefined;
  return [lo, hi];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function nonEmpty(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[]): T | undefined {
  return typeof v === 'string' && (allowed as readonly string[]).includes(v) ? (v as T) : undefined;
}

function stringList(v: unknown): readonly string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined;
}
