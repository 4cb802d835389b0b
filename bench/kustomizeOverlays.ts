// Kustomize at a small scale: a workspace of 20 bases and 60 overlays (dev, staging, prod over each base: namespace,
// namePrefix, labels, a strategic-merge patch, a JSON 6902 patch, a configMapGenerator), generated here. In one run:
// the time real Kustomize (`kubectl kustomize`, or `kustomize build`) takes to build the 60 roots one after another,
// the language server's cold analysis of the workspace (start to every file's diagnostics), and edit→diagnostics
// latency for edits in a base that its 3 overlays include (the pod label its Services select: findings move in and
// out of all three builds). `--platform`: the real-shaped variant, where every overlay also includes a base of four
// large CRDs (about 190 KB each) and a Component that adds an object and patches every Deployment.
// Usage: node --import tsx bench/kustomizeOverlays.ts [--bases N] [--edits N] [--json FILE] [--cpu-prof DIR] [--platform]
// (needs `npm run build`; --cpu-prof writes the language server's V8 CPU profile into DIR)

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { findKubectl } from '../test/helpers/kubectlKustomize';
import { startSession, type PublishParams, type Received, type StatusParams } from './lspSession';

const root = join(__dirname, '..');
const serverJs = join(root, 'dist', 'server.js');
const overlays = ['dev', 'staging', 'prod'] as const;

