// What the manifests cannot know (semantics §9): pods and Services an operator makes from custom resources, pods
// whose labels a controller generates, names in namespaces no manifest in scope describes, objects written without a
// namespace (applied wherever `kubectl -n` says). A lookup that lands here answers "unknown", and rules stay quiet.

import type { Cluster } from '../model/cluster';
import { fileFold } from '../model/fileFolds';
import type { ManifestFile } from '../model/parseManifest';
import { renderSource } from '../model/rendered';
import { podMakingKinds, type ClusterDependence } from '../model/helmLookups';
import { hasPlaceholder } from '../model/placeholder';
import { isGeneratedLabel } from '../model/podLabels';
import { isBuiltInApiVersion, type OtherResource, type Resource, type Workload } from '../model/resources';
import { phrase, type Phrase } from '../l10n/l10n';

/**
 * A custom resource that supplies what the manifests do not show in `namespace` (semantics §9.0, §9.2): one of a kind
 * an operator turns into pods (model/suppliers.ts, or a kind whose CustomResourceDefinition in scope has a pod
 * template), or a deployer (a GitOps Application, a Flux HelmRelease) whose manifests land there. A ServiceMonitor,
 * a Certificate or an Istio VirtualService supplies nothing and is not returned.
 */
export function supplierIn(cluster: Cluster, namespace: string): { readonly resource: Resource; readonly why: Phrase } | undefined {
  const objects = cluster.objectsIn(namespace);
  const everywhere = suppliersOf(cluster);
  if (objects) {
    let found = localSuppliers.get(objects);
    if (found === undefined) {
      found = null;
      for (const r of objects.resources) {
        const why = supplies(r, everywhere.podKinds, namespace);
        if (why) {
          found = { resource: r, why };
          break;
        }
      }
      localSuppliers.set(objects, found);
    }
    if (found) return found;
  }
  const deployer = everywhere.deployers.find((d) => d.namespace === undefined || d.namespace === namespace);
  return deployer && { resource: deployer.resource, why: deployer.resource.supplier!.why };
}

/** The first custom resource of a namespace (Gateway API objects are built in), kept with its object list. */
function customResourceIn(cluster: Cluster, namespace: string): Resource | undefined {
  const objects = cluster.objectsIn(namespace);
  if (!objects) return undefined;
  let found = customResources.get(objects);
  if (found === undefined) {
    found = objects.resources.find((r) => !isBuiltInApiVersion(r.apiVersion)) ?? null;
    customResources.set(objects, found);
  }
  return found ?? undefined;
}

const customResources = new WeakMap<object, Resource | null>();

const localSuppliers = new WeakMap<object, { readonly resource: Resource; readonly why: Phrase } | null>();

function supplies(r: Resource, podKinds: ReadonlySet<string>, namespace: string): Phrase | undefined {
  if (isBuiltInApiVersion(r.apiVersion)) return undefined;
  const s = (r as OtherResource).supplier;
  if (s?.supplies === 'pods') return s.why;
  if (s?.supplies === 'objects') return s.namespace === undefined || s.namespace === namespace ? s.why : undefined;
  const group = r.apiVersion.slice(0, Math.max(r.apiVersion.indexOf('/'), 0));
  // a kind named like a built-in one carries its group (model/resources.ts readKind): `Service.serving.knative.dev`
  const kind = r.kind.includes('.') ? r.kind.slice(0, r.kind.indexOf('.')) : r.kind;
  if (podKinds.has(`${group}/${kind}`)) return phrase('an operator turns into pods (its CustomResourceDefinition has a pod template)');
  return undefined;
}

interface Suppliers {
  /** `group/Kind` of the CustomResourceDefinitions in scope whose schema holds a pod template. */
  readonly podKinds: ReadonlySet<string>;
  /** Deployers anywhere in scope, with the namespace their manifests land in (undefined: any). */
  readonly deployers: readonly { readonly resource: OtherResource; readonly namespace?: string }[];
}

