// Generates a realistic monorepo of Kubernetes manifests, deterministically from a seed: per app a Deployment or
// StatefulSet, its Services (ClusterIP, headless, NodePort), an Ingress, a ConfigMap of service URLs and a
// NetworkPolicy, spread over 24 namespaces and files of one to dozens of documents, with a planted share of the
// networking mistakes the rules detect. `node --import tsx bench/generate.ts --sizes 1000,10000` writes bench/work/<size>/.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createPrng, type Prng } from './prng';

export type MistakeKind = 'selector-typo' | 'service-name-typo' | 'target-port-missing' | 'ingress-port-missing' | 'dns-name-missing';

/** The finding each planted mistake must produce, in the file the mistake is recorded against. */
export const findingOfMistake: Readonly<Record<MistakeKind, string>> = {
  'selector-typo': 'service-selector-no-match',
  'service-name-typo': 'statefulset-service-missing',
  'target-port-missing': 'service-target-port-unresolved',
  'ingress-port-missing': 'ingress-backend-missing',
  'dns-name-missing': 'dns-name-unresolved',
};

export interface Mistake {
  readonly kind: MistakeKind;
  /** Workspace-relative path of the file where the finding is expected. */
  readonly file: string;
  readonly namespace: string;
  readonly resource: string;
}

/** A Service with its pod count, and where its `metadata.name` value starts (0-based, for a hover request). */
export interface ServiceSite {
  readonly file: string;
  readonly namespace: string;
  readonly name: string;
  readonly line: number;
  readonly character: number;
  readonly endpoints: number;
}

/** The app the incremental benchmark edits: a StatefulSet whose Services, Ingress and callers live in other files. */
export interface EditTarget {
  readonly namespace: string;
  readonly app: string;
  readonly headlessService: string;
  readonly workloadFile: string;
  readonly serviceFile: string;
}

export interface GeneratedFile {
  readonly path: string;
  readonly text: string;
  readonly documents: number;
}

export interface GeneratedWorkspace {
  readonly seed: number;
  readonly resources: number;
  readonly files: readonly GeneratedFile[];
  readonly mistakes: readonly Mistake[];
  /** Services of the apps with the most replicas, most first. */
  readonly busyServices: readonly ServiceSite[];
  /**
   * The workloads of the same apps, where their `metadata.name` value starts: each has a NetworkPolicy, so a hover
   * there is the reach hover (who can reach its pods, whom they can reach).
   */
  readonly busyWorkloads: readonly ServiceSite[];
  readonly editTarget: EditTarget;
}

export interface GenerateOptions {
  readonly resources: number;
  readonly seed?: number;
}

export const defaultSeed = 20240611;

const namespaces = [
  'payments',
  'checkout',
  'catalog',
  'search',
  'identity',
  'notifications',
  'analytics',
  'billing',
  'shipping',
  'inventory',
  'reviews',
  'recommendations',
  'media',
  'messaging',
  'reporting',
  'auth',
  'gateway',
  'ledger',
  'fraud',
  'support',
  'marketing',
  'pricing',
  'orders',
  'accounts',
] as const;
const prefixes = [
  'order',
  'user',
  'payment',
  'invoice',
  'stock',
  'price',
  'review',
  'image',
  'email',
  'sms',
  'audit',
  'event',
  'session',
  'token',
  'report',
  'feed',
  'media',
  'geo',
  'rate',
  'tax',
  'cart',
  'coupon',
  'label',
  'quote',
];
const roles = ['api', 'worker', 'web', 'cache', 'queue', 'scheduler', 'indexer', 'exporter', 'store', 'sync', 'notifier', 'proxy'];
const statefulRoles = new Set(['cache', 'queue', 'store', 'indexer']);

/** The largest number of resources one app can take; the remainder is filled with plain ConfigMaps. */
const maxAppResources = 7;
/** Shared per-namespace files roll over to a new file after this many documents. */
const maxSharedDocuments = 40;

type Layout = 'split' | 'bundle' | 'shared';