export interface KustomizeFigures {
  /** `platform`: every overlay also includes a base of large CRDs and a Component (real-shaped). */
  readonly shape: 'plain' | 'platform';
  /** What real Kustomize printed for all the builds, and the language server's peak RSS over the run. */
  readonly renderedMb: number;
  readonly peakRssMb: number;
  readonly bases: number;
  readonly overlays: number;
  readonly tool: string;
  /** Real Kustomize, every overlay built once, one after another. */
  readonly kustomizeMs: number;
  /** The language server: initialize → every file's diagnostics published. */
  readonly coldAnalysisMs: number;
  readonly coldOverKustomize: number;
  readonly edits: number;
  readonly editP50Ms: number;
  readonly editP95Ms: number;
  readonly editMaxMs: number;
  /**
   * The server's CPU time (all threads, the garbage collector's included) per edit, averaged over the edits: what an
   * edit costs whatever else the machine runs (wall-clock latency on a loaded machine waits for a core as well).
   */
  readonly editCpuMs: number;
  /** Files with findings after the cold analysis, and findings. */
  readonly filesWithDiagnostics: number;
  readonly loadAverage: number;
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function lines(...l: string[]): string {
  return l.join('\n') + '\n';
}

/** CRDs of the platform shape: this many, each a schema of about `crdProperties` described properties. */
const platformCrds = 4;
const crdProperties = 300;

/**
 * One CustomResourceDefinition of realistic size (about 250 KB): a schema of nested properties, each described as
 * controller-gen writes it, half as `|-` blocks and half as double-quoted strings with escapes.
 */
function crd(i: number): string {
  const group = 'platform.example.com';
  const kind = `Widget${i}`;
  const out = [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    'metadata:',
    `  name: widget${i}s.${group}`,
    'spec:',
    `  group: ${group}`,
    '  names:',
    `    kind: ${kind}`,
    `    plural: widget${i}s`,
    '  scope: Namespaced',
    '  versions:',
    '    - name: v1',
    '      served: true',
    '      storage: true',
    '      schema:',
    '        openAPIV3Schema:',
    '          type: object',
    '          properties:',
    '            spec:',
    '              type: object',
    '              properties:',
  ];
  for (let p = 0; p < crdProperties; p++) {
    const ind = ' '.repeat(16);
    const text = `Field ${p} of ${kind} sets how the controller reconciles part ${p % 17} of the object. It is defaulted by the API server when omitted, and changing it restarts the pods it selects.`;
    out.push(`${ind}field${p}:`);
    if (p % 2)
      out.push(`${ind}  description: |-`, `${ind}    ${text}`, `${ind}    More info: https://platform.example.com/docs/${kind.toLowerCase()}#field${p}`);
    else
      out.push(
        `${ind}  description: ${JSON.stringify(`${text}
More info: https://platform.example.com/docs/${kind.toLowerCase()}#field${p}
	"quoted"`)}`,
      );
    out.push(
      `${ind}  type: object`,
      `${ind}  properties:`,
      `${ind}    enabled:`,
      `${ind}      type: boolean`,
      `${ind}      description: Whether field ${p} applies.`,
      `${ind}    mode:`,
      `${ind}      type: string`,
      `${ind}      enum: [Always, IfNotPresent, Never]`,
    );
  }
  return lines(...out);
}

/**
 * The platform every overlay of the platform shape includes: a base of large CRDs, and a Component that adds a
 * Widget and patches every Deployment (long base → component → overlay chains, dozens of roots sharing them).
 */
function platform(dir: string): void {
  const crds = join(dir, 'platform', 'crds');
  write(join(crds, 'kustomization.yaml'), lines('resources:', ...Array.from({ length: platformCrds }, (_, i) => `  - widget${i}.yaml`)));
  for (let i = 0; i < platformCrds; i++) write(join(crds, `widget${i}.yaml`), crd(i));
  const comp = join(dir, 'platform', 'components', 'observability');
  write(
    join(comp, 'kustomization.yaml'),
    lines(
      'apiVersion: kustomize.config.k8s.io/v1alpha1',
      'kind: Component',
      'resources:',
      '  - widget.yaml',
      'patches:',
      '  - target: { kind: Deployment }',
      '    patch: |-',
      '      - op: add',
      '        path: /metadata/annotations',
      '        value: { observability.example.com/scrape: "true" }',
    ),
  );
  write(
    join(comp, 'widget.yaml'),
    lines('apiVersion: platform.example.com/v1', 'kind: Widget0', 'metadata:', '  name: observability', 'spec:', '  field0:', '    enabled: true'),
  );
}

/** One base (a Deployment, its Service, a headless Service, a ConfigMap) and its three overlays. */
function app(dir: string, i: number, withPlatform = false): void {
  const name = `app${String(i).padStart(2, '0')}`;
  const b = join(dir, name, 'base');
  write(
    join(b, 'kustomization.yaml'),
    lines('resources:', '  - deployment.yaml', '  - service.yaml', 'labels:', `  - pairs: { app.kubernetes.io/part-of: ${name} }`),
  );
  write(
    join(b, 'deployment.yaml'),
    lines(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      `  name: ${name}`,
      'spec:',
      '  replicas: 2',
      '  selector:',
      '    matchLabels:',
      `      app: ${name}`,
      '  template:',
      '    metadata:',
      '      labels:',
      `        app: ${name}`,
      '    spec:',
      '      containers:',
      '        - name: app',
      '          image: registry.example/app:1',
      '          ports:',
      '            - name: http',
      '              containerPort: 8080',
      '          env:',
      '            - name: PEER',
      `              value: http://${name}-peers:8080`,
      '          envFrom:',
      '            - configMapRef:',
      '                name: settings',
    ),
  );
  write(
    join(b, 'service.yaml'),
    lines(
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      `  name: ${name}`,
      'spec:',
      '  selector:',
      `    app: ${name}`,
      '  ports:',
      '    - port: 80',
      '      targetPort: http',
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      `  name: ${name}-peers`,
      'spec:',
      '  clusterIP: None',
      '  selector:',
      `    app: ${name}`,
      '  ports:',
      '    - port: 8080',
    ),
  );
  for (const o of overlays) {
    const d = join(dir, name, 'overlays', o);
    write(
      join(d, 'kustomization.yaml'),
      lines(
        `namespace: ${name}-${o}`,
        `namePrefix: ${o}-`,
        'resources:',
        '  - ../../base',
        ...(withPlatform ? ['  - ../../../platform/crds', 'components:', '  - ../../../platform/components/observability'] : []),
        'labels:',
        `  - pairs: { env: ${o} }`,
        'patches:',
        '  - path: replicas.yaml',
        '  - target: { kind: Service, name: ' + name + ' }',
        '    patch: |-',
        '      - op: replace',
        '        path: /spec/ports/0/port',
        `        value: ${o === 'prod' ? 443 : 80}`,
        'configMapGenerator:',
        '  - name: settings',
        '    literals:',
        `      - LEVEL=${o}`,
        `      - UPSTREAM=http://${name}.${name}-${o}.svc.cluster.local`,
      ),
    );
    write(
      join(d, 'replicas.yaml'),
      lines('apiVersion: apps/v1', 'kind: Deployment', 'metadata:', `  name: ${name}`, 'spec:', `  replicas: ${o === 'prod' ? 6 : 1}`),
    );
  }
}

export function findKustomize(): { cmd: string; args: (dir: string) => string[]; name: string } {
  if (spawnSync('kustomize', ['version'], { encoding: 'utf8' }).status === 0) return { cmd: 'kustomize', args: (d) => ['build', d], name: 'kustomize build' };
  // kubectl on PATH when it bundles Kustomize v5, else the one scripts/setup-kubectl.mjs unpacked (as the tests do)
  const k = findKubectl();
  if (k.path) return { cmd: k.path, args: (d) => ['kustomize', d], name: `kubectl kustomize (${k.kustomizeVersion})` };
  throw new Error(`neither kustomize nor a kubectl with Kustomize v5 is there: ${k.why}`);
}

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

export async function measureKustomize(bases = 20, edits = 60, cpuProfileDir?: string, withPlatform = false): Promise<KustomizeFigures> {
  if (!existsSync(serverJs)) throw new Error(`${serverJs} is missing: run npm run build`);
  const work = join(root, 'bench', 'work', `kustomize-${bases}${withPlatform ? '-platform' : ''}`);
  rmSync(work, { recursive: true, force: true });
  if (withPlatform) platform(work);
  for (let i = 1; i <= bases; i++) app(work, i, withPlatform);

  const k = findKustomize();
  let kustomizeMs = 0;
  let renderedBytes = 0;
  for (let i = 1; i <= bases; i++)
    for (const o of overlays) {
      const dir = join(work, `app${String(i).padStart(2, '0')}`, 'overlays', o);
      const started = performance.now();
      const r = spawnSync(k.cmd, k.args(dir), { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      kustomizeMs += performance.now() - started;
      if (r.status !== 0) throw new Error(r.stderr);
      renderedBytes += Buffer.byteLength(r.stdout);
    }

  const s = startSession(serverJs, { cpuProfileDir });
  try {
    await s.quiet(200);
    const from = s.received.length;
    const t0 = performance.now();
    await s.initialize(work);
    const indexed = await s.waitFor((m) => m.method === 'kubeNetlens/status' && !(m.params as StatusParams).indexing, from, 120_000);
    const coldAnalysisMs = indexed.at - t0;
    const latest = new Map<string, number>();
    for (const m of s.received.slice(from))
      if (m.method === 'textDocument/publishDiagnostics') latest.set((m.params as PublishParams).uri, (m.params as PublishParams).diagnostics.length);
    const filesWithDiagnostics = [...latest.values()].filter((n) => n > 0).length;

    // The edit: the pod label of app01's base Deployment, which both Services of its three overlays select.
    const file = join(work, 'app01', 'base', 'deployment.yaml');
    const uri = pathToFileURL(file).href;
    let text = readFileSync(file, 'utf8');
    let version = 1;
    const opened = s.received.length;
    await s.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version, text } });
    await s.waitFor((m) => m.method === 'kubeNetlens/analysisChanged', opened, 30_000).catch(() => undefined);
    await s.quiet(50);
    const [a, b] = ['        app: app01\n', '        app: app01-canary\n'];
    const times: number[] = [];
    const cpuBefore = s.cpuMs();
    for (let i = 0; i < edits; i++) {
      const [x, y] = i % 2 === 0 ? [a, b] : [b, a];
      if (text.split(x).length !== 2) throw new Error(`edit ${i}: "${x.trim()}" is not in ${file} exactly once`);
      text = text.replace(x, y);
      version++;
      const start = s.received.length;
      const t = performance.now();
      await s.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
      const end = await s.waitFor((r) => r.method === 'kubeNetlens/analysisChanged', start, 30_000);
      await s.quiet(30);
      const publishes = s.received.slice(start).filter((r: Received) => r.method === 'textDocument/publishDiagnostics');
      if (!publishes.length) throw new Error(`edit ${i} changed no diagnostics: the overlays' findings did not follow the base`);
      times.push((publishes.length ? publishes[publishes.length - 1].at : end.at) - t);
    }
    const editCpuMs = (s.cpuMs() - cpuBefore) / times.length;
    return {
      shape: withPlatform ? 'platform' : 'plain',
      renderedMb: renderedBytes / 2 ** 20,
      peakRssMb: s.peakRssMb(),
      bases,
      overlays: bases * overlays.length,
      tool: k.name,
      kustomizeMs,
      coldAnalysisMs,
      coldOverKustomize: coldAnalysisMs / kustomizeMs,
      edits: times.length,
      editP50Ms: percentile(times, 50),
      editP95Ms: percentile(times, 95),
      editMaxMs: Math.max(...times),
      editCpuMs,
      filesWithDiagnostics,
      loadAverage: Math.round(loadavg()[0] * 100) / 100,
    };
  } finally {
    await s.close();
  }
}

