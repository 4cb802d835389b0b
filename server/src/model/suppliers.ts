// Which custom resources are evidence that something outside the manifests supplies pods, Services or other objects
// in a namespace (semantics §9.0, §9.2): an operator that turns the object into pods, or a deployer (a GitOps
// application, a Helm release object) that applies manifests from elsewhere. A ServiceMonitor, a Certificate, an Istio
// VirtualService or a Kueue ClusterQueue makes nothing of the kind and is no such evidence.

import { phrase, type Phrase } from '../l10n/l10n';
import { at, isMap, type YMap, type YNode } from './yamlTree';

/**
 * What a custom resource supplies: `pods` (an operator makes pods, and usually the Services in front of them, from it)
 * or `objects` (it deploys manifests kept elsewhere: anything may appear in `namespace`, or in any namespace when
 * that is undefined). `why` completes "… is a custom resource that …" in messages.
 */
export interface Supplier {
  readonly supplies: 'pods' | 'objects';
  readonly why: Phrase;
  /** For `objects`: the namespace its manifests land in, when it says; undefined means wherever they name. */
  readonly namespace?: string;
}

/**
 * Kinds whose operators make pods, by API group, from each project's API reference: the Prometheus operator
 * (Prometheus, Alertmanager, ThanosRuler, PrometheusAgent), Elastic Cloud on Kubernetes, the RabbitMQ cluster
 * operator, KubeRay, Argo Rollouts/Workflows/Events, LeaderWorkerSet and JobSet, Knative Serving and Eventing,
 * Strimzi, CloudNativePG, Crunchy PGO, the Zalando Postgres operator, the MongoDB Community operator, Redis
 * operators, the Grafana and Jaeger operators, the OpenTelemetry operator, Kubeflow training and notebooks, KServe,
 * Seldon, Vitess, TiDB, Percona, MySQL/MariaDB operators, Cassandra (k8ssandra/cass-operator), Keycloak, Istio's
 * operator, Spark, Flink, Dapr (sidecars aside, its control plane), Tekton runs, Kafka (Confluent), NATS, Temporal.
 * A group listed with `*` makes pods for every kind it defines that looks like a workload (see `looksLikeWorkload`).
 */
const podMakingKinds: ReadonlyMap<string, ReadonlySet<string> | '*'> = new Map<string, ReadonlySet<string> | '*'>([
  ['monitoring.coreos.com', new Set(['Prometheus', 'Alertmanager', 'ThanosRuler', 'PrometheusAgent'])],
  ['elasticsearch.k8s.elastic.co', '*'],
  ['kibana.k8s.elastic.co', '*'],
  ['apm.k8s.elastic.co', '*'],
  ['beat.k8s.elastic.co', '*'],
  ['agent.k8s.elastic.co', '*'],
  ['enterprisesearch.k8s.elastic.co', '*'],
  ['logstash.k8s.elastic.co', '*'],
  ['maps.k8s.elastic.co', '*'],
  ['rabbitmq.com', new Set(['RabbitmqCluster'])],
  ['ray.io', new Set(['RayCluster', 'RayService', 'RayJob'])],
  ['argoproj.io', new Set(['Rollout', 'Workflow', 'CronWorkflow', 'Sensor', 'EventSource', 'EventBus'])],
  ['leaderworkerset.x-k8s.io', new Set(['LeaderWorkerSet'])],
  ['jobset.x-k8s.io', new Set(['JobSet'])],
  ['serving.knative.dev', new Set(['Service', 'Configuration', 'Revision'])],
  ['eventing.knative.dev', new Set(['Broker'])],
  ['sources.knative.dev', '*'],
  ['operator.knative.dev', new Set(['KnativeServing', 'KnativeEventing'])],
  ['kafka.strimzi.io', new Set(['Kafka', 'KafkaConnect', 'KafkaMirrorMaker', 'KafkaMirrorMaker2', 'KafkaBridge', 'KafkaNodePool'])],
  ['postgresql.cnpg.io', new Set(['Cluster', 'Pooler'])],
  ['postgres-operator.crunchydata.com', new Set(['PostgresCluster', 'PGAdmin'])],
  ['acid.zalan.do', new Set(['postgresql'])],
  ['mongodbcommunity.mongodb.com', new Set(['MongoDBCommunity'])],
  ['mongodb.com', new Set(['MongoDB', 'MongoDBOpsManager'])],
  ['redis.redis.opstreelabs.in', '*'],
  ['databases.spotahome.com', new Set(['RedisFailover'])],
  ['grafana.integreatly.org', new Set(['Grafana'])],
  ['integreatly.org', new Set(['Grafana'])],
  ['jaegertracing.io', new Set(['Jaeger'])],
  ['opentelemetry.io', new Set(['OpenTelemetryCollector'])],
  ['kubeflow.org', new Set(['Notebook', 'TFJob', 'PyTorchJob', 'MPIJob', 'XGBoostJob', 'PaddleJob', 'JAXJob', 'TrainJob', 'Experiment'])],
  ['trainer.kubeflow.org', '*'],
  ['serving.kserve.io', new Set(['InferenceService', 'ServingRuntime', 'InferenceGraph'])],
  ['machinelearning.seldon.io', new Set(['SeldonDeployment'])],
  ['planetscale.com', '*'],
  ['pingcap.com', new Set(['TidbCluster', 'TidbMonitor', 'TidbDashboard'])],
  ['pxc.percona.com', new Set(['PerconaXtraDBCluster'])],
  ['psmdb.percona.com', new Set(['PerconaServerMongoDB'])],
  ['pgv2.percona.com', new Set(['PerconaPGCluster'])],
  ['mysql.oracle.com', new Set(['InnoDBCluster'])],
  ['k8s.mariadb.com', new Set(['MariaDB', 'MaxScale'])],
  ['mysql.presslabs.org', new Set(['MysqlCluster'])],
  ['cassandra.datastax.com', new Set(['CassandraDatacenter'])],
  ['k8ssandra.io', new Set(['K8ssandraCluster'])],
  ['k9.keycloak.org', new Set(['Keycloak'])],
  ['keycloak.org', new Set(['Keycloak'])],
  ['install.istio.io', new Set(['IstioOperator'])],
  ['sailoperator.io', new Set(['Istio', 'IstioCNI', 'ZTunnel'])],
  ['sparkoperator.k8s.io', new Set(['SparkApplication', 'ScheduledSparkApplication'])],
  ['flink.apache.org', new Set(['FlinkDeployment', 'FlinkSessionJob'])],
  ['tekton.dev', new Set(['TaskRun', 'PipelineRun'])],
  ['platform.confluent.io', '*'],
  ['nats.io', new Set(['NatsCluster'])],
  ['temporal.io', new Set(['TemporalCluster'])],
  ['minio.min.io', new Set(['Tenant'])],
  ['kubevirt.io', new Set(['VirtualMachine', 'VirtualMachineInstance', 'VirtualMachineInstanceReplicaSet'])],
  ['apps.kruise.io', new Set(['CloneSet', 'StatefulSet', 'DaemonSet', 'BroadcastJob', 'AdvancedCronJob', 'UnitedDeployment'])],
  ['batch.volcano.sh', new Set(['Job'])],
  ['kueue.x-k8s.io', new Set([])],
]);