/** One file's share of `Suppliers`, in file order, worked out once per parsed file. */
const fileSuppliers = new WeakMap<ManifestFile, { readonly podKinds: readonly string[]; readonly deployers: Suppliers['deployers'] }>();

function shareOf(f: ManifestFile): { readonly podKinds: readonly string[]; readonly deployers: Suppliers['deployers'] } {
  let share = fileSuppliers.get(f);
  if (!share) {
    const kinds: string[] = [];
    const own: { readonly resource: OtherResource; readonly namespace?: string }[] = [];
    for (const r of f.resources) {
      const o = r as OtherResource;
      if (o.definesPodKind) kinds.push(o.definesPodKind);
      else if (o.supplier?.supplies === 'objects')
        own.push({ resource: o, ...(o.supplier.namespace !== undefined ? { namespace: o.supplier.namespace } : {}) });
    }
    fileSuppliers.set(f, (share = { podKinds: kinds, deployers: own }));
  }
  return share;
}

/**
 * The CRDs and deployers of the whole scope, worked out once per file list from each file's share (any change may
 * add one, but an edit re-reads only the files it changed: the others' shares are kept with their parsed files, and
 * an edit of a file with no share keeps the last answer, model/fileFolds.ts).
 */
const suppliersOfFiles = fileFold(
  (f) => {
    const share = shareOf(f);
    return share.podKinds.length > 0 || share.deployers.length > 0;
  },
  (files): Suppliers => {
    const podKinds = new Set<string>();
    const deployers: { readonly resource: OtherResource; readonly namespace?: string }[] = [];
    for (const f of files) {
      const share = shareOf(f);
      for (const k of share.podKinds) podKinds.add(k);
      for (const d of share.deployers) deployers.push(d);
    }
    return { podKinds, deployers };
  },
);

function suppliersOf(cluster: Cluster): Suppliers {
  return suppliersOfFiles(cluster.files);
}

/**
 * Why pods carrying a selector's labels may exist in `namespace` although no pod template in scope carries them, or
 * undefined when the manifests would show them. `near`: the subject's `localityOf` (an unrendered chart counts only
 * within it), or '' when the question has no subject file (any unrendered chart counts).
 */
export function unknownPods(cluster: Cluster, namespace: string, keys: Iterable<string>, near = ''): Phrase | undefined {
  const chart = unrenderedChart(cluster, near);
  if (chart) return phrase('the chart in folder "{0}" is not rendered (its Chart.yaml says why), and its templates may define such pods', chart);
  const supplier = supplierIn(cluster, namespace);
  if (supplier) return phrase('{0} {1}, and such pods may come from it', describeSupplier(supplier.resource), supplier.why);
  const fromCluster = clusterPods(cluster, namespace);
  if (fromCluster) return fromCluster;
  for (const key of keys) {
    if (isGeneratedLabel(key)) return phrase('the controller generates the value of the "{0}" label, so no manifest can know it', key);
  }
  const templated = cluster.workloadsIn(namespace).find((w) => [...w.template.labels.values()].some(hasPlaceholder));
  if (templated)
    return phrase(
      '{0} "{1}" has pod labels that a tool fills in later (placeholders), so which pods carry which labels is unknown',
      templated.kind,
      templated.name,
    );
  return undefined;
}

/**
 * Why a Gateway may exist in `namespace` though no manifest in scope defines it, or undefined: an unrendered chart's
 * templates may define it, and operators make Gateways from their custom resources (a mesh's ingress gateway, a
 * platform's edge object), under names of their choosing (semantics §9.2). Gateway API objects themselves
 * (gateway.networking.k8s.io) are built in and do not count as such custom resources.
 */