interface App {
  readonly index: number;
  readonly namespace: string;
  readonly name: string;
  readonly kind: 'Deployment' | 'StatefulSet';
  readonly replicas: number;
  readonly headless: boolean;
  readonly nodePort: boolean;
  readonly ingress: boolean;
  readonly grpc: boolean;
  readonly hub: boolean;
  readonly layout: Layout;
  readonly mistake?: MistakeKind;
}

interface UrlTarget {
  readonly namespace: string;
  readonly service: string;
  /** The `app` label of the pods behind the Service (a headless Service's name is not its pods' label). */
  readonly app: string;
  readonly port: number;
  readonly hub: boolean;
}

interface PendingDocument {
  readonly text: string;
  /** Set on Services and workloads whose name position is reported. */
  readonly site?: { readonly namespace: string; readonly name: string; readonly endpoints: number; readonly workload?: true };
}

export function generateWorkspace(options: GenerateOptions): GeneratedWorkspace {
  const seed = options.seed ?? defaultSeed;
  const rng = createPrng(seed);
  const files = new Map<string, PendingDocument[]>();
  const sharedCounters = new Map<string, { file: string; count: number; n: number }>();
  const mistakes: Mistake[] = [];
  const servicesByNamespace = new Map<string, Set<string>>();
  const podAppLabels = new Set<string>();
  const typos: { namespace: string; name: string; what: 'service' | 'label' }[] = [];
  const urlTargets: UrlTarget[] = [];
  const usedNames = new Set<string>();
  const planted: Record<MistakeKind, number> = {
    'selector-typo': 0,
    'service-name-typo': 0,
    'target-port-missing': 0,
    'ingress-port-missing': 0,
    'dns-name-missing': 0,
  };
  let total = 0;
  let appIndex = 0;

  const add = (path: string, doc: PendingDocument) => {
    const list = files.get(path);
    if (list) list.push(doc);
    else files.set(path, [doc]);
    total++;
  };
  const sharedFile = (ns: string, base: string): string => {
    const key = `${ns}/${base}`;
    let c = sharedCounters.get(key);
    if (!c || c.count >= maxSharedDocuments) {
      const n = (c?.n ?? 0) + 1;
      c = { file: n === 1 ? `${ns}/${base}.yaml` : `${ns}/${base}-${n}.yaml`, count: 0, n };
      sharedCounters.set(key, c);
    }
    c.count++;
    return c.file;
  };
  const serviceNames = (ns: string) => {
    let s = servicesByNamespace.get(ns);
    if (!s) servicesByNamespace.set(ns, (s = new Set()));
    return s;
  };

  const mistakeKinds = Object.keys(planted) as MistakeKind[];

  const newApp = (hub: boolean): App => {
    const namespace = hub ? namespaces[appIndex] : rng.pick(namespaces);
    // About one app in three carries one mistake: roughly 7% of all resources (about 4.7 resources per app).
    // The kind is the least planted so far, and the app is shaped to carry it, so every kind shows up even in
    // small workspaces.
    let mistake: MistakeKind | undefined;
    if (!hub && rng.chance(0.33)) {
      mistake = mistakeKinds.reduce((best, k) => (planted[k] < planted[best] ? k : best));
      planted[mistake]++;
    }
    let name: string;
    let role: string;
    if (hub) {
      role = 'store';
      name = `${namespace.slice(0, 8)}-core`;
    } else {
      role = mistake === 'service-name-typo' ? rng.pick([...statefulRoles]) : rng.pick(roles);
      const base = `${rng.pick(prefixes)}-${role}`;
      name = base;
      for (let n = 2; usedNames.has(`${namespace}/${name}`); n++) name = `${base}-${n}`;
    }
    usedNames.add(`${namespace}/${name}`);
    const kind = hub || mistake === 'service-name-typo' || (statefulRoles.has(role) && rng.chance(0.7)) ? 'StatefulSet' : 'Deployment';
    const busy = !hub && rng.chance(0.05);
    return {
      index: appIndex++,
      namespace,
      name,
      kind,
      replicas: busy ? rng.int(40, 120) : kind === 'StatefulSet' ? rng.pick([1, 3, 3, 5]) : rng.int(1, 6),
      headless: kind === 'StatefulSet' || rng.chance(0.12),
      nodePort: !hub && rng.chance(0.1),
      ingress: hub || mistake === 'ingress-port-missing' || rng.chance(0.3),
      grpc: rng.chance(0.25),
      hub,
      layout: hub ? 'split' : rng.pick(['split', 'bundle', 'bundle', 'shared'] as const),
      mistake,
    };
  };

  const emitApp = (app: App) => {
    const { namespace: ns, name } = app;
    const dir = `${ns}/${name}`;
    const where = (resource: string, sharedBase: string): string =>
      app.layout === 'split' ? `${dir}/${resource}.yaml` : app.layout === 'bundle' ? `${ns}/${name}.yaml` : sharedFile(ns, sharedBase);
    const headlessName = `${name}-headless`;
    const selectorValue = app.mistake === 'selector-typo' ? typo(name, rng) : name;
    if (app.mistake === 'selector-typo') typos.push({ namespace: ns, name: selectorValue, what: 'label' });
    const serviceNameValue = app.mistake === 'service-name-typo' ? typo(headlessName, rng) : headlessName;
    if (app.mistake === 'service-name-typo') typos.push({ namespace: ns, name: serviceNameValue, what: 'service' });
    const configName = `${name}-config`;

    // The ConfigMap's URLs point at apps generated before this one (any namespace), and at this app itself.
    const urls: { key: string; url: string }[] = [{ key: 'SELF_URL', url: `http://${name}.${ns}.svc.cluster.local:80` }];
    const callers = Math.min(urlTargets.length, rng.int(1, 4));
    for (let i = 0; i < callers; i++) {
      const hubs = urlTargets.filter((t) => t.hub);
      const t = rng.chance(0.3) && hubs.length ? rng.pick(hubs) : rng.pick(urlTargets);
      urls.push({ key: `${t.service.replace(/-/g, '_').toUpperCase()}_URL`, url: `http://${t.service}.${t.namespace}.svc.cluster.local:${t.port}` });
    }
    if (app.mistake === 'dns-name-missing') {
      const t = urlTargets.length ? rng.pick(urlTargets) : { namespace: ns, service: name, app: name, port: 80, hub: false };
      const wrong = typo(t.service, rng);
      typos.push({ namespace: t.namespace, name: wrong, what: 'service' });
      urls.push({ key: 'LEGACY_URL', url: `http://${wrong}.${t.namespace}.svc.cluster.local:${t.port}` });
    }

    const workloadFile = where(app.kind.toLowerCase(), 'workloads');
    add(workloadFile, { text: workloadYaml(app, serviceNameValue, configName, rng), site: { namespace: ns, name, endpoints: app.replicas, workload: true } });
    if (app.mistake === 'service-name-typo') mistakes.push({ kind: app.mistake, file: workloadFile, namespace: ns, resource: name });

    const serviceFile = where('service', 'services');
    add(serviceFile, { text: serviceYaml(app, selectorValue), site: { namespace: ns, name, endpoints: app.replicas } });
    if (app.mistake === 'selector-typo' || app.mistake === 'target-port-missing')
      mistakes.push({ kind: app.mistake, file: serviceFile, namespace: ns, resource: name });
    serviceNames(ns).add(name);
    if (app.headless) {
      add(where('service-headless', 'services'), { text: headlessYaml(app, headlessName) });
      serviceNames(ns).add(headlessName);
    }
    if (app.nodePort) {
      add(where('service-nodeport', 'services'), { text: nodePortYaml(app) });
      serviceNames(ns).add(`${name}-nodeport`);
    }
    if (app.ingress) {
      const ingressFile = where('ingress', 'ingresses');
      add(ingressFile, { text: ingressYaml(app, rng) });
      if (app.mistake === 'ingress-port-missing') mistakes.push({ kind: app.mistake, file: ingressFile, namespace: ns, resource: name });
    }
    const configFile = where('configmap', 'config');
    add(configFile, { text: configMapYaml(ns, configName, urls, rng) });
    if (app.mistake === 'dns-name-missing') mistakes.push({ kind: app.mistake, file: configFile, namespace: ns, resource: configName });
    const callerApp = urlTargets.length ? rng.pick(urlTargets) : undefined;
    add(where('networkpolicy', 'network-policies'), { text: networkPolicyYaml(app, callerApp?.namespace === ns ? callerApp.app : undefined) });

    podAppLabels.add(`${ns}/${name}`);
    urlTargets.push({ namespace: ns, service: name, app: name, port: 80, hub: app.hub });
    if (app.headless) urlTargets.push({ namespace: ns, service: headlessName, app: name, port: 8080, hub: false });
  };

  // Hubs first (one per namespace at 10,000 resources, fewer below): StatefulSets many apps call, each
  // resource in its own file.
  const hubCount = Math.max(1, Math.min(namespaces.length, Math.round(options.resources / 400)));
  const hubs: App[] = [];
  for (let i = 0; i < hubCount && total + maxAppResources <= options.resources; i++) {
    const hub = newApp(true);
    hubs.push(hub);
    emitApp(hub);
  }
  while (total + maxAppResources <= options.resources) emitApp(newApp(false));
  for (let i = 0; total < options.resources; i++) {
    const ns = namespaces[i % namespaces.length];
    add(sharedFile(ns, 'settings'), { text: settingsYaml(ns, `settings-${Math.floor(i / namespaces.length) + 1}`, rng) });
  }

  // A planted name must not exist by accident, or the mistake would be no mistake.
  for (const t of typos) {
    const taken = t.what === 'service' ? serviceNames(t.namespace).has(t.name) : podAppLabels.has(`${t.namespace}/${t.name}`);
    if (taken) throw new Error(`generator: the planted name ${t.namespace}/${t.name} exists; choose another seed`);
  }

  const out: GeneratedFile[] = [];
  const sites: ServiceSite[] = [];
  const workloadSites: ServiceSite[] = [];
  for (const [path, docs] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    let text = '';
    let line = 0;
    docs.forEach((d, i) => {
      if (i > 0) {
        text += '---\n';
        line++;
      }
      if (d.site) {
        const at = d.text.indexOf('\n  name: ') + 1;
        const lineInDoc = countLines(d.text, at);
        (d.site.workload ? workloadSites : sites).push({
          file: path,
          namespace: d.site.namespace,
          name: d.site.name,
          line: line + lineInDoc,
          character: '  name: '.length,
          endpoints: d.site.endpoints,
        });
      }
      text += d.text;
      line += countLines(d.text, d.text.length);
    });
    out.push({ path, text, documents: docs.length });
  }
  const first = hubs[0];
  if (!first) throw new Error(`generator: ${options.resources} resources are too few for one app`);
  return {
    seed,
    resources: total,
    files: out,
    mistakes,
    busyServices: sites.sort((a, b) => b.endpoints - a.endpoints || (a.file < b.file ? -1 : 1)).slice(0, 20),
    busyWorkloads: workloadSites.sort((a, b) => b.endpoints - a.endpoints || (a.file < b.file ? -1 : 1)).slice(0, 20),
    editTarget: {
      namespace: first.namespace,
      app: first.name,
      headlessService: `${first.name}-headless`,
      workloadFile: `${first.namespace}/${first.name}/statefulset.yaml`,
      serviceFile: `${first.namespace}/${first.name}/service.yaml`,
    },
  };
}

