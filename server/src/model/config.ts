// The settings the analysis depends on. They travel as parameters, never through a global.

// The values of each enumerated setting, declared once: the types, the settings reader (workspace/settings.ts) and
// a test against package.json `contributes.configuration` all use these lists.

import { messages, phrase, say, type Locale, type Msg, type Phrase } from '../l10n/l10n';

/** `kubeNetlens.proxyMode` */
export const proxyModes = ['iptables', 'ipvs', 'nftables'] as const;
export type ProxyMode = (typeof proxyModes)[number];
/** `kubeNetlens.cni` */
export const cnis = ['flannel-vxlan', 'flannel-host-gw', 'calico-bgp', 'calico-ipip', 'calico-vxlan', 'cilium', 'generic'] as const;
export type Cni = (typeof cnis)[number];
/** `kubeNetlens.coreDns.podsMode` */
export const podsModes = ['disabled', 'insecure', 'verified'] as const;
export type PodsMode = (typeof podsModes)[number];
/**
 * `kubeNetlens.kustomize.loadRestrictor` (the CLI's `--load-restrictor`, spelt as kustomize spells it): which files a
 * kustomization may read. `rootOnly` is kustomize's default, LoadRestrictionsRootOnly (api/internal/loader
 * loadrestrictions.go): only files in or below its own folder, links resolved; `none` is LoadRestrictionsNone.
 */
export const loadRestrictors = ['rootOnly', 'none'] as const;
export type LoadRestrictor = (typeof loadRestrictors)[number];
/** The severity of a finding. */
export const severities = ['error', 'warning', 'information', 'hint'] as const;
export type Severity = (typeof severities)[number];
/** The values of `kubeNetlens.rules`: a severity, or `off`. */
export const ruleLevels = [...severities, 'off'] as const;
export type RuleLevel = (typeof ruleLevels)[number];

export interface AnalysisConfig {
  /** kubelet `--cluster-domain` and the CoreDNS zone (semantics §0). */
  readonly clusterDomain: string;
  /** Namespace of objects that do not set `metadata.namespace`. */
  readonly defaultNamespace: string;
  /** kube-apiserver `--service-node-port-range` (semantics §5.6). */
  readonly nodePortRange: readonly [number, number];
  readonly proxyMode: ProxyMode;
  readonly cni: Cni;
  /** CoreDNS kubernetes plugin options (semantics §0: kubeadm default is `pods insecure`). */
  readonly coreDns: { readonly podsMode: PodsMode; readonly endpointPodNames: boolean };
  /** Per-rule severity overrides; `off` disables a rule. */
  readonly rules: Readonly<Record<string, RuleLevel>>;
  /**
   * `kubeNetlens.ingressController`: the namespace and pod labels of the ingress controller, for when the workspace
   * does not describe it (ingress-backend-policy-blocked; docs/networkpolicy-semantics.md).
   */
  readonly ingressController?: IngressControllerSetting;
  /**
   * The language of the messages (docs/localization.md): VS Code's display language, the CLI's `--lang` or locale
   * environment. Undefined: English. Findings are made in it; nothing else depends on it.
   */
  readonly locale?: Locale;
}

export interface IngressControllerSetting {
  readonly namespace: string;
  /** Labels every controller pod carries (at least one). */
  readonly podLabels: Readonly<Record<string, string>>;
}

const labelKey = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const labelValue = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

/**
 * The setting's value, or why it is not one (a namespace name and a non-empty map of valid label keys and values, as
 * the API server accepts them on a pod), worded by `msg` (English unless said).
 */
export function readIngressController(v: unknown, msg: Msg = messages(undefined)): IngressControllerSetting | { readonly error: string } {
  const read = ingressControllerOf(v);
  return 'problem' in read ? { error: say(read.problem, msg) } : read;
}

/** The same, the reason as a phrase of the catalogue (`.kube-netlens.yaml` words it with its other errors). */
export function ingressControllerOf(v: unknown): IngressControllerSetting | { readonly problem: Phrase } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { problem: phrase('ingressController must be a mapping with namespace and podLabels') };
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).find((k) => k !== 'namespace' && k !== 'podLabels');
  if (extra) return { problem: phrase('ingressController: unknown key {0} (the keys are namespace and podLabels)', JSON.stringify(extra)) };
  if (typeof o.namespace !== 'string' || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(o.namespace) || o.namespace.length > 63)
    return { problem: phrase('ingressController.namespace must be a namespace name') };
  const labels = o.podLabels;
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels) || !Object.keys(labels).length)
    return { problem: phrase('ingressController.podLabels must be a mapping of at least one label to its value') };
  const podLabels: Record<string, string> = {};
  for (const [k, value] of Object.entries(labels as Record<string, unknown>)) {
    if (!labelKey.test(k) || k.length > 316) return { problem: phrase('ingressController.podLabels: {0} is not a label key', JSON.stringify(k)) };
    if (typeof value !== 'string' || !labelValue.test(value) || value.length > 63)
      return { problem: phrase('ingressController.podLabels.{0} must be a label value (a string of at most 63 characters)', k) };
    podLabels[k] = value;
  }
  return { namespace: o.namespace, podLabels };
}

export const defaultConfig: AnalysisConfig = {
  clusterDomain: 'cluster.local',
  defaultNamespace: 'default',
  nodePortRange: [30000, 32767],
  proxyMode: 'iptables',
  cni: 'flannel-vxlan',
  coreDns: { podsMode: 'insecure', endpointPodNames: false },
  rules: {},
};

/**
 * The severity findings with `code` are shown at: the `kubeNetlens.rules` setting for the code, else `fallback` (the
 * rule's default, or what the parser or renderer said); undefined when the setting is `off`. The engine applies it
 * to rule findings and parse problems, and project/helmFindings.ts to the problems of Helm renders.
 */
export function configuredSeverity(rules: AnalysisConfig['rules'], code: string, fallback: Severity): Severity | undefined {
  const configured = rules[code];
  return configured === 'off' ? undefined : (configured ?? fallback);
}

export function withDefaults(partial: Partial<AnalysisConfig> | undefined): AnalysisConfig {
  return {
    ...defaultConfig,
    ...partial,
    coreDns: { ...defaultConfig.coreDns, ...partial?.coreDns },
    rules: { ...partial?.rules },
  };
}