export function unknownGateway(cluster: Cluster, namespace: string, near = ''): Phrase | undefined {
  const chart = unrenderedChart(cluster, near);
  if (chart) return phrase('the chart in folder "{0}" is not rendered (its Chart.yaml says why), and its templates may define it', chart);
  // Gateways are made by operators of any kind (a mesh's ingress, a platform's edge object), not only by those that
  // make pods: any custom resource in the namespace counts.
  const cr = customResourceIn(cluster, namespace);
  if (cr)
    return phrase(
      'the {0} "{1}" ({2}) in namespace "{3}" is a custom resource, and operators create Gateways for theirs',
      cr.kind,
      cr.name,
      cr.apiVersion,
      namespace,
    );
  return undefined;
}

/** Why a Service named `name` may exist in `namespace` though no manifest in scope defines it there, or undefined. */
export function unknownService(cluster: Cluster, namespace: string, name: string, near = ''): Phrase | undefined {
  const chart = unrenderedChart(cluster, near);
  if (chart) return phrase('the chart in folder "{0}" is not rendered (its Chart.yaml says why), and it may define it', chart);
  const supplier = supplierIn(cluster, namespace);
  if (supplier) return phrase('{0} {1}, and may come with such a Service', describeSupplier(supplier.resource), supplier.why);
  const fromCluster = clusterService(cluster, namespace, name);
  if (fromCluster) return fromCluster;
  const release = outsideRelease(cluster, namespace, name);
  if (release)
    return phrase(
      '{0} carries release: {1}, the label of a Helm release these manifests do not hold, and that release names its Services "{1}-…"',
      describeSupplier(release),
      release.labels.get('release')!,
    );
  const floating = cluster.servicesNamed(name).find((s) => !s.namespaceExplicit && s.name === name);
  if (floating) return phrase('Service "{0}" is written without a namespace, so it lands in whichever namespace it is applied to', name);
  if (routingOnly(cluster, namespace) && !cluster.rejected('Service', namespace, name))
    return phrase('the manifests hold no Service and no workload in namespace "{0}", only routing, so its applications are deployed from elsewhere', namespace);
  return undefined;
}

const releaseLabelled = new WeakMap<object, readonly Resource[]>();

/**
 * A custom resource of `namespace` labelled `release: R` (Helm's release label, by which an operator's release
 * discovers the objects written for it: a ServiceMonitor or PrometheusRule for a kube-prometheus-stack release) when
 * `name` is named like that release's objects (`R-…`) and no object of the release (a built-in object with its
 * `release` or `app.kubernetes.io/instance` label) is in scope there: positive evidence
 * that the release, installed apart from these manifests, lands there and defines the Service (semantics §9.0, "an
 * unrendered chart that lands there").
 */
function outsideRelease(cluster: Cluster, namespace: string, name: string): Resource | undefined {
  const objects = cluster.objectsIn(namespace);
  if (!objects) return undefined;
  let labelled = releaseLabelled.get(objects);
  if (labelled === undefined) {
    labelled = objects.resources.filter((r) => !isBuiltInApiVersion(r.apiVersion) && !!r.labels.get('release'));
    releaseLabelled.set(objects, labelled);
  }
  if (!labelled.length) return undefined;
  return labelled.find((r) => {
    const release = r.labels.get('release')!;
    return (
      name.startsWith(`${release}-`) &&
      !objects.resources.some(
        (o) => isBuiltInApiVersion(o.apiVersion) && (o.labels.get('release') === release || o.labels.get('app.kubernetes.io/instance') === release),
      )
    );
  });
}

/**
 * Whether the manifests in scope hold only routing for a namespace: no Service and no workload there (semantics §9.2).
 * Routes and Ingresses are then written apart from the applications they route to (a documentation example, the
 * routing folder of a platform repository), and whether a backend Service exists is unknown. A namespace with a
 * workload but no Service is not routing only: its Service was forgotten.
 */
function routingOnly(cluster: Cluster, namespace: string): boolean {
  const objects = cluster.objectsIn(namespace);
  return !objects || (objects.services.length === 0 && objects.workloads.length === 0);
}