/**
 * Hostile shapes (issue 17), each added as one more file to an ordinary workspace: `many-copies` is one Service
 * written `count` times (everything keyed by kind/namespace/name sees `count` definitions of one name);
 * `near-names` is `count` Services whose names are one edit apart, and an Ingress with 200 backends naming none of
 * them, so that every backend asks for a "did you mean" suggestion among them all; `orphan-slices` (issue "hostile
 * inputs, third round") is `count` Services and `count / 20` EndpointSlices whose service-name label names none of them
 * with a long name, so that each slice asks `endpoints-orphan` for a suggestion among them all; `kustomize-overlays`
 * is a Kustomize base (`hostile/kustomize-overlays.yaml`, a Service whose selector has a typo) included through
 * `count / 4` overlays, each a build of its own (at most 1,000); `kustomize-tree` is the other hostile Kustomize trees
 * of issue 23 side by side (`hostileKustomizeForest`).
 */
export type HostileShape = 'many-copies' | 'near-names' | 'orphan-slices' | 'kustomize-overlays' | 'kustomize-tree';
export const hostileShapes: readonly HostileShape[] = ['many-copies', 'near-names', 'orphan-slices', 'kustomize-overlays', 'kustomize-tree'];

export function withShape(ws: GeneratedWorkspace, shape: HostileShape, count: number): GeneratedWorkspace {
  if (shape === 'kustomize-overlays') {
    const tree = hostileKustomizeTree(Math.max(1, Math.min(1000, Math.floor(count / 4))));
    return { ...ws, resources: ws.resources + 2, files: [...ws.files, ...tree] };
  }
  if (shape === 'kustomize-tree') {
    const forest = hostileKustomizeForest(count);
    return { ...ws, resources: ws.resources + forest.filter((f) => !f.path.endsWith('kustomization.yaml')).length, files: [...ws.files, ...forest] };
  }
  const docs: string[] = [];
  if (shape === 'many-copies') {
    const one =
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: copy\n  namespace: hostile\nspec:\n  selector: {app: copy}\n  ports: [{port: 80, targetPort: http}]\n';
    for (let i = 0; i < count; i++) docs.push(one);
  } else if (shape === 'orphan-slices') {
    docs.push(...orphanSlices(count, Math.max(1, Math.floor(count / 20))));
  } else {
    for (let i = 0; i < count; i++)
      docs.push(
        `apiVersion: v1\nkind: Service\nmetadata:\n  name: web-${String(i).padStart(6, '0')}\n  namespace: hostile\nspec:\n  selector: {app: near}\n  ports: [{port: 80}]\n`,
      );
    const paths = Array.from(
      { length: 200 },
      (_, i) =>
        `      - path: /p${i}\n        pathType: Prefix\n        backend: {service: {name: web-${String(i * 7).padStart(6, '0')}x, port: {number: 80}}}`,
    ).join('\n');
    docs.push(
      `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: near\n  namespace: hostile\nspec:\n  rules:\n  - http:\n      paths:\n${paths}\n`,
    );
  }
  const file: GeneratedFile = { path: `hostile/${shape}.yaml`, text: docs.join('---\n'), documents: docs.length };
  return { ...ws, resources: ws.resources + docs.length, files: [...ws.files, file] };
}

