// Random Kustomize layouts for the differential test: bases (with generators, labels, prefixes), components and
// overlays (namespace, prefixes, suffixes, labels, annotations, patches of each kind, replicas, images, generators),
// written to a folder. Seeded, so a failure names a case that can be built again.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Gen {
  constructor(readonly rnd: () => number) {}
  chance(p: number): boolean {
    return this.rnd() < p;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rnd() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)];
  }
  some<T>(xs: readonly T[], max = xs.length): T[] {
    const n = this.int(1, Math.min(max, xs.length));
    const copy = [...xs];
    const out: T[] = [];
    while (out.length < n) out.push(copy.splice(Math.floor(this.rnd() * copy.length), 1)[0]);
    return out;
  }
}

const words = ['web', 'api', 'db', 'cache', 'queue', 'auth', 'search', 'mail'];
const labelKeys = ['team', 'tier', 'env', 'owner', 'app.kubernetes.io/part-of'];
const labelValues = ['a', 'b', 'blue', 'green', 'x1', 'shop'];

function yamlList(items: readonly string[], indent = ''): string {
  return items.map((i) => `${indent}- ${i}\n`).join('');
}

function pairs(g: Gen, indent: string): string {
  return g
    .some(labelKeys, 2)
    .map((k) => `${indent}${k}: ${g.pick(labelValues)}\n`)
    .join('');
}

interface BaseInfo {
  readonly dir: string;
  readonly app: string;
  readonly cm: string;
  readonly hasStatefulSet: boolean;
  readonly prefix: string;
}

function writeBase(g: Gen, root: string, dir: string, app: string): BaseInfo {
  const p = join(root, dir);
  mkdirSync(p, { recursive: true });
  const cm = `${app}-config`;
  const stateful = g.chance(0.4);
  const generated = g.chance(0.6);
  const docs: string[] = [];
  docs.push(`apiVersion: v1
kind: Service
metadata:
  name: ${app}
spec:
  selector:
    app: ${app}
  ports:
  - name: http
    port: 80
    targetPort: ${g.pick(['http', '8080'])}
`);
  const podSpec = (indent: string) =>
    `${indent}containers:
${indent}- name: main
${indent}  image: example.com/${app}:${g.int(1, 3)}.0
${indent}  ports:
${indent}  - name: http
${indent}    containerPort: 8080
${indent}  env:
${indent}  - name: MODE
${indent}    value: ${g.pick(['fast', 'safe'])}
${indent}  - name: LEVEL
${indent}    valueFrom:
${indent}      configMapKeyRef:
${indent}        name: ${cm}
${indent}        key: level
${indent}  envFrom:
${indent}  - configMapRef:
${indent}      name: ${cm}
${g.chance(0.5) ? `${indent}- name: sidecar\n${indent}  image: example.com/proxy:1\n` : ''}${indent}volumes:
${indent}- name: config
${indent}  configMap:
${indent}    name: ${cm}
`;
  docs.push(`apiVersion: apps/v1
kind: ${stateful ? 'StatefulSet' : 'Deployment'}
metadata:
  name: ${app}
  labels:
    app: ${app}
spec:
${stateful ? `  serviceName: ${app}\n` : ''}  replicas: ${g.int(1, 3)}
  selector:
    matchLabels:
      app: ${app}
  template:
    metadata:
      labels:
        app: ${app}
    spec:
${podSpec('      ')}`);
  if (g.chance(0.5))
    docs.push(`apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: ${app}
spec:
  rules:
  - host: ${app}.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: ${app}
            port:
              name: http
`);
  if (g.chance(0.5))
    docs.push(`apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: ${app}-allow
spec:
  podSelector:
    matchLabels:
      app: ${app}
  ingress:
  - from:
    - podSelector:
        matchLabels:
          role: client
`);
  if (!generated)
    docs.push(`apiVersion: v1
kind: ConfigMap
metadata:
  name: ${cm}
data:
  level: "${g.int(1, 5)}"
`);
  writeFileSync(join(p, 'app.yaml'), docs.join('---\n'));
  let k = 'resources:\n- app.yaml\n';
  if (generated) k += `configMapGenerator:\n- name: ${cm}\n  literals:\n  - level=${g.int(1, 5)}\n  - name=${app}\n`;
  const prefix = g.chance(0.3) ? `${g.pick(['b', 'core', 'lib'])}-` : '';
  if (prefix) k += `namePrefix: ${prefix}\n`;
  if (g.chance(0.3)) k += `commonLabels:\n${pairs(g, '  ')}`;
  if (g.chance(0.2)) k += `namespace: ${g.pick(['base-ns', 'shared'])}\n`;
  writeFileSync(join(p, 'kustomization.yaml'), k);
  return { dir, app, cm, hasStatefulSet: stateful, prefix };
}