/** The figures as table rows, with the targets (cold ≤ 0.2× Kustomize's render time, edit p95 ≤ 50 ms, 100 ms for the platform shape). */
export function formatKustomize(f: KustomizeFigures): string {
  const ms = (n: number) => `${Math.round(n)} ms`;
  // issue 27 asks 100 ms of the real-shaped workspace, 50 ms of the plain one
  const editTarget = f.shape === 'platform' ? 100 : 50;
  return [
    `Kustomize${f.shape === 'platform' ? ' (platform shape: every overlay includes a base of large CRDs and a Component)' : ''}: ${f.bases} bases, ${f.overlays} overlays; ${f.tool}; load average ${f.loadAverage}`,
    '| what | figure | target |',
    '|---|---|---|',
    `| real Kustomize, ${f.overlays} builds one after another | ${ms(f.kustomizeMs)} | |`,
    `| cold analysis in the language server (all ${f.overlays} builds, every finding published) | ${ms(f.coldAnalysisMs)} (${f.coldOverKustomize.toFixed(2)}× Kustomize) | ≤ 0.2× ${f.coldOverKustomize <= 0.2 ? 'met' : 'NOT met'} |`,
    `| edit in a base 3 overlays include → diagnostics, p50 / p95 / max (${f.edits} edits) | ${ms(f.editP50Ms)} / ${ms(f.editP95Ms)} / ${ms(f.editMaxMs)} | p95 ≤ ${editTarget} ms ${f.editP95Ms <= editTarget ? 'met' : 'NOT met'} |`,
    `| the language server's peak RSS, next to the rendered YAML of all builds | ${Math.round(f.peakRssMb)} MB (${f.renderedMb.toFixed(1)} MB rendered) | |`,
    `| the language server's CPU time per edit (all threads, the garbage collector's included; mean over the edits) | ${f.editCpuMs.toFixed(1)} ms | |`,
  ].join('\n');
}

if (require.main === module) {
  const arg = (flag: string) => {
    const i = process.argv.indexOf(flag);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  measureKustomize(Number(arg('--bases') ?? 20), Number(arg('--edits') ?? 60), arg('--cpu-prof'), process.argv.includes('--platform'))
    .then((f) => {
      console.log(formatKustomize(f));
      const out = arg('--json');
      if (out) writeFileSync(out, JSON.stringify(f, null, 2) + '\n');
    })
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exitCode = 1;
    });
}
