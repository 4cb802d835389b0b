// The `kubeNetlens.*` settings as the editor sends them → the analysis config and the file-discovery options.
// Unknown or malformed values fall back to the defaults: a typo in settings.json never stops the analysis.

import { defaultConfig, type AnalysisConfig, type Cni, type PodsMode, type ProxyMode, type Severity } from '../model/config';
import type { ReleaseSetting } from '../model/helmCharts';
import { defaultHelmTimeoutMs } from './helm';

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

export interface Settings {
  readonly analysis: AnalysisConfig;
  readonly files: FileOptions;
  readonly helm: HelmSettings;
}

export const defaultFileOptions: FileOptions = {
  include: ['**/*.yaml', '**/*.yml'],
  exclude: ['**/node_modules/**', '**/.git/**'],
  maxSizeKB: 1024,
};

export const defaultHelmSettings: HelmSettings = { timeoutMs: defaultHelmTimeoutMs, releases: [], allowed: false };

export const defaultSettings: Settings = { analysis: defaultConfig, files: defaultFileOptions, helm: defaultHelmSettings };

const proxyModes: readonly ProxyMode[] = ['iptables', 'ipvs', 'nftables'];
const cnis: readonly Cni[] = ['flannel-vxlan', 'flannel-host-gw', 'calico-bgp', 'calico-ipip', 'calico-vxlan', 'cilium', 'generic'];
const podsModes: readonly PodsMode[] = ['disabled', 'insecure', 'verified'];
const levels: readonly (Severity | 'off')[] = ['error', 'warning', 'information', 'hint', 'off'];

/** `trusted`: the client's workspace trust; without it helm never runs and the helm settings are not read. */
export function readSettings(raw: unknown, trusted = false): Settings {
  const s = isObject(raw) ? raw : {};
  const coreDns = isObject(s.coreDns) ? s.coreDns : {};
  const files = isObject(s.files) ? s.files : {};
  const rules: Record<string, Severity | 'off'> = {};
  if (isObject(s.rules)) {
    for (const [code, level] of Object.entries(s.rules)) {
      if (typeof level === 'string' && (levels as readonly string[]).includes(level)) rules[code] = level as Severity | 'off';
    }
  }
  return {
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
    },
    files: {
      include: stringList(files.include) ?? defaultFileOptions.include,
      exclude: stringList(files.exclude) ?? defaultFileOptions.exclude,
      maxSizeKB: typeof files.maxSizeKB === 'number' && files.maxSizeKB > 0 ? files.maxSizeKB : defaultFileOptions.maxSizeKB,
    },
    helm: trusted ? readHelm(isObject(s.helm) ? s.helm : {}) : defaultHelmSettings,
  };
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
      if (!chart || !name || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) || name.length > 53) continue;
      const namespace = nonEmpty(r.namespace);
      releases.push({
        chart,
        name,
        ...(namespace && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(namespace) && { namespace }),
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