/**
 * `services` Services (with their pods) and `slices` EndpointSlices labelled for Services that do not exist, each
 * name about 220 characters long: an unbounded edit distance of every slice against every Service took 15 s for
 * 2,000 and 100 (4,000 and 200: 54 s).
 */
export function orphanSlices(services: number, slices: number): string[] {
  const docs: string[] = [
    `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: orphans, namespace: orphans}\nspec:\n  selector: {matchLabels: {app: orphans}}\n  template:\n    metadata: {labels: {app: orphans}}\n    spec: {containers: [{name: a, image: a, ports: [{containerPort: 80}]}]}\n`,
  ];
  const long = 'backend'.repeat(7);
  for (let i = 0; i < services; i++)
    docs.push(
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${long}-${String(i).padStart(6, '0')}\n  namespace: orphans\nspec:\n  selector: {app: orphans}\n  ports: [{port: 80}]\n`,
    );
  for (let i = 0; i < slices; i++)
    docs.push(
      `apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: orphan-${i}\n  namespace: orphans\n  labels: {kubernetes.io/service-name: ${'missing'.repeat(7)}-${i}}\naddressType: IPv4\nendpoints: [{addresses: [10.0.${(i >> 8) & 255}.${i & 255}]}]\nports: [{port: 80}]\n`,
    );
  return docs;
}

/**
 * A Kustomize base in `hostile/` (its objects in `hostile/kustomize-overlays.yaml`: a Deployment and a Service whose
 * selector misspells the pods' label) and `overlays` overlays under `hostile/overlays/`, each including it with a
 * name prefix of its own. The base's file is the first of the returned files.
 */
export function hostileKustomizeTree(overlays: number): GeneratedFile[] {
  const objects =
    'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: kweb}\nspec:\n  selector: {matchLabels: {app: kweb}}\n  template:\n    metadata: {labels: {app: kweb}}\n    spec: {containers: [{name: a, image: a, ports: [{name: http, containerPort: 8080}]}]}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: kweb}\nspec:\n  selector: {app: kwbe}\n  ports: [{port: 80, targetPort: http}]\n';
  const files: GeneratedFile[] = [
    { path: 'hostile/kustomize-overlays.yaml', text: objects, documents: 2 },
    { path: 'hostile/kustomization.yaml', text: 'resources: [kustomize-overlays.yaml]\n', documents: 1 },
  ];
  for (let i = 0; i < overlays; i++)
    files.push({ path: `hostile/overlays/o${i}/kustomization.yaml`, text: `resources: [../..]\nnamePrefix: o${i}-\n`, documents: 1 });
  return files;
}

/**
 * Hostile Kustomize trees under `hostile/tree/`, each ending in its bound (docs/robustness.md): a chain of
 * kustomizations `count / 8` deep (at most 500; refused at depth 40, "nest too deeply"), a kustomization listing
 * `count * 2.5` patches (10,000 for 4,000; refused past 1,000, and left to the real Kustomize), one with `count / 4`
 * inline patches (at most 1,000: built), and components that include each other (a cycle). The chain's root comes first.
 */
export function hostileKustomizeForest(count: number): GeneratedFile[] {
  const dep = (name: string) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}}\nspec:\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec: {containers: [{name: a, image: a, ports: [{name: http, containerPort: 8080}]}]}\n`;
  const kustomization = (path: string, text: string): GeneratedFile => ({ path: `hostile/tree/${path}/kustomization.yaml`, text, documents: 1 });
  const depth = Math.max(1, Math.min(500, Math.floor(count / 8)));
  const files: GeneratedFile[] = [];
  for (let i = 0; i < depth; i++) files.push(kustomization(`chain/k${i}`, `resources: [../k${i + 1}]\n`));
  files.push(kustomization(`chain/k${depth}`, 'resources: [deep.yaml]\n'), {
    path: `hostile/tree/chain/k${depth}/deep.yaml`,
    text: dep('tdeep'),
    documents: 1,
  });
  const refused = Math.max(1, Math.floor(count * 2.5));
  files.push(
    kustomization('patches-refused', `resources: [app.yaml]\npatches:\n${Array.from({ length: refused }, (_, i) => `- path: p${i}.yaml\n`).join('')}`),
    { path: 'hostile/tree/patches-refused/app.yaml', text: dep('trefused'), documents: 1 },
  );
  const patched = Math.max(1, Math.min(1000, Math.floor(count / 4)));
  const inline = Array.from(
    { length: patched },
    (_, i) => `- patch: '{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "tpatched", "labels": {"l${i}": "v"}}}'\n`,
  ).join('');
  files.push(kustomization('patches', `resources: [app.yaml]\npatches:\n${inline}`), {
    path: 'hostile/tree/patches/app.yaml',
    text: dep('tpatched'),
    documents: 1,
  });
  const component = (body: string) => `apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n${body}`;
  files.push(kustomization('components/app', 'resources: [app.yaml]\ncomponents: [../a]\n'), {
    path: 'hostile/tree/components/app/app.yaml',
    text: dep('tcomponents'),
    documents: 1,
  });
  files.push(kustomization('components/a', component('components: [../b]\n')), kustomization('components/b', component('components: [../a]\n')));
  return files;
}

/** Writes the workspace under `dir` (emptied first) and returns the absolute folder. */
export function writeWorkspace(dir: string, ws: GeneratedWorkspace): string {
  rmSync(dir, { recursive: true, force: true });
  for (const f of ws.files) {
    const full = join(dir, f.path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, f.text);
  }
  return dir;
}

function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** A near miss a person would type: two letters of the first word swapped, or one dropped. */
function typo(name: string, rng: Prng): string {
  const word = name.split('-')[0];
  if (word.length < 3) return `${name.slice(0, -1)}`;
  const i = rng.int(1, word.length - 2);
  const swapped = word[i] !== word[i + 1] ? word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2) : word.slice(0, i) + word.slice(i + 1);
  return swapped + name.slice(word.length);
}

