// The settings the analysis depends on. They travel as parameters, never through a global.

export type ProxyMode = 'iptables' | 'ipvs' | 'nftables';
export type Cni = 'flannel-vxlan' | 'flannel-host-gw' | 'calico-bgp' | 'calico-ipip' | 'calico-vxlan' | 'cilium' | 'generic';
export type PodsMode = 'disabled' | 'insecure' | 'verified';
export type Severity = 'error' | 'warning' | 'information' | 'hint';

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
  readonly rules: Readonly<Record<string, Severity | 'off'>>;
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

export function withDefaults(partial: Partial<AnalysisConfig> | undefined): AnalysisConfig {
  return {
    ...defaultConfig,
    ...partial,
    coreDns: { ...defaultConfig.coreDns, ...partial?.coreDns },
    rules: { ...partial?.rules },
  };
}
