// Where Kustomize's built-in transformers write: its default transformer configuration
// (api/internal/konfig/builtinpluginconsts in kubernetes-sigs/kustomize), restated as data. A path walks maps by key
// and every element of a sequence it meets on the way, as Kustomize's field specs do.

export interface FieldSpec {
  readonly group?: string;
  readonly version?: string;
  readonly kind?: string;
  readonly path: readonly string[];
  /** Create missing maps on the way (and the field itself). */
  readonly create: boolean;
}

export interface Gvk {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export function gvkSelected(x: Gvk, sel: { group?: string; version?: string; kind?: string }): boolean {
  return (!sel.group || x.group === sel.group) && (!sel.version || x.version === sel.version) && (!sel.kind || x.kind === sel.kind);
}

function fs(path: string, kind?: string, opts: { group?: string; version?: string; create?: boolean } = {}): FieldSpec {
  return { path: splitFieldPath(path), kind, group: opts.group, version: opts.version, create: opts.create ?? false };
}

/** Splits a Kustomize field path on `/` that is not escaped as `\/`. A segment ending in `[]` names a sequence (kept). */
export function splitFieldPath(path: string): string[] {
  return path.split(/(?<!\\)\//).map((s) => s.replace(/\\\//g, '/'));
}

const podTemplateLabels: FieldSpec[] = [
  fs('metadata/labels', undefined, { create: true }),
  fs('spec/template/metadata/labels', 'ReplicationController', { version: 'v1', create: true }),
  fs('spec/template/metadata/labels', 'Deployment', { create: true }),
  fs('spec/template/metadata/labels', 'ReplicaSet', { create: true }),
  fs('spec/template/metadata/labels', 'DaemonSet', { create: true }),
  fs('spec/template/metadata/labels', 'StatefulSet', { group: 'apps', create: true }),
  fs('spec/template/metadata/labels', 'Job', { group: 'batch', create: true }),
  fs('spec/jobTemplate/metadata/labels', 'CronJob', { group: 'batch', create: true }),
  fs('spec/jobTemplate/spec/template/metadata/labels', 'CronJob', { group: 'batch', create: true }),
];

const volumeClaimTemplateLabels: FieldSpec[] = [fs('spec/volumeClaimTemplates[]/metadata/labels', 'StatefulSet', { group: 'apps', create: true })];

function affinitySelectors(kind: string): FieldSpec[] {
  return [
    'spec/template/spec/affinity/podAffinity/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels',
    'spec/template/spec/affinity/podAffinity/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels',
    'spec/template/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels',
    'spec/template/spec/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels',
    'spec/template/spec/topologySpreadConstraints/labelSelector/matchLabels',
  ].map((p) => fs(p, kind, { group: 'apps' }));
}

/** commonLabels, and `labels` with includeSelectors: metadata, pod templates and selectors. */
export const commonLabelSpecs: readonly FieldSpec[] = [
  fs('spec/selector', 'Service', { version: 'v1', create: true }),
  fs('spec/selector', 'ReplicationController', { version: 'v1', create: true }),
  fs('spec/selector/matchLabels', 'Deployment', { create: true }),
  ...affinitySelectors('Deployment'),
  fs('spec/selector/matchLabels', 'ReplicaSet', { create: true }),
  fs('spec/selector/matchLabels', 'DaemonSet', { create: true }),
  fs('spec/selector/matchLabels', 'StatefulSet', { group: 'apps', create: true }),
  ...affinitySelectors('StatefulSet'),
  fs('spec/selector/matchLabels', 'Job', { group: 'batch' }),
  fs('spec/jobTemplate/spec/selector/matchLabels', 'CronJob', { group: 'batch' }),
  fs('spec/selector/matchLabels', 'PodDisruptionBudget', { group: 'policy' }),
  fs('spec/podSelector/matchLabels', 'NetworkPolicy', { group: 'networking.k8s.io' }),
  fs('spec/ingress/from/podSelector/matchLabels', 'NetworkPolicy', { group: 'networking.k8s.io' }),
  fs('spec/egress/to/podSelector/matchLabels', 'NetworkPolicy', { group: 'networking.k8s.io' }),
  ...podTemplateLabels,
  ...volumeClaimTemplateLabels,
];

/** `labels` with includeTemplates (and without includeSelectors): metadata and pod templates. */
export const templateLabelSpecs: readonly FieldSpec[] = podTemplateLabels;

export const metadataLabelSpec: FieldSpec = fs('metadata/labels', undefined, { create: true });

export const commonAnnotationSpecs: readonly FieldSpec[] = [
  fs('metadata/annotations', undefined, { create: true }),
  fs('spec/template/metadata/annotations', 'ReplicationController', { version: 'v1', create: true }),
  fs('spec/template/metadata/annotations', 'Deployment', { create: true }),
  fs('spec/template/metadata/annotations', 'ReplicaSet', { create: true }),
  fs('spec/template/metadata/annotations', 'DaemonSet', { create: true }),
  fs('spec/template/metadata/annotations', 'StatefulSet', { create: true }),
  fs('spec/template/metadata/annotations', 'Job', { group: 'batch', create: true }),
  fs('spec/jobTemplate/metadata/annotations', 'CronJob', { group: 'batch', create: true }),
  fs('spec/jobTemplate/spec/template/metadata/annotations', 'CronJob', { group: 'batch', create: true }),
];

/** The namespace transformer's field specs besides metadata.namespace (a Namespace's own name, services named in APIServices and CRD conversion webhooks). */
export const namespaceSpecs: readonly FieldSpec[] = [
  fs('metadata/name', 'Namespace', { create: true }),
  fs('spec/service/namespace', 'APIService', { group: 'apiregistration.k8s.io', create: true }),
  fs('spec/conversion/webhook/clientConfig/service/namespace', 'CustomResourceDefinition', { group: 'apiextensions.k8s.io' }),
];

export const replicaSpecs: readonly FieldSpec[] = ['Deployment', 'ReplicationController', 'ReplicaSet', 'StatefulSet'].map((k) =>
  fs('spec/replicas', k, { create: true }),
);

export const imageSpecs: readonly FieldSpec[] = [
  'spec/containers[]/image',
  'spec/initContainers[]/image',
  'spec/template/spec/containers[]/image',
  'spec/template/spec/initContainers[]/image',
].map((p) => fs(p, undefined, { create: true }));

/** A kind whose objects refer to others by name, and the fields of the referring objects that hold the name. */
export interface NameReference {
  readonly referral: { readonly group?: string; readonly version?: string; readonly kind: string };
  readonly fields: readonly FieldSpec[];
}

const podSpecAt: Record<string, string> = {
  Pod: 'spec',
  PodTemplate: 'template/spec',
  Deployment: 'spec/template/spec',
  ReplicaSet: 'spec/template/spec',
  DaemonSet: 'spec/template/spec',
  StatefulSet: 'spec/template/spec',
  Job: 'spec/template/spec',
  CronJob: 'spec/jobTemplate/spec/template/spec',
  ReplicationController: 'spec/template/spec',
};

function inPodSpecs(kinds: readonly string[], subpaths: readonly string[]): FieldSpec[] {
  return kinds.flatMap((k) => subpaths.map((s) => fs(`${podSpecAt[k]}/${s}`, k, k === 'Pod' ? { version: 'v1' } : {})));
}

const configKinds = ['Pod', 'PodTemplate', 'Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job', 'CronJob'];
const podKinds = ['Pod', 'StatefulSet', 'Deployment', 'ReplicationController', 'CronJob', 'Job', 'DaemonSet'];
const envRefs = (ref: string, key: string) => ['containers', 'initContainers'].flatMap((c) => [`${c}/env/valueFrom/${key}/name`, `${c}/envFrom/${ref}/name`]);

export const nameReferences: readonly NameReference[] = [
  ...['Deployment', 'ReplicationController', 'ReplicaSet', 'StatefulSet'].map((kind) => ({
    referral: { kind },
    fields: [fs('spec/scaleTargetRef/name', 'HorizontalPodAutoscaler')],
  })),
  {
    referral: { kind: 'ConfigMap', version: 'v1' },
    fields: [
      ...inPodSpecs(configKinds, ['volumes/configMap/name', ...envRefs('configMapRef', 'configMapKeyRef'), 'volumes/projected/sources/configMap/name']),
      fs('spec/configSource/configMap', 'Node'),
      fs('rules/resourceNames', 'Role'),
      fs('rules/resourceNames', 'ClusterRole'),
      fs('metadata/annotations/nginx.ingress.kubernetes.io\\/fastcgi-params-configmap', 'Ingress'),
    ],
  },
  {
    referral: { kind: 'Secret', version: 'v1' },
    fields: [
      ...inPodSpecs(configKinds, [
        'volumes/secret/secretName',
        ...envRefs('secretRef', 'secretKeyRef'),
        'imagePullSecrets/name',
        'volumes/projected/sources/secret/name',
      ]),
      fs('spec/tls/secretName', 'Ingress'),
      fs('metadata/annotations/ingress.kubernetes.io\\/auth-secret', 'Ingress'),
      fs('metadata/annotations/nginx.ingress.kubernetes.io\\/auth-secret', 'Ingress'),
      fs('metadata/annotations/nginx.ingress.kubernetes.io\\/auth-tls-secret', 'Ingress'),
      fs('imagePullSecrets/name', 'ServiceAccount'),
      ...['secretName', 'adminSecretName', 'userSecretName', 'secretRef'].map((p) => fs(`parameters/${p}`, 'StorageClass')),
      fs('rules/resourceNames', 'Role'),
      fs('rules/resourceNames', 'ClusterRole'),
      fs('spec/template/spec/containers/env/valueFrom/secretKeyRef/name', 'Service', { group: 'serving.knative.dev', version: 'v1' }),
      fs('spec/azureFile/secretName', 'PersistentVolume'),
    ],
  },
  {
    referral: { kind: 'Service', version: 'v1' },
    fields: [
      fs('spec/serviceName', 'StatefulSet', { group: 'apps' }),
      fs('spec/rules/http/paths/backend/serviceName', 'Ingress'),
      fs('spec/backend/serviceName', 'Ingress'),
      fs('spec/rules/http/paths/backend/service/name', 'Ingress'),
      fs('spec/defaultBackend/service/name', 'Ingress'),
      fs('spec/service/name', 'APIService', { group: 'apiregistration.k8s.io' }),
      fs('webhooks/clientConfig/service', 'ValidatingWebhookConfiguration', { group: 'admissionregistration.k8s.io' }),
      fs('webhooks/clientConfig/service', 'MutatingWebhookConfiguration', { group: 'admissionregistration.k8s.io' }),
    ],
  },
  { referral: { kind: 'Role', group: 'rbac.authorization.k8s.io' }, fields: [fs('roleRef/name', 'RoleBinding', { group: 'rbac.authorization.k8s.io' })] },
  {
    referral: { kind: 'ClusterRole', group: 'rbac.authorization.k8s.io' },
    fields: [
      fs('roleRef/name', 'RoleBinding', { group: 'rbac.authorization.k8s.io' }),
      fs('roleRef/name', 'ClusterRoleBinding', { group: 'rbac.authorization.k8s.io' }),
    ],
  },
  {
    referral: { kind: 'ServiceAccount', version: 'v1' },
    fields: [
      fs('subjects', 'RoleBinding', { group: 'rbac.authorization.k8s.io' }),
      fs('subjects', 'ClusterRoleBinding', { group: 'rbac.authorization.k8s.io' }),
      ...podKinds.map((k) => fs(`${podSpecAt[k]}/serviceAccountName`, k)),
    ],
  },
  { referral: { kind: 'PersistentVolumeClaim', version: 'v1' }, fields: podKinds.map((k) => fs(`${podSpecAt[k]}/volumes/persistentVolumeClaim/claimName`, k)) },
  { referral: { kind: 'PersistentVolume', version: 'v1' }, fields: [fs('spec/volumeName', 'PersistentVolumeClaim'), fs('rules/resourceNames', 'ClusterRole')] },
  {
    referral: { kind: 'StorageClass', version: 'v1', group: 'storage.k8s.io' },
    fields: [
      fs('spec/storageClassName', 'PersistentVolume'),
      fs('spec/storageClassName', 'PersistentVolumeClaim'),
      fs('spec/volumeClaimTemplates/spec/storageClassName', 'StatefulSet'),
    ],
  },
  { referral: { kind: 'PriorityClass', version: 'v1', group: 'scheduling.k8s.io' }, fields: podKinds.map((k) => fs(`${podSpecAt[k]}/priorityClassName`, k)) },
  // Kustomize's configuration names the group `networking.k8s.io/v1` here, which no IngressClass has: it never rewrites these.
  { referral: { kind: 'IngressClass', version: 'v1', group: 'networking.k8s.io/v1' }, fields: [fs('spec/ingressClassName', 'Ingress')] },
  {
    referral: { kind: 'ValidatingAdmissionPolicy', group: 'admissionregistration.k8s.io' },
    fields: [fs('spec/policyName', 'ValidatingAdmissionPolicyBinding', { group: 'admissionregistration.k8s.io' })],
  },
];

/**
 * The kinds Kustomize's built-in OpenAPI schema (Kubernetes 1.21, its default) knows to be cluster-scoped, by group and
 * version: a kind is cluster-scoped only in the versions that schema has (not alpha ones), so `FlowSchema` of
 * flowcontrol.apiserver.k8s.io/v1 or a `ValidatingAdmissionPolicy` (newer than 1.21) is namespaced to Kustomize and
 * gets the namespace transformer's namespace, as does any kind of another group (read from `kubectl kustomize`).
 */
const clusterScopedByGroup: Readonly<Record<string, readonly string[]>> = {
  '': ['ComponentStatus', 'Namespace', 'Node', 'PersistentVolume'],
  'apiregistration.k8s.io': ['APIService'],
  'storage.k8s.io': ['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment'],
  'certificates.k8s.io': ['CertificateSigningRequest'],
  'rbac.authorization.k8s.io': ['ClusterRole', 'ClusterRoleBinding'],
  'apiextensions.k8s.io': ['CustomResourceDefinition'],
  'networking.k8s.io': ['IngressClass'],
  'admissionregistration.k8s.io': ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'],
  'scheduling.k8s.io': ['PriorityClass'],
  'node.k8s.io': ['RuntimeClass'],
};
/** The versions of each group the schema has the kinds above in (flowcontrol and policy only in v1beta1). */
const clusterScopedVersions: Readonly<Record<string, readonly string[]>> = { '': ['v1'] };

/** `kind group/version` of every object Kustomize's built-in schema knows to be cluster-scoped. */
export const clusterScopedGvks: ReadonlySet<string> = new Set([
  ...Object.entries(clusterScopedByGroup).flatMap(([group, kinds]) =>
    kinds.flatMap((kind) => (clusterScopedVersions[group] ?? ['v1', 'v1beta1']).map((version) => `${kind} ${group}/${version}`)),
  ),
  'FlowSchema flowcontrol.apiserver.k8s.io/v1beta1',
  'PriorityLevelConfiguration flowcontrol.apiserver.k8s.io/v1beta1',
  'PodSecurityPolicy policy/v1beta1',
]);

/** Kinds ordered first and last by `kustomize build`'s default (legacy) output order. */
export const orderFirst: readonly string[] = [
  'Namespace',
  'ResourceQuota',
  'StorageClass',
  'CustomResourceDefinition',
  'ServiceAccount',
  'PodSecurityPolicy',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'ConfigMap',
  'Secret',
  'Endpoints',
  'Service',
  'LimitRange',
  'PriorityClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'Deployment',
  'StatefulSet',
  'CronJob',
  'PodDisruptionBudget',
];
export const orderLast: readonly string[] = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];

/**
 * Strategic-merge list keys of the built-in types: a list under one of these field names is merged element by
 * element on the key (the `patchMergeKey` of the Kubernetes API); any other list is replaced by the patch's.
 */
export const mergeKeys: Readonly<Record<string, string>> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  env: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  imagePullSecrets: 'name',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  ownerReferences: 'uid',
};