function workloadYaml(app: App, serviceName: string, configName: string, rng: Prng): string {
  const image = `registry.example.com/${app.namespace}/${app.name}:1.${rng.int(0, 40)}.${rng.int(0, 9)}`;
  const cpu = rng.pick(['100m', '250m', '500m', '1']);
  const memory = rng.pick(['128Mi', '256Mi', '512Mi', '1Gi']);
  const lines = [
    'apiVersion: apps/v1',
    `kind: ${app.kind}`,
    'metadata:',
    `  name: ${app.name}`,
    `  namespace: ${app.namespace}`,
    '  labels:',
    `    app: ${app.name}`,
    `    team: ${app.namespace}`,
    '  annotations:',
    `    owner: ${app.namespace}-team@example.com`,
    'spec:',
    ...(app.kind === 'StatefulSet' ? [`  serviceName: ${serviceName}`] : []),
    `  replicas: ${app.replicas}`,
    '  selector:',
    '    matchLabels:',
    `      app: ${app.name}`,
    '  template:',
    '    metadata:',
    '      labels:',
    `        app: ${app.name}`,
    `        team: ${app.namespace}`,
    `        version: v${rng.int(1, 4)}`,
    '    spec:',
    '      containers:',
    `        - name: ${app.name.split('-').pop() === 'core' ? 'server' : 'main'}`,
    `          image: ${image}`,
    '          ports:',
    '            - name: http',
    '              containerPort: 8080',
    ...(app.mistake === 'target-port-missing' ? [] : ['            - name: metrics', '              containerPort: 9090']),
    ...(app.grpc ? ['            - name: grpc', '              containerPort: 9000'] : []),
    '          envFrom:',
    '            - configMapRef:',
    `                name: ${configName}`,
    '          env:',
    '            - name: LOG_FORMAT',
    '              value: json',
    '          resources:',
    '            requests:',
    `              cpu: ${cpu}`,
    `              memory: ${memory}`,
    '            limits:',
    `              memory: ${memory}`,
    '          readinessProbe:',
    '            httpGet:',
    '              path: /ready',
    '              port: http',
    '          livenessProbe:',
    '            httpGet:',
    '              path: /healthz',
    '              port: http',
    '            initialDelaySeconds: 10',
  ];
  if (app.kind === 'StatefulSet') {
    lines.push(
      '  volumeClaimTemplates:',
      '    - metadata:',
      '        name: data',
      '      spec:',
      '        accessModes: ["ReadWriteOnce"]',
      '        resources:',
      '          requests:',
      `            storage: ${rng.pick(['1Gi', '10Gi', '50Gi'])}`,
    );
  }
  return lines.join('\n') + '\n';
}