function writeComponent(g: Gen, root: string, dir: string, target: BaseInfo): void {
  const p = join(root, dir);
  mkdirSync(p, { recursive: true });
  let k = 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n';
  const kind = target.hasStatefulSet ? 'StatefulSet' : 'Deployment';
  if (g.chance(0.5)) {
    writeFileSync(
      join(p, 'extra.yaml'),
      `apiVersion: v1
kind: Service
metadata:
  name: ${target.app}-metrics
spec:
  selector:
    app: ${target.app}
  ports:
  - port: 9090
`,
    );
    k += 'resources:\n- extra.yaml\n';
  }
  if (g.chance(0.5)) k += `configMapGenerator:\n- name: ${target.app}-flags\n  literals:\n  - flag=${g.pick(['on', 'off'])}\n`;
  k += `patches:
- patch: |-
    apiVersion: apps/v1
    kind: ${kind}
    metadata:
      name: ${target.app}
    spec:
      template:
        metadata:
          annotations:
            component: "${dir}"
`;
  if (g.chance(0.4)) k += `commonAnnotations:\n  from-component: "yes"\n`;
  writeFileSync(join(p, 'kustomization.yaml'), k);
}

function overlayPatches(g: Gen, root: string, dir: string, bases: readonly BaseInfo[]): string {
  let out = '';
  const patches: string[] = [];
  const psm: string[] = [];
  const pj: string[] = [];
  for (const b of bases) {
    const kind = b.hasStatefulSet ? 'StatefulSet' : 'Deployment';
    const name = g.chance(0.5) ? b.app : b.prefix + b.app;
    if (g.chance(0.5)) {
      const body = `apiVersion: apps/v1
kind: ${kind}
metadata:
  name: ${name}
spec:
  replicas: ${g.int(2, 6)}
  template:
    spec:
      containers:
      - name: main
        env:
        - name: ${g.pick(['MODE', 'EXTRA'])}
          value: ${g.pick(['debug', 'trace'])}
${g.chance(0.4) ? '      - name: sidecar\n        $patch: delete\n' : ''}${g.chance(0.3) ? '      - name: added\n        image: example.com/added:1\n' : ''}`;
      if (g.chance(0.5)) patches.push(`- patch: |-\n${body.replace(/^/gm, '    ').replace(/\s+$/, '')}\n`);
      else {
        const file = `smp-${b.app}.yaml`;
        writeFileSync(join(root, dir, file), body);
        if (g.chance(0.5)) patches.push(`- path: ${file}\n`);
        else psm.push(`- ${file}\n`);
      }
    }
    if (g.chance(0.4)) {
      const ops = `- op: replace
  path: /spec/template/spec/containers/0/image
  value: example.com/${b.app}:patched
- op: add
  path: /metadata/annotations
  value:
    patched-by: json6902
`;
      const target = `  target:\n    group: apps\n    version: v1\n    kind: ${kind}\n    name: ${g.chance(0.5) ? name : b.app.slice(0, 2) + '.*'}\n`;
      if (g.chance(0.5)) patches.push(`- patch: |-\n${ops.replace(/^/gm, '    ').replace(/\s+$/, '')}\n${target}`);
      else {
        const file = `ops-${b.app}.yaml`;
        writeFileSync(join(root, dir, file), ops);
        pj.push(`- path: ${file}\n${target}`);
      }
    }
    if (g.chance(0.3))
      patches.push(`- target:
    kind: Service
    name: ${b.app}
  patch: |-
    apiVersion: v1
    kind: Service
    metadata:
      name: ignored
      labels:
        patched: "true"
    spec:
      type: ${g.pick(['NodePort', 'ClusterIP'])}
`);
    if (g.chance(0.2))
      patches.push(`- target:
    labelSelector: app=${b.app}
  patch: |-
    - op: add
      path: /metadata/labels/selected
      value: "yes"
`);
    if (g.chance(0.15))
      patches.push(`- patch: |-
    apiVersion: v1
    kind: Service
    metadata:
      name: ${b.app}
    $patch: delete
`);
  }
  if (patches.length) out += 'patches:\n' + patches.join('');
  if (psm.length) out += 'patchesStrategicMerge:\n' + psm.join('');
  if (pj.length) out += 'patchesJson6902:\n' + pj.join('');
  return out;
}