/**
 * The folder (as a URI ending in `/`) of every Helm chart in scope that has no render (no helm, an untrusted
 * workspace, a missing dependency, an error): what its templates define is unknown (semantics §9.2). Renders enter as
 * `<chart folder>#helm/…` files. A subchart (a chart inside another's `charts/` folder) is rendered with its parent:
 * the parent's render holds its objects. Worked out once per file list; an edit of any other file keeps the answer.
 */
const unrenderedChartsOf = fileFold(
  (f) => f.uri.includes('#helm/') || f.uri.endsWith('/Chart.yaml'),
  (files): readonly string[] => {
    const rendered = new Set<string>();
    const charts: string[] = [];
    for (const f of files) {
      const i = f.uri.indexOf('#helm/');
      if (i >= 0) rendered.add(f.uri.slice(0, i));
      else if (f.uri.endsWith('/Chart.yaml')) charts.push(f.uri.slice(0, f.uri.length - 'Chart.yaml'.length));
    }
    return charts.filter((root) => !rendered.has(root) && !renderedParent(root, rendered));
  },
);

function unrenderedCharts(cluster: Cluster): readonly string[] {
  return unrenderedChartsOf(cluster.files);
}

/**
 * Whether a chart in scope has no render: only then does the file asking matter to an answer (`near`), so callers
 * that key answers by it can leave it out otherwise.
 */
export function hasUnrenderedCharts(cluster: Cluster): boolean {
  return unrenderedCharts(cluster).length > 0;
}

/** Whether `…/parent/charts/sub/` lies in a rendered chart (through any depth of `charts/` folders). */
function renderedParent(root: string, rendered: ReadonlySet<string>): boolean {
  // URIs relative to the analysed folder start without a slash (`charts/sub/`, the chart itself being '')
  let at = `/${root}`;
  for (;;) {
    const i = at.lastIndexOf('/charts/', at.length - 2);
    if (i < 0) return false;
    at = at.slice(0, i + 1);
    if (rendered.has(at.slice(1))) return true;
  }
}

/**
 * The first unrendered chart that may supply what a subject lacks, as its folder's name. `near` (a folder URI, or ''
 * for none) keeps unknown inside the part of the repository the chart could belong to (semantics §9, "unknown stays
 * inside the unit and namespace it concerns"): a chart counts for subjects whose files lie in its parent's folder
 * tree (a chart and the manifests written beside it, installed together), not for another application's folder.
 */
function unrenderedChart(cluster: Cluster, near = ''): string | undefined {
  const root = unrenderedCharts(cluster).find((r) => !near || r.startsWith(`${near}/`));
  return root === undefined ? undefined : decodeURIComponent(root.slice(root.lastIndexOf('/', root.length - 2) + 1, -1));
}

/**
 * The folder within which an unrendered chart counts for a subject's file: the subject's folder's parent (the same
 * reach as the owned-namespace evidence, rules/selectorEvidence.ts). A render's URI stands for its folder.
 */
export function localityOf(uri: string): string {
  const file = renderSource(uri);
  const folder = file.slice(0, Math.max(file.lastIndexOf('/'), 0));
  return folder.slice(0, Math.max(folder.lastIndexOf('/'), 0));
}

// Helm renders made without a cluster (model/helmLookups.ts): `lookup` answered nothing and `.Capabilities` held
// defaults, so what a template looks up, and what it writes only when the cluster says so, may exist although the
// render lacks it (semantics §9.2): in the namespace the template names (the release's for `.Release.Namespace`), or
// in any when it computes one.

/** What every render's templates ask the cluster, once per file list (an edit of a file that asks nothing keeps it). */
const dependencesOfFiles = fileFold(
  (f) => !!f.clusterDependences?.length,
  (files) => {
    const list: { readonly chart: string; readonly d: ClusterDependence }[] = [];
    for (const f of files) if (f.clusterDependences?.length) for (const d of f.clusterDependences) list.push({ chart: chartFolderOf(f.uri), d });
    return list;
  },
);

function dependences(cluster: Cluster): readonly { readonly chart: string; readonly d: ClusterDependence }[] {
  return dependencesOfFiles(cluster.files);
}