function serviceYaml(app: App, selectorValue: string): string {
  // The metrics port names a container port the mistaken app does not declare (semantics §5).
  return (
    [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      `  name: ${app.name}`,
      `  namespace: ${app.namespace}`,
      '  labels:',
      `    app: ${app.name}`,
      'spec:',
      '  selector:',
      `    app: ${selectorValue}`,
      '  ports:',
      '    - name: http',
      '      port: 80',
      '      targetPort: http',
      '    - name: metrics',
      '      port: 9090',
      '      targetPort: metrics',
      ...(app.grpc ? ['    - name: grpc', '      port: 9000', '      targetPort: grpc', '      appProtocol: grpc'] : []),
    ].join('\n') + '\n'
  );
}

function headlessYaml(app: App, name: string): string {
  return (
    [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      `  name: ${name}`,
      `  namespace: ${app.namespace}`,
      'spec:',
      '  clusterIP: None',
      // Members of a StatefulSet find each other by these names before they are Ready (semantics §2.4).
      ...(app.kind === 'StatefulSet' ? ['  publishNotReadyAddresses: true'] : []),
      '  selector:',
      `    app: ${app.name}`,
      '  ports:',
      '    - name: http',
      '      port: 8080',
      '      targetPort: http',
    ].join('\n') + '\n'
  );
}