function writeOverlay(g: Gen, root: string, dir: string, bases: readonly BaseInfo[], components: readonly string[], up = '../'): void {
  const p = join(root, dir);
  mkdirSync(p, { recursive: true });
  let k = g.chance(0.5) ? 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n' : '';
  k += 'resources:\n' + yamlList(bases.map((b) => up + b.dir));
  if (components.length) k += 'components:\n' + yamlList(components.map((c) => up + c));
  if (g.chance(0.6)) k += `namespace: ${g.pick(['prod', 'dev', 'staging'])}\n`;
  if (g.chance(0.6)) k += `namePrefix: ${g.pick(['prod-', 'dev-', 'x-'])}\n`;
  if (g.chance(0.4)) k += `nameSuffix: ${g.pick(['-v2', '-blue'])}\n`;
  if (g.chance(0.4)) {
    k += 'labels:\n';
    const n = g.int(1, 2);
    for (let i = 0; i < n; i++) {
      k += `- pairs:\n${pairs(g, '    ')}`;
      const roll = g.rnd();
      if (roll < 0.5) k += '  includeSelectors: true\n';
      else if (roll < 0.75) k += '  includeTemplates: true\n';
    }
  }
  if (g.chance(0.3)) k += `commonLabels:\n${pairs(g, '  ')}`;
  if (g.chance(0.4)) k += `commonAnnotations:\n  note: "${g.pick(['built', 'reviewed: yes', '42'])}"\n`;
  k += overlayPatches(g, root, dir, bases);
  if (g.chance(0.4)) k += `replicas:\n${yamlList(g.some(bases, 2).map((b) => `name: ${b.app}\n  count: ${g.int(0, 9)}`))}`;
  if (g.chance(0.4)) {
    const b = g.pick(bases);
    const choice = g.int(0, 2);
    k += `images:\n- name: example.com/${b.app}\n`;
    if (choice === 0) k += `  newTag: "${g.int(4, 9)}.1"\n`;
    if (choice === 1) k += `  newName: mirror.example.com/${b.app}\n  newTag: latest\n`;
    if (choice === 2) k += `  digest: sha256:${'ab12'.repeat(16)}\n`;
  }
  const gens: string[] = [];
  if (g.chance(0.4)) {
    const b = g.pick(bases);
    gens.push(`- name: ${b.cm}\n  behavior: ${g.pick(['merge', 'replace'])}\n  literals:\n  - level=${g.int(6, 9)}\n`);
  }
  if (g.chance(0.4)) {
    writeFileSync(join(p, 'extra.env'), `# settings\nA=${g.int(0, 99)}\nB=two words\n\nC=\n`);
    writeFileSync(join(p, 'note.txt'), `hello ${g.pick(words)}\nsecond line\n`);
    gens.push(
      `- name: overlay-settings\n  envs:\n  - extra.env\n  files:\n  - note.txt\n${g.chance(0.3) ? '  options:\n    disableNameSuffixHash: true\n' : ''}`,
    );
  }
  if (gens.length) k += 'configMapGenerator:\n' + gens.join('');
  if (g.chance(0.3))
    k += `secretGenerator:\n- name: creds\n  literals:\n  - password=${g.pick(['hunter2', 'p@ss&<w>'])}\n${g.chance(0.5) ? '  type: kubernetes.io/basic-auth\n' : ''}`;
  if (g.chance(0.2)) k += `generatorOptions:\n  labels:\n    generated: "true"\n${g.chance(0.3) ? '  disableNameSuffixHash: true\n' : ''}`;
  writeFileSync(join(p, 'kustomization.yaml'), k);
}

/** Writes case `seed` under `root`; returns the folders to build (the overlay, and a second-level overlay if any). */
export function writeRandomCase(root: string, seed: number): string[] {
  const g = new Gen(prng(seed));
  mkdirSync(root, { recursive: true });
  const apps = g.some(words, 2);
  const bases = apps.map((app, i) => writeBase(g, root, `base${i}`, app));
  const comps: string[] = [];
  if (g.chance(0.4)) {
    writeComponent(g, root, 'comp0', g.pick(bases));
    comps.push('comp0');
  }
  writeOverlay(g, root, 'overlay', bases, comps);
  const out = [join(root, 'overlay')];
  if (g.chance(0.25)) {
    const p = join(root, 'overlay2');
    mkdirSync(p, { recursive: true });
    writeFileSync(
      join(p, 'kustomization.yaml'),
      `resources:\n- ../overlay\n${g.chance(0.7) ? `namePrefix: top-\n` : ''}${g.chance(0.5) ? `namespace: final\n` : ''}${g.chance(0.5) ? `commonLabels:\n  layer: top\n` : ''}`,
    );
    out.push(p);
  }
  // Bases are built inside every overlay; one case in four also builds them on their own.
  if (seed % 4 === 0) for (const b of bases) out.push(join(root, b.dir));
  return out;
}