/**
 * Deployers: objects that apply manifests from elsewhere (Argo CD Applications, Flux HelmReleases and
 * Kustomizations, k3s HelmCharts, Carvel Apps). Where their manifests land is read from the field each project
 * documents (`spec.destination.namespace`, `spec.targetNamespace`); without it, anywhere.
 */
type LandsIn = (spec: YNode | undefined, own: string) => string | undefined;
const deployers: ReadonlyMap<string, LandsIn> = new Map<string, LandsIn>([
  ['argoproj.io/Application', (spec: YNode | undefined) => textAt(spec, 'destination', 'namespace')],
  ['argoproj.io/ApplicationSet', () => undefined],
  ['helm.toolkit.fluxcd.io/HelmRelease', (spec: YNode | undefined, own: string) => textAt(spec, 'targetNamespace') ?? own],
  ['kustomize.toolkit.fluxcd.io/Kustomization', (spec: YNode | undefined) => textAt(spec, 'targetNamespace')],
  ['helm.cattle.io/HelmChart', (spec: YNode | undefined) => textAt(spec, 'targetNamespace') ?? 'default'],
  ['kappctrl.k14s.io/App', () => undefined],
  ['fleet.cattle.io/GitRepo', () => undefined],
]);

/** What a custom resource supplies, from its group and kind or its shape; undefined for one that supplies nothing. */
export function supplierOf(apiVersion: string, kind: string, namespace: string, root: YMap): Supplier | undefined {
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const spec = at(root, 'spec');
  const deployer = deployers.get(`${group}/${kind}`);
  if (deployer) {
    const lands = deployer(spec, namespace);
    return {
      supplies: 'objects',
      why: lands ? phrase('deploys manifests kept elsewhere into namespace "{0}"', lands) : phrase('deploys manifests kept elsewhere'),
      ...(lands ? { namespace: lands } : {}),
    };
  }
  const known = podMakingKinds.get(group);
  if (known === '*' || known?.has(kind)) return { supplies: 'pods', why: phrase('an operator turns into pods') };
  if (known) return undefined;
  if (looksLikeWorkload(spec))
    return { supplies: 'pods', why: phrase('looks like a workload (it has a pod template, containers or replicas), so an operator may turn it into pods') };
  return undefined;
}

/**
 * The shape of a custom resource an operator turns into pods: a pod template or pod spec, containers, an image, or a
 * replica count in its spec.
 */
function looksLikeWorkload(spec: YNode | undefined): boolean {
  if (!isMap(spec)) return false;
  for (const key of ['template', 'podTemplate', 'podSpec', 'containers', 'image', 'replicas', 'pod']) if (spec.entries.has(key)) return true;
  return false;
}

/** Whether a CustomResourceDefinition's schema holds a pod template (a `containers` property within a few levels). */
export function schemaHasPodTemplate(root: YMap): boolean {
  const versions = at(root, 'spec', 'versions');
  const legacy = at(root, 'spec', 'validation');
  let budget = 50_000;
  const stack: YNode[] = [];
  if (versions) stack.push(versions);
  if (legacy) stack.push(legacy);
  while (stack.length && budget-- > 0) {
    const n = stack.pop()!;
    if (n.type === 'scalar') continue;
    if (n.type === 'seq') {
      for (const i of n.items) stack.push(i);
      continue;
    }
    const props = n.entries.get('properties')?.value;
    if (isMap(props) && props.entries.has('containers')) return true;
    for (const e of n.entries.values()) stack.push(e.value);
  }
  return false;
}

function textAt(n: YNode | undefined, k1: string, k2?: string): string | undefined {
  const v = at(n, k1, k2);
  return v?.type === 'scalar' && typeof v.value === 'string' && v.value ? v.value : undefined;
}