function nodePortYaml(app: App): string {
  return (
    [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      `  name: ${app.name}-nodeport`,
      `  namespace: ${app.namespace}`,
      'spec:',
      '  type: NodePort',
      '  selector:',
      `    app: ${app.name}`,
      '  ports:',
      '    - name: http',
      '      port: 80',
      '      targetPort: http',
    ].join('\n') + '\n'
  );
}

function ingressYaml(app: App, rng: Prng): string {
  // The mistaken Ingress asks for the container's port number; the Service only offers 80 (semantics §5).
  const port =
    app.mistake === 'ingress-port-missing'
      ? ['                  number: 8080']
      : rng.chance(0.5)
        ? ['                  number: 80']
        : ['                  name: http'];
  return (
    [
      'apiVersion: networking.k8s.io/v1',
      'kind: Ingress',
      'metadata:',
      `  name: ${app.name}`,
      `  namespace: ${app.namespace}`,
      'spec:',
      '  ingressClassName: nginx',
      '  rules:',
      `    - host: ${app.name}.${app.namespace}.example.com`,
      '      http:',
      '        paths:',
      '          - path: /',
      '            pathType: Prefix',
      '            backend:',
      '              service:',
      `                name: ${app.name}`,
      '                port:',
      ...port,
    ].join('\n') + '\n'
  );
}