/** Why pods may exist that a render lacks: a template looks up a workload, or writes one only when the cluster says so. */
function clusterPods(cluster: Cluster, namespace: string): Phrase | undefined {
  for (const { chart, d } of dependences(cluster)) {
    if (d.namespace !== undefined && d.namespace !== namespace) continue;
    // a custom resource written only when its API is installed: an operator may turn it into pods (semantics §9.2)
    const operated = d.how === 'guard' && d.apiVersion !== undefined && !isBuiltInApiVersion(d.apiVersion);
    if (d.kind === '*' || podMakingKinds.has(d.kind) || operated) return explain(chart, d, 'pods');
  }
  return undefined;
}

/** Why a Service named `name` may exist that a render lacks: a template looks it up, or writes one only when the cluster says so. */
function clusterService(cluster: Cluster, namespace: string, name: string): Phrase | undefined {
  for (const { chart, d } of dependences(cluster)) {
    if (d.namespace !== undefined && d.namespace !== namespace) continue;
    if (d.kind !== '*' && d.kind !== 'Service') continue;
    // a lookup of another name, written out, says nothing of this one (`""` lists them all)
    if (d.how === 'lookup' && d.name && d.name !== name) continue;
    return explain(chart, d, 'service');
  }
  return undefined;
}

function explain(chart: string, d: ClusterDependence, so: 'pods' | 'service'): Phrase {
  const template = d.uri.slice(d.uri.lastIndexOf('/templates/') + 1);
  const then = so === 'pods' ? phrase('such pods may exist') : phrase('the Service may exist');
  if (d.how === 'lookup') {
    return d.kind === '*'
      ? phrase(
          'the chart in folder "{0}" looks up objects in the cluster (`{1}` in {2}), which helm template answers with nothing, so {3}',
          chart,
          d.text,
          template,
          then,
        )
      : phrase(
          'the chart in folder "{0}" looks up a {1} in the cluster (`{2}` in {3}), which helm template answers with nothing, so {4}',
          chart,
          d.kind,
          d.text,
          template,
          then,
        );
  }
  return d.kind === '*'
    ? phrase(
        'the chart in folder "{0}" writes objects only when the cluster answers `{1}` (in {2}), which helm template cannot know, so {3}',
        chart,
        d.text,
        template,
        then,
      )
    : phrase(
        'the chart in folder "{0}" writes a {1} only when the cluster answers `{2}` (in {3}), which helm template cannot know, so {4}',
        chart,
        d.kind,
        d.text,
        template,
        then,
      );
}

/** `…/charts/web/#helm/values.yaml` → `web`. */
function chartFolderOf(renderUri: string): string {
  const root = renderUri.slice(0, Math.max(renderUri.indexOf('/#helm/'), 0));
  return decodeURIComponent(root.slice(root.lastIndexOf('/') + 1));
}

/**
 * A controller written as a fragment: no selector and no pod template labels, so it names no pods at all. Created new
 * it is rejected (apps/v1 requires a selector that matches the template labels, semantics §6.4), so whoever writes it
 * means it to be merged into an object that already exists: `kubectl apply` of an overlay onto a live install (scaling
 * a StatefulSet to zero, say), or a patch a script applies. What the merged object holds is unknown; rules about its
 * selector, labels and serviceName stay quiet.
 */
export function isWorkloadFragment(w: Workload): boolean {
  return (
    w.kind !== 'Pod' && w.kind !== 'Job' && w.kind !== 'CronJob' && w.selector === undefined && w.selectorSpan === undefined && w.template.labels.size === 0
  );
}

/** `the RabbitmqCluster "mq" (rabbitmq.com/v1beta1) in namespace "shop" is a custom resource that`. */
function describeSupplier(r: Resource): Phrase {
  return phrase('the {0} "{1}" ({2}) in namespace "{3}" is a custom resource that', r.kind, r.name, r.apiVersion, r.namespace);
}