const varRefKinds: Readonly<Record<string, string>> = {
  CronJob: 'spec/jobTemplate/spec/template/spec',
  DaemonSet: 'spec/template/spec',
  Deployment: 'spec/template/spec',
  Job: 'spec/template/spec',
  Pod: 'spec',
  ReplicaSet: 'spec/template/spec',
  StatefulSet: 'spec/template/spec',
};

/** Where `$(VAR)` is replaced: Kustomize's default varReference field specs (builtinpluginconsts/varreference.go). */
export const varReferenceSpecs: readonly FieldSpec[] = [
  ...Object.entries(varRefKinds).flatMap(([kind, at]) => [
    ...['containers', 'initContainers'].flatMap((c) => ['args', 'command', 'env/value', 'volumeMounts/mountPath'].map((f) => fs(`${at}/${c}/${f}`, kind))),
    // the volumes of a CronJob's pod template are looked for one level too high there, and a StatefulSet's in its claim templates
    fs(
      kind === 'CronJob'
        ? 'spec/jobTemplate/spec/template/volumes/nfs/server'
        : kind === 'StatefulSet'
          ? 'spec/volumeClaimTemplates/spec/nfs/server'
          : `${at}/volumes/nfs/server`,
      kind,
    ),
  ]),
  fs('spec/template/metadata/annotations', 'Deployment'),
  fs('spec/rules/host', 'Ingress'),
  fs('spec/tls/hosts', 'Ingress'),
  fs('spec/tls/secretName', 'Ingress'),
  fs('spec/ports/port', 'Service'),
  fs('spec/ports/targetPort', 'Service'),
  fs('spec/nfs/server', 'PersistentVolume'),
  fs('metadata/labels'),
  fs('metadata/annotations'),
];