function configMapYaml(ns: string, name: string, urls: readonly { key: string; url: string }[], rng: Prng): string {
  const seen = new Set<string>();
  const data: string[] = [];
  for (const u of urls) {
    let key = u.key;
    for (let n = 2; seen.has(key); n++) key = `${u.key}_${n}`;
    seen.add(key);
    data.push(`  ${key}: ${u.url}`);
  }
  return (
    [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      `  name: ${name}`,
      `  namespace: ${ns}`,
      'data:',
      `  LOG_LEVEL: ${rng.pick(['debug', 'info', 'warn'])}`,
      `  WORKERS: "${rng.int(1, 16)}"`,
      ...data,
    ].join('\n') + '\n'
  );
}

function networkPolicyYaml(app: App, caller: string | undefined): string {
  const from = [
    ...(caller ? ['        - podSelector:', '            matchLabels:', `              app: ${caller}`] : []),
    ...(app.ingress ? ['        - namespaceSelector:', '            matchLabels:', '              kubernetes.io/metadata.name: ingress-nginx'] : []),
    '        - podSelector:',
    '            matchLabels:',
    `              team: ${app.namespace}`,
  ];
  return (
    [
      'apiVersion: networking.k8s.io/v1',
      'kind: NetworkPolicy',
      'metadata:',
      `  name: ${app.name}-ingress`,
      `  namespace: ${app.namespace}`,
      'spec:',
      '  podSelector:',
      '    matchLabels:',
      `      app: ${app.name}`,
      '  policyTypes:',
      '    - Ingress',
      '  ingress:',
      '    - from:',
      ...from,
      '      ports:',
      '        - protocol: TCP',
      '          port: 8080',
    ].join('\n') + '\n'
  );
}

function settingsYaml(ns: string, name: string, rng: Prng): string {
  return (
    [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      `  name: ${name}`,
      `  namespace: ${ns}`,
      'data:',
      `  FEATURE_FLAGS: "${rng.pick(['search-v2', 'checkout-v3', 'none'])}"`,
      `  REGION: ${rng.pick(['eu-west-1', 'us-east-1', 'ap-south-1'])}`,
    ].join('\n') + '\n'
  );
}

function parseSizes(argv: readonly string[]): number[] {
  const i = argv.indexOf('--sizes');
  const raw = i >= 0 ? argv[i + 1] : '1000,10000,50000';
  return (raw ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
}

if (process.argv[1] && /generate\.ts$/.test(process.argv[1])) {
  const root = join(dirname(process.argv[1]), 'work');
  for (const size of parseSizes(process.argv.slice(2))) {
    const ws = generateWorkspace({ resources: size });
    writeWorkspace(join(root, String(size)), ws);
    console.log(`${size}: ${ws.files.length} files, ${ws.resources} resources, ${ws.mistakes.length} planted mistakes → bench/work/${size}/`);
  }
}
