// Helm charts at a small scale: a workspace of 20 charts (each rendered with values.yaml and two ci/*-values.yaml,
// 60 renders), the time `kube-netlens check` takes cold, next to the time helm itself takes for the same renders
// (one after another, and as many at a time as check runs them), and the check without helm (templates skipped) as
// the analysis floor. One run each. `npm run bench` runs it too (bench/run.ts, `--helm-charts`).
// Usage: node --import tsx bench/helmCharts.ts [--charts N] [--lsp]   (needs `npm run build` and `node scripts/setup-helm.mjs`);
// --lsp adds the hovers of the language server while it renders the same charts.

import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { StatusParams } from '../server/src/protocol';
import { startSession, type Received } from './lspSession';

const root = join(__dirname, '..');
const helm = join(root, '.tools', 'helm', 'helm');
const cli = join(root, 'dist', 'cli.js');

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** One chart: a Deployment and two Services whose names and selectors come from values; ci/ sets change them. */
function chart(dir: string, i: number): void {
  const name = `app${String(i).padStart(2, '0')}`;
  write(join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: 1.0.${i}\n`);
  write(join(dir, 'values.yaml'), `replicas: 2\nport: 8080\ncomponent: web\ncache:\n  replicas: 1\n`);
  subchart(join(dir, 'charts', 'cache'));
  write(join(dir, 'ci', 'small-values.yaml'), `replicas: 1\n`);
  // every fourth chart's prod values misspell the selector: a finding in that value set only
  write(join(dir, 'ci', 'prod-values.yaml'), `replicas: 6\n${i % 4 === 0 ? 'component: wbe\n' : ''}`);
  write(
    join(dir, 'templates', '_helpers.tpl'),
    `{{- define "labels" -}}\napp.kubernetes.io/name: {{ .Chart.Name }}\napp.kubernetes.io/instance: {{ .Release.Name }}\n{{- end }}\n`,
  );
  write(
    join(dir, 'templates', 'deployment.yaml'),
    [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: {{ .Release.Name }}',
      '  labels:',
      '    {{- include "labels" . | nindent 4 }}',
      'spec:',
      '  replicas: {{ .Values.replicas }}',
      '  selector:',
      '    matchLabels:',
      '      component: web',
      '  template:',
      '    metadata:',
      '      labels:',
      '        component: web',
      '        {{- include "labels" . | nindent 8 }}',
      '    spec:',
      '      containers:',
      '        - name: app',
      '          image: registry.example/app:1',
      '          ports:',
      '            - name: http',
      '              containerPort: {{ .Values.port }}',
      '',
    ].join('\n'),
  );
  write(
    join(dir, 'templates', 'service.yaml'),
    [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: {{ .Release.Name }}',
      'spec:',
      '  selector:',
      '    component: {{ .Values.component }}',
      '  ports:',
      '    - port: 80',
      '      targetPort: http',
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: {{ .Release.Name }}-headless',
      'spec:',
      '  clusterIP: None',
      '  selector:',
      '    component: web',
      '  ports:',
      '    - port: {{ .Values.port }}',
      '',
    ].join('\n'),
  );
}

/** The subchart every chart vendors in charts/ (as a chart with a dependency does): a cache with its Service. */
function subchart(dir: string): void {
  write(join(dir, 'Chart.yaml'), `apiVersion: v2\nname: cache\nversion: 0.1.0\n`);
  write(join(dir, 'values.yaml'), `replicas: 1\nport: 6379\n`);
  write(
    join(dir, 'templates', 'cache.yaml'),
    [
      'apiVersion: apps/v1',
      'kind: StatefulSet',
      'metadata:',
      '  name: {{ .Release.Name }}-cache',
      'spec:',
      '  serviceName: {{ .Release.Name }}-cache',
      '  replicas: {{ .Values.replicas }}',
      '  selector:',
      '    matchLabels:',
      '      app.kubernetes.io/name: {{ .Release.Name }}-cache',
      '  template:',
      '    metadata:',
      '      labels:',
      '        app.kubernetes.io/name: {{ .Release.Name }}-cache',
      '    spec:',
      '      containers:',
      '        - name: cache',
      '          image: registry.example/cache:7',
      '          ports:',
      '            - name: redis',
      '              containerPort: {{ .Values.port }}',
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: {{ .Release.Name }}-cache',
      'spec:',
      '  clusterIP: None',
      '  selector:',
      '    app.kubernetes.io/name: {{ .Release.Name }}-cache',
      '  ports:',
      '    - name: redis',
      '      port: {{ .Values.port }}',
      '      targetPort: redis',
      '',
    ].join('\n'),
  );
}

export interface HelmBenchResult {
  readonly helmVersion: string;
  readonly charts: number;
  readonly renders: number;
  /** Renders at a time in `kube-netlens check` (cli/helmCharts.ts). */
  readonly parallel: number;
  readonly helmSequentialMs: number;
  readonly helmParallelMs: number;
  readonly checkMs: number;
  readonly checkSummary: string;
  readonly checkWithoutHelmMs: number;
  readonly checkWithoutHelmSummary: string;
  /** check over helm's output written as plain manifests (a folder per render): the analysis of the same objects. */
  readonly checkRenderedMs: number;
  readonly checkRenderedSummary: string;
  /** Hovers on a plain manifest sent while the language server renders the charts (`--lsp`); undefined: not measured. */
  readonly hoversWhileRendering?: HoverWhileRendering;
  readonly load: number;
}

export interface HoverWhileRendering {
  readonly hovers: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
  /** From the first status that shows chart renders under way to the one that shows none left. */
  readonly renderingMs: number;
  readonly chartsRendered: number;
}

/** The renders of the workspace: each chart with values.yaml, then with each ci/ values file. */
function rendersOf(work: string, count: number): string[][] {
  const out: string[][] = [];
  for (let i = 1; i <= count; i++) {
    const dir = join(work, `chart${i}`);
    for (const values of [[], ['-f', join(dir, 'ci', 'small-values.yaml')], ['-f', join(dir, 'ci', 'prod-values.yaml')]])
      out.push(['template', `app${i}`, dir, ...values]);
  }
  return out;
}

/** Runs the renders `parallel` at a time: the wall time, and each render's output. */
async function timeRenders(renders: readonly string[][], parallel: number): Promise<{ ms: number; outputs: string[] }> {
  const started = process.hrtime.bigint();
  const outputs: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < renders.length) {
      const i = next++;
      outputs[i] = await new Promise<string>((done, fail) =>
        execFile(helm, renders[i], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 }, (err, out, stderr) =>
          err ? fail(new Error(stderr || err.message)) : done(out),
        ),
      );
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, outputs };
}

/**
 * The language server on the charts' workspace (trusted, helm configured) and a plain manifest beside them: from the
 * end of the cold index, a hover on the manifest's Service every few milliseconds, one at a time, for as long as the
 * status says chart renders are under way. What an editor feels while a hundred charts render.
 */
export async function hoversWhileRendering(work: string, count: number, cpuProfileDir?: string): Promise<HoverWhileRendering> {
  const plain = join(work, 'plain', 'web.yaml');
  write(
    plain,
    'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n    - port: 80\n      targetPort: http\n---\n' +
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n' +
      '    spec:\n      containers:\n        - name: web\n          image: nginx\n          ports:\n            - name: http\n              containerPort: 8080\n',
  );
  const s = startSession(join(root, 'dist', 'server.js'), { trusted: true, settings: { helm: { path: helm } }, ...(cpuProfileDir && { cpuProfileDir }) });
  try {
    const uri = pathToFileURL(plain).href;
    const rendering = (m: Received) => m.method === 'kubeNetlens/status' && (m.params as StatusParams).progress?.charts !== undefined;
    const settled = (m: Received) => {
      if (m.method !== 'kubeNetlens/status') return false;
      const p = m.params as StatusParams;
      return !p.indexing && p.progress?.charts === undefined && (p.chartsRendered ?? 0) >= count;
    };
    const from = s.received.length;
    await s.initialize(work);
    await s.waitFor((m) => m.method === 'kubeNetlens/status' && !(m.params as StatusParams).indexing, from, 10 * 60_000);
    const began = await s.waitFor(rendering, from, 60_000);
    // the renders' end is a status after their start (before it, every chart counts as not rendered yet)
    const after = s.received.indexOf(began);
    const times: number[] = [];
    for (;;) {
      const at = s.received.length;
      const t0 = performance.now();
      const h = await s.connection.sendRequest<{ contents: { value: string } } | null>('textDocument/hover', {
        textDocument: { uri },
        position: { line: 3, character: 9 },
      });
      const ms = performance.now() - t0;
      if (!h || !h.contents.value.includes('web')) throw new Error('the hover on the plain Service returned nothing about it');
      const done = s.received.slice(after).some(settled);
      // a hover answered after the renders ended is not a hover during them
      if (!done || s.received.slice(at).every((m) => !settled(m))) times.push(ms);
      if (done) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const end = s.received.slice(after).find(settled)!;
    const sorted = [...times].sort((a, b) => a - b);
    const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
    return {
      hovers: times.length,
      p50Ms: q(0.5),
      p95Ms: q(0.95),
      maxMs: sorted[sorted.length - 1] ?? NaN,
      renderingMs: end.at - began.at,
      chartsRendered: (end.params as StatusParams).chartsRendered ?? 0,
    };
  } finally {
    await s.close();
  }
}

export async function measureHelmCharts(count = 20, lsp = false): Promise<HelmBenchResult> {
  if (!existsSync(helm)) throw new Error(`${helm} is missing: run node scripts/setup-helm.mjs`);
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build`);
  const work = join(root, 'bench', 'work', `helm-${count}`);
  rmSync(work, { recursive: true, force: true });
  for (let i = 1; i <= count; i++) chart(join(work, `chart${i}`), i);
  const helmVersion = spawnSync(helm, ['version', '--short'], { encoding: 'utf8' }).stdout.trim();
  const renders = rendersOf(work, count);
  // as cli/helmCharts.ts runs them
  const parallel = Math.min(4, availableParallelism());
  const sequential = await timeRenders(renders, 1);
  const helmParallelMs = (await timeRenders(renders, parallel)).ms;
  const plain = join(root, 'bench', 'work', `helm-${count}-rendered`);
  rmSync(plain, { recursive: true, force: true });
  sequential.outputs.forEach((text, i) => write(join(plain, `render${i + 1}`, 'objects.yaml'), text));
  const timed = (args: string[], env: NodeJS.ProcessEnv) => {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env });
    if (r.status !== 0) throw new Error(`kube-netlens ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, summary: r.stdout.trim().split('\n').pop() ?? '' };
  };
  const withHelm = timed(['check', '--helm', helm, work], process.env);
  const without = timed(['check', work], { ...process.env, PATH: dirname(process.execPath) });
  const rendered = timed(['check', plain], { ...process.env, PATH: dirname(process.execPath) });
  const hovers = lsp ? await hoversWhileRendering(work, count) : undefined;
  return {
    helmVersion,
    charts: count,
    renders: renders.length,
    parallel,
    helmSequentialMs: sequential.ms,
    helmParallelMs,
    checkMs: withHelm.ms,
    checkSummary: withHelm.summary,
    checkWithoutHelmMs: without.ms,
    checkWithoutHelmSummary: without.summary,
    checkRenderedMs: rendered.ms,
    checkRenderedSummary: rendered.summary,
    ...(hovers && { hoversWhileRendering: hovers }),
    load: Math.round(loadavg()[0] * 100) / 100,
  };
}

/** The figures as a Markdown table. */
export function formatHelmBench(r: HelmBenchResult): string {
  const f = (ms: number) => `${Math.round(ms)} ms`;
  return [
    `Helm charts (helm ${r.helmVersion}): ${r.charts} charts, ${r.renders} renders; load average ${r.load.toFixed(2)}; one run each.`,
    '',
    '| what | time | result |',
    '|---|---|---|',
    `| helm template alone, ${r.renders} renders one after another | ${f(r.helmSequentialMs)} | |`,
    `| helm template alone, ${r.parallel} at a time (as check runs them) | ${f(r.helmParallelMs)} | |`,
    `| kube-netlens check, charts rendered (cold, helm included) | ${f(r.checkMs)} | ${r.checkSummary} |`,
    `| kube-netlens check without helm (templates skipped) | ${f(r.checkWithoutHelmMs)} | ${r.checkWithoutHelmSummary} |`,
    `| kube-netlens check of helm's output as plain manifests (a folder per render): the analysis alone | ${f(r.checkRenderedMs)} | ${r.checkRenderedSummary} |`,
    `| check over helm template (${r.parallel} at a time) | ${(r.checkMs / r.helmParallelMs).toFixed(2)}× | target ≤ 1.2× |`,
    ...(r.hoversWhileRendering
      ? [
          `| language server: hover p50 / p95 / max while the charts render (${r.hoversWhileRendering.hovers} hovers over ${f(r.hoversWhileRendering.renderingMs)}, ${r.hoversWhileRendering.chartsRendered} charts rendered) | ${r.hoversWhileRendering.p50Ms.toFixed(1)} / ${r.hoversWhileRendering.p95Ms.toFixed(1)} / ${r.hoversWhileRendering.maxMs.toFixed(1)} ms | target p95 ≤ 20 ms |`,
        ]
      : []),
    '',
  ].join('\n');
}

if (require.main === module) {
  const arg = process.argv.indexOf('--charts');
  measureHelmCharts(arg > 0 ? Number(process.argv[arg + 1]) : 20, process.argv.includes('--lsp')).then(
    (r) => console.log(formatHelmBench(r)),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exitCode = 1;
    },
  );
}
